package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"sync"
)

// operationsFile names every operation of the document: "METHOD /path" →
// operationId, summary and, for the main requests, an example body; and
// for operations only people may call, their one security scheme. It is
// one file, apart from the path files, so that engineers adding routes in
// parallel touch one line each here and ids are checked for uniqueness in
// one place.
const operationsFile = "openapi/operations.json"

// machineCallerPrefix is where Basic-auth machine callers are accepted
// (auth.basicCaller.pathAllows); operations under it list that scheme
// besides the default ones unless their path file says otherwise.
const machineCallerPrefix = "/api/external/v1/internal/invite/"

var (
	operationIDsOnce sync.Once
	operationIDsMap  map[string]string
)

// operationIDs maps "METHOD /path" (a route pattern) to its operationId.
func operationIDs() map[string]string {
	operationIDsOnce.Do(func() {
		operationIDsMap = map[string]string{}
		var f struct {
			Operations map[string]operationName `json:"operations"`
		}
		if raw, err := openapiFiles.ReadFile(operationsFile); err == nil && json.Unmarshal(raw, &f) == nil {
			for k, v := range f.Operations {
				operationIDsMap[k] = v.OperationID
			}
		}
	})
	return operationIDsMap
}

type operationName struct {
	OperationID string          `json:"operationId"`
	Summary     string          `json:"summary"`
	Example     json.RawMessage `json:"example,omitempty"`
	// Security, when set, names the only schemes the operation accepts
	// (e.g. ["bearer"] where only a signed-in person may call it).
	Security []string `json:"security,omitempty"`
}

// nameOperations sets each operation's operationId and summary from
// operationsFile (the path file's own summary, often longer, becomes the
// description when there is none), adds the request example, and the
// machine callers' security scheme under machineCallerPrefix. It fails
// when an operation has no name, two share an id, or a name is for an
// operation the path files do not have, listing every such problem.
func nameOperations(files fs.FS, paths map[string]map[string]json.RawMessage) error {
	raw, err := fs.ReadFile(files, operationsFile)
	if err != nil {
		return err
	}
	var f struct {
		Description string                   `json:"description"`
		Operations  map[string]operationName `json:"operations"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return fmt.Errorf("%s: %w", operationsFile, err)
	}
	var problems []error
	seen := map[string]string{} // operationId → "METHOD /path"
	documented := map[string]bool{}
	for _, path := range slices.Sorted(maps.Keys(paths)) {
		for _, method := range slices.Sorted(maps.Keys(paths[path])) {
			key := strings.ToUpper(method) + " " + path
			documented[key] = true
			name, ok := f.Operations[key]
			if !ok || name.OperationID == "" || name.Summary == "" {
				problems = append(problems, fmt.Errorf("%s has no operationId and summary in %s", key, operationsFile))
				continue
			}
			if other, dup := seen[name.OperationID]; dup {
				problems = append(problems, fmt.Errorf("operationId %q is used by both %s and %s", name.OperationID, other, key))
			}
			seen[name.OperationID] = key
			op, err := applyName(paths[path][method], path, name)
			if err != nil {
				problems = append(problems, fmt.Errorf("%s: %w", key, err))
				continue
			}
			paths[path][method] = op
		}
	}
	for _, key := range slices.Sorted(maps.Keys(f.Operations)) {
		if !documented[key] {
			problems = append(problems, fmt.Errorf("%s names %s, which no path file documents", operationsFile, key))
		}
	}
	return errors.Join(problems...)
}

func applyName(raw json.RawMessage, path string, name operationName) (json.RawMessage, error) {
	var op map[string]any
	if err := json.Unmarshal(raw, &op); err != nil {
		return nil, err
	}
	if _, has := op["operationId"]; has {
		return nil, fmt.Errorf("the path file sets an operationId; keep it in %s", operationsFile)
	}
	if old, _ := op["summary"].(string); old != "" && old != name.Summary && op["description"] == nil {
		op["description"] = old
	}
	op["operationId"] = name.OperationID
	op["summary"] = name.Summary
	if len(name.Security) > 0 {
		alternatives := make([]map[string][]string, 0, len(name.Security))
		for _, scheme := range name.Security {
			alternatives = append(alternatives, map[string][]string{scheme: {}})
		}
		op["security"] = alternatives
	} else if _, has := op["security"]; !has && strings.HasPrefix(path, machineCallerPrefix) {
		op["security"] = []map[string][]string{{"machineBasic": {}}, {"apiToken": {}}, {"bearer": {}}}
	}
	if len(name.Example) > 0 {
		body, _ := op["requestBody"].(map[string]any)
		content, _ := body["content"].(map[string]any)
		media, _ := content["application/json"].(map[string]any)
		if media == nil {
			return nil, fmt.Errorf("an example is given but the operation has no JSON request body")
		}
		var example any
		if err := json.Unmarshal(name.Example, &example); err != nil {
			return nil, err
		}
		media["example"] = example
	}
	return json.Marshal(op)
}

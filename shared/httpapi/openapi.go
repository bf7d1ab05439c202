package httpapi

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
)

// The OpenAPI document is kept in one file per resource group
// (openapi/<group>.json, each with "paths" and optional
// "components.schemas") merged onto openapi/base.json, so that a change to
// one group touches one file. The operationId and summary of every
// operation live in openapi/operations.json (see operations.go), so that
// names stay unique and readable in one place. TestOpenAPIDocumentsEveryRoute
// checks the document against the routes really served.
//
//go:embed openapi/*.json
var openapiFiles embed.FS

var (
	openapiOnce sync.Once
	openapiDoc  []byte
	openapiErr  error
)

// OpenAPI returns the merged OpenAPI 3 document.
func OpenAPI() ([]byte, error) {
	openapiOnce.Do(func() { openapiDoc, openapiErr = mergeOpenAPI(openapiFiles) })
	return openapiDoc, openapiErr
}

type openapiFragment struct {
	Paths      map[string]map[string]json.RawMessage `json:"paths"`
	Components struct {
		Schemas map[string]json.RawMessage `json:"schemas"`
	} `json:"components"`
}

// externalTwinsFile documents the /api/external/v1 twins of /api/v1
// operations; they are listed under a tag of their own, so that the page
// shows each operation once in its group and the twins apart.
const (
	externalTwinsFile = "openapi/external_twins.json"
	externalTwinsTag  = "external-v1"
)

// retag gives an operation the one tag.
func retag(op json.RawMessage, tag string) (json.RawMessage, error) {
	var m map[string]any
	if err := json.Unmarshal(op, &m); err != nil {
		return nil, err
	}
	m["tags"] = []string{tag}
	return json.Marshal(m)
}

func mergeOpenAPI(files fs.FS) ([]byte, error) {
	raw, err := fs.ReadFile(files, "openapi/base.json")
	if err != nil {
		return nil, err
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("openapi/base.json: %w", err)
	}
	paths := map[string]map[string]json.RawMessage{}
	components, _ := doc["components"].(map[string]any)
	schemas, _ := components["schemas"].(map[string]any)
	names, err := fs.Glob(files, "openapi/*.json")
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		if name == "openapi/base.json" || name == operationsFile {
			continue
		}
		b, err := fs.ReadFile(files, name)
		if err != nil {
			return nil, err
		}
		var f openapiFragment
		if err := json.Unmarshal(b, &f); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		for path, ops := range f.Paths {
			if paths[path] == nil {
				paths[path] = map[string]json.RawMessage{}
			}
			for method, op := range ops {
				if name == externalTwinsFile {
					if op, err = retag(op, externalTwinsTag); err != nil {
						return nil, fmt.Errorf("%s: %s %s: %w", name, method, path, err)
					}
				}
				if _, dup := paths[path][method]; dup {
					return nil, fmt.Errorf("%s: %s %s is documented twice", name, method, path)
				}
				paths[path][method] = op
			}
		}
		for k, v := range f.Components.Schemas {
			if _, dup := schemas[k]; dup {
				return nil, fmt.Errorf("%s: schema %s is defined twice", name, k)
			}
			schemas[k] = v
		}
	}
	if err := nameOperations(files, paths); err != nil {
		return nil, err
	}
	doc["paths"] = paths
	return json.MarshalIndent(doc, "", " ")
}

// documentedRoutes lists the document's operations as "METHOD /path".
func documentedRoutes(doc []byte) ([]string, error) {
	var d struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, err
	}
	var out []string
	for _, path := range slices.Sorted(maps.Keys(d.Paths)) {
		for method := range d.Paths[path] {
			if method == "parameters" || method == "summary" || method == "description" {
				continue
			}
			out = append(out, strings.ToUpper(method)+" "+path)
		}
	}
	slices.Sort(out)
	return out, nil
}

func serveOpenAPI(w http.ResponseWriter, r *http.Request) {
	doc, err := OpenAPI()
	if err != nil {
		writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "public, max-age=300")
	_, _ = w.Write(doc)
}

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
)

// maxApplicationsConfigBytes keeps APPLICATIONS_CONFIG inside Lambda's 4 KB
// limit for all environment variables of a function together; the rest is
// left for the other variables, whose values are partly unknown at synth.
const maxApplicationsConfigBytes = 3072

// secretKeys are the keys of the document whose values must be secret
// references, because the document ends up in the template and in the
// Lambda console in plain text.
var secretKeys = map[string]bool{"password": true, "token": true, "secret": true, "clientsecret": true}

// loadApplicationsConfig reads the applications configuration document from
// path and returns it compacted. An empty path is an empty document. Only the
// shape is checked here (valid JSON, an object, no literal secrets, size);
// the service validates the content itself at start-up.
func loadApplicationsConfig(path string) (string, error) {
	if path == "" {
		return "{}", nil
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return "", fmt.Errorf("%s is not valid JSON: %v", path, err)
	}
	if _, ok := doc.(map[string]any); !ok {
		return "", fmt.Errorf("%s must hold a JSON object, not %T", path, doc)
	}
	if literal := literalSecrets(doc, ""); len(literal) > 0 {
		return "", fmt.Errorf("%s holds secret values instead of references (secretsmanager:<name>[#key] or env:<VAR>) at %s",
			path, strings.Join(literal, ", "))
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, raw); err != nil {
		return "", fmt.Errorf("%s: %v", path, err)
	}
	if compact.Len() > maxApplicationsConfigBytes {
		return "", fmt.Errorf("%s is %d bytes compacted; at most %d fit into the Lambda environment (4 KB for all variables)",
			path, compact.Len(), maxApplicationsConfigBytes)
	}
	return compact.String(), nil
}

// literalSecrets lists the JSON paths of secret fields that hold a value
// rather than a reference.
func literalSecrets(node any, where string) []string {
	var found []string
	switch v := node.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			child := where + "." + k
			if s, ok := v[k].(string); ok && secretKeys[strings.ToLower(k)] && s != "" && !isSecretReference(s) {
				found = append(found, child)
				continue
			}
			found = append(found, literalSecrets(v[k], child)...)
		}
	case []any:
		for i, item := range v {
			found = append(found, literalSecrets(item, fmt.Sprintf("%s[%d]", where, i))...)
		}
	}
	return found
}

func isSecretReference(s string) bool {
	return (strings.HasPrefix(s, "secretsmanager:") && len(s) > len("secretsmanager:")) ||
		(strings.HasPrefix(s, "env:") && len(s) > len("env:"))
}

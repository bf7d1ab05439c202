package service

import (
	"encoding/json"
	"reflect"
	"slices"
)

// secretFields are never named in a change: a rotated credential shows as
// Change.SecretChanged.
var secretFields = map[string]bool{"auth.password": true, "auth.token": true, "auth.clientSecret": true}

// changedFields names the JSON fields that differ between old (nil for a
// creation: every field set) and updated, one level deep into objects.
func changedFields[T any](old *T, updated T) []string {
	after := flatten(updated)
	before := map[string]any{}
	if old != nil {
		before = flatten(*old)
	}
	var fields []string
	for k, v := range after {
		if !secretFields[k] && !reflect.DeepEqual(before[k], v) {
			fields = append(fields, k)
		}
	}
	for k := range before {
		if _, ok := after[k]; !ok && !secretFields[k] {
			fields = append(fields, k)
		}
	}
	slices.Sort(fields)
	return fields
}

func flatten(v any) map[string]any {
	b, _ := json.Marshal(v)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	out := map[string]any{}
	for k, v := range m {
		if sub, ok := v.(map[string]any); ok {
			for sk, sv := range sub {
				out[k+"."+sk] = sv
			}
			continue
		}
		out[k] = v
	}
	return out
}

package middleware

import (
	"strings"
	"testing"
)

func TestCheckJSONText(t *testing.T) {
	for _, c := range []struct {
		name, body string
		refused    string // "" when the text passes
	}{
		{"plain object", `{"intendedAuthority":"GUEST","invites":["a@example.org"]}`, ""},
		{"a surrogate pair", `{"name":"smile \ud83d\ude00"}`, ""},
		{"an escaped backslash before u", `{"name":"C:\\ud800"}`, ""},
		{"the same key in sibling objects", `{"roles":[{"id":1},{"id":2}],"id":3}`, ""},
		{"keys differing by more than case", `{"name":"a","names":"b"}`, ""},
		{"not JSON is the decoder's to name", `{"name": `, ""},
		{"invalid UTF-8", "{\"name\":\"\xff\xfe\"}", "not valid UTF-8"},
		{"overlong UTF-8", "{\"name\":\"\xc0\xaf\"}", "not valid UTF-8"},
		{"lone high surrogate", `{"name":"\ud800"}`, "lone UTF-16 surrogate"},
		{"lone low surrogate", `{"name":"\udc00x"}`, "lone UTF-16 surrogate"},
		{"high surrogate before a plain escape", `{"name":"\ud800\n"}`, "lone UTF-16 surrogate"},
		{"high surrogate at the end", `{"name":"\uD800"}`, "lone UTF-16 surrogate"},
		{"surrogate in a key", `{"\ud800":"x"}`, "lone UTF-16 surrogate"},
		{"duplicate key", `{"name":"a","name":"b"}`, `"name" appears twice`},
		{"case-variant key", `{"intendedAuthority":"GUEST","INTENDEDAUTHORITY":"MANAGER"}`, `"INTENDEDAUTHORITY" appears twice`},
		{"Kelvin sign folds to k", "{\"k\":1,\"\u212a\":2}", "appears twice"},
		{"nested duplicate", `{"roles":[{"id":1,"Id":2}]}`, `"Id" appears twice`},
		{"duplicate after a nested object", `{"a":{"b":1},"A":2}`, `"A" appears twice`},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := CheckJSONText([]byte(c.body))
			switch {
			case c.refused == "" && err != nil:
				t.Errorf("refused: %v", err)
			case c.refused != "" && (err == nil || !strings.Contains(err.Error(), c.refused)):
				t.Errorf("error %v, want one saying %q", err, c.refused)
			}
		})
	}
}

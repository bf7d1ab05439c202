package middleware

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// CheckJSONText refuses a JSON text that Go's decoder would read silently
// but differently from what the sender, or another parser, meant: bytes
// that are not UTF-8 and escaped lone UTF-16 surrogates (both become
// U+FFFD), and an object with a key twice, exactly or in another case (the
// decoder keeps the last, and matches struct fields ignoring case, so
// "INTENDEDAUTHORITY" would override "intendedAuthority"). Whether the
// text is JSON at all is left to the decoder that follows.
func CheckJSONText(body []byte) error {
	if !utf8.Valid(body) {
		return errors.New("request body is not valid UTF-8")
	}
	if err := checkSurrogates(body); err != nil {
		return err
	}
	return checkDuplicateKeys(body)
}

// checkSurrogates finds \uD800-\uDFFF escapes that are not a high
// surrogate directly followed by a low one.
func checkSurrogates(body []byte) error {
	lone := errors.New(`request body holds a lone UTF-16 surrogate (\ud800-\udfff), which is no character`)
	inString := false
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case c == '"':
			inString = !inString
		case c == '\\' && inString && i+1 < len(body):
			i++
			if body[i] != 'u' {
				continue
			}
			r, ok := hex4(body, i+1)
			if !ok {
				continue // the decoder names the syntax error
			}
			i += 4
			switch {
			case r >= 0xDC00 && r <= 0xDFFF:
				return lone
			case r >= 0xD800 && r <= 0xDBFF:
				if i+2 >= len(body) || body[i+1] != '\\' || body[i+2] != 'u' {
					return lone
				}
				low, ok := hex4(body, i+3)
				if !ok || low < 0xDC00 || low > 0xDFFF {
					return lone
				}
				i += 6
			}
		}
	}
	return nil
}

func hex4(b []byte, at int) (rune, bool) {
	if at+4 > len(b) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(b[at:at+4]), 16, 32)
	return rune(n), err == nil
}

var plainKey = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}$`)

// checkDuplicateKeys walks the text's tokens and refuses an object whose
// keys are equal when case is ignored (as encoding/json compares them).
func checkDuplicateKeys(body []byte) error {
	type frame struct {
		object  bool
		wantKey bool
		keys    map[string]bool
	}
	var stack []*frame
	dec := json.NewDecoder(bytes.NewReader(body))
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return nil // not JSON: the decoder that follows says where
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.wantKey {
			if key, ok := tok.(string); ok {
				folded := foldKey(key)
				if top.keys[folded] {
					if plainKey.MatchString(key) {
						return fmt.Errorf("key %q appears twice in an object (keys are compared ignoring case)", key)
					}
					return errors.New("a key appears twice in an object (keys are compared ignoring case)")
				}
				top.keys[folded] = true
				top.wantKey = false
				continue
			}
		}
		if top != nil && top.object {
			top.wantKey = true // after this value, the object's next key
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, wantKey: true, keys: map[string]bool{}})
		case json.Delim('['):
			stack = append(stack, &frame{})
		case json.Delim('}'), json.Delim(']'):
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
	}
}

// foldKey maps every rune to the smallest of its case-folding orbit, so
// that two keys fold alike exactly when bytes.EqualFold finds them equal.
func foldKey(s string) string {
	out := make([]rune, 0, len(s))
	for _, r := range s {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		out = append(out, least)
	}
	return string(out)
}

package scim

import (
	"fmt"
	"regexp"
	"strings"
)

// attrPathPattern is attrPath of RFC 7644 3.4.2.2: an optional schema URN
// prefix, ATTRNAME = ALPHA *(nameChar), and an optional ".subAttr".
// Checking it keeps a caller's attribute from smuggling filter syntax.
var attrPathPattern = regexp.MustCompile(`^(urn:[A-Za-z0-9.:_-]+:)?[A-Za-z][A-Za-z0-9_-]*(\.[A-Za-z][A-Za-z0-9_-]*)?$`)

// eqFilter returns `<attribute> eq "<value>"` with value written as a JSON
// string, which is what compValue of the filter grammar is.
func eqFilter(attribute, value string) (string, error) {
	if !attrPathPattern.MatchString(attribute) {
		return "", fmt.Errorf("scim: invalid filter attribute %q", attribute)
	}
	return attribute + ` eq ` + quoteFilterValue(value), nil
}

// quoteFilterValue escapes like a JSON string (RFC 8259 7) but, unlike
// encoding/json, leaves <, > and & alone: SP filter parsers do not all
// understand \u escapes, so only what must be escaped is.
func quoteFilterValue(v string) string {
	var b strings.Builder
	b.Grow(len(v) + 2)
	b.WriteByte('"')
	for _, r := range v {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if r < 0x20 {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

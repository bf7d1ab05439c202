package domain

import (
	"net"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Maximum lengths, in characters, of the free-text fields (documented in
// the README and the OpenAPI document). Together with the bounded lists
// (recipients, application usages) they keep every item far below
// DynamoDB's 400 KB.
const (
	MaxNameLength        = 255  // names, display names, descriptions of tokens, ids
	MaxDescriptionLength = 4000 // role descriptions, invitation messages
	MaxURLLength         = 2048 // landing pages, logos
	MaxEmailLength       = 254  // RFC 5321's path limit
)

// CheckText refuses text that is too long, is not UTF-8, or holds control
// characters (NUL, ESC and the like; line breaks and tabs only where
// multiline) or bidirectional overrides, which can disguise what a page or
// an e-mail shows.
func CheckText(field, s string, max int, multiline bool) error {
	if !utf8.ValidString(s) {
		return Invalidf("%s is not valid UTF-8", field)
	}
	if n := utf8.RuneCountInString(s); n > max {
		return Invalidf("%s is longer than %d characters", field, max)
	}
	for _, r := range s {
		switch {
		case multiline && (r == '\n' || r == '\r' || r == '\t'):
		case unicode.IsControl(r):
			return Invalidf("%s must not contain control characters", field)
		case isBidiControl(r):
			return Invalidf("%s must not contain bidirectional override characters", field)
		}
	}
	return nil
}

func isBidiControl(r rune) bool {
	return (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069) || r == 0x200E || r == 0x200F || r == 0x061C
}

// CheckWebURL refuses a URL shown to guests (a landing page, a logo) that
// is not https, or http on localhost only.
func CheckWebURL(field, s string) error {
	if s == "" {
		return nil
	}
	if err := CheckText(field, s, MaxURLLength, false); err != nil {
		return err
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || u.User != nil {
		return Invalidf("%s must be an absolute https URL", field)
	}
	switch u.Scheme {
	case "https":
		return nil
	case "http":
		host := u.Hostname()
		if ip := net.ParseIP(host); host == "localhost" || (ip != nil && ip.IsLoopback()) {
			return nil
		}
	}
	return Invalidf("%s must be an https URL (http only on localhost)", field)
}

// CheckMailDomain refuses an address domain that mail cannot be delivered
// to: at least two labels, each of letters, digits and hyphens (IDNs in
// their xn-- form), not starting or ending with a hyphen, a top-level label
// that is not all digits.
func CheckMailDomain(domain string) bool {
	if len(domain) > 253 || domain == "" {
		return false
	}
	labels := strings.Split(domain, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for _, c := range l {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return strings.Trim(labels[len(labels)-1], "0123456789") != ""
}

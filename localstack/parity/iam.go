package parity

import "strings"

// Policy is the identity policy of one function's role: every statement of
// every policy the template attaches to it.
type Policy struct {
	Statements []Statement
}

// Statement is one IAM statement, with its intrinsics resolved.
type Statement struct {
	Effect     string
	Actions    []string
	Resources  []string
	Conditions map[string]map[string][]string // operator -> key -> values
}

// Call is one AWS API call as IAM authorizes it: one action on one
// resource, with the condition keys the request carries.
type Call struct {
	Action   string
	Resource string
	// Keys are the request's condition keys (dynamodb:LeadingKeys).
	Keys map[string][]string
}

// Allows evaluates a call as IAM does for an identity policy alone:
// an explicit Deny wins, else some Allow must match, else it is denied.
func (p Policy) Allows(c Call) bool {
	allowed := false
	for _, s := range p.Statements {
		if !s.matches(c) {
			continue
		}
		if strings.EqualFold(s.Effect, "Deny") {
			return false
		}
		allowed = true
	}
	return allowed
}

func (s Statement) matches(c Call) bool {
	actionOK := false
	for _, a := range s.Actions {
		if globMatch(strings.ToLower(a), strings.ToLower(c.Action)) {
			actionOK = true
			break
		}
	}
	if !actionOK {
		return false
	}
	resourceOK := false
	for _, r := range s.Resources {
		if globMatch(r, c.Resource) {
			resourceOK = true
			break
		}
	}
	if !resourceOK {
		return false
	}
	for op, kv := range s.Conditions {
		for key, want := range kv {
			if !conditionHolds(op, c.Keys[key], want) {
				return false
			}
		}
	}
	return true
}

// conditionHolds evaluates the condition operators the stack uses; an
// operator it does not know fails, so that nothing is allowed by mistake.
func conditionHolds(op string, have, want []string) bool {
	set, base, _ := strings.Cut(op, ":")
	if base == "" {
		base, set = set, ""
	}
	match := func(v string) bool {
		for _, w := range want {
			switch base {
			case "StringLike", "ArnLike":
				if globMatch(w, v) {
					return true
				}
			case "StringEquals", "ArnEquals":
				if w == v {
					return true
				}
			default:
				return false
			}
		}
		return false
	}
	switch set {
	case "ForAllValues":
		// True when every value matches, and when there is none: IAM's
		// semantics, which is why the stack pairs it with requests that
		// always carry the key.
		for _, v := range have {
			if !match(v) {
				return false
			}
		}
		return true
	case "ForAnyValue":
		for _, v := range have {
			if match(v) {
				return true
			}
		}
		return false
	case "":
		if len(have) != 1 {
			return false
		}
		return match(have[0])
	}
	return false
}

// globMatch matches IAM wildcards: * any run of characters (slashes
// included), ? one character.
func globMatch(pattern, s string) bool {
	if !strings.ContainsAny(pattern, "*?") {
		return pattern == s
	}
	return wildcard(pattern, s)
}

func wildcard(p, s string) bool {
	for len(p) > 0 {
		switch p[0] {
		case '*':
			for len(p) > 0 && p[0] == '*' {
				p = p[1:]
			}
			if p == "" {
				return true
			}
			for i := 0; i <= len(s); i++ {
				if wildcard(p, s[i:]) {
					return true
				}
			}
			return false
		case '?':
			if s == "" {
				return false
			}
			p, s = p[1:], s[1:]
		default:
			if s == "" || p[0] != s[0] {
				return false
			}
			p, s = p[1:], s[1:]
		}
	}
	return s == ""
}

package parity

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// sortKeyWords are the upper-case literals of shared/dynamo that are sort
// keys (or their prefixes) only, never a partition key of the table or an
// index: IAM's LeadingKeys never sees them.
var sortKeyWords = map[string]bool{
	"CONN#": true, "CONTACT#": true, "COUNT": true, "D": true, "DAY#": true, "DELETED": true, "DELIVERY": true,
	"INV": true, "LAST": true, "MAIL": true, "ORG": true, "PENDING": true, "ROLE": true, "SEQ": true,
	"SESSION": true, "TOKEN": true, "UNIQUE": true, "UR": true, "USER": true,
	"LIST#": true, "ALL": true, "READY": true, "GUARD": true, "W#": true, "INVH#": true,
	// The classes of a membership's side key (gsi1 sort key UR#<class>#…).
	"G#": true, "B#": true, "N#": true,
}

// keyWord is the part of a key literal that names its kind: up to and with
// its first "#", or the whole literal.
func keyWord(literal string) string {
	if i := strings.Index(literal, "#"); i >= 0 {
		return literal[:i+1]
	}
	return literal
}

var upperLiteral = regexp.MustCompile(`^[A-Z][A-Z_]*(#.*)?$`)

// TestEveryKeyKindIsKnownToTheRoles: every key prefix shared/dynamo writes
// or queries by is an item kind or index partition of infra/table_access.go,
// which the roles' LeadingKeys conditions are made of, and every kind there
// is still a key of shared/dynamo. A kind added to the store and not to the
// stack would be denied in AWS to every function.
func TestEveryKeyKindIsKnownToTheRoles(t *testing.T) {
	root := filepath.Join("..", "..")
	store := map[string]bool{}
	files, err := filepath.Glob(filepath.Join(root, "shared", "dynamo", "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no shared/dynamo sources: %v", err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		for _, lit := range stringLiterals(t, f, false) {
			if upperLiteral.MatchString(lit) && !sortKeyWords[keyWord(lit)] {
				store[keyWord(lit)] = true
			}
		}
	}
	granted := map[string]bool{}
	for _, lit := range stringLiterals(t, filepath.Join(root, "infra", "table_access.go"), true) {
		granted[keyWord(lit)] = true
	}
	var missing, stale []string
	for w := range store {
		if !granted[w] {
			missing = append(missing, w)
		}
	}
	for w := range granted {
		if !store[w] {
			stale = append(stale, w)
		}
	}
	sort.Strings(missing)
	sort.Strings(stale)
	if len(missing) > 0 {
		t.Errorf("shared/dynamo keys by %v, which infra/table_access.go does not name: no role may touch them "+
			"(add each to table_access.go and the Table of the functions that use it; a sort key only: to sortKeyWords here)", missing)
	}
	if len(stale) > 0 {
		t.Errorf("infra/table_access.go names %v, which shared/dynamo no longer uses", stale)
	}
}

// stringLiterals are the string literals of a Go file; constsOnly keeps
// those of const declarations.
func stringLiterals(t *testing.T, path string, constsOnly bool) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	add := func(n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil {
					out = append(out, s)
				}
			}
			return true
		})
	}
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && (g.Tok == token.CONST || !constsOnly) {
			add(g)
		} else if !constsOnly {
			add(d)
		}
	}
	return out
}

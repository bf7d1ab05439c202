package app

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestREADMEConfigurationTable: every environment variable the service or
// its local stack reads is in the README's configuration table, and the
// README names no spec id (S4, U6, C1, …) and links nothing outside the
// repository.
func TestREADMEConfigurationTable(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	start := strings.Index(readme, "\n## Configuration")
	if start < 0 {
		t.Fatal("README has no Configuration section")
	}
	table := readme[start:]
	if end := strings.Index(table[1:], "\n## "); end >= 0 {
		table = table[:end+1]
	}
	reads := regexp.MustCompile(`(?:Getenv|LookupEnv|Setenv|setDefault)\("([A-Z][A-Z0-9_]+)"`)
	found := map[string]string{}
	for _, dir := range []string{"shared", "functions", "localstack"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			for _, m := range reads.FindAllStringSubmatch(string(b), -1) {
				if !strings.HasSuffix(m[1], "_") { // a prefix, as in AWS_ENDPOINT_URL_+service
					found[m[1]] = p
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(found) < 20 {
		t.Fatalf("found only %d variables read by the code: the scan is broken", len(found))
	}
	for name, where := range found {
		short := strings.TrimPrefix(name, "AWS_ENDPOINT_URL")
		if !strings.Contains(table, "`"+name+"`") && !(short != name && strings.Contains(table, "`"+short+"`")) {
			rel, _ := filepath.Rel(root, where)
			t.Errorf("%s (read in %s) is not in the README's configuration table", name, rel)
		}
	}
	if ids := regexp.MustCompile(`\b(?:[SUCIRAT][0-9]{1,2})\b`).FindAllString(readme, -1); len(ids) > 0 {
		t.Errorf("README names spec ids %v: say what they are instead", ids)
	}
	if links := regexp.MustCompile(`\]\((?:[a-z]+:|//|\.\./)[^)]*\)`).FindAllString(readme, -1); len(links) > 0 {
		t.Errorf("README links outside the repository: %v", links)
	}
}

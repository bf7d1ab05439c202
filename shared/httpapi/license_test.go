package httpapi

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// repoRoot is the directory of the service module's go.mod.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && strings.Contains(string(b), "module github.com/edu-invite/invite\n") {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod of the service module not found")
		}
		dir = parent
	}
}

// TestLicence: the Apache-2.0 licence is at the root, every package.json
// (and its lockfile's root entry) says so in SPDX, and so does the API document.
func TestLicence(t *testing.T) {
	root := repoRoot(t)
	text, err := os.ReadFile(filepath.Join(root, "LICENSE"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Apache License", "Version 2.0, January 2004", "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION",
		"END OF TERMS AND CONDITIONS", "Copyright 2026 The Invite authors"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("LICENSE lacks %q", want)
		}
	}
	var manifests []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git" || d.Name() == "cdk.out" || d.Name() == "build" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.Name() == "package.json" || d.Name() == "package-lock.json" {
			manifests = append(manifests, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(manifests) < 6 {
		t.Errorf("found %d package.json and lockfiles, want at least those of localstack/, infra/ and the API docs", len(manifests))
	}
	for _, p := range manifests {
		var m struct {
			License  string `json:"license"`
			Packages map[string]struct {
				License string `json:"license"`
			} `json:"packages"`
		}
		b, err := os.ReadFile(p)
		if err != nil || json.Unmarshal(b, &m) != nil {
			t.Errorf("%s: unreadable", p)
			continue
		}
		got := m.License
		if strings.HasSuffix(p, "package-lock.json") {
			got = m.Packages[""].License
		}
		if got != "Apache-2.0" {
			rel, _ := filepath.Rel(root, p)
			t.Errorf("%s: license %q, want Apache-2.0", rel, got)
		}
	}
	doc, err := OpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Info struct {
			License struct{ Name string } `json:"license"`
		} `json:"info"`
	}
	if json.Unmarshal(doc, &d) != nil || d.Info.License.Name != "Apache-2.0" {
		t.Errorf("the OpenAPI document's info.license is %+v, want Apache-2.0", d.Info.License)
	}
}

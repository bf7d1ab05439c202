package web

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestPicoIsThePinnedRelease: the committed style sheet is the one of the
// @picocss/pico version pinned in localstack/package-lock.json, so an
// upgrade is one `npm install` and one copy, never a hand edit.
func TestPicoIsThePinnedRelease(t *testing.T) {
	pinned, err := os.ReadFile(filepath.Join("..", "..", "localstack", "node_modules", "@picocss", "pico", "css", "pico.classless.min.css"))
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("npm packages of localstack/ are missing (make npm): %v", err)
		}
		t.Skipf("npm packages of localstack/ are not installed (make npm): %v", err)
	}
	committed, err := staticFS.ReadFile("static/pico.classless.min.css")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(pinned, committed) {
		t.Error("shared/web/static/pico.classless.min.css differs from the pinned npm package: copy it again")
	}
}

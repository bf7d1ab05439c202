package app

import (
	"slices"
	"strings"
	"testing"

	"github.com/edu-invite/invite/shared/httpapi"
	"github.com/edu-invite/invite/shared/web"
)

// TestWebServesTheDocumentedSessionRoutes: the session routes the API's
// document lists as the pages' (httpapi.WebRoutes) are exactly the pages'
// routes under /api/, and a server that mounts the pages next to the API
// (the local stack) sends their paths to the pages.
func TestWebServesTheDocumentedSessionRoutes(t *testing.T) {
	got := (&web.Pages{}).APIRoutes()
	want := slices.Clone(httpapi.WebRoutes)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("the pages serve %v under /api/, the API's document says %v", got, want)
	}
	for _, pattern := range got {
		_, path, _ := strings.Cut(pattern, " ")
		if !slices.Contains(web.Mounts, path) {
			t.Errorf("%s is not in web.Mounts: the local stack would send it to the API", path)
		}
	}
}

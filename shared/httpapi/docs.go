package httpapi

import (
	"embed"
	"io/fs"
	"net/http"
	"path"
)

// The documentation page: Swagger UI, vendored from the npm package
// swagger-ui-dist (version pinned in apidocs/package.json; `make api-docs-vendor`
// copies it again), served from the binary: no CDN, and a CSP that allows
// scripts and styles from this origin only (apidocs/assets/docs.js starts it).
//
//go:embed apidocs/docs.html apidocs/assets
var docsFiles embed.FS

// docsCSP is the pages' policy: nothing inline, nothing from elsewhere.
// Swagger UI's style sheet draws its icons as data: images.
const docsCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

var docsAssetTypes = map[string]string{
	".js":  "text/javascript; charset=utf-8",
	".css": "text/css; charset=utf-8",
	".txt": "text/plain; charset=utf-8",
}

func setPageHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Security-Policy", docsCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
}

func serveDocsPage(w http.ResponseWriter, _ *http.Request) {
	page, err := docsFiles.ReadFile("apidocs/docs.html")
	if err != nil {
		http.Error(w, "documentation page missing from the build", http.StatusInternalServerError)
		return
	}
	setPageHeaders(w)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "public, max-age=300")
	_, _ = w.Write(page)
}

func serveDocsAsset(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	typ, known := docsAssetTypes[path.Ext(name)]
	body, err := fs.ReadFile(docsFiles, "apidocs/assets/"+name)
	if !known || err != nil || path.Base(name) != name {
		writeErrorStatus(w, r, http.StatusNotFound, "NotFoundException", "no such file: "+name)
		return
	}
	setPageHeaders(w)
	w.Header().Set("Content-Type", typ)
	w.Header().Set("Cache-Control", "public, max-age=3600")
	_, _ = w.Write(body)
}

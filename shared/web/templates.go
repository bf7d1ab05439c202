package web

import (
	"bytes"
	"embed"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"strings"

	"github.com/edu-invite/invite/shared/i18n"
)

//go:embed templates/*.html
var templateFiles embed.FS

// templates are the pages by name, each the layout plus the page's own
// file, parsed once.
type templates map[string]*template.Template

// pageNames are the page templates under templates/, besides layout.html.
var pageNames = []string{"home", "invitation", "state", "welcome"}

func parseTemplates() (templates, error) {
	layout, err := template.ParseFS(templateFiles, "templates/layout.html")
	if err != nil {
		return nil, err
	}
	t := templates{}
	for _, name := range pageNames {
		clone, err := layout.Clone()
		if err != nil {
			return nil, err
		}
		if t[name], err = clone.ParseFS(templateFiles, "templates/"+name+".html"); err != nil {
			return nil, err
		}
	}
	return t, addConsoleTemplates(layout, t)
}

// basePage is what the layout needs; every page struct embeds it.
type basePage struct {
	Lang  string
	Title string
	// SignedInAs names the signed-in person; "" when anonymous.
	SignedInAs string
	// SignInURL starts a sign-in that returns to this page.
	SignInURL string
	// Languages are links to this page in the other languages.
	Languages []languageLink
	// Refresh loads the small script that updates a pending status.
	Refresh bool
	// Console: a console page, whose readers are not guests (no guest
	// footer).
	Console bool
}

type languageLink struct {
	Code, Label, URL string
}

// T is the message key in the page's language.
func (b basePage) T(key string, args ...any) string { return i18n.T(b.Lang, key, args...) }

// languageLabels name each language in itself, as a switch must.
var languageLabels = map[string]string{"en": "English", "nl": "Nederlands"}

// base fills the layout's part of a page for this request.
func (p *Pages) base(r *http.Request, lang, titleKey string) basePage {
	v := visitOf(r)
	self := *r.URL
	if strings.HasPrefix(self.Path, "/login") {
		// A failed sign-in's address carries its code and state: links
		// from its page lead home instead.
		self = url.URL{Path: "/"}
	}
	b := basePage{Lang: lang, Title: i18n.T(lang, titleKey), SignInURL: signInURL(self.RequestURI(), ""),
		Console: self.Path == "/console" || strings.HasPrefix(self.Path, "/console/")}
	if v.principal != nil && v.principal.Person != nil {
		per := v.principal.Person
		b.SignedInAs = firstNonEmpty(per.Name, per.Email, per.EduPersonPrincipalName)
	}
	for _, l := range i18n.Languages {
		if l == lang {
			continue
		}
		q := self.Query()
		q.Set("lang", l)
		u := url.URL{Path: self.Path, RawQuery: q.Encode()}
		b.Languages = append(b.Languages, languageLink{Code: l, Label: languageLabels[l], URL: u.String()})
	}
	return b
}

// render writes a page. It renders into a buffer first, so a template
// error becomes a clean 500, never half a page.
func (p *Pages) render(w http.ResponseWriter, r *http.Request, status int, name string, page any) {
	var buf bytes.Buffer
	if err := p.templates[name].ExecuteTemplate(&buf, "layout", page); err != nil {
		p.cfg.Logger.ErrorContext(r.Context(), "page not rendered", "page", name, "error", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

//go:embed static
var staticFS embed.FS

func staticFiles() http.Handler {
	sub, _ := fs.Sub(staticFS, "static")
	return http.FileServerFS(sub)
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

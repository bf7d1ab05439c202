package mail

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	htmltemplate "html/template"
	"io/fs"
	"strings"
	texttemplate "text/template"

	"github.com/edu-invite/invite/shared/domain"
)

//go:embed templates
var embeddedTemplates embed.FS

// kind names one sort of mail; it is also the base name of its template files.
type kind string

const (
	invitationMail  kind = "invitation"
	reminderMail    kind = "reminder"
	accessEndedMail kind = "access_ended"
)

var allKinds = []kind{invitationMail, reminderMail, accessEndedMail}

// templateSet holds the parsed templates of one kind of mail in one language.
// The text set defines "subject" and "body"; the HTML set is executed from
// layout.html, which calls the mail's "body".
type templateSet struct {
	html *htmltemplate.Template
	text *texttemplate.Template
}

// Renderer turns mail data into domain.Email values. It is safe for
// concurrent use: templates are parsed once and only executed afterwards.
type Renderer struct {
	product   string
	templates map[string]map[kind]templateSet // language → kind → templates
}

// page is what every template sees: the shared frame plus one mail's data.
type page[T any] struct {
	Lang    string
	Product string
	Subject string // empty while the subject itself is rendered
	Mail    T
}

// NewRenderer parses all templates. It fails at start-up rather than at the
// first send when a template is missing or broken.
func NewRenderer(productName string) (*Renderer, error) {
	files, err := fs.Sub(embeddedTemplates, "templates")
	if err != nil {
		return nil, fmt.Errorf("mail: open embedded templates: %w", err)
	}
	return newRenderer(productName, files)
}

// newRenderer parses templates from files (a tree with layout.html and one
// directory per language), so tests can feed it broken trees.
func newRenderer(productName string, files fs.FS) (*Renderer, error) {
	if strings.TrimSpace(productName) == "" {
		return nil, errors.New("mail: product name is required")
	}
	r := &Renderer{product: productName, templates: map[string]map[kind]templateSet{}}
	for _, lang := range supportedLanguages {
		r.templates[lang] = map[kind]templateSet{}
		for _, k := range allKinds {
			set, err := parseSet(files, lang, k)
			if err != nil {
				return nil, fmt.Errorf("mail: templates %s/%s: %w", lang, k, err)
			}
			r.templates[lang][k] = set
		}
	}
	return r, nil
}

func parseSet(files fs.FS, lang string, k kind) (templateSet, error) {
	html, err := htmltemplate.New("layout.html").Funcs(templateFuncs).
		ParseFS(files, "layout.html", lang+"/common.html", lang+"/"+string(k)+".html")
	if err != nil {
		return templateSet{}, err
	}
	text, err := texttemplate.New("").Funcs(templateFuncs).
		ParseFS(files, lang+"/common.txt", lang+"/"+string(k)+".txt")
	if err != nil {
		return templateSet{}, err
	}
	// A set that parses but lacks a block would only fail when sending.
	if html.Lookup("body") == nil {
		return templateSet{}, errors.New(`HTML template does not define "body"`)
	}
	for _, name := range []string{"subject", "body"} {
		if text.Lookup(name) == nil {
			return templateSet{}, fmt.Errorf("text template does not define %q", name)
		}
	}
	return templateSet{html: html, text: text}, nil
}

// render executes the templates of kind k for the language asked for (or the
// fallback) with the mail's data.
func render[T any](r *Renderer, language string, k kind, to string, data T) (domain.Email, error) {
	if strings.TrimSpace(to) == "" {
		return domain.Email{}, fmt.Errorf("mail: %s: recipient is required", k)
	}
	lang := resolveLanguage(language)
	set := r.templates[lang][k]
	p := page[T]{Lang: lang, Product: r.product, Mail: data}

	var subject, html, text bytes.Buffer
	if err := set.text.ExecuteTemplate(&subject, "subject", p); err != nil {
		return domain.Email{}, fmt.Errorf("mail: %s subject: %w", k, err)
	}
	p.Subject = oneLine(subject.String())
	if err := set.html.Execute(&html, p); err != nil {
		return domain.Email{}, fmt.Errorf("mail: %s HTML: %w", k, err)
	}
	if err := set.text.ExecuteTemplate(&text, "body", p); err != nil {
		return domain.Email{}, fmt.Errorf("mail: %s text: %w", k, err)
	}
	return domain.Email{To: to, Subject: p.Subject, HTML: html.String(), Text: text.String()}, nil
}

// oneLine collapses all whitespace, line breaks included, to single spaces: a
// subject is a header, and a role name with a newline must not break it.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

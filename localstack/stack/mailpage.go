package stack

import (
	"html/template"
	"net/http"
	"strings"
)

// wantsHTML: the request comes from a browser (it asks for HTML first);
// programs and curl get the captured mails as JSON.
func wantsHTML(r *http.Request) bool {
	accept := r.Header.Get("Accept")
	return strings.Contains(accept, "text/html") && !strings.HasPrefix(accept, "application/json")
}

// mailListPage shows the captured mails to a person: subject, recipients,
// when, and the text part, whose links can be opened.
var mailListPage = template.Must(template.New("mail").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Captured e-mails</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
article{border-top:1px solid #ccc;padding:1rem 0}pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f5f5f5;padding:1rem}</style>
</head><body><main>
<h1>Captured e-mails</h1>
<p>What the SES substitute received, newest first ({{len .}}). The same list as JSON: <code>curl -s …/mail</code>.</p>
{{- range .}}
<article>
<h2>{{.Subject}}</h2>
<p>To {{range $i, $to := .To}}{{if $i}}, {{end}}{{$to}}{{end}} · from {{.From}} · {{.SentAt.Format "2006-01-02 15:04:05 MST"}}</p>
<pre>{{.Text}}</pre>
</article>
{{- else}}
<p>No e-mail yet.</p>
{{- end}}
</main></body></html>
`))

package mail

import (
	"io/fs"
	"testing"
	"testing/fstest"
)

func TestNewRendererRequiresProductName(t *testing.T) {
	if _, err := NewRenderer(" "); err == nil {
		t.Fatal("NewRenderer accepted an empty product name")
	}
}

// Every template file is needed: removing any one must fail start-up, not a send.
func TestNewRendererFailsFastOnMissingTemplate(t *testing.T) {
	complete := fstest.MapFS{}
	err := fs.WalkDir(embeddedTemplates, "templates", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(embeddedTemplates, path)
		complete[path[len("templates/"):]] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := newRenderer(product, complete); err != nil {
		t.Fatalf("complete template tree rejected: %v", err)
	}
	for name := range complete {
		t.Run(name, func(t *testing.T) {
			incomplete := fstest.MapFS{}
			for other, f := range complete {
				if other != name {
					incomplete[other] = f
				}
			}
			if _, err := newRenderer(product, incomplete); err == nil {
				t.Errorf("newRenderer succeeded without %s", name)
			}
		})
	}
}

func TestNewRendererFailsFastOnBrokenTemplate(t *testing.T) {
	files := fstest.MapFS{}
	for _, lang := range supportedLanguages {
		files[lang+"/common.html"] = &fstest.MapFile{Data: []byte(`{{define "footer"}}{{end}}`)}
		files[lang+"/common.txt"] = &fstest.MapFile{Data: []byte(`{{define "footer"}}{{end}}`)}
		for _, k := range allKinds {
			files[lang+"/"+string(k)+".html"] = &fstest.MapFile{Data: []byte(`{{define "body"}}{{end}}`)}
			files[lang+"/"+string(k)+".txt"] = &fstest.MapFile{Data: []byte(`{{define "subject"}}{{end}}{{define "body"}}{{end}}`)}
		}
	}
	files["layout.html"] = &fstest.MapFile{Data: []byte(`{{template "body" .}}`)}
	if _, err := newRenderer(product, files); err != nil {
		t.Fatalf("minimal tree rejected: %v", err)
	}

	files["nl/reminder.txt"] = &fstest.MapFile{Data: []byte(`{{define "subject"}}{{.Mail.Role.Name}{{end}}`)}
	if _, err := newRenderer(product, files); err == nil {
		t.Error("newRenderer accepted a template with a syntax error")
	}
	files["nl/reminder.txt"] = &fstest.MapFile{Data: []byte(`{{define "subject"}}{{end}}`)}
	if _, err := newRenderer(product, files); err == nil {
		t.Error(`newRenderer accepted a text template without "body"`)
	}
}

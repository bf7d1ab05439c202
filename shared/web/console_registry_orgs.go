package web

import (
	"context"

	"github.com/edu-invite/invite/shared/i18n"
)

// organizationFormField is a registry form's institution. A super user
// chooses it from the organizations by name (none: super users alone
// manage the item); an institution admin sees their own by name, read
// only (the handler keeps their organization whatever is posted).
func (p *Pages) organizationFormField(ctx context.Context, lang string, all bool, guid string) formField {
	f := formField{Name: "organizationGUID", Type: "text", Value: guid, ReadOnly: !all, Hint: i18n.T(lang, "console.reg.hint.organizationGUID")}
	if !all {
		f.Value = p.cfg.Service.OrganizationName(ctx, guid, lang)
		return f
	}
	list := p.organizationField(ctx, lang, f.Name, f.Name, "console.reg.field.organizationGUID", guid)
	f.Type = "select"
	f.Options = []formOption{{Value: "", Label: i18n.T(lang, "console.reg.noOrganization"), Selected: guid == ""}}
	for _, c := range list.Choices {
		f.Options = append(f.Options, formOption{Value: c.Value, Label: c.Label, Selected: c.Selected})
	}
	return f
}

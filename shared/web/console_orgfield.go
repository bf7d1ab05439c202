package web

import (
	"context"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/i18n"
)

// orgField is an organization chosen from a list by name (the "orgselect"
// template); the value sent is its GUID.
type orgField struct {
	ID, Name, Label, Help, Prompt, Error string
	Required                             bool
	Choices                              []choice
	lang                                 string
}

// with is the field showing value (what was posted) and err beside it.
func (f orgField) with(value, err string) orgField {
	f.Error = err
	choices := make([]choice, 0, len(f.Choices)+1)
	found := value == ""
	for _, c := range f.Choices {
		c.Selected = c.Value == value
		found = found || c.Selected
		choices = append(choices, c)
	}
	if !found {
		choices = append(choices, choice{Value: value, Label: organizationLabel(f.lang, domain.Organization{GUID: value}), Selected: true})
	}
	f.Choices = choices
	return f
}

// organizationLabel is how a list names an organization: its name, or for
// one nobody has named yet its GUID, said as such.
func organizationLabel(lang string, o domain.Organization) string {
	if name := o.DisplayName(lang); name != o.GUID {
		return name
	}
	return i18n.T(lang, "console.organizations.unnamed", o.GUID)
}

// organizationField lists the organizations to choose from with value
// selected. A value that is not among them (an organization no one has
// named, or one typed into an older form) stays as a choice of its own,
// so what was sent is kept.
func (p *Pages) organizationField(ctx context.Context, lang, id, name, labelKey, value string) orgField {
	f := orgField{ID: id, Name: name, Label: i18n.T(lang, labelKey), Prompt: i18n.T(lang, "console.organizations.choose"), lang: lang}
	for _, o := range p.cfg.Service.OrganizationChoices(ctx) {
		f.Choices = append(f.Choices, choice{Value: o.GUID, Label: organizationLabel(lang, o)})
	}
	return f.with(value, "")
}

package web

import (
	"net/http"
	"strings"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/i18n"
	"github.com/edu-invite/invite/shared/service"
)

// tokensPage lists the API tokens the person may manage, with a form for a
// new one; right after creating, it shows the new value once.
type tokensPage struct {
	consolePage
	Tokens           []tokenRow
	Description      string
	Organization     string
	ShowOrganization bool
	// OrganizationSelect is a super user's list of organizations.
	OrganizationSelect orgField
	Super              bool
	NewToken           *copyLink // the created token's value, shown once
	Errors             map[string]string
}

type tokenRow struct {
	ID                              int64
	Description, Organization, Kind string
	Created, Owner                  string
}

func (p *Pages) tokensPage(r *http.Request, w http.ResponseWriter, lang string) (tokensPage, bool) {
	pr := visitOf(r).principal
	page := tokensPage{consolePage: p.consoleBase(r, pr, lang, "console.tokens.title", "tokens"), ShowOrganization: pr.SuperUser, Super: pr.SuperUser,
		Errors: map[string]string{}}
	toks, err := p.cfg.Service.ListAPITokens(r.Context(), pr)
	if err != nil {
		p.refuse(w, r, err)
		return page, false
	}
	var orgs []domain.Organization
	if len(toks) > 0 {
		orgs = p.cfg.Service.OrganizationChoices(r.Context())
	}
	for _, t := range toks {
		org, _ := domain.OrganizationOf(orgs, t.OrganizationGUID)
		row := tokenRow{ID: t.ID, Description: t.Description, Organization: org.DisplayName(lang), Created: i18n.Date(lang, t.CreatedAt), Owner: t.Owner,
			Kind: i18n.T(lang, "console.tokens.org")}
		if t.SuperUserToken {
			row.Kind = i18n.T(lang, "console.tokens.super")
		}
		page.Tokens = append(page.Tokens, row)
	}
	if page.ShowOrganization {
		page.OrganizationSelect = p.organizationField(r.Context(), lang, "organization", "organization", "console.role.organization", "")
	}
	return page, true
}

func (p *Pages) consoleTokens(w http.ResponseWriter, r *http.Request) {
	_, lang, ok := p.consoleAllowed(w, r, service.MayAdministerTokens)
	if !ok {
		return
	}
	if page, ok := p.tokensPage(r, w, lang); ok {
		p.render(w, r, http.StatusOK, "console/tokens", page)
	}
}

func (p *Pages) consoleTokenCreate(w http.ResponseWriter, r *http.Request) {
	pr, lang, ok := p.consoleAllowed(w, r, service.MayAdministerTokens)
	if !ok {
		return
	}
	in := service.APITokenInput{Description: strings.TrimSpace(r.PostFormValue("description")), SuperUserToken: pr.SuperUser && r.PostFormValue("super") != ""}
	if pr.SuperUser {
		in.OrganizationGUID = strings.TrimSpace(r.PostFormValue("organization"))
	}
	status := http.StatusOK
	errs := map[string]string{}
	var value string
	if in.Description == "" {
		errs["description"] = i18n.T(lang, "console.tokens.err.description")
	} else if pr.SuperUser && !in.SuperUserToken && in.OrganizationGUID == "" {
		errs["organization"] = i18n.T(lang, "console.tokens.err.organization")
	} else {
		_, raw, err := p.cfg.Service.CreateAPITokenValue(r.Context(), pr, in)
		switch domain.KindOf(err) {
		case 0:
			if err != nil {
				p.serverError(w, r, err)
				return
			}
			value = raw
			status = http.StatusCreated
		case domain.KindInvalid:
			errs["description"] = i18n.T(lang, "console.invite.err.refused", err.Error())
		default:
			p.refuse(w, r, err)
			return
		}
	}
	page, ok := p.tokensPage(r, w, lang)
	if !ok {
		return
	}
	page.Errors = errs
	if value != "" {
		c := newCopyToken(lang, value)
		page.NewToken = &c
	}
	if len(errs) > 0 {
		page.Description, page.Organization = in.Description, in.OrganizationGUID
		page.OrganizationSelect = page.OrganizationSelect.with(in.OrganizationGUID, errs["organization"])
		status = http.StatusBadRequest
	}
	p.render(w, r, status, "console/tokens", page)
}

func (p *Pages) consoleTokenDelete(w http.ResponseWriter, r *http.Request) {
	p.actOnPathID(w, r, "/console/tokens", "tokenDeleted", p.cfg.Service.DeleteAPIToken)
}

package web

import (
	"encoding/csv"
	"errors"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/i18n"
	"github.com/edu-invite/invite/shared/service"
)

// invitePage is the invite form: what was typed, and beside each wrong
// field what is wrong with it.
type invitePage struct {
	consolePage
	// Roles are the chosen roles, then one page of the roles the caller
	// may invite to (List's search and page; the pager's buttons post the
	// form, so what was typed and chosen is kept).
	Roles       []roleChoice
	List        listState
	Pager       pager
	Authorities []choice
	LangChoices []choice
	Recipients  string
	Message     string
	Expiry      string
	EndDate     string
	NoMail      bool
	MinDate     string
	// Errors by field name; RecipientErrors one per rejected recipient.
	Errors          map[string]string
	RecipientErrors []string
}

type roleChoice struct {
	ID      int64
	Name    string
	Checked bool
}

type choice struct {
	Value, Label string
	Selected     bool
}

// inviteForm is the posted form.
type inviteForm struct {
	roleIDs    []int64
	authority  string
	recipients string
	csv        []byte
	message    string
	language   string
	expiry     string
	endDate    string
	noMail     bool
}

// maxInviteUpload bounds the posted form with its CSV file.
const maxInviteUpload = 1 << 20

func (p *Pages) consoleInviteForm(w http.ResponseWriter, r *http.Request) {
	pr, lang, ok := p.console(w, r)
	if !ok {
		return
	}
	var roleIDs []int64
	if id, err := strconv.ParseInt(r.URL.Query().Get("role"), 10, 64); err == nil {
		roleIDs = []int64{id}
	}
	form := inviteForm{roleIDs: roleIDs, authority: string(domain.Guest), language: lang,
		expiry: p.now().AddDate(0, 0, 14).UTC().Format(time.DateOnly)}
	page, ok := p.invitePage(w, r, pr, lang, form)
	if !ok {
		return
	}
	p.render(w, r, http.StatusOK, "console/invite", page)
}

// inviteRoleSorts: the form offers roles by name.
var inviteRoleSorts = []string{"name"}

// invitePage fills the form's choices: the chosen roles (read by id) and
// one page of the role listing (service.InvitableRoles, narrowed by the
// form's search), and the authorities the person may grant there
// (service.RightsOn). A page costs what a role list page costs however
// many roles the person's scope holds. Nobody who may invite to no role
// gets the form (403).
func (p *Pages) invitePage(w http.ResponseWriter, r *http.Request, pr *auth.Principal, lang string, f inviteForm) (invitePage, bool) {
	page := invitePage{consolePage: p.consoleBase(r, pr, lang, "console.invite.title", "roles"), Recipients: f.recipients,
		Message: f.message, Expiry: f.expiry, EndDate: f.endDate, NoMail: f.noMail, Errors: map[string]string{},
		MinDate: p.now().UTC().AddDate(0, 0, 1).Format(time.DateOnly)}
	if !service.MayListRoles(pr) {
		p.forbidden(w, r)
		return page, false
	}
	st := listStateOf(r, inviteRoleSorts)
	st.Private, st.SearchLabel = true, i18n.T(lang, "console.invite.search")
	listed, err := p.cfg.Service.InvitableRoles(r.Context(), pr, st.request())
	bound, broad := domain.IsSearchTooBroad(err)
	if err != nil && !broad {
		p.refuse(w, r, err)
		return page, false
	}
	if broad {
		st.SearchError = i18n.T(lang, "console.roles.tooBroad", bound)
	}
	chosenRoles, err := p.cfg.Service.ChosenInvitableRoles(r.Context(), pr, f.roleIDs)
	if err != nil {
		p.refuse(w, r, err)
		return page, false
	}
	page.List, page.Pager = st, st.pager(lang, listed.Total)
	chosen := map[int64]bool{}
	for _, id := range f.roleIDs {
		chosen[id] = true
	}
	grantable := map[domain.Authority]bool{}
	for _, role := range append(chosenRoles, listed.Items...) {
		if slices.ContainsFunc(page.Roles, func(c roleChoice) bool { return c.ID == role.ID }) {
			continue
		}
		rights := service.RightsOn(pr, role)
		if len(rights.Grantable) == 0 {
			continue
		}
		page.Roles = append(page.Roles, roleChoice{ID: role.ID, Name: role.Name, Checked: chosen[role.ID]})
		if len(chosen) == 0 || chosen[role.ID] {
			for _, a := range rights.Grantable {
				grantable[a] = true
			}
		}
	}
	// The whole listing is empty: the person may invite to no role. A
	// search or a later page that finds none keeps the form.
	if len(page.Roles) == 0 && st.Query == "" && st.Page == 1 {
		p.forbidden(w, r)
		return page, false
	}
	if len(listed.Items) == 0 && !broad {
		page.List.SearchError = i18n.T(lang, "console.invite.noRoles")
	}
	for _, a := range []domain.Authority{domain.Guest, domain.Inviter, domain.Manager, domain.ApplicationManager, domain.InstitutionAdmin} {
		if grantable[a] {
			page.Authorities = append(page.Authorities, choice{Value: string(a), Label: i18n.T(lang, "console.authority."+string(a)), Selected: string(a) == f.authority})
		}
	}
	for _, l := range i18n.Languages {
		page.LangChoices = append(page.LangChoices, choice{Value: l, Label: languageLabels[l], Selected: l == firstNonEmpty(f.language, lang)})
	}
	return page, true
}

func (p *Pages) consoleInvite(w http.ResponseWriter, r *http.Request) {
	pr, lang, ok := p.console(w, r)
	if !ok {
		return
	}
	f, err := readInviteForm(w, r)
	if err != nil {
		http.Error(w, "form too large", http.StatusRequestEntityTooLarge)
		return
	}
	page, ok := p.invitePage(w, r, pr, lang, f)
	if !ok {
		return
	}
	// A search of the roles or a page of them: the form again, as typed.
	// Enter (the default button) searches when the search field holds a
	// query other than the one the form showed, and sends otherwise.
	entered := r.PostFormValue("enter") != "" && r.PostFormValue("q") != r.PostFormValue("searched")
	if r.PostFormValue("searchroles") != "" || r.PostFormValue("page") != "" || entered {
		p.render(w, r, http.StatusOK, "console/invite", page)
		return
	}
	in := service.InvitationInput{IntendedAuthority: f.authority, Message: strings.TrimSpace(f.message), Language: f.language,
		SuppressSendingEmails: f.noMail, RoleIDs: f.roleIDs, GuestRoleIncluded: f.authority == string(domain.Guest)}
	// Recipients, each checked with the service's own rule.
	plain, placeholders, problems := p.recipients(lang, f)
	page.RecipientErrors = problems
	if len(problems) > 0 {
		page.Errors["recipients"] = i18n.T(lang, "console.invite.err.recipients")
	} else if len(plain)+len(placeholders) == 0 {
		page.Errors["recipients"] = i18n.T(lang, "console.invite.err.noRecipients")
	}
	if len(f.roleIDs) == 0 {
		page.Errors["roles"] = i18n.T(lang, "console.invite.err.roles")
	}
	now := p.now()
	if exp, err := parseDay(f.expiry); err != nil || !exp.After(now) {
		page.Errors["expiry"] = i18n.T(lang, "console.invite.err.expiry")
	} else {
		in.ExpiryDate = &exp
	}
	if f.endDate != "" {
		if end, err := parseDay(f.endDate); err != nil || !end.After(now) {
			page.Errors["endDate"] = i18n.T(lang, "console.invite.err.endDate")
		} else {
			in.RoleExpiryDate = &end
		}
	}
	if len(page.Errors) > 0 {
		p.render(w, r, http.StatusBadRequest, "console/invite", page)
		return
	}
	var results []service.RecipientURL
	for _, batch := range []service.InvitationInput{withPlain(in, plain), withPlaceholders(in, placeholders)} {
		if len(batch.Invites)+len(batch.WithPlaceholders) == 0 {
			continue
		}
		res, err := p.cfg.Service.Invite(r.Context(), pr, batch)
		switch domain.KindOf(err) {
		case 0:
			if err != nil {
				p.serverError(w, r, err)
				return
			}
		case domain.KindForbidden:
			page.Errors["authority"] = i18n.T(lang, "console.invite.err.forbidden")
			p.render(w, r, http.StatusForbidden, "console/invite", page)
			return
		case domain.KindInvalid, domain.KindNotFound:
			page.Errors["roles"] = i18n.T(lang, "console.invite.err.refused", err.Error())
			if tooMany := (*service.TooManyRolesError)(nil); errors.As(err, &tooMany) {
				page.Errors["roles"] = i18n.T(lang, "console.invite.err.tooManyRoles", tooMany.Most)
			}
			p.render(w, r, http.StatusBadRequest, "console/invite", page)
			return
		case domain.KindLimit: // the daily number of invitations
			page.Errors["recipients"] = i18n.T(lang, "console.invite.err.refused", err.Error())
			p.render(w, r, http.StatusTooManyRequests, "console/invite", page)
			return
		default:
			p.refuse(w, r, err)
			return
		}
		results = append(results, res.URLs...)
	}
	out := invitedPage{consolePage: p.consoleBase(r, pr, lang, "console.invited.title", "roles"), Lead: i18n.T(lang, "console.invited.lead")}
	if len(f.roleIDs) == 1 {
		out.RoleHref = "/console/roles/" + strconv.FormatInt(f.roleIDs[0], 10)
	}
	for _, u := range results {
		state := i18n.T(lang, "console.invited.mailQueued")
		if f.noMail {
			state = i18n.T(lang, "console.invited.noMail")
		}
		out.Recipients = append(out.Recipients, newInvitedRow(lang, len(out.Recipients), u.Recipient, u.InvitationURL, state))
	}
	p.render(w, r, http.StatusCreated, "console/invited", out)
}

// invitedPage is the result: every recipient with its link and what
// happened to the e-mail.
type invitedPage struct {
	consolePage
	Lead       string // what happened, above the list
	Recipients []invitedRow
	RoleHref   string
	// BackKey words the way back to RoleHref: the role, or the
	// administrators page after an administrator invitation.
	BackKey string
}

type invitedRow struct {
	Email, MailState string
	Copy             copyLink
}

// newInvitedRow is the i-th recipient of the result page; its link's field
// is #link-i.
func newInvitedRow(lang string, i int, email, link, mailState string) invitedRow {
	return invitedRow{Email: email, MailState: mailState, Copy: newCopyLink(lang, "link-"+strconv.Itoa(i), email, link)}
}

func withPlain(in service.InvitationInput, emails []string) service.InvitationInput {
	in.Invites = emails
	return in
}

func withPlaceholders(in service.InvitationInput, rs []service.PlaceholderRecipient) service.InvitationInput {
	in.WithPlaceholders = rs
	return in
}

func readInviteForm(w http.ResponseWriter, r *http.Request) (inviteForm, error) {
	r.Body = http.MaxBytesReader(w, r.Body, maxInviteUpload)
	if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data") {
		if err := r.ParseMultipartForm(maxInviteUpload); err != nil {
			return inviteForm{}, err
		}
	} else if err := r.ParseForm(); err != nil {
		return inviteForm{}, err
	}
	f := inviteForm{authority: r.PostFormValue("authority"), recipients: r.PostFormValue("recipients"),
		message: r.PostFormValue("message"), language: i18n.Supported(r.PostFormValue("language")),
		expiry: strings.TrimSpace(r.PostFormValue("expiry")), endDate: strings.TrimSpace(r.PostFormValue("endDate")),
		noMail: r.PostFormValue("nomail") != ""}
	for _, s := range r.PostForm["role"] {
		if id, err := strconv.ParseInt(s, 10, 64); err == nil {
			f.roleIDs = append(f.roleIDs, id)
		}
	}
	if r.MultipartForm != nil {
		if files := r.MultipartForm.File["csv"]; len(files) > 0 && files[0].Size > 0 {
			fh, err := files[0].Open()
			if err != nil {
				return inviteForm{}, err
			}
			defer fh.Close()
			if f.csv, err = io.ReadAll(fh); err != nil {
				return inviteForm{}, err
			}
		}
	}
	return f, nil
}

// recipients reads the pasted list (addresses one per line or separated
// by commas or semicolons; a line "address,identifier" whose second field
// is no address gives the internal placeholder identifier, as in the CSV)
// and the CSV file (email,internalPlaceholderIdentifier, an optional
// header). Each address is checked by service.CheckRecipient; problems
// name the recipient and the reason.
func (p *Pages) recipients(lang string, f inviteForm) ([]string, []service.PlaceholderRecipient, []string) {
	type entry struct{ email, placeholder string }
	var entries []entry
	for _, line := range strings.Split(f.recipients, "\n") {
		fields := strings.FieldsFunc(line, func(r rune) bool { return r == ',' || r == ';' })
		for i := range fields {
			fields[i] = strings.TrimSpace(fields[i])
		}
		if len(fields) == 2 && fields[1] != "" && !strings.Contains(fields[1], "@") {
			entries = append(entries, entry{fields[0], fields[1]})
			continue
		}
		for _, fl := range fields {
			for _, e := range strings.Fields(fl) {
				entries = append(entries, entry{email: e})
			}
		}
	}
	var problems []string
	if len(f.csv) > 0 {
		rd := csv.NewReader(strings.NewReader(string(f.csv)))
		rd.FieldsPerRecord = -1
		rd.TrimLeadingSpace = true
		for n := 1; ; n++ {
			rec, err := rd.Read()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				problems = append(problems, i18n.T(lang, "console.invite.err.csv", n))
				break
			}
			if n == 1 && strings.EqualFold(strings.TrimSpace(rec[0]), "email") {
				continue
			}
			e := entry{email: strings.TrimSpace(rec[0])}
			if len(rec) > 1 {
				e.placeholder = strings.TrimSpace(rec[1])
			}
			if e.email != "" {
				entries = append(entries, e)
			}
		}
	}
	var plain []string
	var withID []service.PlaceholderRecipient
	seen := map[string]bool{}
	for _, e := range entries {
		email, err := service.CheckRecipient(e.email)
		switch {
		case err != nil:
			problems = append(problems, i18n.T(lang, "console.invite.err.address", e.email))
		case seen[strings.ToLower(email)]:
			problems = append(problems, i18n.T(lang, "console.invite.err.twice", email))
		case e.placeholder != "":
			withID = append(withID, service.PlaceholderRecipient{Email: email, InternalPlaceholderIdentifier: e.placeholder})
		default:
			plain = append(plain, email)
		}
		seen[strings.ToLower(email)] = true
	}
	return plain, withID, problems
}

// parseDay reads a date field (yyyy-mm-dd) as the end of that day, UTC.
func parseDay(s string) (time.Time, error) {
	d, err := time.Parse(time.DateOnly, strings.TrimSpace(s))
	if err != nil {
		return time.Time{}, err
	}
	return d.Add(24*time.Hour - time.Second), nil
}

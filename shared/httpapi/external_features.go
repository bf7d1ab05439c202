package httpapi

import (
	"cmp"
	"net/http"
	"slices"
	"strconv"

	"github.com/edu-invite/invite/shared/domain"

	"github.com/edu-invite/invite/shared/service"
)

// vootGroup is a group membership in VOOT's terms.
type vootGroup struct {
	ID          string            `json:"id"`
	URN         string            `json:"urn"`
	Name        string            `json:"name"`
	DisplayName string            `json:"displayName"`
	Description string            `json:"description"`
	Membership  map[string]string `json:"membership"`
}

// vootGroups lists the groups (roles) of the person whose subject is {id}.
func (a *API) vootGroups(w http.ResponseWriter, r *http.Request) {
	p, ok := requireCaller(w, r)
	if !ok {
		return
	}
	ms, err := a.Service.MembershipsOfSubject(r.Context(), p, r.PathValue("id"))
	respond(w, r, http.StatusOK, mapSlice(ms, func(m service.UserMembership) vootGroup {
		return vootGroup{ID: m.Role.URN, URN: m.Role.URN, Name: m.Role.Name, DisplayName: m.Role.Name,
			Description: m.Role.Description, Membership: map[string]string{"basic": vootMembership(m)}}
	}), err)
}

func vootMembership(m service.UserMembership) string {
	switch {
	case m.UserRole.Authority.AtLeast("MANAGER"):
		return "admin"
	case m.UserRole.Authority.AtLeast("INVITER"):
		return "manager"
	}
	return "member"
}

// eduPersonEntitlement is the attribute the aggregator adds.
const eduPersonEntitlement = "urn:mace:dir:attribute-def:eduPersonEntitlement"

type aggregatedAttribute struct {
	Name   string   `json:"name"`
	Values []string `json:"values"`
}

// aggregatedAttributes answers the person's role URNs as entitlements; with
// SPentityID only the roles of that application (its manageId).
func (a *API) aggregatedAttributes(w http.ResponseWriter, r *http.Request) {
	p, ok := requireCaller(w, r)
	if !ok {
		return
	}
	ms, err := a.Service.MembershipsOfSubject(r.Context(), p, r.PathValue("id"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	app := r.URL.Query().Get("SPentityID")
	var values []string
	for _, m := range ms {
		if app == "" || slices.Contains(m.Role.ManageIDs(), app) {
			values = append(values, m.Role.URN)
		}
	}
	out := []aggregatedAttribute{}
	if len(values) > 0 {
		out = append(out, aggregatedAttribute{Name: eduPersonEntitlement, Values: values})
	}
	writeJSON(w, http.StatusOK, out)
}

// lifecycleAttribute is one item of the user lifecycle API's data.
type lifecycleAttribute struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type lifecycleBody struct {
	Status string               `json:"status"`
	Name   string               `json:"name"`
	Data   []lifecycleAttribute `json:"data"`
}

// deprovision is the user lifecycle API: GET exports what the service
// holds about the person with subject {id}; DELETE erases it (also at every
// SP where the person exists), or with dry-run=true only reports.
func (a *API) deprovision(erase bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		p, ok := requireCaller(w, r)
		if !ok {
			return
		}
		dryRun, err := boolParam(r, "dry-run", false)
		if err != nil {
			writeError(w, r, err)
			return
		}
		report, err := a.Service.DeprovisionUser(r.Context(), p, r.PathValue("id"), erase, dryRun)
		if err != nil {
			writeError(w, r, err)
			return
		}
		body := lifecycleBody{Status: "OK", Name: "invite", Data: []lifecycleAttribute{}}
		if report.Found {
			u := report.User
			last := ""
			if t := isoTime(u.LastActivity); t != nil {
				last = *t
			}
			for _, kv := range [][2]string{{"id", strconv.FormatInt(u.ID, 10)}, {"sub", u.Sub}, {"email", u.Email}, {"name", u.DisplayName()},
				{"eduPersonPrincipalName", u.EduPersonPrincipalName}, {"schacHomeOrganization", u.SchacHomeOrganization},
				{"lastActivity", last}} {
				if kv[1] != "" {
					body.Data = append(body.Data, lifecycleAttribute{Name: kv[0], Value: kv[1]})
				}
			}
			for _, m := range report.Memberships {
				body.Data = append(body.Data, lifecycleAttribute{Name: "role", Value: m.Role.Name + " (" + string(m.UserRole.Authority) + ")"})
			}
		}
		writeJSON(w, http.StatusOK, body)
	}
}

// profileRole is one role of the user profile (the reference's
// UserRoleProfile) with the applications it gives access to.
type profileRole struct {
	Name         string               `json:"name"`
	Description  string               `json:"description"`
	Applications []profileApplication `json:"applications"`
}

type profileApplication struct {
	LandingPage    string `json:"landingPage"`
	NameEn         string `json:"nameEn"`
	NameNl         string `json:"nameNl"`
	OrganisationEn string `json:"organisationEn"`
	OrganisationNl string `json:"organisationNl"`
	Logo           string `json:"logo"`
}

// userProfile lists the roles the person named by collabPersonId (their
// subject) is a guest of.
func (a *API) userProfile(w http.ResponseWriter, r *http.Request) {
	p, ok := requireCaller(w, r)
	if !ok {
		return
	}
	roles, err := a.Service.GuestRolesOfSubject(r.Context(), p, r.URL.Query().Get("collabPersonId"))
	respond(w, r, http.StatusOK, mapSlice(roles, func(role domain.Role) profileRole {
		apps := []profileApplication{}
		for _, u := range role.ApplicationUsages {
			app := u.Application
			if known, ok := a.Service.Registry.Application(app.ManageID); ok {
				app = known
			}
			apps = append(apps, profileApplication{LandingPage: cmp.Or(u.LandingPage, app.LandingPage),
				NameEn: app.Name, NameNl: app.NameNL, OrganisationEn: app.OrganizationName,
				OrganisationNl: app.OrganizationNameNL, Logo: app.LogoURL})
		}
		return profileRole{Name: role.Name, Description: role.Description, Applications: apps}
	}), err)
}

type roleSummary struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	URN         string `json:"urn"`
}

// rolesSummary is the internal invite API's list of all non-CRM roles.
func (a *API) rolesSummary(w http.ResponseWriter, r *http.Request) {
	p, ok := requireCaller(w, r)
	if !ok {
		return
	}
	roles, err := a.Service.RolesSummary(r.Context(), p)
	respond(w, r, http.StatusOK, mapSlice(roles, func(role domain.Role) roleSummary {
		return roleSummary{Name: role.Name, Description: role.Description, URN: role.URN}
	}), err)
}

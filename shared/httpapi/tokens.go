package httpapi

import (
	"net/http"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

// APITokenJSON is the token response: never the value or its
// hash. expiresAt is this service's addition.
type APITokenJSON struct {
	ID               int64   `json:"id"`
	OrganizationGUID string  `json:"organizationGUID,omitempty"`
	SuperUserToken   bool    `json:"superUserToken"`
	Description      string  `json:"description"`
	CreatedAt        *string `json:"createdAt"`
	Owner            string  `json:"owner,omitempty"`
	ExpiresAt        *string `json:"expiresAt,omitempty"`
}

// APITokenRequestJSON is the API token request; id,
// hashedValue and createdAt are the server's to set and are ignored.
type APITokenRequestJSON struct {
	Description      string    `json:"description"`
	OrganizationGUID string    `json:"organizationGUID"`
	SuperUserToken   bool      `json:"superUserToken"`
	ExpiresAt        *FlexTime `json:"expiresAt"`
}

func apiTokenJSON(t domain.APIToken) APITokenJSON {
	return APITokenJSON{ID: t.ID, OrganizationGUID: t.OrganizationGUID, SuperUserToken: t.SuperUserToken, Description: t.Description,
		CreatedAt: isoTime(t.CreatedAt), Owner: t.Owner, ExpiresAt: isoTimePtr(t.ExpiresAt)}
}

func (a *API) listTokens(w http.ResponseWriter, r *http.Request) {
	p, ok := requireCaller(w, r)
	if !ok {
		return
	}
	toks, err := a.Service.ListAPITokens(r.Context(), p)
	respond(w, r, http.StatusOK, mapSlice(toks, apiTokenJSON), err)
}

func (a *API) generateToken(w http.ResponseWriter, r *http.Request) {
	p, ok := requireCaller(w, r)
	if !ok {
		return
	}
	raw, err := a.Service.GenerateAPIToken(r.Context(), p)
	if err != nil {
		writeError(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]string{"token": raw})
}

func (a *API) createToken(w http.ResponseWriter, r *http.Request) {
	p, body, ok := callerAndBody[APITokenRequestJSON](w, r)
	if !ok {
		return
	}
	in := service.APITokenInput{Description: body.Description, OrganizationGUID: body.OrganizationGUID, SuperUserToken: body.SuperUserToken,
		ExpiresAt: body.ExpiresAt.Ptr()}
	tok, err := a.Service.CreateAPIToken(r.Context(), p, in)
	respond(w, r, http.StatusOK, apiTokenJSON(tok), err)
}

func (a *API) deleteToken(w http.ResponseWriter, r *http.Request) {
	p, id, ok := callerAndID(w, r)
	if !ok {
		return
	}
	respondNoContent(w, r, a.Service.DeleteAPIToken(r.Context(), p, id))
}

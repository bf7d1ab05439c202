package httpapi

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"

	"github.com/edu-invite/invite/shared/config"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

func (a *API) listApplications(w http.ResponseWriter, r *http.Request) {
	if p, ok := requireCaller(w, r); ok {
		res, err := a.Service.ListApplications(r.Context(), p)
		respond(w, r, http.StatusOK, res, err)
	}
}

func (a *API) getApplication(w http.ResponseWriter, r *http.Request) {
	if p, ok := requireCaller(w, r); ok {
		res, err := a.Service.GetApplication(r.Context(), p, r.PathValue("manageId"))
		respond(w, r, http.StatusOK, res, err)
	}
}

func (a *API) createApplication(w http.ResponseWriter, r *http.Request) {
	if p, in, ok := callerAndBody[service.ApplicationView](w, r); ok {
		res, err := a.Service.CreateApplication(r.Context(), p, in)
		respond(w, r, http.StatusCreated, res, err)
	}
}

func (a *API) updateApplication(w http.ResponseWriter, r *http.Request) {
	if p, in, ok := callerAndBody[service.ApplicationView](w, r); ok {
		res, err := a.Service.UpdateApplication(r.Context(), p, r.PathValue("manageId"), in)
		respond(w, r, http.StatusOK, res, err)
	}
}

func (a *API) deleteApplication(w http.ResponseWriter, r *http.Request) {
	if p, ok := requireCaller(w, r); ok {
		respondNoContent(w, r, a.Service.DeleteApplication(r.Context(), p, r.PathValue("manageId")))
	}
}

func (a *API) listConnections(w http.ResponseWriter, r *http.Request) {
	if p, ok := requireCaller(w, r); ok {
		res, err := a.Service.ListConnections(r.Context(), p)
		respond(w, r, http.StatusOK, res, err)
	}
}

func (a *API) getConnection(w http.ResponseWriter, r *http.Request) {
	if p, ok := requireCaller(w, r); ok {
		res, err := a.Service.GetConnection(r.Context(), p, r.PathValue("id"))
		respond(w, r, http.StatusOK, res, err)
	}
}

func (a *API) createConnection(w http.ResponseWriter, r *http.Request) {
	if p, in, ok := callerAndBody[service.ConnectionInput](w, r); ok {
		res, err := a.Service.CreateConnection(r.Context(), p, in)
		respond(w, r, http.StatusCreated, res, err)
	}
}

func (a *API) updateConnection(w http.ResponseWriter, r *http.Request) {
	if p, in, ok := callerAndBody[service.ConnectionInput](w, r); ok {
		res, err := a.Service.UpdateConnection(r.Context(), p, r.PathValue("id"), in)
		respond(w, r, http.StatusOK, res, err)
	}
}

func (a *API) deleteConnection(w http.ResponseWriter, r *http.Request) {
	if p, ok := requireCaller(w, r); ok {
		respondNoContent(w, r, a.Service.DeleteConnection(r.Context(), p, r.PathValue("id")))
	}
}

// testConnection answers the report with 200 whatever it says: the test
// ran; the report tells whether the connection works.
func (a *API) testConnection(w http.ResponseWriter, r *http.Request) {
	if p, ok := requireCaller(w, r); ok {
		res, err := a.Service.TestConnection(r.Context(), p, r.PathValue("id"))
		respond(w, r, http.StatusOK, res, err)
	}
}

// importRegistry loads an applications document. Unlike the other bodies,
// unknown fields are refused: a misspelt key in a document must not be
// dropped silently.
func (a *API) importRegistry(w http.ResponseWriter, r *http.Request) {
	p, ok := requireCaller(w, r)
	if !ok {
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 4*maxBody))
	if err != nil {
		writeError(w, r, domain.Invalidf("cannot read the document (at most %d bytes)", 4*maxBody))
		return
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	var doc config.Document
	if err := dec.Decode(&doc); err != nil {
		writeError(w, r, domain.Invalidf("the applications document is not valid: %s", err.Error()))
		return
	}
	res, err := a.Service.ImportRegistry(r.Context(), p, doc)
	respond(w, r, http.StatusOK, res, err)
}

func (a *API) registryChanges(w http.ResponseWriter, r *http.Request) {
	p, ok := requireCaller(w, r)
	if !ok {
		return
	}
	limit := 100
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 500 {
			writeError(w, r, domain.Invalidf("limit must be a number from 1 to 500"))
			return
		}
		limit = n
	}
	res, err := a.Service.RegistryChanges(r.Context(), p, limit)
	respond(w, r, http.StatusOK, res, err)
}

func (a *API) manageProviders(w http.ResponseWriter, r *http.Request) {
	if p, ok := requireCaller(w, r); ok {
		res, err := a.Service.ManageProviders(p)
		respond(w, r, http.StatusOK, res, err)
	}
}

func (a *API) allApplications(w http.ResponseWriter, r *http.Request) {
	if p, ok := requireCaller(w, r); ok {
		res, err := a.Service.AllApplications(p)
		respond(w, r, http.StatusOK, res, err)
	}
}

func (a *API) identityProviders(w http.ResponseWriter, r *http.Request) {
	if p, ok := requireCaller(w, r); ok {
		res, err := a.Service.IdentityProviders(p)
		respond(w, r, http.StatusOK, res, err)
	}
}

func (a *API) authnContextValues(w http.ResponseWriter, r *http.Request) {
	if p, ok := requireCaller(w, r); ok {
		res, err := a.Service.AuthnContextValues(p)
		respond(w, r, http.StatusOK, res, err)
	}
}

func (a *API) hasProvisioning(w http.ResponseWriter, r *http.Request) {
	if p, ok := requireCaller(w, r); ok {
		res, err := a.Service.ApplicationHasProvisioning(p, r.PathValue("id"))
		respond(w, r, http.StatusOK, res, err)
	}
}

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

// registryRoutes serves the management of applications and SCIM
// connections (issue 16) and the reference's manage lookups. Every
// handler leaves authorization to the service (super users all,
// institution admins their own institution's).
func (a *API) registryRoutes(mux *routes) {
	const reg = "/api/v1/manage/registry"
	mux.HandleFunc("GET "+reg+"/applications", a.listApplications)
	mux.HandleFunc("POST "+reg+"/applications", a.createApplication)
	mux.HandleFunc("GET "+reg+"/applications/{manageId}", a.getApplication)
	mux.HandleFunc("PUT "+reg+"/applications/{manageId}", a.updateApplication)
	mux.HandleFunc("DELETE "+reg+"/applications/{manageId}", a.deleteApplication)
	mux.HandleFunc("GET "+reg+"/connections", a.listConnections)
	mux.HandleFunc("POST "+reg+"/connections", a.createConnection)
	mux.HandleFunc("GET "+reg+"/connections/{id}", a.getConnection)
	mux.HandleFunc("PUT "+reg+"/connections/{id}", a.updateConnection)
	mux.HandleFunc("DELETE "+reg+"/connections/{id}", a.deleteConnection)
	mux.HandleFunc("POST "+reg+"/connections/{id}/test", a.testConnection)
	mux.HandleFunc("POST "+reg+"/import", a.importRegistry)
	mux.HandleFunc("GET "+reg+"/changes", a.registryChanges)

	mux.HandleFunc("GET /api/v1/manage/providers", a.manageProviders)
	mux.HandleFunc("GET /api/v1/manage/all-applications", a.allApplications)
	mux.HandleFunc("GET /api/v1/manage/identity-providers", a.identityProviders)
	mux.HandleFunc("GET /api/v1/manage/requested-authn-context-values", a.authnContextValues)
	mux.HandleFunc("GET /api/v1/manage/provisionings/{id}", a.hasProvisioning)
}

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

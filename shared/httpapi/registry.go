package httpapi

import (
	"context"
	"io"
	"net/http"
	"strconv"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/config"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

// registryKind is one kind of registry entry, applications or SCIM
// connections: both are listed, read, created, updated and deleted the same
// way, through the service's methods for that kind. In is the body of a
// create or update, View what is answered.
type registryKind[In, View any] struct {
	key    string // the path value naming one entry
	list   func(context.Context, *auth.Principal) ([]View, error)
	get    func(context.Context, *auth.Principal, string) (View, error)
	create func(context.Context, *auth.Principal, In) (View, error)
	update func(context.Context, *auth.Principal, string, In) (View, error)
	delete func(context.Context, *auth.Principal, string) error
}

func (a *API) applications() registryKind[service.ApplicationView, service.ApplicationView] {
	return registryKind[service.ApplicationView, service.ApplicationView]{key: "manageId",
		list: a.Service.ListApplications, get: a.Service.GetApplication, create: a.Service.CreateApplication,
		update: a.Service.UpdateApplication, delete: a.Service.DeleteApplication}
}

func (a *API) connections() registryKind[service.ConnectionInput, service.ConnectionView] {
	return registryKind[service.ConnectionInput, service.ConnectionView]{key: "id",
		list: a.Service.ListConnections, get: a.Service.GetConnection, create: a.Service.CreateConnection,
		update: a.Service.UpdateConnection, delete: a.Service.DeleteConnection}
}

func (k registryKind[In, View]) listAll(w http.ResponseWriter, r *http.Request) {
	if p, ok := requireCaller(w, r); ok {
		res, err := k.list(r.Context(), p)
		respond(w, r, http.StatusOK, res, err)
	}
}

func (k registryKind[In, View]) getOne(w http.ResponseWriter, r *http.Request) {
	if p, ok := requireCaller(w, r); ok {
		res, err := k.get(r.Context(), p, r.PathValue(k.key))
		respond(w, r, http.StatusOK, res, err)
	}
}

func (k registryKind[In, View]) createOne(w http.ResponseWriter, r *http.Request) {
	if p, in, ok := callerAndBody[In](w, r); ok {
		res, err := k.create(r.Context(), p, in)
		respond(w, r, http.StatusCreated, res, err)
	}
}

func (k registryKind[In, View]) updateOne(w http.ResponseWriter, r *http.Request) {
	if p, in, ok := callerAndBody[In](w, r); ok {
		res, err := k.update(r.Context(), p, r.PathValue(k.key), in)
		respond(w, r, http.StatusOK, res, err)
	}
}

func (k registryKind[In, View]) deleteOne(w http.ResponseWriter, r *http.Request) {
	if p, ok := requireCaller(w, r); ok {
		respondNoContent(w, r, k.delete(r.Context(), p, r.PathValue(k.key)))
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
	if !isJSONMediaType(r.Header.Get("Content-Type")) {
		writeError(w, r, &statusError{status: http.StatusUnsupportedMediaType, exception: "HttpMediaTypeNotSupportedException",
			message: "Content-Type must be application/json"})
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 4*maxBody))
	if err != nil {
		writeError(w, r, domain.Invalidf("cannot read the document (at most %d bytes)", 4*maxBody))
		return
	}
	var doc config.Document
	if err := decodeStrictBody(body, &doc); err != nil {
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

package httpapi

// tokenRoutes serves /api/v1/tokens (T1, list, delete).
func (a *API) tokenRoutes(mux *routes) {
}

package httpapi

// userRoutes serves /api/v1/users (U1–U6, user deletion).
func (a *API) userRoutes(mux *routes) {
}

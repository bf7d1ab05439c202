package httpapi

// auditRoutes serves /api/v1/user_roles_audit (A1).
func (a *API) auditRoutes(mux *routes) {
}

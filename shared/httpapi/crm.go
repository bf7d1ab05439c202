package httpapi

// crmRoutes serves the CRM-linked operations (C1–C7).
func (a *API) crmRoutes(mux *routes) {
}

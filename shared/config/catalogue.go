package config

// ProvisioningMetadata describes a SCIM target for the metadata lookup
// (spec S7, type PROVISIONING): what it is and which applications use it.
// Credentials and their references are left out.
func (r *Registry) ProvisioningMetadata(id string) (map[string]any, bool) {
	t, ok := r.targets[id]
	if !ok {
		return nil, false
	}
	apps := []string{}
	for _, a := range r.applications {
		for _, pid := range a.ProvisioningIDs {
			if pid == id {
				apps = append(apps, a.ManageID)
			}
		}
	}
	return map[string]any{
		"id": t.SP.ID, "type": "PROVISIONING", "name": t.SP.Name, "scim_url": t.BaseURL, "scim_version": t.Version,
		"scim_user_identifier": string(t.SP.UserIdentifier), "membership": string(t.SP.MembershipMode),
		"auth_method": t.Auth.Method, "applications": apps,
	}, true
}

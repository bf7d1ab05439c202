package auth

// RegistryScope says which applications and SCIM connections the caller
// may manage: all (super users: people and super-user tokens), or those of
// their own institution (institution admins, people only). ok is false for
// everyone else; organization tokens do not manage the registry, so a
// leaked token cannot redirect provisioning.
func (p *Principal) RegistryScope() (organizationGUID string, all bool, ok bool) {
	switch {
	case p == nil:
		return "", false, false
	case p.SuperUser:
		return "", true, true
	case p.isInstitutionAdmin():
		return p.OrganizationGUID, false, true
	}
	return "", false, false
}

// CanManageRegistryItem reports whether the caller may see or change an
// application or connection of the given institution ("" = none).
func (p *Principal) CanManageRegistryItem(organizationGUID string) bool {
	org, all, ok := p.RegistryScope()
	return ok && (all || (organizationGUID != "" && organizationGUID == org))
}

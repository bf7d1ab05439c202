package auth

// OrganizationScope says which organizations the caller sees by name: all
// (super users, people and super-user tokens), or the caller's own
// (institution admins and organization tokens). ok is false for everyone
// else: guests and role managers choose no organization.
func (p *Principal) OrganizationScope() (organizationGUID string, all bool, ok bool) {
	switch {
	case p == nil:
		return "", false, false
	case p.SuperUser:
		return "", true, true
	case p.isInstitutionAdmin(), p.Kind == KindAPIToken && p.OrganizationGUID != "":
		return p.OrganizationGUID, false, true
	}
	return "", false, false
}

// CanNameOrganizations reports whether the caller may create and rename
// organizations: super users only, for an organization's name is what
// every other organization's people see.
func (p *Principal) CanNameOrganizations() bool {
	return p != nil && p.SuperUser
}

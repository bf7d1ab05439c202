package domain

// Application is an entry of the metadata registry (spec 2.4): an SP or RP
// known by its manage id and type. Applications are items of the table,
// managed through the API and read through a cached registry.
type Application struct {
	ID         int64
	ManageID   string
	ManageType string
	// Name and OrganizationName in English, NameNL and OrganizationNameNL
	// in Dutch.
	Name               string
	NameNL             string
	OrganizationName   string
	OrganizationNameNL string
	LogoURL            string
	// OrganizationGUID is the institution the application belongs to.
	OrganizationGUID string
	LandingPage      string
	// ProvisioningIDs name the SCIM targets (SPs) that this application's
	// users and groups are provisioned to.
	ProvisioningIDs []string
}

// ManageTypes accepted by the metadata lookup (spec 2.4).
var ManageTypes = []string{"SAML20_SP", "OIDC10_RP", "SAML20_IDP", "PROVISIONING", "POLICY"}

// ValidManageType reports whether t is one of ManageTypes.
func ValidManageType(t string) bool {
	for _, m := range ManageTypes {
		if m == t {
			return true
		}
	}
	return false
}

// MembershipMode says how an SP wants group membership changes: the whole
// group with PUT, or the difference with PATCH (spec 3.2).
type MembershipMode string

const (
	MembershipPatch MembershipMode = "PATCH"
	MembershipPut   MembershipMode = "PUT"
)

// UserIdentifier names the user attribute that is the SCIM externalId and
// userName at an SP (spec 1.8).
type UserIdentifier string

const (
	IdentifierEPPN    UserIdentifier = "eduPersonPrincipalName"
	IdentifierSubject UserIdentifier = "sub"
	IdentifierEmail   UserIdentifier = "email"
	IdentifierFedID   UserIdentifier = "fedId"
)

// ServiceProvider is a SCIM provisioning target. Credentials are not part of
// the domain: only the provisioning adapter resolves them.
type ServiceProvider struct {
	ID             string
	Name           string
	MembershipMode MembershipMode
	UserIdentifier UserIdentifier
}

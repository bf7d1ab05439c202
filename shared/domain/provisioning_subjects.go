package domain

// UserRoleKey names one membership: a user in a role.
type UserRoleKey struct{ UserID, RoleID int64 }

// SPLinkKey names the link of one user or group at one SP.
type SPLinkKey struct {
	Kind    ResourceKind
	LocalID int64
	SPID    string
}

// SubjectsQuery names what a batch of deliveries is about, so that it can be
// read in one request instead of one read per item and delivery.
type SubjectsQuery struct {
	Users     []int64
	Roles     []int64
	UserRoles []UserRoleKey
	Links     []SPLinkKey
}

// DeliverySubjects is what a SubjectsQuery found; items that do not exist
// are absent from the maps. A membership may be what its user's role
// summary says of it: its id, authority, end date and whether the guest
// role is included, without its other fields.
type DeliverySubjects struct {
	Users     map[int64]User
	Roles     map[int64]Role
	UserRoles map[UserRoleKey]UserRole
	Links     map[SPLinkKey]SPLink
}

// Outcomes are what a batch of deliveries came to, recorded at once when it
// ends: the SP-side ids of the resources its lines created (links), the
// final statuses of its deliveries never replayed (written without
// FinishDelivery's condition, which only a replay needs), and the audit
// entries of its outcomes (entries with a DeliveryID, in the partition of
// the delivery's role, or of the user).
type Outcomes struct {
	Links     []SPLink
	Delivered []Delivery
	Audit     []AuditEntry
}

// Empty says whether there is nothing to record.
func (o Outcomes) Empty() bool {
	return len(o.Links) == 0 && len(o.Delivered) == 0 && len(o.Audit) == 0
}

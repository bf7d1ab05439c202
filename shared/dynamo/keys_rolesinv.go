package dynamo

// gsi4 holds every open invitation (I4 without a role): a sparse index,
// written only while an invitation is OPEN.
const (
	attrGSI4PK = "gsi4pk"
	attrGSI4SK = "gsi4sk"
	indexGSI4  = "gsi4"

	openInvitationsPK = "INVOPEN"
)

package mail

import "time"

// AppInfo is an application a role gives access to.
type AppInfo struct {
	Name        string
	LandingPage string // optional; shown as a link when set
}

// RoleInfo is a role as the recipient sees it.
type RoleInfo struct {
	Name         string
	Applications []AppInfo
}

// Invitation is the data of the mail that invites someone to one or more roles.
type Invitation struct {
	Language string
	To       string
	// InviterName is how the invitation names the inviter (service's
	// InviterName, as the acceptance page does); "" for "you have been invited".
	InviterName string
	// Authority is the authority the invitation grants (domain.Authority,
	// like "GUEST"), said in words ("as a guest") from the i18n catalogue.
	Authority string
	Message   string // optional personal message from the inviter
	Roles     []RoleInfo
	// Organization names the organization an invitation without roles
	// grants its authority over (an institution admin's); unused with roles.
	Organization string
	ExpiresAt    time.Time  // when the invitation can no longer be accepted
	RoleEndDate  *time.Time // when the granted access ends; nil if it does not
	URL          string     // the accept link, carrying the invitation secret
}

// Reminder is the data of the mail that warns access to a role ends soon.
type Reminder struct {
	Language string
	To       string
	UserName string
	Role     RoleInfo
	EndDate  time.Time
	DaysLeft int
}

// AccessEnded is the data of the mail that says access to a role has ended.
type AccessEnded struct {
	Language string
	To       string
	UserName string
	Role     RoleInfo
}

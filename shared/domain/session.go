package domain

import "time"

// Session is a person's browser session on the pages. It lives on the
// server; the browser's cookie holds only a random id, and the store keys
// the session by that id's digest, so the table never holds a usable id.
type Session struct {
	IDDigest string
	// Person is who signed in.
	Person *SignedInPerson
	// IDToken is the IdP's ID token of the sign-in, sent back as the hint
	// of the IdP's logout.
	IDToken string
	// CreatedAt is the sign-in's completion: the absolute lifetime counts
	// from it.
	CreatedAt time.Time
	// LastSeen moves with use; ExpiresAt is LastSeen plus the idle timeout,
	// but never later than CreatedAt plus the absolute lifetime.
	LastSeen  time.Time
	ExpiresAt time.Time
}

// Expired reports whether the session may no longer be used at now. Readers
// must check it: DynamoDB deletes expired items late (and DynamoDB Local
// never does).
func (s Session) Expired(now time.Time) bool { return !now.Before(s.ExpiresAt) }

// SignedInPerson is what the IdP asserted at a browser sign-in.
type SignedInPerson struct {
	Sub                    string `dynamodbav:"sub"`
	EduPersonPrincipalName string `dynamodbav:"eppn,omitempty"`
	SchacHomeOrganization  string `dynamodbav:"sho,omitempty"`
	Email                  string `dynamodbav:"email,omitempty"`
	GivenName              string `dynamodbav:"givenName,omitempty"`
	FamilyName             string `dynamodbav:"familyName,omitempty"`
	Name                   string `dynamodbav:"name,omitempty"`
	SubjectID              string `dynamodbav:"subjectId,omitempty"`
	UID                    string `dynamodbav:"uid,omitempty"`
	FedID                  string `dynamodbav:"fedId,omitempty"`
	ACR                    string `dynamodbav:"acr,omitempty"`
}

// PendingLogin is a sign-in between the redirect to the IdP and its
// callback, kept in the browser's cookie (shared/web), not in a session.
type PendingLogin struct {
	State        string `dynamodbav:"state"`
	Nonce        string `dynamodbav:"nonce"`
	CodeVerifier string `dynamodbav:"codeVerifier"`
	// Next is the local path to return to afterwards.
	Next string `dynamodbav:"next,omitempty"`
	// ACR is the authentication context asked for, if any.
	ACR string `dynamodbav:"acr,omitempty"`
}

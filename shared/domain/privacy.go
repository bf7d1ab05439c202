package domain

import "regexp"

// emailLike matches e-mail addresses and eduPersonPrincipalNames (both are
// local@domain.tld) in free text.
var emailLike = regexp.MustCompile(`[^\s"'<>()@,;:\\]+@[^\s"'<>()@,;:\\]+\.[A-Za-z]{2,}`)

// RedactEmails replaces the e-mail addresses and eppns in a text that is
// about to be logged (an outside system's error may quote a recipient) with
// "<e-mail>"; ids stay, they tie the line to the audit trail.
func RedactEmails(s string) string { return emailLike.ReplaceAllString(s, "<e-mail>") }

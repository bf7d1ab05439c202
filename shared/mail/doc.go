// Package mail renders the e-mails the service sends: invitations, reminders
// that access is about to end, and notices that access has ended.
//
// Every mail has an HTML and a plain-text part, in English or Dutch. The text
// lives in embedded template files, one directory per language, so that
// wording can change without touching Go code. HTML parts are rendered with
// html/template so that untrusted input (personal messages, names, role
// names) is escaped; text parts are rendered with text/template and carry the
// input verbatim, which is harmless in a text/plain part.
//
// The package knows nothing about AWS: it produces domain.Email values that a
// domain.Mailer sends.
package mail

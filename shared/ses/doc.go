// Package ses sends rendered e-mail through Amazon SES v2; it is the adapter
// behind domain.Mailer.
//
// Mail bodies and recipients are personal data: this package never logs them
// and keeps them out of the errors it returns.
package ses

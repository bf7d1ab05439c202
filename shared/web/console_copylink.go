package web

import "github.com/edu-invite/invite/shared/i18n"

// copyLink is an invitation link shown as a read-only field that can be
// selected, and a "Copy link" button that static/copy.js reveals and
// works (without JavaScript the button stays hidden and the field is
// enough). The copylink template shows it; everything it says is
// translated here.
type copyLink struct {
	FieldID  string // the field's id; the button and its message refer to it
	Label    string // the field's label, naming the recipient
	Link     string
	Button   string // the button's visible text
	ButtonAL string // the button's accessible name: its text and the recipient
	Copied   string // said in the polite live region after copying
	Failed   string // said when the browser refused: the link is selected instead
}

func newCopyLink(lang, fieldID, email, link string) copyLink {
	return copyLink{FieldID: fieldID, Label: i18n.T(lang, "console.invited.link", email), Link: link,
		Button: i18n.T(lang, "console.copy.button"), ButtonAL: i18n.T(lang, "console.copy.buttonFor", email),
		Copied: i18n.T(lang, "console.copy.copied"), Failed: i18n.T(lang, "console.copy.failed")}
}

// newCopyToken is a new API token's value with the same field and button,
// shown once after its creation.
func newCopyToken(lang, value string) copyLink {
	return copyLink{FieldID: "new-token", Label: i18n.T(lang, "console.tokens.value"), Link: value,
		Button: i18n.T(lang, "console.copy.token"), ButtonAL: i18n.T(lang, "console.copy.token"),
		Copied: i18n.T(lang, "console.copy.copied"), Failed: i18n.T(lang, "console.copy.tokenFailed")}
}

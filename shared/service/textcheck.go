package service

import "github.com/edu-invite/invite/shared/domain"

// textField is one free-text input with its bound.
type textField struct {
	name, value string
	max         int
	multiline   bool
}

// checkTexts applies domain.CheckText to each field, in order, so that the
// first bad field is named.
func checkTexts(fields ...textField) error {
	for _, f := range fields {
		if err := domain.CheckText(f.name, f.value, f.max, f.multiline); err != nil {
			return err
		}
	}
	return nil
}

func line(name, value string) textField {
	return textField{name: name, value: value, max: domain.MaxNameLength}
}
func prose(name, value string) textField {
	return textField{name: name, value: value, max: domain.MaxDescriptionLength, multiline: true}
}

// maxApplicationUsages bounds the applications of one role (and so the
// size of its item).
const maxApplicationUsages = 100

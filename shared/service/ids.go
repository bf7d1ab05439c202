package service

import (
	"crypto/rand"
	"fmt"
	"strconv"
)

// Identifiers that the service makes itself; numeric ids come from the
// table's sequences (Store.NextIDs) in each use case.

// newIdentifier returns a random UUID (version 4) for the role's identifier.
func newIdentifier() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = (b[6] & 0x0f) | 0x40
	b[8] = (b[8] & 0x3f) | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// itoa is a numeric id as text, as messages name it.
func itoa(id int64) string { return strconv.FormatInt(id, 10) }

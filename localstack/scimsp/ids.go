package scimsp

import (
	"crypto/rand"
	"fmt"
)

// newID returns a random version-4 UUID. Random rather than counted ids
// make a client that guesses or reuses ids fail visibly.
func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails on supported platforms
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

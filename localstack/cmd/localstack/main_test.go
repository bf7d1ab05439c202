package main

import (
	"strings"
	"testing"
)

// Issue 21 item 6: the banner shows a generated token, never one the
// operator chose.
func TestBannerNeverPrintsAChosenToken(t *testing.T) {
	if b := Banner("http://127.0.0.1:1", "my-own-secret-token-0123456789abcdef", true); strings.Contains(b, "my-own-secret") {
		t.Errorf("chosen token printed:\n%s", b)
	}
	if b := Banner("http://127.0.0.1:1", "generated0123", false); !strings.Contains(b, "X-API-TOKEN: generated0123") {
		t.Errorf("generated token not shown:\n%s", b)
	}
}

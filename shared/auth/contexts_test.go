package auth

import "testing"

func TestContextOrderSatisfies(t *testing.T) {
	order := ContextOrder{"urn:pw", "urn:mfa", "urn:hardware"}
	tests := []struct {
		asserted, required string
		want               bool
	}{
		{"", "", true},
		{"urn:pw", "", true},
		{"urn:pw", "urn:pw", true},
		{"urn:mfa", "urn:pw", true},
		{"urn:hardware", "urn:mfa", true},
		{"urn:pw", "urn:mfa", false},
		{"", "urn:pw", false},
		{"urn:other", "urn:pw", false},
		{"urn:other", "urn:other", true},
		{"urn:mfa", "urn:other", false},
	}
	for _, tt := range tests {
		if got := order.Satisfies(tt.asserted, tt.required); got != tt.want {
			t.Errorf("Satisfies(%q, %q) = %v, want %v", tt.asserted, tt.required, got, tt.want)
		}
	}
	if (ContextOrder(nil)).Satisfies("urn:mfa", "urn:pw") {
		t.Error("without an order, a different context must not satisfy")
	}
}

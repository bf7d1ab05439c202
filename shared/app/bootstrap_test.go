package app

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
)

// Issue 21 item 6: a bootstrap token shorter than 32 characters stops the
// wiring with a message saying how to make one; 32 characters are enough.
func TestBootstrapTokenNeedsThirtyTwoCharacters(t *testing.T) {
	cfg := aws.Config{Region: "eu-west-1"}
	short := strings.Repeat("x", MinBootstrapTokenLength-1)
	_, err := New(context.Background(), Settings{TableName: "invite", BootstrapToken: short}, cfg, nil)
	if err == nil || !strings.Contains(err.Error(), "at least 32 characters") {
		t.Errorf("a %d-character token: error %v, want at least 32 characters", len(short), err)
	}
	if err != nil && strings.Contains(err.Error(), short) {
		t.Errorf("the error repeats the token: %v", err)
	}
	a, err := New(context.Background(), Settings{TableName: "invite", BootstrapToken: short + "x"}, cfg, nil)
	if err != nil {
		t.Fatalf("a 32-character token: %v", err)
	}
	if a.API.Authenticator.BootstrapTokenHash == "" {
		t.Errorf("a 32-character token is not accepted as the bootstrap token")
	}
}

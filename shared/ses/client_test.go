package ses

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"

	"github.com/edu-invite/invite/shared/domain"
)

const (
	testFrom      = "Invite <no-reply@invite.example.org>"
	testConfigSet = "invite-events"
)

// newTestClient returns an SES v2 client that talks to endpoint with dummy
// credentials. It does not retry, so that error tests see one attempt and
// do not wait for back-off.
func newTestClient(t *testing.T, endpoint string) *sesv2.Client {
	t.Helper()
	return sesv2.New(sesv2.Options{
		Region:       "eu-west-1",
		BaseEndpoint: aws.String(endpoint),
		Credentials:  credentials.NewStaticCredentialsProvider("test", "test", ""),
		Retryer:      aws.NopRetryer{},
	})
}

// testEmail is personal data as far as the adapter knows: tests check that
// neither the recipient nor the content leaks into errors.
func testEmail() domain.Email {
	return domain.Email{
		To:      "guest@example.org",
		Subject: "Je toegang tot Onderzoekers is beëindigd",
		HTML:    "<p>Hallo Grace, je toegang is beëindigd.</p>",
		Text:    "Hallo Grace, je toegang is beëindigd.",
	}
}

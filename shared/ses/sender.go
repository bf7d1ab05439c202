package ses

import (
	"context"
	"errors"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/sesv2"

	"github.com/edu-invite/invite/shared/domain"
)

// Sender sends domain.Email values with SES v2 SendEmail.
type Sender struct {
	client           *sesv2.Client
	from             string
	configurationSet string
}

var _ domain.Mailer = (*Sender)(nil)

// NewSender returns a Sender that sends from the address from (a verified SES
// identity). configurationSet names the SES configuration set that gets the
// sending events (bounces, complaints); empty means none.
func NewSender(client *sesv2.Client, from string, configurationSet string) *Sender {
	return &Sender{client: client, from: from, configurationSet: configurationSet}
}

// Send sends e. Errors say what failed without the recipient or the content;
// use IsRetryable to decide whether to try again later.
func (s *Sender) Send(ctx context.Context, e domain.Email) error {
	if strings.TrimSpace(e.To) == "" {
		return errors.New("ses: send email: no recipient")
	}
	if e.HTML == "" && e.Text == "" {
		return errors.New("ses: send email: no body")
	}
	if _, err := s.client.SendEmail(ctx, sendEmailInput(s.from, s.configurationSet, e)); err != nil {
		return newSendError(err)
	}
	return nil
}

package ses

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"
	"github.com/aws/aws-sdk-go-v2/service/sesv2/types"

	"github.com/edu-invite/invite/shared/domain"
)

// charset is stated explicitly: SES otherwise assumes 7-bit ASCII, which
// mangles Dutch text such as "beëindigd".
const charset = "UTF-8"

// MailRefTag is the SES message tag that carries the mail outbox id; SES
// copies message tags into its bounce and complaint events (ParseEvent).
const MailRefTag = "mail"

// sendEmailInput maps a rendered e-mail onto SES "Simple" content, in which
// SES builds the MIME message (multipart/alternative when both parts exist).
func sendEmailInput(from, configurationSet string, e domain.Email) *sesv2.SendEmailInput {
	body := &types.Body{}
	if e.HTML != "" {
		body.Html = utf8Content(e.HTML)
	}
	if e.Text != "" {
		body.Text = utf8Content(e.Text)
	}
	in := &sesv2.SendEmailInput{
		FromEmailAddress: aws.String(from),
		Destination:      &types.Destination{ToAddresses: []string{e.To}},
		Content: &types.EmailContent{Simple: &types.Message{
			Subject: utf8Content(e.Subject),
			Body:    body,
		}},
	}
	if configurationSet != "" {
		in.ConfigurationSetName = aws.String(configurationSet)
	}
	if e.Ref != "" {
		in.EmailTags = []types.MessageTag{{Name: aws.String(MailRefTag), Value: aws.String(e.Ref)}}
	}
	return in
}

func utf8Content(s string) *types.Content {
	return &types.Content{Data: aws.String(s), Charset: aws.String(charset)}
}

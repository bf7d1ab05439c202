package main

import (
	"strings"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
	"github.com/cdklabs/cdk-nag-go/cdknag/v2"
)

// addNagChecks runs cdk-nag's AWS Solutions rules over every stack of the
// app: a finding is an error or warning annotation on its construct, which
// `make synth` prints and the tests refuse (TestAwsSolutionsChecks). A rule
// that does not fit is suppressed on its construct with suppress, its
// reason written there.
func addNagChecks(app awscdk.App) {
	awscdk.Aspects_Of(app).Add(cdknag.NewAwsSolutionsChecks(&cdknag.NagPackProps{Verbose: jsii.Bool(true)}), nil)
}

// nagReason is one suppressed rule and why it does not apply.
type nagReason struct {
	Rule   string
	Reason string
	// AppliesTo narrows the suppression to findings about these values
	// (an action or resource of IAM5; "/…/" is a regular expression), nil
	// for every finding of the rule.
	AppliesTo []string
}

// suppress records on construct (and its children) why rules do not apply.
func suppress(construct constructs.IConstruct, reasons ...nagReason) {
	list := make([]*cdknag.NagPackSuppression, len(reasons))
	for i, r := range reasons {
		s := &cdknag.NagPackSuppression{Id: jsii.String(r.Rule), Reason: jsii.String(r.Reason)}
		if len(r.AppliesTo) > 0 {
			applies := make([]any, len(r.AppliesTo))
			for j, a := range r.AppliesTo {
				applies[j] = a
				if strings.HasPrefix(a, "/") {
					applies[j] = map[string]any{"regex": a}
				}
			}
			s.AppliesTo = &applies
		}
		list[i] = s
	}
	cdknag.NagSuppressions_AddResourceSuppressions(construct, &list, jsii.Bool(true))
}

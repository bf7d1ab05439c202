package main

import (
	"fmt"
	"sort"
	"testing"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/assertions"
	"github.com/aws/aws-cdk-go/awscdk/v2/cxapi"
	"github.com/aws/jsii-runtime-go"
)

// TestAwsSolutionsChecks: cdk-nag's AWS Solutions rules find no error and
// no warning in any stack; every rule that does not fit is suppressed in
// the stack's code with its reason.
func TestAwsSolutionsChecks(t *testing.T) {
	bothScenarios(t, func(t *testing.T, s *scenario) {
		for _, name := range []string{stackName, edgeStackName, edgeMonitoringStackName} {
			stack := s.stack.Node().Scope().Node().FindChild(jsii.String(name)).(awscdk.Stack)
			annotations := assertions.Annotations_FromStack(stack)
			var findings []string
			for level, found := range map[string]*[]*cxapi.SynthesisMessage{
				"error":   annotations.FindError(jsii.String("*"), assertions.Match_StringLikeRegexp(jsii.String("AwsSolutions-.*"))),
				"warning": annotations.FindWarning(jsii.String("*"), assertions.Match_StringLikeRegexp(jsii.String("AwsSolutions-.*"))),
			} {
				for _, m := range *found {
					findings = append(findings, fmt.Sprintf("%s %s: %v", level, *m.Id, m.Entry.Data))
				}
			}
			sort.Strings(findings)
			for _, f := range findings {
				t.Errorf("%s: %s", name, f)
			}
		}
	})
}

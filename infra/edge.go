package main

import (
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsapigatewayv2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awscertificatemanager"
	"github.com/aws/aws-cdk-go/awscdk/v2/awscloudfront"
	"github.com/aws/aws-cdk-go/awscdk/v2/awscloudfrontorigins"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssecretsmanager"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

// newDistribution puts CloudFront, guarded by the WebACL of the edge stack,
// in front of the HTTP API. Pages and API are never cached and get every
// viewer header but Host (API Gateway answers only to its own host name),
// every cookie and query string; /static/* is cached by the origin's
// Cache-Control, keyed by path and query string only.
//
// The execute-api address answers anybody, so CloudFront proves itself to
// the functions with the origin secret (originVerifyHeader, a dynamic
// reference to the secret: the template never holds its value), and the
// functions refuse requests without it (shared/middleware.OriginCheck).
// A viewer-request function adds the viewer's address (viewerAddressHeader),
// which the API's throttle of failed sign-ins counts by.
//
// Its access logs and its 5xx alarm are in us-east-1 (edge_monitoring.go).
func newDistribution(scope constructs.Construct, cfg StackConfig, api awsapigatewayv2.HttpApi, webACLArn *string,
	originSecret awssecretsmanager.ISecret) awscloudfront.Distribution {
	// ApiEndpoint is https://<id>.execute-api.<region>.amazonaws.com.
	apiDomain := awscdk.Fn_Select(jsii.Number(2), awscdk.Fn_Split(jsii.String("/"), api.ApiEndpoint(), nil))
	origin := awscloudfrontorigins.NewHttpOrigin(apiDomain, &awscloudfrontorigins.HttpOriginProps{
		ProtocolPolicy: awscloudfront.OriginProtocolPolicy_HTTPS_ONLY,
		CustomHeaders: &map[string]*string{
			originVerifyHeader: awscdk.SecretValue_SecretsManager(originSecret.SecretArn(), &awscdk.SecretsManagerSecretOptions{
				VersionId: optional(cfg.OriginSecretVersion),
			}).UnsafeUnwrap(),
		},
	})
	viewerAddress := awscloudfront.NewFunction(scope, jsii.String("ViewerAddressFunction"), &awscloudfront.FunctionProps{
		Comment: jsii.String("invite: the viewer's IP address for the API's throttle of failed sign-ins"),
		Runtime: awscloudfront.FunctionRuntime_JS_2_0(),
		Code:    awscloudfront.FunctionCode_FromInline(jsii.String(viewerAddressFunctionCode)),
	})
	staticCache := awscloudfront.NewCachePolicy(scope, jsii.String("StaticCachePolicy"), &awscloudfront.CachePolicyProps{
		Comment:                    jsii.String("invite /static: by the origin's Cache-Control, keyed by path and query string"),
		MinTtl:                     awscdk.Duration_Seconds(jsii.Number(0)),
		DefaultTtl:                 awscdk.Duration_Hours(jsii.Number(1)),
		MaxTtl:                     awscdk.Duration_Days(jsii.Number(1)),
		QueryStringBehavior:        awscloudfront.CacheQueryStringBehavior_All(),
		CookieBehavior:             awscloudfront.CacheCookieBehavior_None(),
		HeaderBehavior:             awscloudfront.CacheHeaderBehavior_None(),
		EnableAcceptEncodingGzip:   jsii.Bool(true),
		EnableAcceptEncodingBrotli: jsii.Bool(true),
	})
	props := &awscloudfront.DistributionProps{
		Comment:     jsii.String("invite: pages and API behind the WAF"),
		WebAclId:    webACLArn,
		HttpVersion: awscloudfront.HttpVersion_HTTP2_AND_3,
		PriceClass:  awscloudfront.PriceClass_PRICE_CLASS_100,
		DefaultBehavior: &awscloudfront.BehaviorOptions{
			Origin:               origin,
			AllowedMethods:       awscloudfront.AllowedMethods_ALLOW_ALL(),
			ViewerProtocolPolicy: awscloudfront.ViewerProtocolPolicy_REDIRECT_TO_HTTPS,
			CachePolicy:          awscloudfront.CachePolicy_CACHING_DISABLED(),
			OriginRequestPolicy:  awscloudfront.OriginRequestPolicy_ALL_VIEWER_EXCEPT_HOST_HEADER(),
			FunctionAssociations: &[]*awscloudfront.FunctionAssociation{{
				EventType: awscloudfront.FunctionEventType_VIEWER_REQUEST,
				Function:  viewerAddress,
			}},
		},
		AdditionalBehaviors: &map[string]*awscloudfront.BehaviorOptions{
			"/static/*": {
				Origin:               origin,
				AllowedMethods:       awscloudfront.AllowedMethods_ALLOW_GET_HEAD(),
				ViewerProtocolPolicy: awscloudfront.ViewerProtocolPolicy_REDIRECT_TO_HTTPS,
				CachePolicy:          staticCache,
				Compress:             jsii.Bool(true),
			},
		},
	}
	if cfg.DomainName != "" {
		props.DomainNames = jsii.Strings(cfg.DomainName)
		props.Certificate = awscertificatemanager.Certificate_FromCertificateArn(scope, jsii.String("EdgeCertificate"), jsii.String(cfg.CertificateArn))
		props.MinimumProtocolVersion = awscloudfront.SecurityPolicyProtocol_TLS_V1_2_2021
	}
	distribution := awscloudfront.NewDistribution(scope, jsii.String("Distribution"), props)
	suppress(distribution, nagReason{Rule: "AwsSolutions-CFR3",
		Reason: "Its access log is standard logging v2, delivered from " + edgeMonitoringStackName + " in us-east-1 with chosen fields " +
			"(no query string, cookie or referrer: they carry invitation hashes and sessions); the legacy logging this rule checks logs query strings."})
	suppress(distribution, nagReason{Rule: "AwsSolutions-CFR1",
		Reason: "Guests of research and education institutions sign in from every country; the WAF limits rates, not places."})
	if cfg.DomainName == "" {
		suppress(distribution, nagReason{Rule: "AwsSolutions-CFR4",
			Reason: "Without domainName the distribution serves CloudFront's own certificate, whose security policy CloudFront fixes; " +
				"with domainName and certificateArn the minimum is TLSv1.2_2021."})
	}
	return distribution
}

// originVerifyHeader is shared/middleware.OriginHeader: CloudFront sends
// the origin secret in it (and overwrites a value a viewer sends).
const originVerifyHeader = "X-Origin-Verify"

// viewerAddressHeader is shared/httpapi's viewerIPHeader. The managed
// policy AllViewerExceptHostHeader forwards viewer headers only, not
// CloudFront-Viewer-Address; the policies that add CloudFront's headers
// (AllViewerAndCloudFrontHeaders-2022-06, or a custom one of behavior
// allViewerAndWhitelistCloudFront) forward the viewer's Host too, which
// API Gateway refuses, and a list of named headers cannot carry
// Authorization. So a viewer-request function writes the address itself,
// replacing whatever the viewer sent under that name.
const viewerAddressHeader = "X-Viewer-Address"

const viewerAddressFunctionCode = `function handler(event) {
  var request = event.request;
  request.headers['x-viewer-address'] = { value: event.viewer.ip };
  return request;
}`

// optional is nil for "", so that CDK leaves the property out.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return jsii.String(s)
}

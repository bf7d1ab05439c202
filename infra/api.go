package main

import (
	"github.com/aws/aws-cdk-go/awscdk/v2/awsapigatewayv2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsapigatewayv2integrations"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

// newHTTPAPI creates the HTTP API with its $default stage. The stage is
// created explicitly because the implicit default stage takes no
// throttling settings.
func newHTTPAPI(scope constructs.Construct, cfg StackConfig) awsapigatewayv2.HttpApi {
	api := awsapigatewayv2.NewHttpApi(scope, jsii.String("HttpApi"), &awsapigatewayv2.HttpApiProps{
		ApiName:            jsii.String("invite"),
		Description:        jsii.String("Guest invitation and role provisioning API"),
		CreateDefaultStage: jsii.Bool(false),
	})
	stage := awsapigatewayv2.NewHttpStage(scope, jsii.String("HttpApiDefaultStage"), &awsapigatewayv2.HttpStageProps{
		HttpApi:    api,
		StageName:  jsii.String("$default"),
		AutoDeploy: jsii.Bool(true),
		Throttle: &awsapigatewayv2.ThrottleSettings{
			RateLimit:  jsii.Number(cfg.ThrottleRate),
			BurstLimit: jsii.Number(cfg.ThrottleBurst),
		},
	})
	addAPIAccessLog(scope, stage, cfg)
	return api
}

// suppressRouteAuthorizers records, once every route is added (a
// suppression reaches only the children that exist), why no route has an
// API Gateway authorizer.
func suppressRouteAuthorizers(api awsapigatewayv2.HttpApi) {
	suppress(api, nagReason{Rule: "AwsSolutions-APIG4", Reason: "The functions authenticate every request themselves " +
		"(OIDC access tokens, API tokens, machine callers, the pages' session) and authorize it in shared/service; " +
		"some routes are public by design (health, the acceptance page, sign-in), and no API Gateway authorizer covers the four kinds of caller."})
}

// addFunctionRoutes sends every request under the function's path prefixes
// to it: ANY on the prefix itself and on everything below it. The function
// does its own routing within its resource group.
func addFunctionRoutes(api awsapigatewayv2.HttpApi, fn serviceFunction) {
	if len(fn.Spec.Routes) == 0 && len(fn.Spec.ExactRoutes) == 0 && !fn.Spec.RootRoute {
		return
	}
	integration := awsapigatewayv2integrations.NewHttpLambdaIntegration(
		jsii.String(pascalCase(fn.Spec.Name)+"Integration"), fn.Function, nil)
	var paths []string
	if fn.Spec.RootRoute {
		paths = append(paths, "/")
	}
	for _, prefix := range fn.Spec.Routes {
		paths = append(paths, prefix, prefix+"/{proxy+}")
	}
	paths = append(paths, fn.Spec.ExactRoutes...)
	for _, path := range paths {
		api.AddRoutes(&awsapigatewayv2.AddRoutesOptions{
			Path:        jsii.String(path),
			Methods:     &[]awsapigatewayv2.HttpMethod{awsapigatewayv2.HttpMethod_ANY},
			Integration: integration,
		})
	}
}

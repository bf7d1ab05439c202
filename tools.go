//go:build tools

// Package tools pins the modules the project depends on while the packages
// that use them are being written in parallel; it is removed once every
// module is imported by real code.
package tools

import (
	_ "github.com/aws/aws-lambda-go/events"
	_ "github.com/aws/aws-lambda-go/lambda"
	_ "github.com/aws/aws-sdk-go-v2/aws"
	_ "github.com/aws/aws-sdk-go-v2/config"
	_ "github.com/aws/aws-sdk-go-v2/credentials"
	_ "github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	_ "github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	_ "github.com/aws/aws-sdk-go-v2/service/dynamodb"
	_ "github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	_ "github.com/aws/aws-sdk-go-v2/service/sesv2"
	_ "github.com/aws/aws-sdk-go-v2/service/sqs"
	_ "github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"
	_ "github.com/coreos/go-oidc/v3/oidc"
	_ "github.com/elimity-com/scim"
	_ "github.com/go-jose/go-jose/v4"
	_ "github.com/truora/minidyn/server"
	_ "golang.org/x/time/rate"
)

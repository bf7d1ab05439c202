package stack

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
)

func awsDynamo(cfg aws.Config) *dynamodb.Client { return dynamodb.NewFromConfig(cfg) }
func awsSQS(cfg aws.Config) *sqs.Client         { return sqs.NewFromConfig(cfg) }

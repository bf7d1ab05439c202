package substitutes

import (
	"context"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
)

func TestLoopbackAddr(t *testing.T) {
	tests := []struct {
		addr, want string
		wantErr    bool
	}{
		{addr: "", want: "127.0.0.1:0"},
		{addr: ":4566", want: "127.0.0.1:4566"},
		{addr: "localhost:4566", want: "127.0.0.1:4566"},
		{addr: "127.0.0.1:9000", want: "127.0.0.1:9000"},
		{addr: "[::1]:9000", want: "[::1]:9000"},
		{addr: "0.0.0.0:9000", wantErr: true},
		{addr: "192.168.1.5:9000", wantErr: true},
		{addr: "example.org:9000", wantErr: true},
		{addr: "9000", wantErr: true},
	}
	for _, tt := range tests {
		got, err := loopbackAddr(tt.addr)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("loopbackAddr(%q) = %q, %v; want %q, error %v", tt.addr, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestEnvNamesEveryEndpointAndDummyCredentials(t *testing.T) {
	t.Setenv("AWS_REGION", "")
	env := Endpoints{DynamoDB: "http://127.0.0.1:1", SQS: "http://127.0.0.1:2", SESv2: "http://127.0.0.1:3"}.Env()
	for _, want := range []string{
		"AWS_ENDPOINT_URL_DYNAMODB=http://127.0.0.1:1",
		"AWS_ENDPOINT_URL_SQS=http://127.0.0.1:2",
		"AWS_ENDPOINT_URL_SESV2=http://127.0.0.1:3",
		"AWS_REGION=" + DefaultRegion,
		"AWS_ACCESS_KEY_ID=" + dummyAccessKeyID,
		"AWS_SECRET_ACCESS_KEY=" + dummySecretAccessKey,
	} {
		if !slices.Contains(env, want) {
			t.Errorf("Env() = %v lacks %s", env, want)
		}
	}
}

// The services must each reach their own substitute from one aws.Config,
// even when the environment names other endpoints.
func TestAWSConfigSetsEachServiceEndpoint(t *testing.T) {
	t.Setenv("AWS_ENDPOINT_URL_SQS", "http://127.0.0.1:9")
	cfg, err := AWSConfig(context.Background(), Endpoints{DynamoDB: "http://127.0.0.1:1", SQS: "http://127.0.0.1:2", SESv2: "http://127.0.0.1:3"})
	if err != nil {
		t.Fatal(err)
	}
	got := []string{
		aws.ToString(dynamodb.NewFromConfig(cfg).Options().BaseEndpoint),
		aws.ToString(sqs.NewFromConfig(cfg).Options().BaseEndpoint),
		aws.ToString(sesv2.NewFromConfig(cfg).Options().BaseEndpoint),
	}
	want := []string{"http://127.0.0.1:1", "http://127.0.0.1:2", "http://127.0.0.1:3"}
	if !slices.Equal(got, want) {
		t.Fatalf("base endpoints = %v, want %v", got, want)
	}
}

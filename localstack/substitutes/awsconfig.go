package substitutes

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
)

// DefaultRegion is used when AWS_REGION is not set.
const DefaultRegion = "eu-west-1"

// Dummy credentials: the substitutes accept any signature, but the SDK refuses
// to sign without credentials.
const (
	dummyAccessKeyID     = "local"
	dummySecretAccessKey = "local"
)

// Endpoints are the base URLs of the substitutes, one per service; an empty
// field leaves that service's endpoint alone.
type Endpoints struct {
	DynamoDB string
	SQS      string
	SESv2    string
}

// byServiceID maps the SDK's service ids (what the SDKs pass to
// GetServiceBaseEndpoint) to the endpoints.
func (e Endpoints) byServiceID() map[string]string {
	return map[string]string{"DynamoDB": e.DynamoDB, "SQS": e.SQS, "SESv2": e.SESv2}
}

// Env returns the environment a process needs so that config.LoadDefaultConfig
// talks to the substitutes: AWS_ENDPOINT_URL_DYNAMODB/_SQS/_SESV2, dummy
// credentials and AWS_REGION (kept if already set, else DefaultRegion). Append
// it to os.Environ(): later entries win.
func (e Endpoints) Env() []string {
	env := []string{
		"AWS_ACCESS_KEY_ID=" + dummyAccessKeyID,
		"AWS_SECRET_ACCESS_KEY=" + dummySecretAccessKey,
		"AWS_SESSION_TOKEN=",
		"AWS_REGION=" + region(),
	}
	for _, v := range e.envVars() {
		if v.url != "" {
			env = append(env, v.name+"="+v.url)
		}
	}
	return env
}

// SetEnv applies Env to the current process, for running the service's
// handlers in-process (the embedded local stack). It also unsets AWS_PROFILE
// and AWS_SESSION_TOKEN so a developer's real profile cannot take over.
func (e Endpoints) SetEnv() error {
	for _, name := range []string{"AWS_PROFILE", "AWS_SESSION_TOKEN"} {
		if err := os.Unsetenv(name); err != nil {
			return err
		}
	}
	for _, kv := range e.Env() {
		name, value, _ := strings.Cut(kv, "=")
		if value == "" {
			continue
		}
		if err := os.Setenv(name, value); err != nil {
			return fmt.Errorf("substitutes: setenv %s: %w", name, err)
		}
	}
	return nil
}

func (e Endpoints) envVars() []struct{ name, url string } {
	return []struct{ name, url string }{
		{"AWS_ENDPOINT_URL_DYNAMODB", e.DynamoDB},
		{"AWS_ENDPOINT_URL_SQS", e.SQS},
		{"AWS_ENDPOINT_URL_SESV2", e.SESv2},
	}
}

// AWSConfig returns an SDK configuration for tests and the local stack:
// static dummy credentials, AWS_REGION or DefaultRegion, no shared config
// files, and the endpoints as per-service base endpoints, so
// dynamodb.NewFromConfig, sqs.NewFromConfig and sesv2.NewFromConfig each reach
// their substitute without further options.
//
// Caveat of the SDK: if AWS_ENDPOINT_URL (the global one) is set in the
// environment without the service-specific variable, the SDK ignores
// per-service endpoints; set the service variables instead.
func AWSConfig(ctx context.Context, endpoints Endpoints) (aws.Config, error) {
	cfg, err := config.LoadDefaultConfig(ctx,
		config.WithRegion(region()),
		config.WithCredentialsProvider(credentials.NewStaticCredentialsProvider(dummyAccessKeyID, dummySecretAccessKey, "")),
		config.WithSharedConfigFiles([]string{}),
		config.WithSharedCredentialsFiles([]string{}),
	)
	if err != nil {
		return aws.Config{}, fmt.Errorf("substitutes: aws config: %w", err)
	}
	// First source wins, so these beat AWS_ENDPOINT_URL_* from the environment.
	cfg.ConfigSources = append([]any{serviceEndpoints(endpoints.byServiceID())}, cfg.ConfigSources...)
	return cfg, nil
}

// serviceEndpoints implements the SDK's ServiceBaseEndpointProvider, the
// interface each service client consults for its own base endpoint.
type serviceEndpoints map[string]string

func (s serviceEndpoints) GetServiceBaseEndpoint(_ context.Context, sdkID string) (string, bool, error) {
	url, ok := s[sdkID]
	return url, ok && url != "", nil
}

func region() string {
	if r := os.Getenv("AWS_REGION"); r != "" {
		return r
	}
	return DefaultRegion
}

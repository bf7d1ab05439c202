package main

import (
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssecretsmanager"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

// Secret names. SP credentials live under one prefix so that the
// provisioner's permission is a single pattern that also covers SPs added
// by operators after the deployment.
const (
	machineCallersSecretName = "invite/machine-callers"
	oidcClientSecretName     = "invite/oidc-client"
	// oidcIntrospectionSecretName is the API's client secret at the
	// provider's introspection endpoint (opaque access tokens only).
	oidcIntrospectionSecretName = "invite/oidc-introspection"
	// originVerifySecretName is the value CloudFront adds to every origin
	// request (X-Origin-Verify) and the API functions require (edge only).
	originVerifySecretName = "invite/origin-verify"
	spSecretPrefix         = "invite/sp/"
	// connectionSecretPrefix holds the credentials entered through the
	// API, one secret per SCIM connection (shared/secrets.Vault).
	connectionSecretPrefix = "invite/scim-connections/"
)

// serviceSecrets are created with generated placeholder values: the template
// never holds a secret, and operators put the real values in after deploy.
type serviceSecrets struct {
	MachineCallers awssecretsmanager.Secret
	// OIDCClient is the pages' client secret at the OIDC issuer.
	OIDCClient awssecretsmanager.Secret
	// OIDCIntrospection is the introspection client's secret; nil unless
	// oidcIntrospectionClientId is set.
	OIDCIntrospection awssecretsmanager.Secret
	// OriginVerify is the origin secret of CloudFront (edge.go); nil
	// without CloudFront (edge=false), so that nothing is checked there.
	OriginVerify awssecretsmanager.Secret
	SPs          map[string]awssecretsmanager.Secret
	// SPArnPattern matches every invite/sp/* secret; Secrets Manager appends
	// a random suffix to secret ARNs, which the trailing * covers.
	SPArnPattern *string
	// ConnectionArnPattern matches every secret under the connection prefix.
	ConnectionArnPattern *string
}

func newSecrets(scope constructs.Construct, cfg StackConfig) serviceSecrets {
	secrets := serviceSecrets{
		MachineCallers: placeholderSecret(scope, "MachineCallersSecret", machineCallersSecretName,
			"Credentials of machine callers of the invite API; replace the generated value after deployment.", rotationByCallers, cfg),
		OIDCClient: placeholderSecret(scope, "OidcClientSecret", oidcClientSecretName,
			"Client secret of the pages at the OIDC issuer; replace the generated value after deployment.", rotationByProvider, cfg),
		SPs: map[string]awssecretsmanager.Secret{},
	}
	if cfg.OIDCIntrospectionClientID != "" {
		secrets.OIDCIntrospection = placeholderSecret(scope, "OidcIntrospectionSecret", oidcIntrospectionSecretName,
			"Client secret of the API at the OIDC issuer's introspection endpoint; replace the generated value after deployment.", rotationByProvider, cfg)
	}
	if cfg.Edge {
		// Generated like the others, and no operator ever writes it: it is
		// only rotated (infra/README.md).
		secrets.OriginVerify = placeholderSecret(scope, "OriginVerifySecret", originVerifySecretName,
			"Sent by CloudFront to the API as X-Origin-Verify; the functions refuse requests without it "+
				"(the execute-api address reached directly). Generated; to rotate it, see infra/README.md.", rotationByDeploy, cfg)
	}
	for _, id := range cfg.SPIDs {
		secrets.SPs[id] = placeholderSecret(scope, "SpSecret-"+id, spSecretPrefix+id,
			"SCIM credentials of SP "+id+"; replace the generated value after deployment.", rotationBySP, cfg)
	}
	secrets.SPArnPattern = awscdk.Stack_Of(scope).FormatArn(&awscdk.ArnComponents{
		Service:      jsii.String("secretsmanager"),
		Resource:     jsii.String("secret"),
		ResourceName: jsii.String(spSecretPrefix + "*"),
		ArnFormat:    awscdk.ArnFormat_COLON_RESOURCE_NAME,
	})
	secrets.ConnectionArnPattern = awscdk.Stack_Of(scope).FormatArn(&awscdk.ArnComponents{
		Service:      jsii.String("secretsmanager"),
		Resource:     jsii.String("secret"),
		ResourceName: jsii.String(connectionSecretPrefix + "*"),
		ArnFormat:    awscdk.ArnFormat_COLON_RESOURCE_NAME,
	})
	return secrets
}

// Why no secret of the stack rotates itself (cdk-nag AwsSolutions-SMG4):
// each holds a credential that another party issues or must learn of at the
// same moment, which a rotation Lambda cannot arrange.
const (
	rotationByCallers  = "Credentials the machine callers hold too: operators change them with the callers, by writing the new value (infra/README.md)."
	rotationByProvider = "A client secret the OIDC provider issues: it is rotated at the provider, then written here."
	rotationBySP       = "A credential the SP issues: it is rotated at the SP, then written here."
	rotationByDeploy   = "CloudFront reads it by version at deploy time: rotating means a new version and a deploy with originSecretVersion (infra/README.md)."
)

// placeholderSecret is a secret with a generated value; rotation says why
// it does not rotate itself.
func placeholderSecret(scope constructs.Construct, id, name, description, rotation string, cfg StackConfig) awssecretsmanager.Secret {
	secret := awssecretsmanager.NewSecret(scope, jsii.String(id), &awssecretsmanager.SecretProps{
		SecretName:  jsii.String(name),
		Description: jsii.String(description),
		GenerateSecretString: &awssecretsmanager.SecretStringGenerator{
			PasswordLength:     jsii.Number(40),
			ExcludePunctuation: jsii.Bool(true),
		},
		RemovalPolicy: dataRemovalPolicy(cfg),
	})
	suppress(secret, nagReason{Rule: "AwsSolutions-SMG4", Reason: rotation})
	return secret
}

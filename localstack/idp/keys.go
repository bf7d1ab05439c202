package idp

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"fmt"

	jose "github.com/go-jose/go-jose/v4"
)

// signingAlgorithm is RS256 because it is what OpenConext signs with and the
// one algorithm every OIDC relying party must support; the local stack should
// exercise the same verification path as production.
const signingAlgorithm = jose.RS256

// rsaKeyBits is the smallest RSA size still considered acceptable; larger
// keys only slow down test start-up.
const rsaKeyBits = 2048

// signingKey is one private key with the public JWK published for it.
type signingKey struct {
	private *rsa.PrivateKey
	public  jose.JSONWebKey
}

// newSigningKey generates a key whose kid is its RFC 7638 thumbprint, so a kid
// can never be reused for different key material.
func newSigningKey() (signingKey, error) {
	private, err := rsa.GenerateKey(rand.Reader, rsaKeyBits)
	if err != nil {
		return signingKey{}, fmt.Errorf("idp: generate key: %w", err)
	}
	public := jose.JSONWebKey{
		Key:       &private.PublicKey,
		Algorithm: string(signingAlgorithm),
		Use:       "sig",
	}
	thumbprint, err := public.Thumbprint(crypto.SHA256)
	if err != nil {
		return signingKey{}, fmt.Errorf("idp: key thumbprint: %w", err)
	}
	public.KeyID = base64.RawURLEncoding.EncodeToString(thumbprint)
	return signingKey{private: private, public: public}, nil
}

// signer signs compact JWS with this key, announcing its kid and the RFC 9068
// access token type in the header.
func (k signingKey) signer(typ string) (jose.Signer, error) {
	key := jose.JSONWebKey{Key: k.private, KeyID: k.public.KeyID, Algorithm: string(signingAlgorithm)}
	opts := (&jose.SignerOptions{}).WithType(jose.ContentType(typ))
	return jose.NewSigner(jose.SigningKey{Algorithm: signingAlgorithm, Key: key}, opts)
}

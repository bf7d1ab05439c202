package oidc

import "time"

// SetDiscoveryRetryAfter lets tests shorten the discovery back-off.
func SetDiscoveryRetryAfter(v *Verifier, d time.Duration) { v.retryAfter = d }

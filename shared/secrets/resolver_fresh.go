package secrets

import (
	"context"
	"strings"
)

// ResolveFresh is Resolve past the cache: the value is read again (and
// cached anew). The provisioner calls it once when an SP refuses a
// credential that may have been rotated meanwhile.
func (r *Resolver) ResolveFresh(ctx context.Context, ref string) (string, error) {
	if rest, ok := strings.CutPrefix(ref, "secretsmanager:"); ok {
		id, _, _ := strings.Cut(rest, "#")
		id, version := splitVersion(id)
		r.mu.Lock()
		delete(r.cache, id+"?"+version)
		r.mu.Unlock()
	}
	return r.Resolve(ctx, ref)
}

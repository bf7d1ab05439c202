package config

import "context"

// TargetFresh reads a connection from the table now, past every cache,
// and keeps it as the connection's cached item. The provisioner calls it
// once when an SP refuses a delivery's credentials (401/403): right after
// a rotation the cached connection may still name the old secret.
func (l *Live) TargetFresh(ctx context.Context, id string) (Target, bool, error) {
	doc, found, err := l.Source.LoadConnection(ctx, id)
	if err != nil {
		return Target{}, false, err
	}
	var t Target
	if found {
		var problems []string
		if t, problems = ValidateConnection(doc); len(problems) > 0 {
			found = false
		}
	}
	l.connMu.Lock()
	if l.conns == nil || len(l.conns) >= maxCachedConnections {
		l.conns = map[string]cachedConn{}
	}
	l.conns[id] = cachedConn{target: t, found: found, fetched: l.now()}
	l.connMu.Unlock()
	return t, found, nil
}

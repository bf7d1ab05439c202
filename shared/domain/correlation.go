package domain

import "context"

type correlationKey struct{}

// WithCorrelationID marks a context with the id of the request that caused
// the work, so that logs, audit entries and deliveries can be traced back.
func WithCorrelationID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, correlationKey{}, id)
}

// CorrelationID returns the id set by WithCorrelationID, or "".
func CorrelationID(ctx context.Context) string {
	id, _ := ctx.Value(correlationKey{}).(string)
	return id
}

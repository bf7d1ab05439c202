package app

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/edu-invite/invite/shared/domain"
)

// redactAttr takes e-mail addresses and eppns out of a record's message and
// of every text or error in it.
func redactAttr(_ []string, a slog.Attr) slog.Attr {
	switch v := a.Value; v.Kind() {
	case slog.KindString:
		a.Value = slog.StringValue(domain.RedactEmails(v.String()))
	case slog.KindAny:
		switch x := v.Any().(type) {
		case error:
			a.Value = slog.StringValue(domain.RedactEmails(x.Error()))
		case fmt.Stringer:
			a.Value = slog.StringValue(domain.RedactEmails(x.String()))
		case []string:
			out := make([]string, len(x))
			for i, s := range x {
				out[i] = domain.RedactEmails(s)
			}
			a.Value = slog.AnyValue(out)
		}
	}
	return a
}

// NewLogger returns a JSON logger at LOG_LEVEL (debug, info, warn, error)
// that adds the request's correlation id to every record and takes e-mail
// addresses and eppns out of every text in it (the code logs ids; this
// catches what an outside system's error quotes), on standard output
// (CloudWatch Logs in Lambda).
func NewLogger() *slog.Logger { return NewLoggerTo(os.Stdout) }

// NewLoggerTo is NewLogger writing to w.
func NewLoggerTo(w io.Writer) *slog.Logger {
	var level slog.Level
	switch strings.ToLower(os.Getenv("LOG_LEVEL")) {
	case "debug":
		level = slog.LevelDebug
	case "warn":
		level = slog.LevelWarn
	case "error":
		level = slog.LevelError
	default:
		level = slog.LevelInfo
	}
	return slog.New(correlationHandler{slog.NewJSONHandler(w, &slog.HandlerOptions{Level: level, ReplaceAttr: redactAttr})})
}

// correlationHandler adds the correlation id from the context.
type correlationHandler struct{ slog.Handler }

func (h correlationHandler) Handle(ctx context.Context, r slog.Record) error {
	if id := domain.CorrelationID(ctx); id != "" {
		r.AddAttrs(slog.String("correlationId", id))
	}
	return h.Handler.Handle(ctx, r)
}

func (h correlationHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return correlationHandler{h.Handler.WithAttrs(attrs)}
}

func (h correlationHandler) WithGroup(name string) slog.Handler {
	return correlationHandler{h.Handler.WithGroup(name)}
}

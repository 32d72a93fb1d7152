package slack

import (
	"context"
	"log/slog"
	"time"
)

// SetSleep replaces the adapter's waits (backoff) with f, so tests can
// record them instead of waiting.
func SetSleep(a *Adapter, f func(ctx context.Context, d time.Duration) error) { a.sleep = f }

// RenderMrkdwn exposes renderMrkdwn.
var RenderMrkdwn = renderMrkdwn

// LocaleHint exposes localeHint.
var LocaleHint = localeHint

// Logger returns the adapter's logger.
func (a *Adapter) Logger() *slog.Logger { return a.log }

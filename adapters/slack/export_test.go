package slack

import (
	"context"
	"time"
)

// SetSleep replaces the adapter's waits (backoff) with f, so tests can
// record them instead of waiting.
func SetSleep(a *Adapter, f func(ctx context.Context, d time.Duration) error) { a.sleep = f }

// RenderMrkdwn exposes renderMrkdwn.
var RenderMrkdwn = renderMrkdwn

// LocaleHint exposes localeHint.
var LocaleHint = localeHint

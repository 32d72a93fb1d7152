package telegram

import (
	"context"
	"time"
)

// SetSleep replaces the adapter's waits (backoff, retry_after) with f, so
// tests can record them instead of waiting.
func SetSleep(a *Adapter, f func(ctx context.Context, d time.Duration) error) { a.sleep = f }

// RenderHTML exposes renderHTML.
var RenderHTML = renderHTML

// PhotoCheck exposes photoCheck.
var PhotoCheck = photoCheck

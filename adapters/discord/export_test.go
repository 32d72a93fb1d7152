package discord

import (
	"context"
	"time"
)

// SetSleep replaces the adapter's waits (backoff between attempts) with f,
// so tests can record them instead of waiting.
func SetSleep(a *Adapter, f func(ctx context.Context, d time.Duration) error) { a.sleep = f }

// ChoiceComponents is choiceComponents, for the tests of the button limits.
var ChoiceComponents = choiceComponents

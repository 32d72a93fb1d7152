// Package retry holds the waiting the adapters share: a sleep that ends
// with its context, and the backoff between reconnects and retries.
package retry

import (
	"context"
	"time"

	"github.com/cenkalti/backoff/v5"
)

// Sleep waits d or until ctx is done, and returns ctx's error then.
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Backoff returns an exponential backoff with jitter: 0.5 s growing 1.5x
// to 1 min, each wait randomized by ±50%.
func Backoff() backoff.BackOff {
	b := backoff.NewExponentialBackOff()
	b.InitialInterval = 500 * time.Millisecond
	b.MaxInterval = time.Minute
	b.Reset()
	return b
}

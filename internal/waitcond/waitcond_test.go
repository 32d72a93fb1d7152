package waitcond

import (
	"context"
	"errors"
	"sync"
	"testing"
)

func TestWaitEndsWhenTheConditionHoldsOrTheContextEnds(t *testing.T) {
	var mu sync.Mutex
	c := New(&mu)
	n := 0
	done := make(chan error, 1)
	go func() { done <- c.Wait(context.Background(), func() bool { return n >= 3 }) }()
	for range 3 {
		mu.Lock()
		n++
		c.Broadcast()
		mu.Unlock()
	}
	if err := <-done; err != nil {
		t.Fatalf("Wait = %v, want nil once n reached 3", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := c.Wait(ctx, func() bool { return false }); !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait with a cancelled context = %v, want context.Canceled", err)
	}
}

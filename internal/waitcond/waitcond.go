// Package waitcond is a condition variable whose waits end with a
// context: the in-process fakes use it for "wait until the bot has done
// this" on the mutex that guards what they record.
package waitcond

import (
	"context"
	"sync"
)

// Cond wakes its waiters whenever what L guards changes.
type Cond struct {
	l  sync.Locker
	ch chan struct{} // closed and replaced at each Broadcast
}

// New returns a Cond over l.
func New(l sync.Locker) *Cond { return &Cond{l: l, ch: make(chan struct{})} }

// Broadcast wakes every waiter. Call it with l held, after a change.
func (c *Cond) Broadcast() {
	close(c.ch)
	c.ch = make(chan struct{})
}

// Changed returns a channel closed at the next Broadcast. Call it with l
// held.
func (c *Cond) Changed() <-chan struct{} { return c.ch }

// Wait blocks until cond, called with l held, is true, or ctx is done
// (then it returns ctx's error). Call it without l held.
func (c *Cond) Wait(ctx context.Context, cond func() bool) error {
	for {
		c.l.Lock()
		ok, ch := cond(), c.ch
		c.l.Unlock()
		if ok {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

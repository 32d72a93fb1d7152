package core

import (
	"context"
	"sync"
	"testing"

	"github.com/havenbot/haven/memory/sqlite"
)

// scopeCounter is the real store, counting the read scopes the engine
// opens and how many are open.
type scopeCounter struct {
	*sqlite.Store
	mu           sync.Mutex
	opened, open int
	overlapped   bool
}

func (c *scopeCounter) ReadScope(ctx context.Context) (context.Context, func()) {
	sc, end := c.Store.ReadScope(ctx)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.opened++
	c.open++
	c.overlapped = c.overlapped || c.open > 1
	var once sync.Once
	return sc, func() {
		end()
		once.Do(func() {
			c.mu.Lock()
			c.open--
			c.mu.Unlock()
		})
	}
}

func TestEngineReadsTheGatewayAndMemoryInScopesItEndsWithTheirNodes(t *testing.T) {
	var c scopeCounter
	e, _, _ := newEngine(t, func(o *Options) {
		c.Store = o.Store.(*sqlite.Store)
		o.Store, o.Memories = &c, &c
	})
	handle(t, e, dm("hi"))
	handle(t, e, dm("I have been so stressed about work"))
	if c.opened != 4 {
		t.Errorf("the engine opened %d read scopes in two turns, want 4 (gateway and load memory each)", c.opened)
	}
	if c.open != 0 || c.overlapped {
		t.Errorf("read scopes left open: %d, overlapping: %v; want each ended with its node", c.open, c.overlapped)
	}
}

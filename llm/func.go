package llm

import "context"

// Func adapts an ordinary function to the Client interface, for tests and
// small wrappers: Func(f).Complete(ctx, req) calls f(ctx, req).
type Func func(ctx context.Context, req Request) (Response, error)

var _ Client = Func(nil)

// Complete calls f.
func (f Func) Complete(ctx context.Context, req Request) (Response, error) {
	return f(ctx, req)
}

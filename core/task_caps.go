package core

import (
	"fmt"

	"github.com/havenbot/haven/core/tasks"
)

// registerTasks builds the task branch's registry: Options.Tasks as it is
// when set, else the built-in capabilities whose stores the options
// provide. This is the one place a capability is registered: each adds
// its line here.
func (e *Engine) registerTasks(opts Options) (*tasks.Registry, error) {
	if opts.Tasks != nil {
		return opts.Tasks, nil
	}
	reg := tasks.NewRegistry()
	var caps []tasks.Capability
	for _, c := range caps {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("core: %w", err)
		}
	}
	return reg, nil
}

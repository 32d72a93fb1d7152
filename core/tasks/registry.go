package tasks

import (
	"fmt"
	"slices"
)

// Registry holds the capabilities Haven offers, in registration order.
// Register everything before the first turn; after that it is read-only
// and safe for concurrent use.
type Registry struct {
	caps   []*Capability
	byName map[string]*Capability
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{byName: map[string]*Capability{}} }

// Register adds c. It returns an error naming what is wrong: a missing
// name, description or Execute, a required param without its question, or
// a name already registered.
func (r *Registry) Register(c Capability) error {
	if err := c.validate(); err != nil {
		return fmt.Errorf("register capability: %w", err)
	}
	if _, dup := r.byName[c.Name]; dup {
		return fmt.Errorf("register capability %s: already registered", c.Name)
	}
	if c.Command != "" {
		if other := r.ByCommand(c.Command); other != nil {
			return fmt.Errorf("register capability %s: command /%s is %s's", c.Name, c.Command, other.Name)
		}
	}
	c.Params = slices.Clone(c.Params)
	r.caps = append(r.caps, &c)
	r.byName[c.Name] = &c
	return nil
}

// Lookup returns the capability called name, or an error wrapping
// ErrUnknownCapability.
func (r *Registry) Lookup(name string) (*Capability, error) {
	if c, ok := r.byName[name]; ok {
		return c, nil
	}
	return nil, fmt.Errorf("capability %q: %w", name, ErrUnknownCapability)
}

// All returns the capabilities in registration order. The slice is a
// copy; the capabilities are shared and must not be changed.
func (r *Registry) All() []*Capability { return slices.Clone(r.caps) }

// ByCommand returns the capability whose slash command is cmd (without
// the slash), nil when none is.
func (r *Registry) ByCommand(cmd string) *Capability {
	for _, c := range r.caps {
		if c.Command != "" && c.Command == cmd {
			return c
		}
	}
	return nil
}

package tasks

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"time"
)

// Capability is one thing Haven can do for a person.
type Capability struct {
	// Name identifies the capability ("mood.log"): lower case, dotted,
	// unique in a registry. It is what the model must name.
	Name string
	// Description says in one sentence what it does, for /help and for the
	// model's list of choices.
	Description string
	// Command, when set, is a slash command that asks for this capability
	// directly ("mood" for "/mood 6 tired but ok"); its text after the
	// command word is the Request's Text, read by Match. When Match is nil
	// or does not match and the capability has exactly one required
	// param, the whole text is that param. Lower case, no slash.
	Command string
	// Usage is the short way to ask for it shown by /help ("/mood 6 tired
	// but ok"); empty keeps it out of /help.
	Usage string
	// Examples are phrasings that ask for it, for the model prompt and the
	// tests.
	Examples []string
	// Params are the arguments Execute needs; a required one that is
	// missing makes the task branch ask for it (clarify) instead of running.
	Params []Param
	// Reads and Writes name the capability context types it reads and
	// writes ("reminder"): a task that refers back ("move that") is
	// resolved against the types a capability reads.
	Reads, Writes []string
	// Approval, when set, reports whether running with args needs the
	// person's yes first (deleting data, a message Haven will send later,
	// anything touching another person), and the question to ask. nil
	// means never.
	Approval func(args Args) (question string, needed bool)
	// Match is the rule-based extractor: it returns the arguments it read
	// from the request and true when the request asks for this capability.
	// It must be quick and must not call a model, and must not depend on
	// Country: core leaves it empty when it only asks whether a rule
	// matches (working the country out costs more than the rules). nil
	// means model-only.
	Match func(req *Request) (Args, bool)
	// Execute does the work. It must leave nothing half-done when it
	// returns an error: the branch answers kindly and the capability
	// context is not changed.
	Execute func(ctx context.Context, req *Request, args Args) (Result, error)
}

// Param is one argument of a capability.
type Param struct {
	// Name is the argument's key in Args.
	Name string
	// Description tells the model what goes in it.
	Description string
	// Required params must be present before Execute runs.
	Required bool
	// Ask is the clarifying question when a required param is missing
	// ("What should I remind you of?").
	Ask string
}

// Args are a capability's arguments by param name.
type Args map[string]string

// Target is where a turn came from, which is where anything Haven sends
// later for it goes: opaque namespaced ids, as core has them.
type Target struct {
	Platform       string
	ConversationID string
	// Kind is "dm", "group" or "channel".
	Kind     string
	ThreadID string
}

// Request is what a capability sees of the turn.
type Request struct {
	// Text is the person's message.
	Text string
	// Now is the turn's time.
	Now time.Time
	// Location is the person's time zone; nil when it is not known.
	Location *time.Location
	// Country is the person's ISO country code as core knows it (what they
	// said, the platform locale, the configured default); "" when unknown.
	Country string
	// PersonID and SessionID are opaque ids.
	PersonID, SessionID string
	// MessageKey identifies the message the turn answers, the same when
	// the turn runs again after a crash: a capability that writes keys
	// its write by it so that it happens once.
	MessageKey string
	// Command is the slash command word the person asked with ("remind"
	// for "/remind in 2 hours to stretch"), "" for plain words. An explicit
	// command can be its own consent (see Capability.Approval).
	Command string
	// Target is the conversation the message came from.
	Target Target
	// Private is true in a direct message: personal data (moods, journal
	// entries) is only ever shown there.
	Private bool
	// Context is the session's capability context; capabilities read and
	// update it through Get and Put.
	Context Context
}

// Result is what a capability did, for the person.
type Result struct {
	// Text is the reply.
	Text string
	// File, when set, goes with the reply (a chart, an export).
	File *File
}

// File is a file a capability sends (a PNG chart).
type File struct {
	Name string
	MIME string
	Data []byte
}

// Context is the session's capability context: type -> key -> fields. It
// is persisted in the checkpoint.
type Context map[string]map[string]map[string]string

// Get returns the fields under typ and key, nil when there are none.
func (c Context) Get(typ, key string) map[string]string { return c[typ][key] }

// Put sets the fields under typ and key, replacing what was there, and
// makes key the latest of its type (Latest).
func (c Context) Put(typ, key string, fields map[string]string) {
	if c[typ] == nil {
		c[typ] = map[string]map[string]string{}
	}
	c[typ][key] = fields
	if c[recentType] == nil {
		c[recentType] = map[string]map[string]string{}
	}
	c[recentType][typ] = map[string]string{"key": key}
}

// Delete removes the fields under typ and key (and its mark as the latest).
func (c Context) Delete(typ, key string) {
	delete(c[typ], key)
	if c[recentType][typ]["key"] == key {
		delete(c[recentType], typ)
	}
}

// recentType is the context type that remembers, for each type, the key
// Put last: what "that" refers to.
const recentType = "_latest"

// Latest returns the key and fields Put last under typ and still there:
// the thing a person means by "that" ("move that to 7"). ok is false when
// there is none.
func (c Context) Latest(typ string) (key string, fields map[string]string, ok bool) {
	key = c[recentType][typ]["key"]
	fields = c.Get(typ, key)
	if key == "" || fields == nil {
		return "", nil, false
	}
	return key, fields, true
}

// Clone returns a deep copy of c (never nil): a capability works on a
// copy, so a step that fails changes nothing.
func (c Context) Clone() Context {
	out := make(Context, len(c))
	for typ, keys := range c {
		m := make(map[string]map[string]string, len(keys))
		for k, f := range keys {
			m[k] = maps.Clone(f)
		}
		out[typ] = m
	}
	return out
}

// ErrUnknownCapability is returned (wrapped) for a name no capability in
// the registry has.
var ErrUnknownCapability = errors.New("unknown capability")

// validate reports what is wrong with c, nil when it can be registered.
func (c *Capability) validate() error {
	switch {
	case c.Name == "":
		return errors.New("capability has no name")
	case c.Description == "":
		return fmt.Errorf("capability %s has no description", c.Name)
	case c.Execute == nil:
		return fmt.Errorf("capability %s has no Execute", c.Name)
	}
	for _, r := range c.Name {
		if (r < 'a' || r > 'z') && r != '.' && r != '_' {
			return fmt.Errorf("capability name %q: only a-z, '.' and '_'", c.Name)
		}
	}
	seen := map[string]bool{}
	for _, p := range c.Params {
		if p.Name == "" || seen[p.Name] {
			return fmt.Errorf("capability %s: param names must be present and unique", c.Name)
		}
		seen[p.Name] = true
		if p.Required && p.Ask == "" {
			return fmt.Errorf("capability %s: required param %s has no clarifying question", c.Name, p.Name)
		}
	}
	return nil
}

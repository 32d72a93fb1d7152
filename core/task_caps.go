package core

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"golang.org/x/text/language"
	"golang.org/x/text/language/display"

	"github.com/havenbot/haven/core/tasks"
	"github.com/havenbot/haven/memory"
	"github.com/havenbot/haven/safety"
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
	if s, ok := opts.Store.(JournalKeeper); ok {
		caps = append(caps, tasks.JournalCapabilities(journalStore{s})...)
	}
	if s, ok := opts.Store.(MoodMemory); ok {
		caps = append(caps, tasks.MoodCapabilities(MoodStore(s))...)
	}
	if s, ok := opts.Store.(ReminderBackend); ok {
		e.reminders = s
		caps = append(caps, ReminderCapabilities(s, opts.ReminderWake)...)
	}
	caps = append(caps, tasks.ResourcesCapability(helplineLookup(safety.DefaultDirectory())))
	for _, c := range caps {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("core: %w", err)
		}
	}
	return reg, nil
}

// JournalKeeper keeps journal entries. memory/sqlite's Store implements
// it; an Options.Store that does gives Haven the journal capabilities.
type JournalKeeper interface {
	AddJournalEntry(ctx context.Context, personID, text string, at time.Time, source string) (memory.JournalEntry, error)
	JournalEntries(ctx context.Context, personID string, from, to time.Time, limit int) ([]memory.JournalEntry, error)
}

// journalStore adapts a JournalKeeper to core/tasks' types.
type journalStore struct{ s JournalKeeper }

func (j journalStore) AddJournalEntry(ctx context.Context, personID, text string, at time.Time, source string) (tasks.JournalEntry, error) {
	e, err := j.s.AddJournalEntry(ctx, personID, text, at, source)
	return tasks.JournalEntry{ID: e.ID, Text: e.Text, At: e.Created}, err
}

func (j journalStore) JournalEntries(ctx context.Context, personID string, from, to time.Time, limit int) ([]tasks.JournalEntry, error) {
	es, err := j.s.JournalEntries(ctx, personID, from, to, limit)
	out := make([]tasks.JournalEntry, len(es))
	for i, e := range es {
		out[i] = tasks.JournalEntry{ID: e.ID, Text: e.Text, At: e.Created}
	}
	return out, err
}

// helplineLookup answers "what's the helpline in ..." from dir only: the
// country the text names, else fallback; a country dir has nothing for
// gets the international entries.
func helplineLookup(dir *safety.Directory) tasks.HelplineLookup {
	return func(text, fallback string) tasks.Helplines {
		code, ok := namedCountry(text)
		if !ok {
			code = fallback
		}
		h := tasks.Helplines{Country: code, Own: code != "" && dir.Has(code)}
		if code != "" && code != safety.InternationalCode {
			if r, err := language.ParseRegion(code); err == nil {
				h.CountryName = display.English.Regions().Name(r)
			}
			if h.CountryName == "" {
				h.CountryName = code
			}
		}
		rs := dir.Helplines(code)
		if em, ok := dir.Emergency(code); ok && h.Own {
			rs = append(rs, em)
		}
		for _, r := range rs {
			h.Lines = append(h.Lines, tasks.Helpline{Name: r.Name, Contact: r.Contact, Emergency: r.Emergency})
		}
		return h
	}
}

// placeAfterRE is the place a request names: "the helpline in Ireland",
// "numbers for Canada".
var placeAfterRE = regexp.MustCompile(`(?i)\b(?:in|for|of|from|near|around)\s+([^?.!,;:]+)`)

// namedCountry returns the country a helpline request names: as the person
// would say where they are ("I'm in Ireland"), after "in"/"for" ("the
// helpline in Ireland"), or as the whole text ("/helpline Canada").
func namedCountry(text string) (string, bool) {
	if c, ok := safety.DetectCountry(text, ""); ok {
		return c, true
	}
	for _, m := range placeAfterRE.FindAllStringSubmatch(text, -1) {
		if c, ok := safety.DetectCountry("I'm in "+strings.TrimSpace(m[1]), ""); ok {
			return c, true
		}
	}
	return safety.DetectCountry("I'm in "+strings.TrimSpace(strings.TrimRight(text, "?.! ")), "")
}

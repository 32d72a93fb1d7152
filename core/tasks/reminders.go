package tasks

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
)

// The kinds of a Reminder.
const (
	KindReminder = "reminder"
	KindCheckIn  = "checkin"
)

// ContextReminder is the capability context type of reminders and
// check-ins: key = reminder id, fields what, when, recurrence, due
// (RFC 3339) and kind; Context.Latest is the one "move that" means.
const ContextReminder = "reminder"

// Reminder is a message Haven will send the person later.
type Reminder struct {
	// ID is the store's opaque id.
	ID string
	// Kind is KindReminder or KindCheckIn.
	Kind string
	// What is what to remind of, in the person's words.
	What string
	// Due is when it is next due.
	Due time.Time
	// Rule is the recurrence; nil for once.
	Rule *Rule
	// Exact is true when the person asked for that very time (quiet hours
	// do not hold it).
	Exact bool
	// Zone is the IANA zone Due and Rule were read in; "" when none was
	// known (the time was read as UTC wall-clock time, to be read again
	// in the person's zone once they say it).
	Zone string
}

// ReminderStore keeps a person's reminders and proactive settings; core
// implements it over the memory store. Every method wraps its errors;
// an id that is not the person's active reminder is ErrNoReminder.
type ReminderStore interface {
	// AddReminder stores r, to be sent to the conversation to, and
	// returns its id. source names the message it was set from
	// (Request.MessageKey): a second call with the same source returns
	// the reminder already set, so a turn run again sets it once.
	AddReminder(ctx context.Context, personID, source string, to Target, r Reminder) (string, error)
	// Reminders returns the person's active reminders, soonest first.
	Reminders(ctx context.Context, personID string) ([]Reminder, error)
	// MoveReminder sets r.ID due at r.Due with r.Rule and r.Exact.
	MoveReminder(ctx context.Context, personID string, r Reminder) error
	// CancelReminder cancels the reminder id.
	CancelReminder(ctx context.Context, personID, id string) error
	// ZoneAsked reports whether Haven has asked the person for their zone;
	// MarkZoneAsked records that it has.
	ZoneAsked(ctx context.Context, personID string) (bool, error)
	MarkZoneAsked(ctx context.Context, personID string) error
	// SetTimeZone saves the person's IANA zone.
	SetTimeZone(ctx context.Context, personID, zone string) error
	// SetProactivePaused stops (true) or restarts (false) every message
	// Haven would send the person unasked.
	SetProactivePaused(ctx context.Context, personID string, paused bool) error
}

// ErrNoReminder is wrapped by a ReminderStore for an id that is not the
// person's active reminder.
var ErrNoReminder = errors.New("no such reminder")

// privateOnly is the answer to a request for reminders in a shared
// conversation.
const privateOnly = "Your reminders are yours, so I only show them in a direct message. Write to me there and ask again."

var (
	remRemindRE  = regexp.MustCompile(`(?i)^\s*(?:(?:hey|hi|ok|okay),?\s+)?(?:haven,?\s+)?(?:please\s+|can you\s+|could you\s+|would you\s+)?(?:remind me|set (?:a|up a) reminder)\b[\s,:]*(.*)$`)
	remCheckinRE = regexp.MustCompile(`(?i)^\s*(?:(?:hey|hi|ok|okay|haven|please|can you|could you|would you|will you),?\s+)*(?:check[- ]?in (?:on|with) me|check (?:up )?on me)\b(.*)$`)
	remListRE    = regexp.MustCompile(`(?i)\b(?:(?:list|show|see)(?: me)?(?: all)? my (?:reminders|check-?ins)|what (?:reminders|check-?ins) do i have|what are my (?:reminders|check-?ins)|my reminders\??$)`)
	remMoveRE    = regexp.MustCompile(`(?i)^\s*(?:please\s+|can you\s+)?(?:move|change|push|shift|reschedule|make)\s+(.*?)\s*\b(?:to|till|until|for)\b\s*(.+)$`)
	remCancelRE  = regexp.MustCompile(`(?i)^\s*(?:please\s+|can you\s+)?(cancel|delete|remove|drop|stop|forget)\s+(.+?)\s*[.!]?\s*$`)
	remZoneRE    = regexp.MustCompile(`(?i)\b(?:my time ?zone is|i'?m in the|set my time ?zone to|i(?:'?m| am) (?:in|based in|living in)|i live in)\s+([a-z][a-z_/ .'-]{1,40}?)\s*[.!]?\s*$`)
	remToRE      = regexp.MustCompile(`(?i)^\s*(?:to|that i should|that i need to|i need to|i have to|about)\s+`)
)

// ReminderCapabilities returns reminder.set, checkin.set, reminder.list,
// reminder.move, reminder.cancel, timezone.set, proactive.pause and
// proactive.resume over store.
//
// Setting a reminder or check-in in plain words needs the person's yes (it
// is a message Haven will send later); the explicit /remind command is
// the yes. Moving and cancelling need none: the person's own message,
// already agreed to, changes or goes.
func ReminderCapabilities(store ReminderStore) []Capability {
	return []Capability{
		{
			Name:        "reminder.set",
			Description: "Set a reminder, once or recurring, sent in this conversation.",
			Command:     "remind",
			Usage:       "/remind in 2 hours to stretch",
			Examples:    []string{"remind me to take a walk at 6", "remind me in 2 hours to stretch", "remind me every weekday at 9 to take my meds"},
			Params: []Param{
				{Name: "what", Description: "what to remind of", Required: true, Ask: "What should I remind you of?"},
				{Name: "when", Description: "when, in the person's words (\"at 6\", \"in 2 hours\", \"every weekday at 9\")", Required: true, Ask: "When should I remind you?"},
			},
			Reads: []string{ContextReminder}, Writes: []string{ContextReminder},
			Approval: approveSet("remind you"),
			Match:    matchRemind,
			Execute: func(ctx context.Context, req *Request, args Args) (Result, error) {
				return setReminder(ctx, store, req, KindReminder, args)
			},
		},
		{
			Name:        "checkin.set",
			Description: "Have Haven check in on you later, to see how you are.",
			Command:     "checkin",
			Usage:       "/checkin tomorrow evening",
			Examples:    []string{"check in on me tomorrow evening", "can you check on me in an hour"},
			Params: []Param{
				{Name: "when", Description: "when to check in", Required: true, Ask: "When should I check in on you?"},
			},
			Reads: []string{ContextReminder}, Writes: []string{ContextReminder},
			Approval: approveSet("check in on you"),
			Match: func(req *Request) (Args, bool) {
				rest, via := req.Text, "command"
				if req.Command == "" {
					m := remCheckinRE.FindStringSubmatch(req.Text)
					if m == nil {
						return nil, false
					}
					rest, via = m[1], "words"
				}
				args := Args{"via": via}
				if w, ok := ParseWhen(rest, req.Now); ok {
					args["when"] = w.Span
				}
				return args, true
			},
			Execute: func(ctx context.Context, req *Request, args Args) (Result, error) {
				return setReminder(ctx, store, req, KindCheckIn, args)
			},
		},
		{
			Name:        "reminder.list",
			Description: "List your reminders and check-ins.",
			Command:     "reminders",
			Usage:       "/reminders",
			Examples:    []string{"what reminders do I have?", "show my reminders"},
			Writes:      []string{ContextReminder},
			Match: func(req *Request) (Args, bool) {
				return Args{}, remListRE.MatchString(req.Text)
			},
			Execute: func(ctx context.Context, req *Request, _ Args) (Result, error) {
				return listReminders(ctx, store, req)
			},
		},
		{
			Name:        "reminder.move",
			Description: "Move a reminder or check-in to another time.",
			Examples:    []string{"move that to 7", "move the walk reminder to tomorrow at 8"},
			Params: []Param{
				{Name: "to", Description: "the new time", Required: true, Ask: "When should I move it to?"},
				{Name: "which", Description: "words naming the reminder; empty for the last one talked about"},
			},
			Reads: []string{ContextReminder}, Writes: []string{ContextReminder},
			Match: func(req *Request) (Args, bool) {
				m := remMoveRE.FindStringSubmatch(req.Text)
				if m == nil || !refersToReminder(m[1], req.Context) {
					return nil, false
				}
				// "make it to the party" names no time: not a move.
				if _, ok := ParseMove(moveText(m[2]), req.Now, req.Now); !ok {
					return nil, false
				}
				return Args{"which": m[1], "to": m[2]}, true
			},
			Execute: func(ctx context.Context, req *Request, args Args) (Result, error) {
				return moveReminder(ctx, store, req, args)
			},
		},
		{
			Name:        "reminder.cancel",
			Description: "Cancel a reminder or check-in.",
			Examples:    []string{"cancel the walk reminder", "cancel that"},
			Params: []Param{
				{Name: "which", Description: "words naming the reminder; empty for the last one talked about"},
			},
			Reads: []string{ContextReminder}, Writes: []string{ContextReminder},
			Match: func(req *Request) (Args, bool) {
				m := remCancelRE.FindStringSubmatch(req.Text)
				if m == nil {
					return nil, false
				}
				// "cancel that" points back; "stop it" or "forget it" is
				// not a cancellation unless a reminder is named.
				if !namesReminder(m[2]) && !(strings.EqualFold(m[1], "cancel") && refersToReminder(m[2], req.Context)) {
					return nil, false
				}
				return Args{"which": m[2]}, true
			},
			Execute: func(ctx context.Context, req *Request, args Args) (Result, error) {
				return cancelReminder(ctx, store, req, args)
			},
		},
		{
			Name:        "timezone.set",
			Description: "Tell Haven your time zone, so reminders come at your time.",
			Command:     "timezone",
			Usage:       "/timezone Europe/Dublin",
			Examples:    []string{"I'm in Dublin", "my time zone is Europe/Dublin"},
			Params: []Param{
				{Name: "zone", Description: "an IANA time zone (Europe/Dublin) or a city", Required: true, Ask: "Which time zone are you in? A city works, like Dublin or Chicago."},
			},
			Match: func(req *Request) (Args, bool) {
				m := remZoneRE.FindStringSubmatch(req.Text)
				if m == nil {
					return nil, false
				}
				// "I'm in London" is read as a zone only where reminders
				// are being talked about; "my time zone is ..." always.
				if !strings.Contains(strings.ToLower(req.Text), "zone") && len(req.Context[ContextReminder]) == 0 {
					return nil, false
				}
				if _, ok := LookupZone(m[1]); !ok {
					return nil, false
				}
				return Args{"zone": m[1]}, true
			},
			Execute: func(ctx context.Context, req *Request, args Args) (Result, error) {
				return setZone(ctx, store, req, args["zone"])
			},
		},
		{
			Name:        "proactive.pause",
			Description: "Pause every reminder and check-in until /resume.",
			Command:     "pause",
			Usage:       "/pause",
			Execute: func(ctx context.Context, req *Request, _ Args) (Result, error) {
				if err := store.SetProactivePaused(ctx, req.PersonID, true); err != nil {
					return Result{}, fmt.Errorf("pause reminders: %w", err)
				}
				return Result{Text: "I've paused your reminders and check-ins: I won't message you unasked until you say /resume."}, nil
			},
		},
		{
			Name:        "proactive.resume",
			Description: "Start reminders and check-ins again after /pause.",
			Command:     "resume",
			Usage:       "/resume",
			Execute: func(ctx context.Context, req *Request, _ Args) (Result, error) {
				if err := store.SetProactivePaused(ctx, req.PersonID, false); err != nil {
					return Result{}, fmt.Errorf("resume reminders: %w", err)
				}
				return Result{Text: "Your reminders and check-ins are back on. Any that came due while they were paused will come now."}, nil
			},
		},
	}
}

// approveSet is the approval of a reminder or check-in said in words.
func approveSet(verb string) func(Args) (string, bool) {
	return func(args Args) (string, bool) {
		if args["via"] == "command" {
			return "", false
		}
		q := "Shall I " + verb
		if w := args["what"]; w != "" {
			q += " to " + w
		}
		if w := args["when"]; w != "" {
			q += " " + w
		}
		return q + "?", true
	}
}

// matchRemind reads "remind me [to] X [time]" and "remind me [time] to
// X", and the /remind command's text ("in 2 hours to stretch"), which is
// marked via=command: the explicit command is the person's consent.
func matchRemind(req *Request) (Args, bool) {
	rest, via := req.Text, "command"
	if m := remRemindRE.FindStringSubmatch(req.Text); m != nil {
		rest = m[1]
		if req.Command == "" {
			via = "words"
		}
	} else if req.Command == "" {
		return nil, false
	}
	args := Args{"via": via}
	what := rest
	if w, ok := ParseWhen(rest, req.Now); ok {
		args["when"] = w.Span
		what = w.Rest(rest)
	}
	what = remToRE.ReplaceAllString(what, "")
	what = strings.TrimSpace(strings.TrimRight(strings.TrimSuffix(strings.TrimSpace(what), " at"), ".!,?"))
	if what != "" {
		args["what"] = what
	}
	return args, true
}

// zoneOf returns the request's zone and its name; UTC and "" when unknown.
func zoneOf(req *Request) (*time.Location, string) {
	if req.Location == nil {
		return time.UTC, ""
	}
	return req.Location, req.Location.String()
}

// setReminder reads args["when"] in the person's zone and stores the
// reminder. Without a known zone a clock time is read as UTC for now,
// and Haven asks for the zone once; a relative time needs none.
func setReminder(ctx context.Context, store ReminderStore, req *Request, kind string, args Args) (Result, error) {
	loc, zone := zoneOf(req)
	now := req.Now.In(loc)
	w, ok := ParseWhen(args["when"], now)
	if !ok {
		return Result{Text: fmt.Sprintf("I couldn't tell when %q is. Try something like \"at 6\", \"in 2 hours\" or \"every weekday at 9\".", args["when"])}, nil
	}
	what := args["what"]
	if kind == KindCheckIn && what == "" {
		what = "check in"
	}
	r := Reminder{Kind: kind, What: what, Due: w.At, Rule: w.Rule, Exact: w.Exact, Zone: zone}
	if zone == "" && w.Relative {
		r.Zone = "UTC"
	}
	id, err := store.AddReminder(ctx, req.PersonID, req.MessageKey, req.Target, r)
	if err != nil {
		return Result{}, fmt.Errorf("set %s: %w", kind, err)
	}
	r.ID = id
	putReminder(req, r)
	var b strings.Builder
	if kind == KindCheckIn {
		fmt.Fprintf(&b, "Okay, I'll check in on you %s.", describe(r, now))
	} else {
		fmt.Fprintf(&b, "Okay, I'll remind you to %s %s.", what, describe(r, now))
	}
	if r.Zone == "" {
		asked, err := store.ZoneAsked(ctx, req.PersonID)
		if err != nil {
			return Result{}, fmt.Errorf("set %s: %w", kind, err)
		}
		if !asked {
			if err := store.MarkZoneAsked(ctx, req.PersonID); err != nil {
				return Result{}, fmt.Errorf("set %s: %w", kind, err)
			}
			b.WriteString(" I don't know your time zone yet, so that's UTC for now. Which time zone are you in? Say something like \"I'm in Dublin\" and I'll move it to your time.")
		} else {
			b.WriteString(" (That's UTC: tell me your time zone, like \"I'm in Dublin\", to use your time.)")
		}
	}
	return Result{Text: b.String()}, nil
}

// describe says when r is due, for the person: "at 18:00 today",
// "every weekday at 09:00".
func describe(r Reminder, now time.Time) string {
	if r.Rule != nil {
		return r.Rule.Describe()
	}
	due := r.Due.In(now.Location())
	clock := due.Format("15:04")
	days := int(time.Date(due.Year(), due.Month(), due.Day(), 0, 0, 0, 0, time.UTC).Sub(
		time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)).Hours() / 24)
	switch {
	case days == 0 && due.Sub(now) < time.Hour:
		switch n := int(due.Sub(now).Round(time.Minute) / time.Minute); n {
		case 0:
			return "at " + clock + " (in under a minute)"
		case 1:
			return "at " + clock + " (in 1 minute)"
		default:
			return fmt.Sprintf("at %s (in %d minutes)", clock, n)
		}
	case days == 0:
		return "at " + clock + " today"
	case days == 1:
		return "at " + clock + " tomorrow"
	case days < 7:
		return "at " + clock + " on " + due.Weekday().String()
	}
	return "at " + clock + " on " + due.Format("Mon 2 Jan")
}

// putReminder records r in the capability context as the last one named.
func putReminder(req *Request, r Reminder) {
	if req.Context == nil {
		return
	}
	loc, _ := zoneOf(req)
	rec := ""
	if r.Rule != nil {
		rec = r.Rule.String()
	}
	req.Context.Put(ContextReminder, r.ID, map[string]string{
		"what": r.What, "when": describe(r, req.Now.In(loc)), "recurrence": rec, "kind": r.Kind,
		"due": r.Due.Format(time.RFC3339),
	})
}

// deictic are the words that point back at the last reminder.
var deictic = []string{"that", "it", "this", "that one", "this one", "that reminder", "the reminder", "my reminder", "the check-in", "that check-in", "the checkin"}

// refersToReminder reports whether words name a reminder: "that" when the
// context holds one, or words with "reminder" or "check-in" in them.
func refersToReminder(words string, c Context) bool {
	w := strings.ToLower(strings.TrimSpace(words))
	if slices.Contains(deictic, w) {
		return len(c[ContextReminder]) > 0
	}
	return namesReminder(w)
}

// namesReminder reports whether words say "reminder" or "check-in".
func namesReminder(words string) bool {
	w := strings.ToLower(words)
	return strings.Contains(w, "reminder") || strings.Contains(w, "check-in") || strings.Contains(w, "checkin")
}

// moveText is the new time of a move as ParseMove reads it: "7" alone is
// no clock time, "to 7" is.
func moveText(to string) string {
	to = strings.TrimSpace(to)
	if !strings.HasPrefix(strings.ToLower(to), "to ") {
		to = "to " + to
	}
	return to
}

// stop are words that do not tell reminders apart.
var stop = map[string]bool{"the": true, "my": true, "a": true, "an": true, "to": true, "reminder": true, "reminders": true,
	"check-in": true, "checkin": true, "that": true, "this": true, "it": true, "one": true, "for": true, "about": true, "of": true}

// resolve finds the reminder words name among the person's: by their
// words in its what, else the last one in the context. It returns nil
// when none fits, and the candidates when several do.
func resolve(ctx context.Context, store ReminderStore, req *Request, words string) (*Reminder, []Reminder, error) {
	all, err := store.Reminders(ctx, req.PersonID)
	if err != nil {
		return nil, nil, err
	}
	var keys []string
	for _, f := range strings.Fields(strings.ToLower(words)) {
		f = strings.Trim(f, ".,!?'\"")
		if f != "" && !stop[f] {
			keys = append(keys, f)
		}
	}
	if len(keys) > 0 {
		var hits []Reminder
		for _, r := range all {
			what := strings.ToLower(r.What)
			if slices.ContainsFunc(keys, func(k string) bool { return strings.Contains(what, k) }) {
				hits = append(hits, r)
			}
		}
		if len(hits) == 1 {
			return &hits[0], nil, nil
		}
		if len(hits) > 1 {
			return nil, hits, nil
		}
	}
	if id, _, ok := req.Context.Latest(ContextReminder); ok && len(keys) == 0 {
		for _, r := range all {
			if r.ID == id {
				return &r, nil, nil
			}
		}
	}
	return nil, nil, nil
}

// notFound is the answer when no reminder fits.
const notFound = "I'm not sure which reminder you mean. Say /reminders to see them, then name it (\"cancel the walk reminder\")."

// several asks which of rs is meant.
func several(req *Request, rs []Reminder, now time.Time) Result {
	if !req.Private {
		return Result{Text: "That could be more than one of your reminders. Your reminders are yours, so write to me in a direct message and I'll list them there."}
	}
	var b strings.Builder
	b.WriteString("That could be more than one of your reminders:\n")
	for _, r := range rs {
		fmt.Fprintf(&b, "- %s, %s\n", r.What, describe(r, now))
	}
	b.WriteString("Which one? Name it with a word only it has.")
	return Result{Text: b.String()}
}

func moveReminder(ctx context.Context, store ReminderStore, req *Request, args Args) (Result, error) {
	loc, _ := zoneOf(req)
	now := req.Now.In(loc)
	r, many, err := resolve(ctx, store, req, args["which"])
	if err != nil {
		return Result{}, fmt.Errorf("move reminder: %w", err)
	}
	if many != nil {
		return several(req, many, now), nil
	}
	if r == nil {
		return Result{Text: notFound}, nil
	}
	w, ok := ParseMove(moveText(args["to"]), r.Due.In(loc), now)
	if !ok {
		return Result{Text: fmt.Sprintf("I couldn't tell when %q is. Try something like \"to 7\" or \"to tomorrow at 8\".", args["to"])}, nil
	}
	r.Due, r.Exact = w.At, w.Exact
	if w.Rule != nil {
		r.Rule = w.Rule
	} else if r.Rule != nil {
		// A recurring reminder moved to a clock time keeps its days.
		r.Rule = &Rule{Days: r.Rule.Days, Hour: w.At.Hour(), Minute: w.At.Minute()}
		r.Due = r.Rule.Next(now)
	}
	if err := store.MoveReminder(ctx, req.PersonID, *r); err != nil {
		if errors.Is(err, ErrNoReminder) {
			return Result{Text: notFound}, nil
		}
		return Result{}, fmt.Errorf("move reminder %s: %w", r.ID, err)
	}
	putReminder(req, *r)
	return Result{Text: fmt.Sprintf("Done: %s is now %s.", quoteWhat(req, *r), describe(*r, now))}, nil
}

func cancelReminder(ctx context.Context, store ReminderStore, req *Request, args Args) (Result, error) {
	loc, _ := zoneOf(req)
	r, many, err := resolve(ctx, store, req, args["which"])
	if err != nil {
		return Result{}, fmt.Errorf("cancel reminder: %w", err)
	}
	if many != nil {
		return several(req, many, req.Now.In(loc)), nil
	}
	if r == nil {
		return Result{Text: notFound}, nil
	}
	if err := store.CancelReminder(ctx, req.PersonID, r.ID); err != nil {
		if errors.Is(err, ErrNoReminder) {
			return Result{Text: notFound}, nil
		}
		return Result{}, fmt.Errorf("cancel reminder %s: %w", r.ID, err)
	}
	if req.Context != nil {
		req.Context.Delete(ContextReminder, r.ID)
	}
	return Result{Text: fmt.Sprintf("Cancelled %s.", quoteWhat(req, *r))}, nil
}

// quoteWhat names r for the person; in a shared conversation without
// its words, which may have been said in private.
func quoteWhat(req *Request, r Reminder) string {
	if r.Kind == KindCheckIn {
		return "the check-in"
	}
	if !req.Private {
		return "that reminder"
	}
	return fmt.Sprintf("the reminder to %s", r.What)
}

func listReminders(ctx context.Context, store ReminderStore, req *Request) (Result, error) {
	if !req.Private {
		return Result{Text: privateOnly}, nil
	}
	all, err := store.Reminders(ctx, req.PersonID)
	if err != nil {
		return Result{}, fmt.Errorf("list reminders: %w", err)
	}
	if len(all) == 0 {
		return Result{Text: "You have no reminders or check-ins. Ask me like \"remind me to take a walk at 6\"."}, nil
	}
	loc, _ := zoneOf(req)
	now := req.Now.In(loc)
	var b strings.Builder
	b.WriteString("Your reminders:\n")
	for _, r := range all {
		if r.Kind == KindCheckIn {
			fmt.Fprintf(&b, "- a check-in %s\n", describe(r, now))
		} else {
			fmt.Fprintf(&b, "- %s, %s\n", r.What, describe(r, now))
		}
		putReminder(req, r)
	}
	b.WriteString("Say \"move the … reminder to 7\" or \"cancel the … reminder\" to change one; /pause stops them all for now.")
	return Result{Text: b.String()}, nil
}

func setZone(ctx context.Context, store ReminderStore, req *Request, words string) (Result, error) {
	loc, ok := LookupZone(words)
	if !ok {
		return Result{Text: fmt.Sprintf("I don't know the time zone %q. A city works (Dublin, Chicago, Tokyo), or a name like Europe/Dublin.", words)}, nil
	}
	// Reminders set while the zone was unknown keep their wall-clock
	// time, now in the person's zone.
	all, err := store.Reminders(ctx, req.PersonID)
	if err != nil {
		return Result{}, fmt.Errorf("set time zone: %w", err)
	}
	if err := store.SetTimeZone(ctx, req.PersonID, loc.String()); err != nil {
		return Result{}, fmt.Errorf("set time zone: %w", err)
	}
	moved := 0
	now := req.Now.In(loc)
	for _, r := range all {
		if r.Zone != "" {
			continue
		}
		u := r.Due.UTC()
		r.Due = time.Date(u.Year(), u.Month(), u.Day(), u.Hour(), u.Minute(), 0, 0, loc)
		if r.Rule != nil {
			r.Due = r.Rule.Next(now)
		} else if !r.Due.After(req.Now) {
			r.Due = r.Due.AddDate(0, 0, 1)
		}
		if err := store.MoveReminder(ctx, req.PersonID, r); err != nil {
			return Result{}, fmt.Errorf("set time zone: move reminder %s: %w", r.ID, err)
		}
		putReminder(&Request{Now: req.Now, Location: loc, Context: req.Context}, r)
		moved++
	}
	text := fmt.Sprintf("Got it: your time zone is %s (it's %s there now).", loc.String(), now.Format("15:04"))
	if moved > 0 {
		noun := "reminders"
		if moved == 1 {
			noun = "reminder"
		}
		text += fmt.Sprintf(" I've moved %d %s to your time.", moved, noun)
	}
	return Result{Text: text}, nil
}

// zoneRegions are the tz database's areas a city is looked up in.
var zoneRegions = []string{"Europe", "America", "Asia", "Africa", "Australia", "Pacific", "Atlantic", "Indian", "America/Argentina", "America/Indiana", "Antarctica"}

// LookupZone reads a time zone from a person's words: an IANA name
// ("Europe/Dublin", any case) or a city the tz database names a zone
// after ("Dublin", "new york").
func LookupZone(words string) (*time.Location, bool) {
	w := strings.Trim(strings.TrimSpace(words), ".!?")
	if w == "" || len(w) > 64 || strings.Contains(w, "..") {
		return nil, false
	}
	if strings.EqualFold(w, "utc") || strings.EqualFold(w, "gmt") {
		return time.UTC, true
	}
	// Title-case each part: "europe/dublin" -> "Europe/Dublin", "new york" -> "New_York".
	parts := strings.Split(strings.ReplaceAll(strings.TrimSpace(w), " ", "_"), "/")
	for i, p := range parts {
		segs := strings.Split(strings.ToLower(p), "_")
		for j, s := range segs {
			if s != "" && s != "of" && s != "es" && s != "de" {
				segs[j] = strings.ToUpper(s[:1]) + s[1:]
			}
		}
		parts[i] = strings.Join(segs, "_")
	}
	name := strings.Join(parts, "/")
	if strings.Contains(name, "/") {
		if loc, err := time.LoadLocation(name); err == nil {
			return loc, true
		}
		return nil, false
	}
	for _, region := range zoneRegions {
		if loc, err := time.LoadLocation(region + "/" + name); err == nil {
			return loc, true
		}
	}
	return nil, false
}

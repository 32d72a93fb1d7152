package tasks

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/havenbot/haven/internal/textmatch"
)

// JournalEntry is one entry of a person's journal.
type JournalEntry struct {
	ID   int64
	Text string
	At   time.Time
}

// JournalStore keeps journal entries. core adapts memory/sqlite's store
// to it.
type JournalStore interface {
	// AddJournalEntry stores text as the person's entry written at at.
	// A second call with the same non-empty source returns the entry
	// already written.
	AddJournalEntry(ctx context.Context, personID, text string, at time.Time, source string) (JournalEntry, error)
	// JournalEntries returns the person's entries written in [from, to),
	// oldest first (a zero end is open); limit > 0 keeps the newest limit.
	JournalEntries(ctx context.Context, personID string, from, to time.Time, limit int) ([]JournalEntry, error)
}

// JournalType is the capability context type of journal entries (key: the
// entry id; fields: "at").
const JournalType = "journal"

// maxJournalRunes bounds an entry (the store's limit).
const maxJournalRunes = 4000

// maxJournalShown bounds how many entries one reply lists.
const maxJournalShown = 15

// journalPrivate answers a journal request outside a DM.
const journalPrivate = "Your journal is private, so I only write in it or read it back in a direct message. Send me a DM and ask there."

var (
	journalWriteRE = textmatch.MustCompile(`(?is)^\s*(?:please\s+|can you\s+|could you\s+)?(?:(?:write|add|put|save|note)(?:\s+(?:this|that|down))?\s+(?:in|to|into)\s+my\s+(?:journal|diary)|journal\s+entry|new\s+journal\s+entry|dear\s+(?:diary|journal))\s*[:,.\-–—]?\s*(.*)$`)
	journalReadRE  = textmatch.MustCompile(`(?i)\b(?:what\s+(?:did|have)\s+i\s+(?:write|written|journal(?:l?ed)?|put\s+in\s+my\s+(?:journal|diary))|(?:show|read|give)(?:\s+me)?(?:\s+back)?\s+(?:my|what'?s\s+in\s+my)\s+(?:journal|diary)|my\s+(?:journal|diary)\s+entries|what'?s\s+in\s+my\s+(?:journal|diary))\b`)
	lastDaysRE     = textmatch.MustCompile(`(?i)\b(?:last|past)\s+(\d{1,3})\s+days?\b`)
)

// JournalCapabilities returns the journal's capabilities: write an entry
// (/journal, "write in my journal: ...") and read entries back ("what did
// I write last week?"). Entries are only written or shown in a DM.
func JournalCapabilities(store JournalStore) []Capability {
	return []Capability{
		{
			Name:        "journal.write",
			Description: "Write an entry in your private journal.",
			Command:     "journal",
			Usage:       "/journal today was hard, but I went for a walk",
			Examples:    []string{"write in my journal: I finally called my sister", "dear diary, a quiet day"},
			Params:      []Param{{Name: "text", Description: "the entry, in the person's own words", Required: true, Ask: "What would you like to write in your journal?"}},
			Writes:      []string{JournalType},
			Match: func(req *Request) (Args, bool) {
				m := journalWriteRE.FindStringSubmatch(req.Text)
				if m == nil {
					return nil, false
				}
				return Args{"text": strings.TrimSpace(m[1])}, true
			},
			Execute: func(ctx context.Context, req *Request, a Args) (Result, error) {
				if !req.Private {
					return Result{Text: journalPrivate}, nil
				}
				text := strings.TrimSpace(a["text"])
				if n := len([]rune(text)); n > maxJournalRunes {
					return Result{Text: fmt.Sprintf("That entry is %d characters, and I can keep up to %d in one. Could you split it into two? Nothing has been written yet.", n, maxJournalRunes)}, nil
				}
				e, err := store.AddJournalEntry(ctx, req.PersonID, text, req.Now, req.MessageKey)
				if err != nil {
					return Result{}, fmt.Errorf("write journal entry: %w", err)
				}
				// Only the latest entry is kept in the context (what "that"
				// means): the checkpoint does not grow with the journal.
				if old, _, ok := req.Context.Latest(JournalType); ok {
					req.Context.Delete(JournalType, old)
				}
				req.Context.Put(JournalType, strconv.FormatInt(e.ID, 10), map[string]string{"at": e.At.UTC().Format(time.RFC3339)})
				return Result{Text: "I've written that in your journal. Ask \"what did I write this week?\" to read it back; /memory and /forget cover your entries too."}, nil
			},
		},
		{
			Name:        "journal.read",
			Description: "Read back what you wrote in your journal.",
			Usage:       "what did I write last week?",
			Examples:    []string{"what did I write last week", "show me my journal", "what did I write yesterday"},
			Params:      []Param{{Name: "period", Description: `today, yesterday, this week, last week, this month, last month, "last N days", or empty for the latest entries`}},
			Reads:       []string{JournalType},
			Match: func(req *Request) (Args, bool) {
				if !journalReadRE.MatchString(req.Text) {
					return nil, false
				}
				return Args{"period": periodIn(req.Text)}, true
			},
			Execute: func(ctx context.Context, req *Request, a Args) (Result, error) {
				if !req.Private {
					return Result{Text: journalPrivate}, nil
				}
				loc := req.Location
				if loc == nil {
					loc = time.UTC
				}
				from, to, label := periodRange(a["period"], req.Now.In(loc))
				entries, err := store.JournalEntries(ctx, req.PersonID, from, to, maxJournalShown+1)
				if err != nil {
					return Result{}, fmt.Errorf("read journal entries: %w", err)
				}
				if len(entries) == 0 {
					if label == "" {
						return Result{Text: "Your journal is empty so far. Say /journal and a few words whenever you'd like to write something down."}, nil
					}
					return Result{Text: "I don't have any journal entries from " + label + "."}, nil
				}
				var b strings.Builder
				more := len(entries) > maxJournalShown
				if more {
					entries = entries[1:]
				}
				if label == "" {
					b.WriteString("Your latest journal entries:\n")
				} else {
					fmt.Fprintf(&b, "What you wrote %s:\n", label)
				}
				for _, e := range entries {
					fmt.Fprintf(&b, "- %s: %s\n", e.At.In(loc).Format("Mon 2 Jan, 15:04"), e.Text)
				}
				if more {
					fmt.Fprintf(&b, "(These are the latest %d; ask for a shorter time to see earlier ones.)", maxJournalShown)
				}
				return Result{Text: strings.TrimRight(b.String(), "\n")}, nil
			},
		},
	}
}

// periodIn names the period a request asks about, "" for none.
func periodIn(text string) string {
	s := strings.ToLower(text)
	if m := lastDaysRE.FindStringSubmatch(s); m != nil {
		return "last " + m[1] + " days"
	}
	for _, p := range []string{"today", "yesterday", "this week", "last week", "this month", "last month"} {
		if strings.Contains(s, p) {
			return p
		}
	}
	return ""
}

// periodRange is the [from, to) of a period in now's zone, with how to
// say it; an empty or unknown period is the open range (the latest
// entries).
func periodRange(period string, now time.Time) (from, to time.Time, label string) {
	day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, now.Location())
	monday := day.AddDate(0, 0, -((int(day.Weekday()) + 6) % 7))
	month := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, now.Location())
	p := strings.ToLower(strings.TrimSpace(period))
	if m := lastDaysRE.FindStringSubmatch(p); m != nil {
		n, _ := strconv.Atoi(m[1])
		if n < 1 {
			n = 1
		}
		return day.AddDate(0, 0, 1-n), time.Time{}, "in the last " + m[1] + " days"
	}
	switch p {
	case "today":
		return day, time.Time{}, "today"
	case "yesterday":
		return day.AddDate(0, 0, -1), day, "yesterday"
	case "this week":
		return monday, time.Time{}, "this week"
	case "last week":
		return monday.AddDate(0, 0, -7), monday, "last week"
	case "this month":
		return month, time.Time{}, "this month"
	case "last month":
		return month.AddDate(0, -1, 0), month, "last month"
	}
	return time.Time{}, time.Time{}, ""
}

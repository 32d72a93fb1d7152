package core

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/memory"
)

// CrisisLogReader gives /haven crisis the crisis log (Options.CrisisLog);
// memory/sqlite's Store implements it.
type CrisisLogReader interface {
	// RecentCrisis returns the latest n rows, newest first.
	RecentCrisis(ctx context.Context, n int) ([]memory.CrisisEvent, error)
}

// The number of crisis-log rows /haven crisis shows: by default, and at
// most.
const (
	defaultCrisisRows = 10
	maxCrisisRows     = 50
)

func parseCrisisCount(s string) (string, bool) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return "", false
	}
	return strconv.Itoa(min(n, maxCrisisRows)), true
}

// privateForAdmins reports whether the conversation is one where the crisis
// log may be shown: the configured operators' conversation, or a DM.
func (e *Engine) privateForAdmins(t *Turn) bool {
	if t.In.Conversation.Kind == channels.KindDM {
		return true
	}
	return e.alert != nil && t.In.Conversation.ID == e.alert.ID
}

// crisisText renders crisis-log rows: time, platform, opaque ids, level,
// rule path and flags; the log holds no text to show.
func crisisText(rows []memory.CrisisEvent) string {
	if len(rows) == 0 {
		return "The crisis log is empty."
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The last %d crisis-log %s, newest first (opaque ids; never message text):\n", len(rows), plural(len(rows), "row", "rows"))
	for _, r := range rows {
		fmt.Fprintf(&b, "- %s %s level %d, person %s, session %s, conversation %s, rules %s",
			r.At.UTC().Format("2006-01-02 15:04:05Z"), idOrDash(r.Platform), r.Level, idOrDash(r.PersonID), idOrDash(r.SessionID), idOrDash(r.ConversationID), idOrDash(r.Path))
		if len(r.Flags) > 0 {
			fmt.Fprintf(&b, ", flags %s", strings.Join(r.Flags, ","))
		}
		b.WriteString("\n")
	}
	b.WriteString("A dash is an id removed when the person asked to be forgotten.")
	return b.String()
}

func idOrDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

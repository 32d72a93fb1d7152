package core

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/havenbot/haven/memory"
)

// StatsSource gives /haven stats its de-identified counts
// (Options.Stats); memory/sqlite's Store implements it.
type StatsSource interface {
	// Stats returns the counts of what happened since since.
	Stats(ctx context.Context, since time.Time) (memory.Stats, error)
}

// statsPeriods are the windows /haven stats takes.
var statsPeriods = map[string]time.Duration{"day": 24 * time.Hour, "week": 7 * 24 * time.Hour, "month": 30 * 24 * time.Hour}

func parseStatsPeriod(s string) (string, bool) {
	s = strings.ToLower(s)
	_, ok := statsPeriods[s]
	return s, ok
}

// statsText renders the counts of the last period: numbers only, nothing
// about any single person.
func statsText(period string, st memory.Stats) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Haven over the last %s (since %s):\n", period, st.Since.UTC().Format("2 Jan 2006 15:04 MST"))
	fmt.Fprintf(&b, "- %d %s with %d %s\n", st.Turns, plural(st.Turns, "turn", "turns"), st.People, plural(st.People, "person", "people"))
	fmt.Fprintf(&b, "- routes: %s\n", counts(st.Routes))
	fmt.Fprintf(&b, "- therapeutic modes: %s\n", counts(st.Modes))
	fmt.Fprintf(&b, "- platforms: %s\n", counts(st.Platforms))
	levels := map[string]int{}
	for l, n := range st.CrisisLevels {
		levels[fmt.Sprintf("level %d", l)] = n
	}
	fmt.Fprintf(&b, "- crisis log: %s\n", counts(levels))
	fmt.Fprintf(&b, "- exercises: %d started, %d finished\n", st.Exercises["started"], st.Exercises["finished"])
	fmt.Fprintf(&b, "- generated replies replaced by the output guard: %d", st.Guarded)
	return b.String()
}

// counts renders a count map as "a 3, b 1", largest first; "none" when
// empty.
func counts(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if m[a] != m[b] {
			return m[b] - m[a]
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

package memory

import (
	"fmt"
	"time"
)

// The mood scale: a score from MoodMin (the worst) to MoodMax (the best).
// Zero is on the scale so that a person at their lowest can say so.
const (
	MoodMin = 0
	MoodMax = 10
)

// MaxMoodNote is the longest note a mood entry keeps, in runes.
const MaxMoodNote = 500

// Mood is one entry of a person's mood log. It is memory the person
// controls: /memory lists it, /forget removes it, /export includes it.
type Mood struct {
	ID       int64  `json:"id"`
	PersonID string `json:"-"`
	// Score is from MoodMin to MoodMax.
	Score int `json:"score"`
	// Note is what the person said with it ("tired but ok"), "" for none.
	Note string `json:"note,omitempty"`
	// At is when the mood was logged.
	At time.Time `json:"at"`
	// Source names the message the mood was logged from, "" for none: a
	// second entry with the same person and source is the first one (a
	// turn run again after a crash).
	Source string `json:"-"`
}

// Words renders the entry for its owner: "mood 6/10 on Mon 23 Nov 2026
// (UTC): tired but ok".
func (m Mood) Words() string {
	s := fmt.Sprintf("mood %d/%d on %s", m.Score, MoodMax, m.At.UTC().Format("Mon 2 Jan 2006 15:04 (UTC)"))
	if m.Note != "" {
		s += ": " + m.Note
	}
	return s
}

package memory

import (
	"time"
)

// MaxRules is how many procedural rules a person may have; the oldest is
// dropped when a new one would pass the cap.
const MaxRules = 20

// Rule is one procedural memory: how the person wants Haven to talk with
// them. Rules with the same Key conflict; the newest wins.
type Rule struct {
	ID       int64
	PersonID string
	// Key groups conflicting rules: "address" (what to call them), "advice",
	// "length", "questions", "tone", or "custom:..." for others.
	Key string
	// Text is the rule in plain words ("just listen, no advice"); for the
	// "address" key it is the name to use.
	Text      string
	Evidence  string
	SessionID string
	Created   time.Time
}

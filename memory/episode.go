package memory

import (
	"time"
)

// MaxThemes is how many themes an episode keeps.
const MaxThemes = 3

// Episode is what one session was about, written when it ends.
type Episode struct {
	ID        int64
	PersonID  string
	SessionID string
	Summary   string
	// Themes are at most MaxThemes short topics ("work", "sleep").
	Themes []string
	// MoodArc is how the person's mood moved ("low → steadier").
	MoodArc string
	// OpenLoops are things left to come back to ("wanted to talk to her
	// manager on Friday").
	OpenLoops []string
	Started   time.Time
	Ended     time.Time
	Created   time.Time
}

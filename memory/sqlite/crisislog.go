package sqlite

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/havenbot/haven/memory"
)

// maxCrisisField bounds the crisis log's short text fields (reason, path,
// flags), so that no message could be stored in them. The schema enforces
// the same bound.
const maxCrisisField = 120

var flagName = regexp.MustCompile(`^[a-z][a-z0-9_]{0,39}$`)

// LogCrisis appends a row to the crisis log. It never refuses a row for its
// content, because a crisis must always be logged: the level is clamped to
// 0-3, the confidence to 0-1, reason and path are cut to 120 bytes (on a rune
// boundary), and flags that are not snake_case names are dropped. A zero At
// means now.
func (s *Store) LogCrisis(ctx context.Context, ev memory.CrisisEvent) error {
	level := min(max(ev.Level, 0), 3)
	conf := ev.Confidence
	if math.IsNaN(conf) {
		conf = 0
	}
	conf = min(max(conf, 0), 1)
	var flags []string
	for _, f := range ev.Flags {
		if flagName.MatchString(f) {
			flags = append(flags, f)
		}
	}
	flagsText := clip(strings.Join(flags, ","), maxCrisisField)
	at := ev.At
	if at.IsZero() {
		at = s.now()
	}
	err := s.write(ctx, func(tx *wtx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO crisis_log
			(person_id, session_id, conversation_id, platform, level, confidence, reason, path, flags, at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			ev.PersonID, ev.SessionID, ev.ConversationID, ev.Platform, level, conf,
			clip(ev.Reason, maxCrisisField), clip(ev.Path, maxCrisisField), flagsText, ts(at))
		return err
	})
	if err != nil {
		return fmt.Errorf("log crisis for session %s: %w", ev.SessionID, err)
	}
	return nil
}

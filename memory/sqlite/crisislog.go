package sqlite

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"

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
	err := s.write(ctx, func(tx *wtx) error { return insertCrisis(ctx, tx, ev, s.now()) })
	if err != nil {
		return fmt.Errorf("log crisis for session %s: %w", ev.SessionID, err)
	}
	return nil
}

// insertCrisis appends ev to the crisis log in tx, its fields clamped and
// clipped; a zero At means now.
func insertCrisis(ctx context.Context, tx *wtx, ev memory.CrisisEvent, now time.Time) error {
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
		at = now
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO crisis_log
		(person_id, session_id, conversation_id, platform, level, confidence, reason, path, flags, at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		ev.PersonID, ev.SessionID, ev.ConversationID, ev.Platform, level, conf,
		clip(ev.Reason, maxCrisisField), clip(ev.Path, maxCrisisField), flagsText, ts(at))
	return err
}

// RecentCrisis returns the crisis log's latest n rows, newest first. The
// rows hold opaque ids and the assessment, never message text.
func (s *Store) RecentCrisis(ctx context.Context, n int) ([]memory.CrisisEvent, error) {
	rows, err := s.rd.QueryContext(ctx, `SELECT person_id, session_id, conversation_id, platform, level, confidence, reason, path, flags, at
		FROM crisis_log ORDER BY at DESC, id DESC LIMIT ?`, n)
	if err != nil {
		return nil, fmt.Errorf("read the crisis log: %w", s.classify(err))
	}
	defer rows.Close()
	var out []memory.CrisisEvent
	for rows.Next() {
		var ev memory.CrisisEvent
		var flags string
		var at int64
		if err := rows.Scan(&ev.PersonID, &ev.SessionID, &ev.ConversationID, &ev.Platform, &ev.Level, &ev.Confidence,
			&ev.Reason, &ev.Path, &flags, &at); err != nil {
			return nil, fmt.Errorf("read the crisis log: %w", err)
		}
		if flags != "" {
			ev.Flags = strings.Split(flags, ",")
		}
		ev.At = fromTS(at)
		out = append(out, ev)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read the crisis log: %w", s.classify(err))
	}
	return out, nil
}

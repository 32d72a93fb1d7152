package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/havenbot/haven/memory"
)

func episodeBody(e memory.Episode) string {
	return e.Summary + " " + strings.Join(e.Themes, " ") + " " + e.MoodArc + " " + strings.Join(e.OpenLoops, " ")
}

const episodeColumns = `id, person_id, session_id, summary, themes, mood_arc, open_loops, started_at, ended_at, created_at`

func scanEpisode(row scanner) (memory.Episode, error) {
	var e memory.Episode
	var themes, loops string
	var started, ended, created int64
	if err := row.Scan(&e.ID, &e.PersonID, &e.SessionID, &e.Summary, &themes, &e.MoodArc, &loops, &started, &ended, &created); err != nil {
		return e, err
	}
	if err := json.Unmarshal([]byte(themes), &e.Themes); err != nil {
		return e, fmt.Errorf("decode themes of episode %d: %w", e.ID, err)
	}
	if err := json.Unmarshal([]byte(loops), &e.OpenLoops); err != nil {
		return e, fmt.Errorf("decode open loops of episode %d: %w", e.ID, err)
	}
	e.Started, e.Ended, e.Created = fromTS(started), fromTS(ended), fromTS(created)
	return e, nil
}

// AddEpisode stores the episode of a session and indexes it for search. A
// session has at most one episode: a second call for it is a no-op that
// returns the first. Themes past memory.MaxThemes are dropped.
func (s *Store) AddEpisode(ctx context.Context, ep memory.Episode) (memory.Episode, error) {
	if ep.PersonID == "" || ep.SessionID == "" || strings.TrimSpace(ep.Summary) == "" {
		return memory.Episode{}, fmt.Errorf("add episode of session %q: person id, session id and summary are required", ep.SessionID)
	}
	if len(ep.Themes) > memory.MaxThemes {
		ep.Themes = ep.Themes[:memory.MaxThemes]
	}
	if ep.Themes == nil {
		ep.Themes = []string{}
	}
	if ep.OpenLoops == nil {
		ep.OpenLoops = []string{}
	}
	if ep.Created.IsZero() {
		ep.Created = s.now()
	}
	themes, _ := json.Marshal(ep.Themes)
	loops, _ := json.Marshal(ep.OpenLoops)
	err := s.write(ctx, func(tx *wtx) error {
		old, err := scanEpisode(tx.QueryRowContext(ctx, `SELECT `+episodeColumns+` FROM episodes WHERE session_id = ?`, ep.SessionID))
		if err == nil {
			ep = old
			return nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO episodes (person_id, session_id, summary, themes, mood_arc, open_loops, started_at, ended_at, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, ep.PersonID, ep.SessionID, ep.Summary, string(themes), ep.MoodArc, string(loops),
			ts(ep.Started), ts(ep.Ended), ts(ep.Created))
		if err != nil {
			return fmt.Errorf("insert: %w", err)
		}
		if ep.ID, err = res.LastInsertId(); err != nil {
			return err
		}
		return s.indexText(ctx, tx, ep.PersonID, memory.Ref{Kind: memory.KindEpisode, ID: ep.ID}, episodeBody(ep))
	})
	if err != nil {
		return memory.Episode{}, fmt.Errorf("add episode of session %s: %w", ep.SessionID, err)
	}
	ep.Created = fromTS(ts(ep.Created))
	return ep, nil
}

// Episodes returns the person's n latest episodes, newest first.
func (s *Store) Episodes(ctx context.Context, personID string, n int) ([]memory.Episode, error) {
	out, err := list(ctx, s.rd, scanEpisode, `SELECT `+episodeColumns+` FROM episodes WHERE person_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`, personID, n)
	if err != nil {
		return nil, fmt.Errorf("list episodes of person %s: %w", personID, s.classify(err))
	}
	return out, nil
}

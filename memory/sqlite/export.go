package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/havenbot/haven/memory"
)

// Export returns everything Haven holds about the person.
func (s *Store) Export(ctx context.Context, personID string) (memory.Export, error) {
	fail := func(err error) (memory.Export, error) {
		return memory.Export{}, fmt.Errorf("export person %s: %w", personID, s.classify(err))
	}
	ex := memory.Export{PersonID: personID, Identities: []string{}, Facts: []memory.ExportFact{}, Episodes: []memory.Episode{},
		Rules: []memory.Rule{}, Sessions: []memory.ExportSess{}, Crisis: []memory.CrisisEvent{}, Held: []memory.Fact{}, Moods: []memory.Mood{}}
	var created int64
	err := s.rd.QueryRowContext(ctx, `SELECT display, created_at FROM people WHERE id = ?`, personID).Scan(&ex.Display, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return memory.Export{}, fmt.Errorf("export person %s: %w", personID, memory.ErrNotFound)
	}
	if err != nil {
		return fail(err)
	}
	ex.Created = fromTS(created)
	if err := s.collect(ctx, `SELECT platform_user_id FROM identities WHERE person_id = ? ORDER BY created_at`, personID, func(sc func(...any) error) error {
		var id string
		err := sc(&id)
		ex.Identities = append(ex.Identities, id)
		return err
	}); err != nil {
		return fail(err)
	}
	if ex.Settings, err = s.Settings(ctx, personID); err != nil {
		return fail(err)
	}
	facts, err := s.Facts(ctx, personID, true)
	if err != nil {
		return fail(err)
	}
	for _, f := range facts {
		ex.Facts = append(ex.Facts, memory.ExportFact{Fact: f, Sentence: f.Words(memory.AboutThem)})
	}
	eps, err := s.Episodes(ctx, personID, 1<<30)
	if err != nil {
		return fail(err)
	}
	ex.Episodes = append(ex.Episodes, eps...)
	rules, err := s.Rules(ctx, personID)
	if err != nil {
		return fail(err)
	}
	ex.Rules = append(ex.Rules, rules...)
	journal, err := s.JournalEntries(ctx, personID, time.Time{}, time.Time{}, 0)
	if err != nil {
		return fail(err)
	}
	ex.Journal = append([]memory.JournalEntry{}, journal...)
	idx := map[string]int{}
	if err := s.collect(ctx, `SELECT id, conversation_id, started_at, coalesce(ended_at, 0) FROM sessions WHERE person_id = ? ORDER BY started_at, id`, personID, func(sc func(...any) error) error {
		var ss memory.ExportSess
		var st, en int64
		if err := sc(&ss.ID, &ss.ConversationID, &st, &en); err != nil {
			return err
		}
		ss.Started, ss.Ended, ss.Entries = fromTS(st), fromTS(en), []memory.Entry{}
		idx[ss.ID] = len(ex.Sessions)
		ex.Sessions = append(ex.Sessions, ss)
		return nil
	}); err != nil {
		return fail(err)
	}
	if err := s.collect(ctx, `SELECT t.session_id, t.role, t.text, t.crisis, t.at FROM transcript t JOIN sessions s ON s.id = t.session_id
		WHERE s.person_id = ? ORDER BY t.id`, personID, func(sc func(...any) error) error {
		var e memory.Entry
		var at int64
		if err := sc(&e.SessionID, &e.Role, &e.Text, &e.Crisis, &at); err != nil {
			return err
		}
		e.At = fromTS(at)
		i := idx[e.SessionID]
		ex.Sessions[i].Entries = append(ex.Sessions[i].Entries, e)
		return nil
	}); err != nil {
		return fail(err)
	}
	if err := s.collect(ctx, `SELECT session_id, conversation_id, platform, level, confidence, reason, path, flags, at FROM crisis_log WHERE person_id = ? ORDER BY id`, personID, func(sc func(...any) error) error {
		ev := memory.CrisisEvent{PersonID: personID}
		var flags string
		var at int64
		if err := sc(&ev.SessionID, &ev.ConversationID, &ev.Platform, &ev.Level, &ev.Confidence, &ev.Reason, &ev.Path, &flags, &at); err != nil {
			return err
		}
		if flags != "" {
			ev.Flags = strings.Split(flags, ",")
		}
		ev.At = fromTS(at)
		ex.Crisis = append(ex.Crisis, ev)
		return nil
	}); err != nil {
		return fail(err)
	}
	if err := s.rd.QueryRowContext(ctx, `SELECT count(*) FROM memory_jobs WHERE person_id = ?`, personID).Scan(&ex.Pending); err != nil {
		return fail(err)
	}
	if err := s.collect(ctx, `SELECT fact FROM held_facts WHERE person_id = ? ORDER BY id`, personID, func(sc func(...any) error) error {
		var data string
		if err := sc(&data); err != nil {
			return err
		}
		var f memory.Fact
		if err := json.Unmarshal([]byte(data), &f); err != nil {
			return err
		}
		ex.Held = append(ex.Held, f)
		return nil
	}); err != nil {
		return fail(err)
	}
	moods, err := s.Moods(ctx, personID, time.Time{}, time.Time{})
	if err != nil {
		return fail(err)
	}
	ex.Moods = append(ex.Moods, moods...)
	if ex.Reminders, err = s.Reminders(ctx, personID); err != nil {
		return fail(err)
	}
	if ex.Reminders == nil {
		ex.Reminders = []memory.Reminder{}
	}
	if ex.Proactive, err = s.ProactiveSettings(ctx, personID); err != nil {
		return fail(err)
	}
	return ex, nil
}

// collect runs a one-argument read query and calls fn with each row's Scan.
func (s *Store) collect(ctx context.Context, q string, arg any, fn func(scan func(...any) error) error) error {
	rows, err := s.rd.QueryContext(ctx, q, arg)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows.Scan); err != nil {
			return err
		}
	}
	return rows.Err()
}

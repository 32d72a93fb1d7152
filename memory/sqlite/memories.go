package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/havenbot/haven/memory"
)

var _ memory.Memories = (*Store)(nil)

// ftsRowid maps a fact or an episode to its row in memory_fts (and in the
// vector tables): facts are even, episodes odd.
func ftsRowid(ref memory.Ref) int64 {
	if ref.Kind == memory.KindEpisode {
		return 2*ref.ID + 1
	}
	return 2 * ref.ID
}

func refOfRowid(rowid int64) memory.Ref {
	if rowid%2 == 1 {
		return memory.Ref{Kind: memory.KindEpisode, ID: (rowid - 1) / 2}
	}
	return memory.Ref{Kind: memory.KindFact, ID: rowid / 2}
}

// personTerms returns the indexed tokens of text for a person: each term
// prefixed with the person's id.
func personTerms(personID, text string) []string {
	terms := memory.TermsN(text, 200)
	for i, t := range terms {
		terms[i] = "p" + personID + "x" + t
	}
	return terms
}

func factBody(f memory.Fact) string {
	return f.Sentence() + " " + strings.ReplaceAll(f.Predicate, "_", " ") + " " + f.Evidence
}

func episodeBody(e memory.Episode) string {
	return e.Summary + " " + strings.Join(e.Themes, " ") + " " + e.MoodArc + " " + strings.Join(e.OpenLoops, " ")
}

type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

func (s *Store) indexText(ctx context.Context, tx execer, personID string, ref memory.Ref, body string) error {
	terms := personTerms(personID, body)
	if _, err := tx.ExecContext(ctx, `INSERT INTO memory_fts (rowid, body) VALUES (?, ?)`,
		ftsRowid(ref), strings.Join(terms, " ")); err != nil {
		return fmt.Errorf("index %s %d: %w", ref.Kind, ref.ID, err)
	}
	return countTerms(ctx, tx, terms, 1)
}

// countTerms adds delta to the record counts of indexed terms.
func countTerms(ctx context.Context, tx execer, terms []string, delta int) error {
	for _, t := range terms {
		if _, err := tx.ExecContext(ctx, `INSERT INTO memory_terms (term, docs) VALUES (?, max(?, 0))
			ON CONFLICT (term) DO UPDATE SET docs = max(docs + ?, 0)`, t, delta, delta); err != nil {
			return fmt.Errorf("count term: %w", err)
		}
	}
	return nil
}

// unindex removes a fact or episode from full-text and vector search.
func (s *Store) unindex(ctx context.Context, tx *wtx, ref memory.Ref) error {
	var body string
	err := tx.QueryRowContext(ctx, `SELECT body FROM memory_fts WHERE rowid = ?`, ftsRowid(ref)).Scan(&body)
	switch {
	case err == nil:
		if _, err := tx.ExecContext(ctx, `DELETE FROM memory_fts WHERE rowid = ?`, ftsRowid(ref)); err != nil {
			return fmt.Errorf("unindex %s %d: %w", ref.Kind, ref.ID, err)
		}
		tx.unindexed = append(tx.unindexed, ftsRowid(ref))
		if err := countTerms(ctx, tx, strings.Fields(body), -1); err != nil {
			return err
		}
	case !errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("unindex %s %d: %w", ref.Kind, ref.ID, err)
	}
	return s.deleteVectors(ctx, tx, ftsRowid(ref))
}

const factColumns = `id, person_id, subject, predicate, object, evidence, session_id, turn, confidence, active, coalesce(superseded_by, 0), created_at`

func scanFact(row interface{ Scan(...any) error }) (memory.Fact, error) {
	var f memory.Fact
	var created int64
	err := row.Scan(&f.ID, &f.PersonID, &f.Subject, &f.Predicate, &f.Object, &f.Evidence, &f.SessionID, &f.Turn,
		&f.Confidence, &f.Active, &f.SupersededBy, &created)
	f.Created = fromTS(created)
	return f, err
}

// AddFact stores f after validating it; see memory.Memories.
func (s *Store) AddFact(ctx context.Context, f memory.Fact) (memory.Fact, error) {
	f.Evidence = memory.Quote(f.Evidence)
	if msg := memory.ValidFact(f); msg != "" {
		return memory.Fact{}, fmt.Errorf("add fact %s for person %q: %s", f.Predicate, f.PersonID, msg)
	}
	if f.Created.IsZero() {
		f.Created = s.now()
	}
	f.Created = fromTS(ts(f.Created))
	f.Active, f.SupersededBy = true, 0
	var unindexed []int64
	err := s.write(ctx, func(tx *wtx) error {
		unindexed = unindexed[:0]
		rows, err := tx.QueryContext(ctx, `SELECT `+factColumns+` FROM facts WHERE person_id = ? AND active = 1 AND subject = ? COLLATE NOCASE`,
			f.PersonID, f.Subject)
		if err != nil {
			return fmt.Errorf("load active facts: %w", err)
		}
		var old []memory.Fact
		for rows.Next() {
			o, err := scanFact(rows)
			if err != nil {
				rows.Close()
				return fmt.Errorf("load active facts: %w", err)
			}
			old = append(old, o)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("load active facts: %w", err)
		}
		for _, o := range old {
			if f.Same(o) {
				f = o
				return nil
			}
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO facts (person_id, subject, predicate, object, evidence, session_id, turn, confidence, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, f.PersonID, f.Subject, f.Predicate, f.Object, f.Evidence, f.SessionID, f.Turn, f.Confidence, ts(f.Created))
		if err != nil {
			return fmt.Errorf("insert: %w", err)
		}
		if f.ID, err = res.LastInsertId(); err != nil {
			return err
		}
		for _, o := range old {
			if !f.Supersedes(o) {
				continue
			}
			if _, err := tx.ExecContext(ctx, `UPDATE facts SET active = 0, superseded_by = ?, superseded_at = ? WHERE id = ?`,
				f.ID, ts(f.Created), o.ID); err != nil {
				return fmt.Errorf("supersede fact %d: %w", o.ID, err)
			}
			if err := s.unindex(ctx, tx, memory.Ref{Kind: memory.KindFact, ID: o.ID}); err != nil {
				return err
			}
			unindexed = append(unindexed, ftsRowid(memory.Ref{Kind: memory.KindFact, ID: o.ID}))
		}
		return s.indexText(ctx, tx, f.PersonID, memory.Ref{Kind: memory.KindFact, ID: f.ID}, factBody(f))
	})
	if err != nil {
		s.vc.drop(f.PersonID)
		return memory.Fact{}, fmt.Errorf("add fact %s for person %s: %w", f.Predicate, f.PersonID, err)
	}
	if len(unindexed) > 0 {
		s.vc.remove(f.PersonID, unindexed)
	}
	return f, nil
}

// Facts returns the person's facts, oldest first.
func (s *Store) Facts(ctx context.Context, personID string, inactive bool) ([]memory.Fact, error) {
	q := `SELECT ` + factColumns + ` FROM facts WHERE person_id = ?`
	if !inactive {
		q += ` AND active = 1`
	}
	rows, err := s.rd.QueryContext(ctx, q+` ORDER BY id`, personID)
	if err != nil {
		return nil, fmt.Errorf("list facts of person %s: %w", personID, s.classify(err))
	}
	defer rows.Close()
	var out []memory.Fact
	for rows.Next() {
		f, err := scanFact(rows)
		if err != nil {
			return nil, fmt.Errorf("list facts of person %s: %w", personID, err)
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

const episodeColumns = `id, person_id, session_id, summary, themes, mood_arc, open_loops, started_at, ended_at, created_at`

func scanEpisode(row interface{ Scan(...any) error }) (memory.Episode, error) {
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

// AddEpisode stores the episode of a session; see memory.Memories.
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
	rows, err := s.rd.QueryContext(ctx, `SELECT `+episodeColumns+` FROM episodes WHERE person_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`, personID, n)
	if err != nil {
		return nil, fmt.Errorf("list episodes of person %s: %w", personID, s.classify(err))
	}
	defer rows.Close()
	var out []memory.Episode
	for rows.Next() {
		e, err := scanEpisode(rows)
		if err != nil {
			return nil, fmt.Errorf("list episodes of person %s: %w", personID, err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

const ruleColumns = `id, person_id, key, text, evidence, session_id, created_at`

func scanRule(row interface{ Scan(...any) error }) (memory.Rule, error) {
	var r memory.Rule
	var created int64
	err := row.Scan(&r.ID, &r.PersonID, &r.Key, &r.Text, &r.Evidence, &r.SessionID, &created)
	r.Created = fromTS(created)
	return r, err
}

// AddRule stores r; see memory.Memories.
func (s *Store) AddRule(ctx context.Context, r memory.Rule) (memory.Rule, error) {
	r.Evidence = memory.Quote(r.Evidence)
	r.Text = strings.TrimSpace(r.Text)
	if r.PersonID == "" || r.Key == "" || r.Text == "" || len([]rune(r.Text)) > 200 {
		return memory.Rule{}, fmt.Errorf("add rule %q for person %q: person id, key and a text of 1-200 characters are required", r.Key, r.PersonID)
	}
	if r.Created.IsZero() {
		r.Created = s.now()
	}
	r.Created = fromTS(ts(r.Created))
	err := s.write(ctx, func(tx *wtx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM rules WHERE person_id = ? AND key = ?`, r.PersonID, r.Key); err != nil {
			return fmt.Errorf("replace rule: %w", err)
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO rules (person_id, key, text, evidence, session_id, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
			r.PersonID, r.Key, r.Text, r.Evidence, r.SessionID, ts(r.Created))
		if err != nil {
			return fmt.Errorf("insert: %w", err)
		}
		if r.ID, err = res.LastInsertId(); err != nil {
			return err
		}
		// Past the cap the oldest rules go.
		_, err = tx.ExecContext(ctx, `DELETE FROM rules WHERE person_id = ? AND id NOT IN
			(SELECT id FROM rules WHERE person_id = ? ORDER BY created_at DESC, id DESC LIMIT ?)`, r.PersonID, r.PersonID, memory.MaxRules)
		return err
	})
	if err != nil {
		return memory.Rule{}, fmt.Errorf("add rule %s for person %s: %w", r.Key, r.PersonID, err)
	}
	return r, nil
}

// Rules returns the person's rules, oldest first.
func (s *Store) Rules(ctx context.Context, personID string) ([]memory.Rule, error) {
	rows, err := s.rd.QueryContext(ctx, `SELECT `+ruleColumns+` FROM rules WHERE person_id = ? ORDER BY created_at, id`, personID)
	if err != nil {
		return nil, fmt.Errorf("list rules of person %s: %w", personID, s.classify(err))
	}
	defer rows.Close()
	var out []memory.Rule
	for rows.Next() {
		r, err := scanRule(rows)
		if err != nil {
			return nil, fmt.Errorf("list rules of person %s: %w", personID, err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Hold keeps f until its policy lets it in; see memory.Memories.
func (s *Store) Hold(ctx context.Context, f memory.Fact, p memory.Policy, key string) (int, error) {
	if p != memory.AtSessionEnd && p != memory.AfterRepetition {
		return 0, fmt.Errorf("hold fact for person %s: policy %q cannot be held", f.PersonID, p)
	}
	if key == "" || f.PersonID == "" {
		return 0, fmt.Errorf("hold fact for person %q: person id and key are required", f.PersonID)
	}
	f.Evidence = memory.Quote(f.Evidence)
	data, err := json.Marshal(f)
	if err != nil {
		return 0, fmt.Errorf("hold fact for person %s: %w", f.PersonID, err)
	}
	turn := f.SessionID + "#" + strconv.Itoa(f.Turn)
	var times int
	err = s.write(ctx, func(tx *wtx) error {
		return tx.QueryRowContext(ctx, `INSERT INTO held_facts (person_id, session_id, key, policy, fact, last_turn, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (person_id, key) DO UPDATE SET
				fact = excluded.fact, session_id = excluded.session_id,
				times = times + (last_turn <> excluded.last_turn), last_turn = excluded.last_turn
			RETURNING times`, f.PersonID, f.SessionID, key, string(p), string(data), turn, ts(s.now())).Scan(&times)
	})
	if err != nil {
		return 0, fmt.Errorf("hold fact for person %s: %w", f.PersonID, err)
	}
	return times, nil
}

// TakeHeld removes and returns the held facts now due; see memory.Memories.
func (s *Store) TakeHeld(ctx context.Context, personID, sessionID string) ([]memory.Fact, error) {
	var out []memory.Fact
	err := s.write(ctx, func(tx *wtx) error {
		rows, err := tx.QueryContext(ctx, `DELETE FROM held_facts WHERE person_id = ? AND
			((policy = 'session_end' AND session_id = ?) OR (policy = 'repetition' AND times >= ?))
			RETURNING fact`, personID, sessionID, memory.RepetitionsNeeded)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var data string
			if err := rows.Scan(&data); err != nil {
				return err
			}
			var f memory.Fact
			if err := json.Unmarshal([]byte(data), &f); err != nil {
				return fmt.Errorf("decode held fact: %w", err)
			}
			out = append(out, f)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("take held facts of person %s: %w", personID, err)
	}
	return out, nil
}

// maxPostings bounds the postings one full-text search reads: the query
// keeps its rarest terms while their document counts add up to at most this,
// and always its rarest known one. A term found in thousands of records adds
// little to BM25 and would make the search read most of the index.
const maxPostings = 1000

// ftsTerms returns the search terms of text, rarest first, cut to
// maxPostings. Terms the index does not know are kept (their count is 0).
func (s *Store) ftsTerms(ctx context.Context, personID, text string) ([]string, error) {
	terms := memory.Terms(text)
	for i, t := range terms {
		terms[i] = "p" + personID + "x" + t
	}
	if len(terms) <= 1 {
		return terms, nil
	}
	list, err := json.Marshal(terms)
	if err != nil {
		return nil, err
	}
	df := make(map[string]int, len(terms))
	rows, err := s.rd.QueryContext(ctx, `SELECT term, docs FROM memory_terms WHERE term IN (SELECT value FROM json_each(?))`, list)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var t string
		var n int
		if err := rows.Scan(&t, &n); err != nil {
			rows.Close()
			return nil, err
		}
		df[t] = n
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	slices.SortStableFunc(terms, func(a, b string) int { return df[a] - df[b] })
	// Unknown terms cost nothing; the rarest known term is always kept, so
	// that a message of common words still finds something.
	sum, known := 0, false
	for i, t := range terms {
		sum += df[t]
		if known && sum > maxPostings {
			return terms[:i], nil
		}
		known = known || df[t] > 0
	}
	return terms, nil
}

// ftsQuery builds the full-text query matching any of the (prefixed)
// terms. ok is false when there are none.
func ftsQuery(terms []string) (string, bool) {
	if len(terms) == 0 {
		return "", false
	}
	quoted := make([]string, len(terms))
	for i, t := range terms {
		quoted[i] = `"` + strings.ReplaceAll(t, `"`, `""`) + `"`
	}
	return strings.Join(quoted, " OR "), true
}

// ftsRankSQL is ftsRank through FTS5's bm25(): the same ranking, slower.
func (s *Store) ftsRankSQL(ctx context.Context, terms []string, limit int) ([]int64, error) {
	m, ok := ftsQuery(terms)
	if !ok {
		return nil, nil
	}
	rows, err := s.rd.QueryContext(ctx, `SELECT rowid FROM memory_fts WHERE memory_fts MATCH ? ORDER BY bm25(memory_fts) LIMIT ?`, m, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// Search returns ranked lists of the person's active records; see
// memory.Memories.
func (s *Store) Search(ctx context.Context, q memory.SearchQuery) (memory.SearchResult, error) {
	if q.PersonID == "" {
		return memory.SearchResult{}, errors.New("search memory: empty person id")
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 20
	}
	res := memory.SearchResult{Records: map[memory.Ref]memory.Record{}}
	fail := func(what string, err error) (memory.SearchResult, error) {
		return memory.SearchResult{}, fmt.Errorf("search memory of person %s: %s: %w", q.PersonID, what, s.classify(err))
	}
	terms, err := s.ftsTerms(ctx, q.PersonID, q.Text)
	if err != nil {
		return fail("term counts", err)
	}
	ids, err := s.ftsRank(ctx, terms, limit)
	if errors.Is(err, errFTSLayout) {
		ids, err = s.ftsRankSQL(ctx, terms, limit)
	}
	if err != nil {
		return fail("full-text", err)
	}
	for _, id := range ids {
		res.Text = append(res.Text, refOfRowid(id))
	}
	if len(q.Vector) > 0 && q.Model != "" {
		refs, err := s.searchVectors(ctx, q.PersonID, q.Model, q.Vector, limit)
		if err != nil {
			return fail("vectors", err)
		}
		res.Vector = refs
	}
	if q.Recent {
		// Two index walks merged here: SQLite would sort a UNION of them.
		type stamped struct {
			ref memory.Ref
			at  int64
		}
		var all []stamped
		for _, qq := range []struct {
			kind memory.Kind
			sql  string
		}{
			{memory.KindFact, `SELECT id, created_at FROM facts WHERE person_id = ? AND active = 1 ORDER BY created_at DESC LIMIT ?`},
			{memory.KindEpisode, `SELECT id, created_at FROM episodes WHERE person_id = ? ORDER BY created_at DESC LIMIT ?`},
		} {
			rows, err := s.rd.QueryContext(ctx, qq.sql, q.PersonID, limit)
			if err != nil {
				return fail("recent", err)
			}
			for rows.Next() {
				st := stamped{ref: memory.Ref{Kind: qq.kind}}
				if err := rows.Scan(&st.ref.ID, &st.at); err != nil {
					rows.Close()
					return fail("recent", err)
				}
				all = append(all, st)
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return fail("recent", err)
			}
		}
		slices.SortStableFunc(all, func(a, b stamped) int {
			switch {
			case a.at > b.at:
				return -1
			case a.at < b.at:
				return 1
			}
			return 0
		})
		for i := 0; i < len(all) && i < limit; i++ {
			res.Recent = append(res.Recent, all[i].ref)
		}
	}
	// Pinned: what to call the person, whatever they said.
	var factIDs, episodeIDs []int64
	rows, err := s.rd.QueryContext(ctx, `SELECT `+factColumns+` FROM facts WHERE person_id = ? AND active = 1 AND subject = 'self' COLLATE NOCASE AND predicate IN ('name', 'pronouns')`, q.PersonID)
	if err != nil {
		return fail("pinned", err)
	}
	for rows.Next() {
		f, err := scanFact(rows)
		if err != nil {
			rows.Close()
			return fail("pinned", err)
		}
		ref := memory.Ref{Kind: memory.KindFact, ID: f.ID}
		res.Pinned = append(res.Pinned, ref)
		res.Records[ref] = memory.Record{Ref: ref, Created: f.Created, Fact: &f}
	}
	rows.Close()
	for _, list := range [][]memory.Ref{res.Text, res.Vector, res.Recent} {
		for _, ref := range list {
			if _, ok := res.Records[ref]; ok {
				continue
			}
			res.Records[ref] = memory.Record{}
			if ref.Kind == memory.KindFact {
				factIDs = append(factIDs, ref.ID)
			} else {
				episodeIDs = append(episodeIDs, ref.ID)
			}
		}
	}
	if err := s.loadRecords(ctx, q.PersonID, factIDs, episodeIDs, res.Records); err != nil {
		return fail("load records", err)
	}
	// Drop refs whose record did not load (deleted meanwhile, or another
	// person's: never returned).
	keep := func(list []memory.Ref) []memory.Ref {
		return slices.DeleteFunc(list, func(r memory.Ref) bool {
			rec := res.Records[r]
			return rec.Fact == nil && rec.Episode == nil
		})
	}
	res.Text, res.Vector, res.Recent = keep(res.Text), keep(res.Vector), keep(res.Recent)
	for ref, rec := range res.Records {
		if rec.Fact == nil && rec.Episode == nil {
			delete(res.Records, ref)
		}
	}
	return res, nil
}

// loadRecords fills into with the person's active facts and episodes of the
// given ids.
func (s *Store) loadRecords(ctx context.Context, personID string, factIDs, episodeIDs []int64, into map[memory.Ref]memory.Record) error {
	if len(factIDs) > 0 {
		rows, err := s.rd.QueryContext(ctx, `SELECT `+factColumns+` FROM facts WHERE id IN (SELECT value FROM json_each(?)) AND +person_id = ? AND +active = 1`, idList(factIDs), personID)
		if err != nil {
			return err
		}
		for rows.Next() {
			f, err := scanFact(rows)
			if err != nil {
				rows.Close()
				return err
			}
			ref := memory.Ref{Kind: memory.KindFact, ID: f.ID}
			into[ref] = memory.Record{Ref: ref, Created: f.Created, Fact: &f}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}
	if len(episodeIDs) > 0 {
		rows, err := s.rd.QueryContext(ctx, `SELECT `+episodeColumns+` FROM episodes WHERE id IN (SELECT value FROM json_each(?)) AND +person_id = ?`, idList(episodeIDs), personID)
		if err != nil {
			return err
		}
		for rows.Next() {
			e, err := scanEpisode(rows)
			if err != nil {
				rows.Close()
				return err
			}
			ref := memory.Ref{Kind: memory.KindEpisode, ID: e.ID}
			into[ref] = memory.Record{Ref: ref, Created: e.Created, Episode: &e}
		}
		rows.Close()
		return rows.Err()
	}
	return nil
}

// idList renders integer ids as a JSON array, for json_each: the SQL text
// stays the same whatever the ids, so its statement is prepared once.
func idList(ids []int64) string {
	b := make([]byte, 0, 8*len(ids)+2)
	b = append(b, '[')
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, id, 10)
	}
	return string(append(b, ']'))
}

// Records returns the person's facts, rules and episodes, oldest first.
func (s *Store) Records(ctx context.Context, personID string) ([]memory.Record, error) {
	facts, err := s.Facts(ctx, personID, true)
	if err != nil {
		return nil, err
	}
	rules, err := s.Rules(ctx, personID)
	if err != nil {
		return nil, err
	}
	eps, err := s.Episodes(ctx, personID, 1<<30)
	if err != nil {
		return nil, err
	}
	var out []memory.Record
	for i := range facts {
		out = append(out, memory.Record{Ref: memory.Ref{Kind: memory.KindFact, ID: facts[i].ID}, Created: facts[i].Created, Fact: &facts[i]})
	}
	for i := range rules {
		out = append(out, memory.Record{Ref: memory.Ref{Kind: memory.KindRule, ID: rules[i].ID}, Created: rules[i].Created, Rule: &rules[i]})
	}
	for i := range eps {
		out = append(out, memory.Record{Ref: memory.Ref{Kind: memory.KindEpisode, ID: eps[i].ID}, Created: eps[i].Created, Episode: &eps[i]})
	}
	slices.SortStableFunc(out, func(a, b memory.Record) int {
		if c := a.Created.Compare(b.Created); c != 0 {
			return c
		}
		if a.Ref.Kind != b.Ref.Kind {
			return strings.Compare(string(a.Ref.Kind), string(b.Ref.Kind))
		}
		return int(a.Ref.ID - b.Ref.ID)
	})
	return out, nil
}

// Forget deletes the person's records refs; see memory.Memories. Refs that
// are not the person's are left alone.
func (s *Store) Forget(ctx context.Context, personID string, refs ...memory.Ref) error {
	err := s.write(ctx, func(tx *wtx) error {
		for _, ref := range refs {
			var q string
			switch ref.Kind {
			case memory.KindFact:
				q = `DELETE FROM facts WHERE id = ? AND person_id = ?`
			case memory.KindEpisode:
				q = `DELETE FROM episodes WHERE id = ? AND person_id = ?`
			case memory.KindRule:
				q = `DELETE FROM rules WHERE id = ? AND person_id = ?`
			case memory.KindTranscript:
				q = `DELETE FROM transcript WHERE id = ? AND session_id IN (SELECT id FROM sessions WHERE person_id = ?)`
			default:
				return fmt.Errorf("unknown record kind %q", ref.Kind)
			}
			res, err := tx.ExecContext(ctx, q, ref.ID, personID)
			if err != nil {
				return fmt.Errorf("delete %s %d: %w", ref.Kind, ref.ID, err)
			}
			if n, _ := res.RowsAffected(); n == 1 && (ref.Kind == memory.KindFact || ref.Kind == memory.KindEpisode) {
				if err := s.unindex(ctx, tx, ref); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		s.vc.drop(personID)
		return fmt.Errorf("forget %d records of person %s: %w", len(refs), personID, err)
	}
	var rowids []int64
	for _, ref := range refs {
		if ref.Kind == memory.KindFact || ref.Kind == memory.KindEpisode {
			rowids = append(rowids, ftsRowid(ref))
		}
	}
	if len(rowids) > 0 {
		s.vc.remove(personID, rowids)
	}
	return nil
}

// MatchTranscript returns the ids of the person's transcript entries whose
// text match accepts.
func (s *Store) MatchTranscript(ctx context.Context, personID string, match func(string) bool) ([]int64, error) {
	rows, err := s.rd.QueryContext(ctx, `SELECT t.id, t.text FROM transcript t JOIN sessions s ON s.id = t.session_id WHERE s.person_id = ? ORDER BY t.id`, personID)
	if err != nil {
		return nil, fmt.Errorf("match transcript of person %s: %w", personID, s.classify(err))
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		var text string
		if err := rows.Scan(&id, &text); err != nil {
			return nil, fmt.Errorf("match transcript of person %s: %w", personID, err)
		}
		if match(text) {
			ids = append(ids, id)
		}
	}
	return ids, rows.Err()
}

// ForgetAll deletes the person and everything about them; see
// memory.Memories. Delivered inbox and outbox rows of their identities and
// DM conversations are scrubbed of ids and text; the crisis log keeps its
// rows with person, session and conversation ids removed.
func (s *Store) ForgetAll(ctx context.Context, personID string) error {
	if personID == "" {
		return errors.New("forget everything: empty person id")
	}
	err := s.write(ctx, func(tx *wtx) error {
		var rowids []int64
		rows, err := tx.QueryContext(ctx, `SELECT 2 * id FROM facts WHERE person_id = ?1 UNION ALL SELECT 2 * id + 1 FROM episodes WHERE person_id = ?1`, personID)
		if err != nil {
			return fmt.Errorf("list indexed records: %w", err)
		}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return err
			}
			rowids = append(rowids, id)
		}
		rows.Close()
		for _, id := range rowids {
			if err := s.unindex(ctx, tx, refOfRowid(id)); err != nil {
				return err
			}
		}
		for _, q := range []string{
			`UPDATE crisis_log SET person_id = '', session_id = '', conversation_id = '' WHERE person_id = ?1`,
			`UPDATE inbox SET payload = json_set(payload, '$.Text', '', '$.Author.Display', '', '$.Author.ID', '',
				'$.Conversation.ID', '', '$.MessageID', '')
				WHERE done_at IS NOT NULL AND json_extract(payload, '$.Author.ID') IN (SELECT platform_user_id FROM identities WHERE person_id = ?1)`,
			`UPDATE outbox SET payload = json_remove(json_set(payload, '$.Text', '', '$.Recipient', '', '$.Conversation.ID', '', '$.ReplyTo', ''), '$.File.Data')
				WHERE (sent_at IS NOT NULL OR abandoned_at IS NOT NULL) AND (
					json_extract(payload, '$.Recipient') IN (SELECT platform_user_id FROM identities WHERE person_id = ?1)
					OR (json_extract(payload, '$.Conversation.Kind') = 'dm' AND
						json_extract(payload, '$.Conversation.ID') IN (SELECT conversation_id FROM sessions WHERE person_id = ?1)))`,
			`DELETE FROM people WHERE id = ?1`,
		} {
			if _, err := tx.ExecContext(ctx, q, personID); err != nil {
				return fmt.Errorf("delete: %w", err)
			}
		}
		return nil
	})
	s.vc.drop(personID)
	if err != nil {
		return fmt.Errorf("forget everything about person %s: %w", personID, err)
	}
	return nil
}

// Export returns everything Haven holds about the person.
func (s *Store) Export(ctx context.Context, personID string) (memory.Export, error) {
	fail := func(err error) (memory.Export, error) {
		return memory.Export{}, fmt.Errorf("export person %s: %w", personID, s.classify(err))
	}
	ex := memory.Export{PersonID: personID, Identities: []string{}, Facts: []memory.ExportFact{}, Episodes: []memory.Episode{},
		Rules: []memory.Rule{}, Sessions: []memory.ExportSess{}, Crisis: []memory.CrisisEvent{}, Held: []memory.Fact{}}
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
		ex.Facts = append(ex.Facts, memory.ExportFact{Fact: f, Sentence: f.Sentence()})
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

// Settings returns the person's memory controls.
func (s *Store) Settings(ctx context.Context, personID string) (memory.Settings, error) {
	st := memory.DefaultSettings()
	err := s.rd.QueryRowContext(ctx, `SELECT paused, proactive FROM memory_settings WHERE person_id = ?`, personID).Scan(&st.Paused, &st.Proactive)
	if errors.Is(err, sql.ErrNoRows) {
		return memory.DefaultSettings(), nil
	}
	if err != nil {
		return memory.Settings{}, fmt.Errorf("load memory settings of person %s: %w", personID, s.classify(err))
	}
	return st, nil
}

// SetSettings saves the person's memory controls.
func (s *Store) SetSettings(ctx context.Context, personID string, st memory.Settings) error {
	err := s.write(ctx, func(tx *wtx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO memory_settings (person_id, paused, proactive, updated_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (person_id) DO UPDATE SET paused = excluded.paused, proactive = excluded.proactive, updated_at = excluded.updated_at`,
			personID, st.Paused, st.Proactive, ts(s.now()))
		return err
	})
	if err != nil {
		return fmt.Errorf("save memory settings of person %s: %w", personID, err)
	}
	return nil
}

// Enqueue adds a job to the durable queue, due now.
func (s *Store) Enqueue(ctx context.Context, j memory.Job) error {
	if j.Kind != memory.JobTurn && j.Kind != memory.JobSessionEnd {
		return fmt.Errorf("enqueue memory job: unknown kind %q", j.Kind)
	}
	if j.PersonID == "" || j.SessionID == "" {
		return fmt.Errorf("enqueue %s job: person id and session id are required", j.Kind)
	}
	now := ts(s.now())
	err := s.write(ctx, func(tx *wtx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO memory_jobs (kind, person_id, session_id, turn, text, due_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			string(j.Kind), j.PersonID, j.SessionID, j.Turn, j.Text, now, now)
		return err
	})
	if err != nil {
		return fmt.Errorf("enqueue %s job for session %s: %w", j.Kind, j.SessionID, err)
	}
	return nil
}

// Claim leases the oldest due job; see memory.Memories.
func (s *Store) Claim(ctx context.Context, lease time.Duration) (memory.Job, bool, error) {
	var j memory.Job
	var ok bool
	now := s.now()
	err := s.write(ctx, func(tx *wtx) error {
		var kind string
		var created int64
		err := tx.QueryRowContext(ctx, `UPDATE memory_jobs SET due_at = ?, attempts = attempts + 1
			WHERE id = (SELECT id FROM memory_jobs WHERE due_at <= ? ORDER BY due_at, id LIMIT 1)
			RETURNING id, kind, person_id, session_id, turn, text, attempts, created_at`, ts(now.Add(lease)), ts(now)).
			Scan(&j.ID, &kind, &j.PersonID, &j.SessionID, &j.Turn, &j.Text, &j.Attempts, &created)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		j.Kind, j.Created, ok = memory.JobKind(kind), fromTS(created), true
		return nil
	})
	if err != nil {
		return memory.Job{}, false, fmt.Errorf("claim memory job: %w", err)
	}
	return j, ok, nil
}

// Finish deletes a done job.
func (s *Store) Finish(ctx context.Context, id int64) error {
	err := s.write(ctx, func(tx *wtx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM memory_jobs WHERE id = ?`, id)
		return err
	})
	if err != nil {
		return fmt.Errorf("finish memory job %d: %w", id, err)
	}
	return nil
}

// Retry makes a failed job due again after delay.
func (s *Store) Retry(ctx context.Context, id int64, delay time.Duration) error {
	err := s.write(ctx, func(tx *wtx) error {
		_, err := tx.ExecContext(ctx, `UPDATE memory_jobs SET due_at = ? WHERE id = ?`, ts(s.now().Add(delay)), id)
		return err
	})
	if err != nil {
		return fmt.Errorf("retry memory job %d: %w", id, err)
	}
	return nil
}

// EndSession ends the open session sessionID at now (the Store's clock if
// zero).
func (s *Store) EndSession(ctx context.Context, sessionID string, now time.Time) (bool, error) {
	if now.IsZero() {
		now = s.now()
	}
	var ended bool
	err := s.write(ctx, func(tx *wtx) error {
		res, err := tx.ExecContext(ctx, `UPDATE sessions SET ended_at = ?, updated_at = ? WHERE id = ? AND ended_at IS NULL`, ts(now), ts(now), sessionID)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		ended = n == 1
		return err
	})
	if err != nil {
		return false, fmt.Errorf("end session %s: %w", sessionID, err)
	}
	return ended, nil
}

// IdleSessions returns up to n open sessions with no activity since before.
func (s *Store) IdleSessions(ctx context.Context, before time.Time, n int) ([]memory.Session, error) {
	rows, err := s.rd.QueryContext(ctx, `SELECT `+sessionColumns+` FROM sessions WHERE ended_at IS NULL AND updated_at < ? ORDER BY updated_at LIMIT ?`, ts(before), n)
	if err != nil {
		return nil, fmt.Errorf("list idle sessions: %w", s.classify(err))
	}
	defer rows.Close()
	var out []memory.Session
	for rows.Next() {
		ss, err := scanSession(rows)
		if err != nil {
			return nil, fmt.Errorf("list idle sessions: %w", err)
		}
		out = append(out, ss)
	}
	return out, rows.Err()
}

// SessionEntries returns the session's whole transcript, oldest first.
func (s *Store) SessionEntries(ctx context.Context, sessionID string) ([]memory.Entry, error) {
	return s.RecentEntries(ctx, sessionID, 1<<30)
}

// ApplyRetention deletes transcript entries, superseded facts, stale held
// facts and crisis log rows past their retention at now.
func (s *Store) ApplyRetention(ctx context.Context, r memory.Retention, now time.Time) (memory.Swept, error) {
	var sw memory.Swept
	err := s.write(ctx, func(tx *wtx) error {
		exec := func(n *int64, q string, d time.Duration) error {
			if d <= 0 {
				return nil
			}
			res, err := tx.ExecContext(ctx, q, ts(now.Add(-d)))
			if err != nil {
				return err
			}
			*n, err = res.RowsAffected()
			return err
		}
		if err := exec(&sw.Transcripts, `DELETE FROM transcript WHERE at < ?`, r.Transcripts); err != nil {
			return fmt.Errorf("transcripts: %w", err)
		}
		if err := exec(&sw.Inactive, `DELETE FROM facts WHERE active = 0 AND superseded_at < ?`, r.Inactive); err != nil {
			return fmt.Errorf("inactive facts: %w", err)
		}
		var held int64
		if err := exec(&held, `DELETE FROM held_facts WHERE created_at < ?`, r.Inactive); err != nil {
			return fmt.Errorf("held facts: %w", err)
		}
		if err := exec(&sw.CrisisLog, `DELETE FROM crisis_log WHERE at < ?`, r.CrisisLog); err != nil {
			return fmt.Errorf("crisis log: %w", err)
		}
		var inbox, outbox int64
		if err := exec(&inbox, `DELETE FROM inbox WHERE done_at < ?`, r.Deliveries); err != nil {
			return fmt.Errorf("handled inbox rows: %w", err)
		}
		if err := exec(&outbox, `DELETE FROM outbox WHERE coalesce(sent_at, abandoned_at) < ?`, r.Deliveries); err != nil {
			return fmt.Errorf("delivered outbox rows: %w", err)
		}
		sw.Deliveries = inbox + outbox
		return nil
	})
	if err != nil {
		return memory.Swept{}, fmt.Errorf("apply retention: %w", err)
	}
	return sw, nil
}

// LinkIdentity links another namespaced platform user id to an existing
// person, so that their memory follows them across platforms. Linking an id
// already linked to someone else is an error.
func (s *Store) LinkIdentity(ctx context.Context, personID, platform, platformUserID string) error {
	err := s.write(ctx, func(tx *wtx) error {
		if err := s.requirePerson(ctx, tx, personID); err != nil {
			return err
		}
		var other string
		err := tx.QueryRowContext(ctx, `SELECT person_id FROM identities WHERE platform_user_id = ?`, platformUserID).Scan(&other)
		switch {
		case err == nil && other == personID:
			return nil
		case err == nil:
			return errors.New("the identity belongs to another person")
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO identities (platform_user_id, person_id, platform, created_at) VALUES (?, ?, ?, ?)`,
			platformUserID, personID, platform, ts(s.now()))
		return err
	})
	if err != nil {
		return fmt.Errorf("link identity %s to person %s: %w", platformUserID, personID, err)
	}
	return nil
}

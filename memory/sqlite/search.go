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

	"github.com/havenbot/haven/memory"
)

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
	err = forEach(ctx, s.rd, func(row *sql.Rows) error {
		var t string
		var n int
		if err := row.Scan(&t, &n); err != nil {
			return err
		}
		df[t] = n
		return nil
	}, `SELECT term, docs FROM memory_terms WHERE term IN (SELECT value FROM json_each(?))`, list)
	if err != nil {
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

// Search returns ranked lists of the person's active records for q (full
// text, vectors when q has one, recent when q.Recent) and the pinned name
// and pronouns. Inactive facts and other people's records never appear.
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
			err := forEach(ctx, s.rd, func(row *sql.Rows) error {
				st := stamped{ref: memory.Ref{Kind: qq.kind}}
				if err := row.Scan(&st.ref.ID, &st.at); err != nil {
					return err
				}
				all = append(all, st)
				return nil
			}, qq.sql, q.PersonID, limit)
			if err != nil {
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
	pinned, err := list(ctx, s.rd, scanFact, `SELECT `+factColumns+` FROM facts WHERE person_id = ? AND active = 1 AND subject = 'self' COLLATE NOCASE AND predicate IN ('name', 'pronouns')`, q.PersonID)
	if err != nil {
		return fail("pinned", err)
	}
	for _, f := range pinned {
		ref := memory.Ref{Kind: memory.KindFact, ID: f.ID}
		res.Pinned = append(res.Pinned, ref)
		res.Records[ref] = memory.Record{Ref: ref, Created: f.Created, Fact: &f}
	}
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
		err := forEach(ctx, s.rd, func(row *sql.Rows) error {
			f, err := scanFact(row)
			if err != nil {
				return err
			}
			ref := memory.Ref{Kind: memory.KindFact, ID: f.ID}
			into[ref] = memory.Record{Ref: ref, Created: f.Created, Fact: &f}
			return nil
		}, `SELECT `+factColumns+` FROM facts WHERE id IN (SELECT value FROM json_each(?)) AND +person_id = ? AND +active = 1`, idList(factIDs), personID)
		if err != nil {
			return err
		}
	}
	if len(episodeIDs) > 0 {
		return forEach(ctx, s.rd, func(row *sql.Rows) error {
			e, err := scanEpisode(row)
			if err != nil {
				return err
			}
			ref := memory.Ref{Kind: memory.KindEpisode, ID: e.ID}
			into[ref] = memory.Record{Ref: ref, Created: e.Created, Episode: &e}
			return nil
		}, `SELECT `+episodeColumns+` FROM episodes WHERE id IN (SELECT value FROM json_each(?)) AND +person_id = ?`, idList(episodeIDs), personID)
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

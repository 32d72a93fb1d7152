package sqlite

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
)

// sqlScores returns FTS5's own bm25() of the rows matching terms.
func sqlScores(t *testing.T, s *Store, terms []string) map[int64]float64 {
	t.Helper()
	m, _ := ftsQuery(terms)
	rows, err := s.r.Query(`SELECT rowid, bm25(memory_fts) FROM memory_fts WHERE memory_fts MATCH ?`, m)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[int64]float64{}
	for rows.Next() {
		var id int64
		var sc float64
		rows.Scan(&id, &sc)
		out[id] = -sc
	}
	return out
}

func TestFTSRankIsFTS5BM25(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"))
	seedMemories(t, s, []string{"me", "other"}, 400, false)
	r := rand.New(rand.NewPCG(11, 12))
	for q := range 60 {
		limit := []int{1, 5, 20}[q%3]
		ws := make([]string, 1+r.IntN(8))
		for i := range ws {
			ws[i] = fmt.Sprintf("w%dx", int(math.Abs(r.NormFloat64()*150))%3000)
		}
		if q%5 == 0 {
			ws = append(ws, "likes", "nothing-known")
		}
		terms, err := s.ftsTerms(ctx, "me", strings.Join(ws, " "))
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.ftsRank(ctx, terms, limit)
		if err != nil {
			t.Fatal(err)
		}
		want, err := s.ftsRankSQL(ctx, terms, limit)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("query %q: ftsRank found %d, bm25() %d", ws, len(got), len(want))
		}
		// Same scores rank by rank (records tied on a score may swap).
		scores := sqlScores(t, s, terms)
		for i := range got {
			a, b := scores[got[i]], scores[want[i]]
			if math.Abs(a-b) > 1e-9*math.Abs(b) {
				t.Fatalf("query %q, rank %d: ftsRank has %d (bm25 %v), bm25() has %d (%v)", ws, i+1, got[i], a, want[i], b)
			}
			if i > 0 && scores[got[i-1]] < a {
				t.Fatalf("query %q: ftsRank out of order at rank %d", ws, i+1)
			}
		}
	}
}

// BenchmarkFTSRank compares the full-text ranking of one message over a
// person's 10,000 records: ftsRank with no record length cached yet (the
// first search after Open), with them cached, and FTS5's bm25() in SQL.
//
//	go test ./memory/sqlite -run '^$' -bench FTSRank -benchtime 200x
func BenchmarkFTSRank(b *testing.B) {
	ctx := context.Background()
	s := openTest(b, filepath.Join(b.TempDir(), "h.db"))
	seedMemories(b, s, []string{"me", "other"}, 10_000, false)
	terms, err := s.ftsTerms(ctx, "me", "I keep thinking about w12x and w40x, and w7x with w300x at w5x")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("go/lengths-uncached", func(b *testing.B) {
		for b.Loop() {
			s.lens.mu.Lock()
			s.lens.m = nil
			s.lens.mu.Unlock()
			if _, err := s.ftsRank(ctx, terms, 20); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("go/lengths-cached", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.ftsRank(ctx, terms, 20); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("sql-bm25", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.ftsRankSQL(ctx, terms, 20); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func TestFTSRankOfAnEmptyIndexFindsNothingWithoutFallingBack(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"))
	terms, err := s.ftsTerms(ctx, "me", "a long day at work and I feel tired")
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.ftsRank(ctx, terms, 20)
	if err != nil || len(got) != 0 {
		t.Fatalf("ftsRank on a new database = %v, %v; want nothing and no error (no layout error that falls back to bm25())", got, err)
	}
}

package sqlite

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/havenbot/haven/memory"
)

const benchDim = 64

// seedMemories writes n facts (every tenth an episode) for each of people,
// with embeddings when vectors is set, in one transaction. Texts are drawn
// from a 3,000-word vocabulary so that full-text matches are realistic.
func seedMemories(tb testing.TB, s *Store, people []string, n int, vectors bool) {
	tb.Helper()
	ctx := context.Background()
	r := rand.New(rand.NewPCG(1, 2))
	vocab := make([]string, 3000)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("w%dx", i)
	}
	words := func(k int) string {
		ws := make([]string, k)
		for i := range ws {
			ws[i] = vocab[int(math.Abs(r.NormFloat64()*600))%len(vocab)]
		}
		return strings.Join(ws, " ")
	}
	vec := func() []byte {
		v := make([]float32, benchDim)
		var norm float64
		for i := range v {
			v[i] = float32(r.NormFloat64())
			norm += float64(v[i] * v[i])
		}
		b := make([]byte, 4*benchDim)
		for i, x := range v {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x/float32(math.Sqrt(norm))))
		}
		return b
	}
	model := vecTableName("bench", benchDim)
	err := s.write(ctx, func(wt *wtx) error {
		tx := wt.uncached()
		if vectors {
			if _, err := tx.Exec(fmt.Sprintf(`CREATE VIRTUAL TABLE IF NOT EXISTS %s USING vec0 (person_id TEXT PARTITION KEY, embedding float[%d] distance_metric=cosine)`, model, benchDim)); err != nil {
				return err
			}
		}
		insFact, err := tx.Prepare(`INSERT INTO facts (person_id, subject, predicate, object, evidence, session_id, turn, confidence, created_at) VALUES (?, ?, 'likes', ?, ?, 's', 1, 0.8, ?)`)
		if err != nil {
			return err
		}
		defer insFact.Close()
		insEp, err := tx.Prepare(`INSERT INTO episodes (person_id, session_id, summary, started_at, ended_at, created_at) VALUES (?, ?, ?, 0, 0, ?)`)
		if err != nil {
			return err
		}
		defer insEp.Close()

		var insVec *sql.Stmt
		if vectors {
			if insVec, err = tx.Prepare(`INSERT INTO ` + model + ` (rowid, person_id, embedding) VALUES (?, ?, ?)`); err != nil {
				return err
			}
			defer insVec.Close()
		}
		at := time.Now().Add(-time.Hour).UnixNano()
		for _, p := range people {
			if _, err := tx.Exec(`INSERT INTO people (id, created_at) VALUES (?, 0)`, p); err != nil {
				return err
			}
			for i := range n {
				at++
				var ref memory.Ref
				var body string
				if i%10 == 9 {
					body = words(25)
					res, err := insEp.Exec(p, fmt.Sprintf("%s-%d", p, i), body, at)
					if err != nil {
						return err
					}
					id, _ := res.LastInsertId()
					ref = memory.Ref{Kind: memory.KindEpisode, ID: id}
				} else {
					obj, ev := words(3), words(12)
					res, err := insFact.Exec(p, memory.Self, obj, ev, at)
					if err != nil {
						return err
					}
					id, _ := res.LastInsertId()
					ref = memory.Ref{Kind: memory.KindFact, ID: id}
					body = "likes " + obj + " " + ev
				}
				if err := s.indexText(ctx, wt, p, ref, body); err != nil {
					return err
				}
				if vectors {
					if _, err := insVec.Exec(ftsRowid(ref), p, vec()); err != nil {
						return err
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	s.vec.mu.Lock()
	s.vec.loaded = false
	s.vec.mu.Unlock()
}

// fixedEmbedder returns one fixed unit vector: the benchmark measures the
// store, not an embedding server.
type fixedEmbedder struct{ v []float32 }

func (f fixedEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i := range out {
		out[i] = f.v
	}
	return out, nil
}
func (fixedEmbedder) Model() string { return "bench" }

// BenchmarkRetrieve measures the retrieval of one turn's working memory for
// a person with n records while another person has as many in the same
// file: BM25 + recency (+ vec0 cosine for /vector) fused by RRF, records
// loaded, cut to the token budget.
//
//	go test ./memory/sqlite -run '^$' -bench Retrieve -benchtime 200x
func BenchmarkRetrieve(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		for _, vectors := range []bool{false, true} {
			name := fmt.Sprintf("records=%d/bm25+recency", n)
			if vectors {
				name = fmt.Sprintf("records=%d/bm25+vector+recency", n)
			}
			b.Run(name, func(b *testing.B) {
				s := openTest(b, filepath.Join(b.TempDir(), "h.db"))
				seedMemories(b, s, []string{"me", "other"}, n, vectors)
				r := memory.Retriever{Store: s}
				if vectors {
					v := make([]float32, benchDim)
					v[0] = 1
					r.Embedder = fixedEmbedder{v}
				}
				q := memory.Query{PersonID: "me", Text: "I keep thinking about w12x and w40x, and w7x with w300x at w5x", Proactive: true}
				ctx := context.Background()
				b.ReportAllocs()
				for b.Loop() {
					w, err := r.Retrieve(ctx, q)
					if err != nil {
						b.Fatal(err)
					}
					if len(w.Entries) == 0 {
						b.Fatal("nothing retrieved")
					}
				}
			})
		}
	}
}

// BenchmarkVectorScan compares the ways to find a person's nearest
// vectors: sqlite-vec's vec0 KNN (partitioned by person), reading every
// BLOB of the person and computing cosine in Go, and the Store's in-memory
// set (the search, and the load from vec0's chunks that precedes the first
// one).
//
//	go test ./memory/sqlite -run '^$' -bench VectorScan -benchtime 20x
func BenchmarkVectorScan(b *testing.B) {
	for _, n := range []int{1_000, 10_000} {
		// Two files with the same records: one Haven may hold a file at a
		// time, and the cache is chosen at Open.
		s := openTest(b, filepath.Join(b.TempDir(), "h.db"), WithVectorCache(-1))
		seedMemories(b, s, []string{"me", "other"}, n, true)
		cached := openTest(b, filepath.Join(b.TempDir(), "cached.db"))
		seedMemories(b, cached, []string{"me", "other"}, n, true)
		b.Run(fmt.Sprintf("records=%d/memory-load", n), func(b *testing.B) {
			for b.Loop() {
				set, err := cached.loadVectorChunks(context.Background(), "me", vecTableName("bench", benchDim), benchDim)
				if err != nil || len(set.ids) != n {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("records=%d/memory", n), func(b *testing.B) {
			q := make([]float32, benchDim)
			q[3] = 1
			for b.Loop() {
				refs, err := cached.searchVectors(context.Background(), "me", "bench", q, 20)
				if err != nil || len(refs) != 20 {
					b.Fatal(err, len(refs))
				}
			}
		})
		name := vecTableName("bench", benchDim)
		if _, err := s.w.Exec(`CREATE TABLE blobs AS SELECT rowid AS id, person_id, embedding FROM ` + name); err != nil {
			b.Fatal(err)
		}
		if _, err := s.w.Exec(`CREATE INDEX blobs_person ON blobs (person_id)`); err != nil {
			b.Fatal(err)
		}
		q := make([]float32, benchDim)
		q[3] = 1
		b.Run(fmt.Sprintf("records=%d/vec0", n), func(b *testing.B) {
			for b.Loop() {
				refs, err := s.searchVectors(context.Background(), "me", "bench", q, 20)
				if err != nil || len(refs) != 20 {
					b.Fatal(err, len(refs))
				}
			}
		})
		b.Run(fmt.Sprintf("records=%d/brute-force", n), func(b *testing.B) {
			for b.Loop() {
				if err := bruteForceTop20(s.r, "me", q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// bruteForceTop20 finds the person's 20 embeddings nearest q in the plain
// blobs table, by scanning every one: the baseline vec0 is measured against.
func bruteForceTop20(db *sql.DB, personID string, q []float32) error {
	rows, err := db.Query(`SELECT id, embedding FROM blobs WHERE person_id = ?`, personID)
	if err != nil {
		return err
	}
	defer rows.Close()
	type hit struct {
		id  int64
		sim float32
	}
	var top [20]hit
	var id int64
	var blob sql.RawBytes
	for rows.Next() {
		if err := rows.Scan(&id, &blob); err != nil {
			return err
		}
		var dot float32
		for i := range benchDim {
			dot += q[i] * math.Float32frombits(binary.LittleEndian.Uint32(blob[4*i:]))
		}
		if dot > top[19].sim {
			top[19] = hit{id, dot}
			for j := 19; j > 0 && top[j].sim > top[j-1].sim; j-- {
				top[j], top[j-1] = top[j-1], top[j]
			}
		}
	}
	return rows.Err()
}

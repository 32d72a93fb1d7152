package sqlite

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/havenbot/haven/memory"
)

// randVec returns a random vector of dim components, not normalized.
func randVec(r *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(r.NormFloat64()) * 3
	}
	return v
}

// embedFacts adds n facts for each person with a random embedding each and
// returns the refs by person.
func embedFacts(t *testing.T, s *Store, r *rand.Rand, people []string, n, dim int) map[string][]memory.Ref {
	t.Helper()
	ctx := context.Background()
	refs := map[string][]memory.Ref{}
	for i := range n {
		for _, pid := range people {
			f, err := s.AddFact(ctx, fact(pid, memory.Self, memory.PredLikes, fmt.Sprintf("thing %d", i), "I like it"))
			if err != nil {
				t.Fatal(err)
			}
			ref := memory.Ref{Kind: memory.KindFact, ID: f.ID}
			if err := s.SetEmbedding(ctx, pid, ref, "m", randVec(r, dim)); err != nil {
				t.Fatal(err)
			}
			refs[pid] = append(refs[pid], ref)
		}
	}
	return refs
}

// vectorsOf reads a set into a map for comparison.
func vectorsOf(set *vecSet) map[int64][]float32 {
	m := map[int64][]float32{}
	for i, id := range set.ids {
		m[id] = set.vals[i*set.dim : (i+1)*set.dim]
	}
	return m
}

func TestVectorChunksMatchRows(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(3, 4))
	s := openMem(t)
	// More than one 1,024-slot chunk per person, with re-embedded and
	// deleted vectors leaving invalid slots behind.
	table := vecTableName("bench", benchDim)
	var annRows []int64
	err := s.write(ctx, func(tx *wtx) error {
		if _, err := tx.uncached().ExecContext(ctx, fmt.Sprintf(`CREATE VIRTUAL TABLE %s USING vec0 (
			person_id TEXT PARTITION KEY, embedding float[%d] distance_metric=cosine)`, table, benchDim)); err != nil {
			return err
		}
		for i := range 2 * 1030 {
			pid := []string{"ann", "bob"}[i%2]
			if _, err := tx.ExecContext(ctx, `INSERT INTO `+table+` (rowid, person_id, embedding) VALUES (?, ?, ?)`, i+1, pid, vecBlob(randVec(r, benchDim))); err != nil {
				return err
			}
			if pid == "ann" {
				annRows = append(annRows, int64(i+1))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = s.write(ctx, func(tx *wtx) error {
		for i := 0; i < len(annRows); i += 7 {
			if _, err := tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE rowid = ?`, annRows[i]); err != nil {
				return err
			}
			if i%2 == 0 {
				continue
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO `+table+` (rowid, person_id, embedding) VALUES (?, 'ann', ?)`, annRows[i], vecBlob(randVec(r, benchDim))); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Row by row reads are slow (under -race above all): bob's untouched
	// chunks are counted only.
	if set, err := s.loadVectorChunks(ctx, "bob", table, benchDim); err != nil || len(set.ids) != 1030 {
		t.Fatalf("loadVectorChunks(bob) = %v, %v; want 1030 vectors", set, err)
	}
	deleted := (len(annRows) + 13) / 14
	for _, pid := range []string{"ann"} {
		chunks, err := s.loadVectorChunks(ctx, pid, table, benchDim)
		if err != nil || chunks == nil {
			t.Fatalf("loadVectorChunks(%s) = %v, %v", pid, chunks, err)
		}
		rows, err := s.loadVectorRows(ctx, pid, table, benchDim)
		if err != nil || rows == nil {
			t.Fatalf("loadVectorRows(%s) = %v, %v", pid, rows, err)
		}
		a, b := vectorsOf(chunks), vectorsOf(rows)
		want := 1030 - deleted
		if len(a) != want || len(b) != want {
			t.Fatalf("person %s: %d vectors from chunks, %d from rows, want %d", pid, len(a), len(b), want)
		}
		for id, v := range b {
			if !slices.Equal(a[id], v) {
				t.Fatalf("person %s, rowid %d: chunks %v, rows %v", pid, id, a[id], v)
			}
		}
	}
}

// nearestRefs searches the person's vectors with the Store's own path.
func nearestRefs(t *testing.T, s *Store, pid string, q []float32, k int) []memory.Ref {
	t.Helper()
	refs, err := s.searchVectors(context.Background(), pid, "m", q, k)
	if err != nil {
		t.Fatal(err)
	}
	return refs
}

// withoutVectorCache returns a view of s, on s's connections, that searches
// with vec0 alone (as WithVectorCache(-1) would): a second Store cannot
// open the file while s holds it. The view must not be closed.
func withoutVectorCache(s *Store) *Store {
	return &Store{path: s.path, w: s.w, r: s.r, wc: s.wc, rd: s.rd, opts: s.opts, vc: newVecCache(0)}
}

func TestCachedVectorSearchRanksAsVec0(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	path := filepath.Join(t.TempDir(), "h.db")
	cached := openTest(t, path)
	ann, bob := person(t, cached, "ann").ID, person(t, cached, "bob").ID
	const dim = 32
	embedFacts(t, cached, r, []string{ann, bob}, 100, dim)
	direct := withoutVectorCache(cached)
	for i := range 20 {
		q := randVec(r, dim)
		for _, pid := range []string{ann, bob} {
			got, want := nearestRefs(t, cached, pid, q, 10), nearestRefs(t, direct, pid, q, 10)
			if !slices.Equal(got, want) {
				t.Fatalf("query %d for %s: cache ranks %v, vec0 ranks %v", i, pid, got, want)
			}
		}
	}
	if len(cached.vc.sets) != 2 || len(direct.vc.sets) != 0 {
		t.Fatalf("cached sets: %d with the cache (want 2), %d without (want 0)", len(cached.vc.sets), len(direct.vc.sets))
	}
}

func TestCachedVectorsFollowWritesAndStayWithTheirPerson(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(7, 8))
	s := openMem(t)
	ann, bob := person(t, s, "ann").ID, person(t, s, "bob").ID
	const dim = 8
	refs := embedFacts(t, s, r, []string{ann, bob}, 30, dim)
	owns := func(pid string, got []memory.Ref) {
		t.Helper()
		for _, ref := range got {
			if !slices.Contains(refs[pid], ref) {
				t.Fatalf("search of %s returned %v, which is not theirs", pid, ref)
			}
		}
	}
	q := randVec(r, dim)
	owns(ann, nearestRefs(t, s, ann, q, 50))
	owns(bob, nearestRefs(t, s, bob, q, 50))

	// A new record embedded exactly as the query is found first, by its
	// person only.
	f, err := s.AddFact(ctx, fact(ann, memory.Self, memory.PredLikes, "tea", "I like tea"))
	if err != nil {
		t.Fatal(err)
	}
	tea := memory.Ref{Kind: memory.KindFact, ID: f.ID}
	refs[ann] = append(refs[ann], tea)
	if err := s.SetEmbedding(ctx, ann, tea, "m", q); err != nil {
		t.Fatal(err)
	}
	if got := nearestRefs(t, s, ann, q, 1); !slices.Equal(got, []memory.Ref{tea}) {
		t.Fatalf("after embedding tea, ann's nearest = %v, want %v", got, []memory.Ref{tea})
	}
	owns(bob, nearestRefs(t, s, bob, q, 50))
	// Another person embedding the record under their own id changes nothing.
	if err := s.SetEmbedding(ctx, bob, tea, "m", q); err != nil {
		t.Fatal(err)
	}
	owns(bob, nearestRefs(t, s, bob, q, 50))

	// Re-embedding moves it away.
	if err := s.SetEmbedding(ctx, ann, tea, "m", negate(q)); err != nil {
		t.Fatal(err)
	}
	if got := nearestRefs(t, s, ann, q, 50); slices.Index(got, tea) != len(got)-1 {
		t.Fatalf("after re-embedding tea opposite the query, it ranks %d of %d", slices.Index(got, tea), len(got))
	}

	// Superseding, forgetting and forgetting everything take vectors out.
	if err := s.SetEmbedding(ctx, ann, tea, "m", q); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddFact(ctx, fact(ann, memory.Self, memory.PredDislikes, "tea", "I don't like tea anymore")); err != nil {
		t.Fatal(err)
	}
	if got := nearestRefs(t, s, ann, q, 50); slices.Contains(got, tea) {
		t.Fatalf("a superseded fact's vector is still searched: %v", got)
	}
	if err := s.Forget(ctx, ann, refs[ann][0]); err != nil {
		t.Fatal(err)
	}
	if got := nearestRefs(t, s, ann, q, 50); slices.Contains(got, refs[ann][0]) || len(got) != 29 {
		t.Fatalf("after forgetting one of 30 records, search returns %d: %v", len(got), got)
	}
	if err := s.ForgetAll(ctx, ann); err != nil {
		t.Fatal(err)
	}
	if got := nearestRefs(t, s, ann, q, 50); len(got) != 0 {
		t.Fatalf("after forgetting everything, search returns %v", got)
	}
	if got := nearestRefs(t, s, bob, q, 50); len(got) != 30 {
		t.Fatalf("forgetting ann changed bob's vectors: %d, want 30", len(got))
	}
}

func negate(v []float32) []float32 {
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = -x
	}
	return out
}

func TestAPersonPastTheVectorCacheIsSearchedWithVec0(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	path := filepath.Join(t.TempDir(), "h.db")
	// 8 dimensions: 40 bytes a vector; 2,000 bytes hold 50 of them.
	s := openTest(t, path, WithVectorCache(2000))
	ann, bob := person(t, s, "ann").ID, person(t, s, "bob").ID
	refs := embedFacts(t, s, r, []string{ann}, 80, 8)
	embedFacts(t, s, r, []string{bob}, 10, 8)
	direct := withoutVectorCache(s)
	q := randVec(r, 8)
	for range 2 {
		got, want := nearestRefs(t, s, ann, q, 5), nearestRefs(t, direct, ann, q, 5)
		if !slices.Equal(got, want) || len(got) != 5 || !slices.Contains(refs[ann], got[0]) {
			t.Fatalf("ann (too many to cache): %v, vec0 %v", got, want)
		}
		nearestRefs(t, s, bob, q, 5)
	}
	if set, big := s.vc.get(ann, vecTableName("m", 8)); set != nil || !big {
		t.Fatalf("ann's vectors: cached %v, marked too big %v; want not cached and marked", set != nil, big)
	}
	if set, _ := s.vc.get(bob, vecTableName("m", 8)); set == nil {
		t.Fatal("bob's 10 vectors are not cached")
	}
}

// BenchmarkNearest measures the in-memory search of one person's vectors.
//
//	go test ./memory/sqlite -run '^$' -bench Nearest
func BenchmarkNearest(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, dim := range []int{64, 768} {
		set := &vecSet{dim: dim}
		for i := range 10_000 {
			set.add(int64(i), vecBlob(randVec(r, dim)))
		}
		q := randVec(r, dim)
		b.Run(fmt.Sprintf("records=10000/dim=%d", dim), func(b *testing.B) {
			for b.Loop() {
				if len(set.nearest(q, 20)) != 20 {
					b.Fatal("short")
				}
			}
		})
	}
}

func TestDotMatchesTheSum(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	for _, n := range []int{0, 1, 7, 8, 9, 64, 100} {
		a, b := randVec(r, n), randVec(r, n)
		var want float64
		for i := range a {
			want += float64(a[i]) * float64(b[i])
		}
		if got := dot(a, b); math.Abs(float64(got)-want) > 1e-3*(1+math.Abs(want)) {
			t.Errorf("dot of %d components = %v, want %v", n, got, want)
		}
	}
}

package sqlite

import (
	"context"
	"hash/fnv"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/havenbot/haven/memory"
)

// trigramEmbedder is a test embedder: feature hashing of words and of
// character trigrams, so that "doggo" is near "dog". It stands in for an
// embedding model; it is not a semantic one.
type trigramEmbedder struct{}

func (trigramEmbedder) Model() string { return "trigram-test" }

func (trigramEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float64, 256)
		for _, w := range memory.TermsN(t, 200) {
			for _, f := range append([]string{w}, trigrams(w)...) {
				h := fnv.New32a()
				h.Write([]byte(f))
				v[h.Sum32()%256]++
			}
		}
		var n float64
		for _, x := range v {
			n += x * x
		}
		out[i] = make([]float32, 256)
		for j, x := range v {
			if n > 0 {
				out[i][j] = float32(x / math.Sqrt(n))
			}
		}
	}
	return out, nil
}

func trigrams(w string) []string {
	w = "^" + w + "$"
	var out []string
	for i := 0; i+3 <= len(w); i++ {
		out = append(out, w[i:i+3])
	}
	return out
}

// recallSet is a small labelled set: what a person said in earlier
// sessions (facts with their evidence), and later messages each labelled
// with the object of the memory that should come back.
var recallFacts = []struct{ subject, predicate, object, evidence string }{
	{"Anna", "relationship", "sister", "my sister Anna is visiting next week"},
	{"Biscuit", "pet", "dog", "my dog Biscuit keeps me sane"},
	{"self", "lives_in", "Leeds", "I moved to Leeds in the spring"},
	{"self", "works_as", "nurse", "I work as a nurse on nights"},
	{"self", "likes", "hiking", "I love hiking in the dales"},
	{"self", "dislikes", "crowds", "I hate crowds, they make me panic"},
	{"Jordan", "relationship", "ex", "my ex Jordan still texts me"},
	{"self", "studies", "accounting", "I study accounting part time"},
	{"Priya", "relationship", "best friend", "my best friend Priya always listens"},
	{"self", "note", "my exam is on 12 May", "remember that my exam is on 12 May"},
	{"self", "likes", "baking bread", "I enjoy baking bread on sundays"},
	{"Mo", "relationship", "manager", "my manager Mo keeps piling on shifts"},
	{"self", "pronouns", "they/them", "I use they/them"},
	{"self", "dislikes", "phone calls", "I can't stand phone calls"},
	{"Pickle", "pet", "cat", "my cat Pickle sleeps on my chest"},
	{"self", "likes", "swimming", "I like swimming before work"},
	{"Dad", "relationship", "father", "my dad has been ill since March"},
	{"self", "note", "grandmother's funeral was in June", "remember that my grandmother's funeral was in June"},
	{"self", "works_at", "St James hospital", "I work at St James hospital"},
	{"self", "likes", "gardening", "I adore gardening, it calms me"},
}

var recallQuestions = []struct{ text, want string }{
	{"Anna called me last night", "sister"},
	{"my sister is coming to stay", "sister"},
	{"Biscuit was sick this morning", "dog"},
	{"the doggo would not eat", "dog"},
	{"it's raining again here in Leeds", "Leeds"},
	{"another awful night shift on the ward", "nurse"},
	{"I went on a long hike yesterday", "hiking"},
	{"the shopping centre was so crowded I had to leave", "crowds"},
	{"Jordan messaged me again", "ex"},
	{"my accountancy coursework is due", "accounting"},
	{"Priya came over and we talked for hours", "best friend"},
	{"the exam is getting close", "my exam is on 12 May"},
	{"I baked a loaf today", "baking bread"},
	{"my boss gave me more shifts", "manager"},
	{"the phone keeps ringing and I can't face calls", "phone calls"},
	{"Pickle knocked a glass over", "cat"},
	{"I swam forty lengths", "swimming"},
	{"my father is back in hospital", "father"},
	{"I keep thinking about gran's funeral", "grandmother's funeral was in June"},
	{"the garden is full of weeds", "gardening"},
}

// TestRecallAt5 measures how often the labelled memory is among the first
// five working memory entries, with BM25 alone and fused with vectors, and
// requires fusion to be at least as good.
func TestRecallAt5(t *testing.T) {
	ctx := context.Background()
	s := openMem(t)
	p := person(t, s, "recall")
	other := person(t, s, "other")
	emb := trigramEmbedder{}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, pid := range []string{other.ID, p.ID} {
		for _, f := range recallFacts {
			at = at.Add(time.Minute)
			got, err := s.AddFact(ctx, memory.Fact{PersonID: pid, Subject: f.subject, Predicate: f.predicate, Object: f.object,
				Evidence: f.evidence, Confidence: 0.9, Created: at})
			if err != nil {
				t.Fatal(err)
			}
			rec := memory.Record{Ref: memory.Ref{Kind: memory.KindFact, ID: got.ID}, Fact: &got}
			v, _ := emb.Embed(ctx, []string{rec.Text()})
			if err := s.SetEmbedding(ctx, pid, rec.Ref, emb.Model(), v[0]); err != nil {
				t.Fatal(err)
			}
		}
	}
	measure := func(r memory.Retriever) float64 {
		hits := 0
		for _, q := range recallQuestions {
			w, err := r.Retrieve(ctx, memory.Query{PersonID: p.ID, Text: q.text})
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, e := range w.Entries {
				if e.Pinned {
					continue
				}
				if n++; n > 5 {
					break
				}
				if e.Fact != nil && e.Fact.PersonID != p.ID {
					t.Fatalf("another person's memory retrieved: %+v", e.Fact)
				}
				if e.Fact != nil && strings.EqualFold(e.Fact.Object, q.want) {
					hits++
					break
				}
			}
		}
		return float64(hits) / float64(len(recallQuestions))
	}
	bm25 := measure(memory.Retriever{Store: s, MaxEntries: 10})
	fused := measure(memory.Retriever{Store: s, Embedder: emb, MaxEntries: 10})
	t.Logf("recall@5 over %d labelled questions: BM25 alone %.2f, fused (BM25 + vectors, RRF k=60) %.2f", len(recallQuestions), bm25, fused)
	if bm25 < 0.5 {
		t.Errorf("BM25 recall@5 = %.2f, want at least 0.5", bm25)
	}
	if fused < bm25 {
		t.Errorf("fused recall@5 %.2f is below BM25 alone %.2f", fused, bm25)
	}
}

package memory

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// RRFK is the k of reciprocal rank fusion: a record at rank r (1-based) of a
// list scores weight/(RRFK+r).
const RRFK = 60

// The weights of the ranked lists in the fusion. Recency breaks ties and
// brings up what was said lately; it never outweighs a match.
const (
	weightText   = 1.0
	weightVector = 1.0
	weightRecent = 0.5
)

// Retrieval defaults.
const (
	// DefaultTokenBudget bounds the working memory put into a turn.
	DefaultTokenBudget = 400
	// DefaultMaxEntries bounds the number of working memory entries.
	DefaultMaxEntries = 8
)

// Searcher is what a Retriever reads. memory/sqlite's Store implements it.
// Both methods are scoped to one person and never return another person's
// records.
type Searcher interface {
	// Search returns ranked lists of the person's active records for q.
	Search(ctx context.Context, q SearchQuery) (SearchResult, error)
	// Rules returns the person's procedural rules, oldest first.
	Rules(ctx context.Context, personID string) ([]Rule, error)
}

// Retriever finds a person's working memory for a turn: BM25 over facts and
// episodes, cosine similarity when an Embedder is set, and recency, fused by
// reciprocal rank fusion, cut to a token budget.
type Retriever struct {
	Store Searcher
	// Embedder is optional; without it retrieval is BM25 and recency.
	Embedder Embedder
	// TokenBudget bounds the estimated tokens of the entries; zero means
	// DefaultTokenBudget.
	TokenBudget int
	// MaxEntries bounds the entries; zero means DefaultMaxEntries.
	MaxEntries int
}

// Query is what a turn asks the Retriever.
type Query struct {
	PersonID string
	// Text is the person's message.
	Text string
	// Proactive adds recent memories the message did not ask about.
	Proactive bool
	// CatchUp marks the latest episode for a catch-up (the first turn of a
	// new session), when proactive recall is on.
	CatchUp bool
}

// Working is the working memory of one turn.
type Working struct {
	// Entries are ranked best first.
	Entries []WorkingEntry
	// Rules are the person's procedural rules, oldest first.
	Rules []Rule
	// Tokens is the estimated size of Entries.
	Tokens int
	// VectorErr is set when the embedding call failed and retrieval fell
	// back to BM25 and recency.
	VectorErr error
}

// WorkingEntry is one working memory entry. It keeps its structure; callers format
// it where they use it (Text is one such format).
type WorkingEntry struct {
	Ref   Ref
	Score float64
	// Fact is set for a semantic entry; its Evidence is the person's words.
	Fact *Fact
	// Episode is set for an episodic entry.
	Episode *Episode
	// CatchUp marks the episode to pick up from at the start of a session.
	CatchUp bool
	// Pinned entries (name, pronouns) are loaded on every turn.
	Pinned bool
	// Matched is true when the message itself matched the entry (full text
	// or vector), not only recency.
	Matched bool
}

// Text renders the entry for a prompt or a list: a fact with its evidence
// quote, an episode with its themes and open loops.
func (e WorkingEntry) Text() string {
	switch {
	case e.Fact != nil:
		s := e.Fact.Words(AboutThem)
		if e.Fact.Evidence != "" {
			s += ` (they said: "` + e.Fact.Evidence + `")`
		}
		return s
	case e.Episode != nil:
		var b strings.Builder
		if e.CatchUp {
			b.WriteString("Last time: ")
		}
		b.WriteString(e.Episode.Summary)
		if len(e.Episode.Themes) > 0 {
			b.WriteString(" Themes: " + strings.Join(e.Episode.Themes, ", ") + ".")
		}
		if len(e.Episode.OpenLoops) > 0 {
			b.WriteString(" Open: " + strings.Join(e.Episode.OpenLoops, "; ") + ".")
		}
		return b.String()
	}
	return ""
}

// Tokens estimates the tokens of a text: one per four bytes, at least one
// per word.
func Tokens(s string) int {
	return max((len(s)+3)/4, len(strings.Fields(s)))
}

// Retrieve returns the person's working memory for q. An embedding failure
// is not an error: retrieval goes on without vectors and says so in
// VectorErr.
func (r *Retriever) Retrieve(ctx context.Context, q Query) (Working, error) {
	if q.PersonID == "" {
		return Working{}, fmt.Errorf("retrieve memory: empty person id")
	}
	var w Working
	sq := SearchQuery{PersonID: q.PersonID, Text: q.Text, Recent: q.Proactive}
	if r.Embedder != nil && strings.TrimSpace(q.Text) != "" {
		vs, err := r.Embedder.Embed(ctx, []string{q.Text})
		switch {
		case err != nil:
			w.VectorErr = fmt.Errorf("embed query: %w", err)
		case len(vs) != 1 || len(vs[0]) == 0:
			w.VectorErr = fmt.Errorf("embed query: got %d vectors, want 1", len(vs))
		default:
			sq.Vector, sq.Model = vs[0], r.Embedder.Model()
		}
	}
	res, err := r.Store.Search(ctx, sq)
	if err != nil {
		return Working{}, fmt.Errorf("retrieve memory of person %s: %w", q.PersonID, err)
	}
	rules, err := r.Store.Rules(ctx, q.PersonID)
	if err != nil {
		return Working{}, fmt.Errorf("retrieve memory of person %s: %w", q.PersonID, err)
	}
	w.Rules = rules
	var catchUp Ref
	if q.Proactive && q.CatchUp {
		// The newest episode is the one to catch up on.
		var newest time.Time
		for ref, rec := range res.Records {
			if rec.Episode != nil && slices.Contains(res.Recent, ref) && rec.Created.After(newest) {
				newest, catchUp = rec.Created, ref
			}
		}
	}
	fused := Fuse(map[string][]Ref{"text": res.Text, "vector": res.Vector, "recent": res.Recent})
	budget := r.TokenBudget
	if budget <= 0 {
		budget = DefaultTokenBudget
	}
	maxN := r.MaxEntries
	if maxN <= 0 {
		maxN = DefaultMaxEntries
	}
	matched := map[Ref]bool{}
	for _, ref := range append(slices.Clone(res.Text), res.Vector...) {
		matched[ref] = true
	}
	add := func(ref Ref, score float64, pinned bool) {
		rec, ok := res.Records[ref]
		if !ok || len(w.Entries) >= maxN {
			return
		}
		for _, e := range w.Entries {
			if e.Ref == ref {
				return
			}
		}
		e := WorkingEntry{Ref: ref, Score: score, Fact: rec.Fact, Episode: rec.Episode, Pinned: pinned, Matched: matched[ref],
			CatchUp: ref == catchUp && catchUp.ID != 0}
		n := Tokens(e.Text())
		if w.Tokens+n > budget && !pinned {
			return
		}
		w.Tokens += n
		w.Entries = append(w.Entries, e)
	}
	for _, ref := range res.Pinned {
		add(ref, 0, true)
	}
	if catchUp.ID != 0 {
		add(catchUp, 0, false)
	}
	for _, s := range fused {
		add(s.Ref, s.Score, false)
	}
	return w, nil
}

// Scored is a fused record and its score.
type Scored struct {
	Ref   Ref
	Score float64
}

// Fuse combines ranked lists by reciprocal rank fusion (k = RRFK): each
// record scores the sum over the lists it is in of weight/(RRFK+rank). The
// "recent" list weighs half. Ties keep the order of first appearance.
func Fuse(lists map[string][]Ref) []Scored {
	scores := map[Ref]float64{}
	var order []Ref
	for _, name := range []string{"text", "vector", "recent"} {
		w := weightText
		switch name {
		case "vector":
			w = weightVector
		case "recent":
			w = weightRecent
		}
		for i, ref := range lists[name] {
			if _, ok := scores[ref]; !ok {
				order = append(order, ref)
			}
			scores[ref] += w / float64(RRFK+i+1)
		}
	}
	out := make([]Scored, len(order))
	for i, ref := range order {
		out[i] = Scored{ref, scores[ref]}
	}
	slices.SortStableFunc(out, func(a, b Scored) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return 0
	})
	return out
}

// stopwords are left out of search terms.
var stopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and are as at be been but by can could did do does doing
		for from had has have having he her hers him his how i i'd i'm if in into is it its it's just
		me my myself no not of on or our ours out she so some than that the their them then there
		these they this those to too up us very was we were what when where which who whom why will
		with would you your yours yourself am about again all also any because before being both
		each few more most other own same should such only over under until while ok okay really
		im ive dont didnt cant wont thats get got go going went like know think feel felt want
		something anything thing things still lot much well yeah yes hi hello hey`) {
		stopwords[w] = true
	}
}

// Terms returns the distinct search terms of text, in order: lower-case
// words of letters and digits, without stopwords, at most 24.
func Terms(text string) []string { return TermsN(text, 24) }

// TermsN is Terms with at most n terms.
func TermsN(text string, n int) []string {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r) && r != '\''
	})
	var out []string
	seen := map[string]bool{}
	for _, w := range words {
		w = strings.Trim(w, "'")
		w = strings.TrimSuffix(w, "'s")
		if utf8.RuneCountInString(w) < 2 || stopwords[w] || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
		if len(out) == n {
			break
		}
	}
	return out
}

// Matches reports whether text mentions every term of query (Terms), with a
// crude plural tolerance. A query with no terms matches nothing.
func Matches(query, text string) bool {
	q := Terms(query)
	if len(q) == 0 {
		return false
	}
	have := map[string]bool{}
	for _, w := range Terms(text) {
		have[w] = true
		have[strings.TrimSuffix(w, "s")] = true
	}
	for _, w := range q {
		if !have[w] && !have[strings.TrimSuffix(w, "s")] {
			return false
		}
	}
	return true
}

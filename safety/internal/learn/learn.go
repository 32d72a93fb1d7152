// Package learn is the crisis scorer's training recipe: which labelled rows
// train it, how the learner is set, and how its thresholds are chosen from
// out-of-fold scores on the training rows. The training command and the
// leave-one-source-out evaluation share it, so the evaluation measures the
// recipe that made the shipped model. It never prints or keeps message text
// beyond its canonical form in memory.
package learn

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/havenbot/haven/internal/linear"
	"github.com/havenbot/haven/safety"
	"github.com/havenbot/haven/safety/internal/lr"
)

// Labelled is one labelled text as read from a data file.
type Labelled struct {
	ID     string
	Source string
	Input  safety.Input
	// Positive: the writer's own suicidal ideation, intent, attempt or
	// self-injury (level >= 2).
	Positive bool
}

// Row is a Labelled text prepared once for any number of trainings and
// evaluations: the rules' verdict on it and its features.
type Row struct {
	ID       string
	Source   string
	Positive bool
	// Verdict is the rules' verdict with what the scorer may do.
	Verdict safety.RulesVerdict
	// Doc holds the features of the whole canonical text (what the model
	// learns from); scoring reads Verdict.ModelText.
	Doc linear.Doc
	// Window says the text came with earlier messages: its label may rest
	// on them.
	Window bool
}

// Prepare assesses and featurizes texts on workers goroutines (0 =
// GOMAXPROCS), keeping their order.
func Prepare(ctx context.Context, floor *safety.Floor, texts []Labelled, workers int) ([]Row, error) {
	rows := make([]Row, len(texts))
	err := parallel(ctx, len(texts), workers, func(i int) {
		t := texts[i]
		rows[i] = Row{
			ID:       t.ID,
			Source:   t.Source,
			Positive: t.Positive,
			Verdict:  floor.AssessRules(t.Input),
			Doc:      linear.NewDoc(safety.Normalize(t.Input.Text), linear.Bits),
			Window:   len(t.Input.History) > 0,
		}
	})
	if err != nil {
		return nil, fmt.Errorf("prepare rows: %w", err)
	}
	return rows, nil
}

// Recipe is how a model is made from rows.
type Recipe struct {
	// DropSources are sources never trained on.
	DropSources []string
	// DropNegatives are sources whose negative rows are not trained on.
	DropNegatives []string
	// Train sets the learner.
	Train lr.TrainOptions
	// Folds is the number of folds (by id hash) whose out-of-fold scores
	// choose the thresholds.
	Folds int
	// RaiseBudget is the highest share of negative rows that the scorer
	// may add as false crises, out of fold, on negative-only sources
	// (sources with no positive row: distress without self-harm talk,
	// therapy questions, figurative language, everyday text), averaged
	// over those sources with equal weight so that one large easy source
	// cannot hide the others. The Raise threshold is the lowest on a 0.01
	// grid from 0.50 that keeps within it (none: never raise).
	RaiseBudget float64
	// HighPrecision is the share of true crises that the scorer's own
	// level-3 raises must reach out of fold: the High threshold is the
	// lowest on the grid, at or above Raise, that reaches it.
	HighPrecision float64
	// Short is how the short-message scorer is made.
	Short ShortRecipe
}

// ShortRecipe is how the short-message scorer is made: the same learner on
// the rows the post scorer trains on plus the chat sources, weighted up,
// with its threshold chosen from out-of-fold scores in which every chat
// batch (the messages one writer wrote at one sitting) is held out whole,
// so that the threshold is set on batches the model never saw.
type ShortRecipe struct {
	// ChatSources are the sources of short chat messages written for
	// Haven's tests (safety/testdata): the short scorer trains on them,
	// the post scorer never does. Without any, there is no short scorer.
	ChatSources []string
	// ChatWeight is the weight of a chat row (a post row weighs 1).
	ChatWeight float32
	// Epochs overrides Recipe.Train's for the short scorer (0: the
	// same). Its rows are fewer and shorter; more passes let it learn
	// the chat rows without loosening the post scorer.
	Epochs int
	// Everyday are sources of everyday text that the short scorer trains
	// on (as negatives) though the post scorer does not: people write
	// ordinary things to a chat bot far more often than crises.
	Everyday []string
	// Budget is the highest share of the chat sources' negative rows that
	// the short scorer may add as false crises, out of fold.
	Budget float64
	// SourceBudget is the highest share of the rows of any negative-only
	// source (see Recipe.RaiseBudget) that it may add; one row is always
	// allowed.
	SourceBudget float64
}

// DefaultRecipe is the recipe of the shipped model. Its data choices were
// made by leave-one-source-out measurement (see safety/MODEL.md): each
// leaves held-out distress sources at about the same false-crisis rate
// and raises held-out recall.
//   - The post scorer does not train on goemotions-neg: 48,000 everyday
//     comments teach "emotional or not" more than "crisis or distress", so
//     the thresholds that keep distress posts out must rise and recall
//     falls. The short scorer does (ShortRecipe.Everyday).
//   - The negative rows of feix-tweets-suicidal are not trained on: they
//     include first-person uses of "suicidal" labelled not, and teach that
//     saying one is suicidal is safe.
func DefaultRecipe() Recipe {
	return Recipe{
		DropSources:   []string{"goemotions-neg"},
		DropNegatives: []string{"feix-tweets-suicidal"},
		Train:         lr.TrainOptions{Bits: linear.Bits, Epochs: 4, Rate: 0.1, L2: 1e-4, Seed: 1},
		Folds:         5,
		RaiseBudget:   0.02,
		HighPrecision: 0.98,
		Short: ShortRecipe{
			ChatSources:  []string{"chat-tune", "chat-writers"},
			ChatWeight:   16,
			Epochs:       16,
			Everyday:     []string{"goemotions-neg"},
			Budget:       0.02,
			SourceBudget: 0.005,
		},
	}
}

// Uses reports whether the recipe trains the post scorer on r.
func (rc Recipe) Uses(r *Row) bool {
	if slices.Contains(rc.DropSources, r.Source) || rc.Chat(r) {
		return false
	}
	return r.Positive || !slices.Contains(rc.DropNegatives, r.Source)
}

// ChatSource reports whether src is one of Short.ChatSources.
func (rc Recipe) ChatSource(src string) bool { return slices.Contains(rc.Short.ChatSources, src) }

// Chat reports whether r is a chat row (of one of Short.ChatSources).
func (rc Recipe) Chat(r *Row) bool { return rc.ChatSource(r.Source) }

// UsesShort reports whether the recipe trains the short-message scorer on
// r: every row the post scorer trains on, the chat rows and the everyday
// sources, but not a crisis whose message came after earlier ones. The
// scorer reads one message; "because I do" is a crisis only after a
// question about suicide, and the rules' window reads that.
func (rc Recipe) UsesShort(r *Row) bool {
	if r.Positive && r.Window {
		return false
	}
	return rc.Uses(r) || rc.Chat(r) || slices.Contains(rc.Short.Everyday, r.Source)
}

// batchRe finds a chat row's batch in its id: -t2- ... -t9- for the tuning
// batches, -w10- ... for the writers' sets; an id without one is of the
// first tuning batch.
var batchRe = regexp.MustCompile(`-(t\d+|w\d+)-`)

// Batch is the batch of a chat row id (see batchRe).
func Batch(id string) string {
	if m := batchRe.FindStringSubmatch(id); m != nil {
		return m[1]
	}
	return "t1"
}

// SourceCount is how many rows of one source a model was trained on.
type SourceCount struct {
	Source               string
	Positives, Negatives int
}

// Fit is a trained model with how it was made.
type Fit struct {
	Model *lr.Model
	// Sources lists the rows trained on, by source, in first-seen order.
	Sources []SourceCount
	// OOF are the out-of-fold figures at the chosen thresholds.
	OOF OOF
	// Short is the short-message scorer (nil without chat rows), its
	// Raise the threshold chosen out of fold; ShortSources the rows it was
	// trained on and ShortOOF its out-of-fold figures by chat batch.
	Short        *lr.Model
	ShortSources []SourceCount
	ShortOOF     []BatchFigures
}

// BatchFigures are out-of-fold figures on one chat batch, scored by models
// that never saw it: crises caught and false crises by the floor with the
// post scorer alone (Before) and with the short scorer too (After).
type BatchFigures struct {
	Batch                string
	Positives, Negatives int
	Before, After        Counts
}

// Add adds o's rows and counts to f's (for a total over batches).
func (f *BatchFigures) Add(o BatchFigures) {
	f.Positives += o.Positives
	f.Negatives += o.Negatives
	f.Before.Caught += o.Before.Caught
	f.After.Caught += o.After.Caught
	f.Before.FalseCrises += o.Before.FalseCrises
	f.After.FalseCrises += o.After.FalseCrises
}

// Counts are crises caught and false crises.
type Counts struct{ Caught, FalseCrises int }

// OOF are out-of-fold figures of the full floor (rules and scorer) on the
// training rows at the chosen thresholds.
type OOF struct {
	// AddedFalseCrisis is the share of negative rows the scorer raised to
	// level 2 on negative-only sources, averaged over those sources.
	AddedFalseCrisis float64
	// Recall is the share of positive rows at level >= 2 (rules alone:
	// RulesRecall).
	Recall, RulesRecall float64
	// HighPrecision is the share of true crises among the rows the scorer
	// raised to level 3 (0 when it raised none).
	HighPrecision float64
}

// Fit trains the post scorer on the rows the recipe uses, with thresholds
// chosen from out-of-fold scores on those same rows, and, when rows hold
// chat sources, the short-message scorer beside it (see ShortRecipe).
// Training runs on workers goroutines (0 = GOMAXPROCS); the result does not
// depend on how many.
func (rc Recipe) Fit(ctx context.Context, rows []Row, workers int) (Fit, error) {
	used, counts := selectRows(rows, rc.Uses)
	if len(used) == 0 {
		return Fit{}, errors.New("fit: the recipe uses none of the rows")
	}
	var short []*Row
	var shortCounts []SourceCount
	if slices.ContainsFunc(rows, func(r Row) bool { return rc.Chat(&r) }) {
		short, shortCounts = selectRows(rows, rc.UsesShort)
	}
	folds := max(rc.Folds, 2)
	batchFold := rc.batchFolds(short, folds)
	shortFold := make([]int, len(short))
	for i, r := range short {
		shortFold[i] = rc.shortFold(r, batchFold, folds)
	}
	// Models 0..folds: the post scorer's folds out-of-fold models, then
	// the model on all; then the same for the short scorer.
	nPost, nShort := folds+1, 0
	if len(short) > 0 {
		nShort = folds + 1
	}
	models := make([]*lr.Model, nPost+nShort)
	errs := make([]error, nPost+nShort)
	err := parallel(ctx, nPost+nShort, workers, func(k int) {
		var ex []lr.Example
		if k < nPost {
			for _, r := range used {
				if k == folds || Fold(r.ID, folds) != k {
					ex = append(ex, lr.Example{Doc: r.Doc, Positive: r.Positive})
				}
			}
		} else {
			f := k - nPost
			for i, r := range short {
				if f == folds || shortFold[i] != f {
					w := float32(1)
					if rc.Chat(r) {
						w = rc.Short.ChatWeight
					}
					ex = append(ex, lr.Example{Doc: r.Doc, Positive: r.Positive, Weight: w})
				}
			}
		}
		opts := rc.Train
		if k >= nPost && rc.Short.Epochs > 0 {
			opts.Epochs = rc.Short.Epochs
		}
		models[k], errs[k] = lr.Train(ex, opts)
	})
	if err != nil {
		return Fit{}, fmt.Errorf("fit: %w", err)
	}
	if err := errors.Join(errs...); err != nil {
		return Fit{}, fmt.Errorf("fit: %w", err)
	}
	scores := make([]float64, len(used))
	err = parallel(ctx, len(used), workers, func(i int) {
		scores[i] = scoreIfNeeded(models[Fold(used[i].ID, folds)], used[i].Verdict)
	})
	if err != nil {
		return Fit{}, fmt.Errorf("fit: %w", err)
	}
	th, oof := rc.thresholds(used, scores)
	m := models[folds]
	m.Raise, m.High, m.Third = th.Raise, th.High, never
	fit := Fit{Model: m, Sources: counts, OOF: oof}
	if len(short) == 0 {
		return fit, nil
	}
	// The short scorer's threshold: each row's level with the post scorer
	// (out of fold for the rows it trains on; the chat rows it never sees
	// take the model on all), and its out-of-fold short score.
	postScore := make(map[*Row]float64, len(used))
	for i, r := range used {
		postScore[r] = scores[i]
	}
	postOf := func(r *Row) float64 {
		if ps, ok := postScore[r]; ok {
			return ps
		}
		return scoreIfNeeded(m, r.Verdict)
	}
	base, sScores, err := withShortScores(ctx, short, workers, th, postOf, func(i int) *lr.Model { return models[nPost+shortFold[i]] })
	if err != nil {
		return Fit{}, err
	}
	sm := models[nPost+folds]
	sth := rc.shortThresholds(short, base, sScores)
	// The file's three threshold slots hold the three short thresholds
	// (see safety.Thresholds.ShortFor).
	sm.Raise, sm.High, sm.Third = sth.Short, sth.ShortLong, sth.ShortParagraph
	fit.Short, fit.ShortSources = sm, shortCounts
	// The figures by batch count every chat row, also those the short
	// scorer does not train on (a crisis said after earlier messages),
	// each scored by the model whose fold left its batch out.
	var chat []*Row
	for i := range rows {
		if rc.Chat(&rows[i]) {
			chat = append(chat, &rows[i])
		}
	}
	cBase, cScores, err := withShortScores(ctx, chat, workers, th, func(r *Row) float64 { return scoreIfNeeded(m, r.Verdict) },
		func(i int) *lr.Model { return models[nPost+rc.shortFold(chat[i], batchFold, folds)] })
	if err != nil {
		return Fit{}, err
	}
	fit.ShortOOF = rc.batchFigures(chat, cBase, cScores, sth)
	return fit, nil
}

// scoreIfNeeded is m's score of the verdict's text, or -1 where no post
// score could change the verdict.
func scoreIfNeeded(m *lr.Model, v safety.RulesVerdict) float64 {
	if !v.NeedsScore() {
		return -1
	}
	return m.Score(v.ModelText)
}

// withShortScores returns each row's level with its post score (post:
// -1 for none) and its short score by the model short names for it (-1
// where the short scorer does not read the row), on workers goroutines.
func withShortScores(ctx context.Context, rows []*Row, workers int, th safety.Thresholds, post func(*Row) float64, short func(i int) *lr.Model) ([]safety.Level, []float64, error) {
	base := make([]safety.Level, len(rows))
	scores := make([]float64, len(rows))
	err := parallel(ctx, len(rows), workers, func(i int) {
		v := rows[i].Verdict
		base[i] = v.WithScore(post(rows[i]), th).Level
		scores[i] = -1
		if v.NeedsShortScore() {
			scores[i] = short(i).Score(v.ModelText)
		}
	})
	if err != nil {
		return nil, nil, fmt.Errorf("fit: %w", err)
	}
	return base, scores, nil
}

// selectRows returns the rows use accepts, with their counts by source in
// first-seen order.
func selectRows(rows []Row, use func(*Row) bool) ([]*Row, []SourceCount) {
	var out []*Row
	var counts []SourceCount
	at := map[string]int{}
	for i := range rows {
		r := &rows[i]
		if !use(r) {
			continue
		}
		out = append(out, r)
		k, ok := at[r.Source]
		if !ok {
			k = len(counts)
			at[r.Source] = k
			counts = append(counts, SourceCount{Source: r.Source})
		}
		if r.Positive {
			counts[k].Positives++
		} else {
			counts[k].Negatives++
		}
	}
	return out, counts
}

// shortFold is the short scorer's fold of r: a chat row's is its batch's
// (batchFolds), so that a batch is held out whole; any other row's is by
// its id, as the post scorer's.
func (rc Recipe) shortFold(r *Row, batchFold map[string]int, folds int) int {
	if rc.Chat(r) {
		return batchFold[Batch(r.ID)]
	}
	return Fold(r.ID, folds)
}

// batchFolds deals the chat batches of rows, in sorted order, round the
// folds.
func (rc Recipe) batchFolds(rows []*Row, folds int) map[string]int {
	var batches []string
	for _, r := range rows {
		if rc.Chat(r) && !slices.Contains(batches, Batch(r.ID)) {
			batches = append(batches, Batch(r.ID))
		}
	}
	slices.Sort(batches)
	out := make(map[string]int, len(batches))
	for i, b := range batches {
		out[b] = i % folds
	}
	return out
}

// shortThresholds are the short scorer's three thresholds (for messages
// under safety.ShortLongWords words, from it, and from
// safety.ShortParagraphWords): the triple on the grid that raises the most
// chat crises out of fold while, over the three bands together, it adds at
// most Short.Budget of the chat negatives as false crises, and at most
// Short.SourceBudget (or one row) of the rows of any negative-only source,
// a chat batch of ordinary messages (one with no crisis row) counting as a
// source of its own: everyday messages are most of what a chat bot reads.
// Among triples that raise as many, the higher thresholds win; never where
// none keeps the budgets.
func (rc Recipe) shortThresholds(rows []*Row, base []safety.Level, scores []float64) safety.Thresholds {
	// group is what a row's false crises count against: its source, or
	// its batch for a chat row.
	group := func(r *Row) string {
		if rc.Chat(r) {
			return "chat batch " + Batch(r.ID)
		}
		return r.Source
	}
	hasPos, negs := negativeOnly(rows, group)
	chatNegs := 0
	for _, r := range rows {
		if rc.Chat(r) && !r.Positive {
			chatNegs++
		}
	}
	// The budgets: the chat negatives (key "") and each negative-only
	// group.
	limit := map[string]int{"": int(rc.Short.Budget * float64(chatNegs))}
	for g, n := range negs {
		limit[g] = max(1, int(rc.Short.SourceBudget*float64(n)))
	}
	// counts[k][t] are, for the messages under (k = 0) or from (k = 1)
	// ShortLongWords words, the chat crises and each budget's false
	// crises raised at grid threshold t (a count at t includes every
	// higher score).
	type tally struct {
		caught int
		added  map[string]int
	}
	var counts [3][]tally
	for k := range counts {
		counts[k] = make([]tally, len(grid)+1) // the last: never
		for t := range counts[k] {
			counts[k][t].added = map[string]int{}
		}
	}
	for i, r := range rows {
		if scores[i] < 0 || base[i] >= safety.LevelIdeation {
			continue
		}
		if r.Positive && !rc.Chat(r) {
			continue
		}
		k := 0
		switch {
		case r.Verdict.Words >= safety.ShortParagraphWords:
			k = 2
		case r.Verdict.Words >= safety.ShortLongWords:
			k = 1
		}
		for t, g := range grid {
			if scores[i] < g {
				break
			}
			if r.Positive {
				counts[k][t].caught++
				continue
			}
			if rc.Chat(r) {
				counts[k][t].added[""]++
			}
			if grp := group(r); !hasPos[grp] {
				counts[k][t].added[grp]++
			}
		}
	}
	at := func(t int) float64 {
		if t == len(grid) {
			return never
		}
		return grid[t]
	}
	// Every triple on the grid: the budgets are shared across the bands.
	best := safety.Thresholds{Short: never, ShortLong: never, ShortParagraph: never}
	bestCaught, bestSum := -1, -1
	within := func(t [3]int) bool {
		for key, lim := range limit {
			n := 0
			for k := range counts {
				n += counts[k][t[k]].added[key]
			}
			if n > lim {
				return false
			}
		}
		return true
	}
	for t0 := range counts[0] {
		for t1 := range counts[1] {
			for t2 := range counts[2] {
				t := [3]int{t0, t1, t2}
				caught := counts[0][t0].caught + counts[1][t1].caught + counts[2][t2].caught
				if caught < bestCaught || (caught == bestCaught && t0+t1+t2 <= bestSum) || !within(t) {
					continue
				}
				best = safety.Thresholds{Short: at(t0), ShortLong: at(t1), ShortParagraph: at(t2)}
				bestCaught, bestSum = caught, t0+t1+t2
			}
		}
	}
	return best
}

// batchFigures are the out-of-fold figures of each chat batch at the
// short threshold t.
func (rc Recipe) batchFigures(rows []*Row, base []safety.Level, scores []float64, th safety.Thresholds) []BatchFigures {
	var out []BatchFigures
	at := map[string]int{}
	for i, r := range rows {
		if !rc.Chat(r) {
			continue
		}
		b := Batch(r.ID)
		k, ok := at[b]
		if !ok {
			k = len(out)
			at[b] = k
			out = append(out, BatchFigures{Batch: b})
		}
		f := &out[k]
		before := base[i] >= safety.LevelIdeation
		after := before || scores[i] >= th.ShortFor(r.Verdict.Words)
		if r.Positive {
			f.Positives++
			f.Before.Caught += b2i(before)
			f.After.Caught += b2i(after)
		} else {
			f.Negatives++
			f.Before.FalseCrises += b2i(before)
			f.After.FalseCrises += b2i(after)
		}
	}
	slices.SortFunc(out, func(a, b BatchFigures) int { return strings.Compare(a.Batch, b.Batch) })
	return out
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// never is a threshold no score reaches.
const never = 2

// grid is the thresholds tried, lowest first.
var grid = func() []float64 {
	var g []float64
	for t := 50; t <= 99; t++ {
		g = append(g, float64(t)/100)
	}
	return g
}()

// thresholds chooses Raise and High from out-of-fold scores (-1 where the
// verdict needs no score).
func (rc Recipe) thresholds(rows []*Row, scores []float64) (safety.Thresholds, OOF) {
	hasPos, negs := negativeOnly(rows, func(r *Row) string { return r.Source })
	eval := func(th safety.Thresholds) OOF {
		var pos, caught, rulesCaught, high, highTrue int
		added := map[string]int{}
		for i, r := range rows {
			lv := r.Verdict.Level
			if scores[i] >= 0 {
				lv = r.Verdict.WithScore(scores[i], th).Level
			}
			if r.Positive {
				pos++
				if lv >= safety.LevelIdeation {
					caught++
				}
				if r.Verdict.Level >= safety.LevelIdeation {
					rulesCaught++
				}
			} else if !hasPos[r.Source] && lv >= safety.LevelIdeation && r.Verdict.Level < safety.LevelIdeation {
				added[r.Source]++
			}
			if lv == safety.LevelImminent && r.Verdict.Level < safety.LevelImminent {
				high++
				if r.Positive {
					highTrue++
				}
			}
		}
		o := OOF{Recall: ratio(caught, pos), RulesRecall: ratio(rulesCaught, pos), HighPrecision: ratio(highTrue, high)}
		// Sum in a fixed order: the result must not depend on map order.
		srcs := slices.Sorted(maps.Keys(negs))
		for _, s := range srcs {
			o.AddedFalseCrisis += ratio(added[s], negs[s]) / float64(len(srcs))
		}
		return o
	}
	th := safety.Thresholds{Raise: never, High: never}
	for _, t := range grid {
		if o := eval(safety.Thresholds{Raise: t, High: never}); o.AddedFalseCrisis <= rc.RaiseBudget {
			th.Raise = t
			break
		}
	}
	for _, t := range grid {
		if t < th.Raise {
			continue
		}
		o := eval(safety.Thresholds{Raise: th.Raise, High: t})
		if o.HighPrecision >= rc.HighPrecision || o.HighPrecision == 0 {
			th.High = t
			break
		}
	}
	return th, eval(th)
}

// negativeOnly groups rows by group: hasPos holds the groups with a
// positive row, negs the row counts of the others (the negative-only
// groups, whose false crises the thresholds budget).
func negativeOnly(rows []*Row, group func(*Row) string) (hasPos map[string]bool, negs map[string]int) {
	hasPos, negs = map[string]bool{}, map[string]int{}
	for _, r := range rows {
		if r.Positive {
			hasPos[group(r)] = true
		}
	}
	for _, r := range rows {
		if g := group(r); !hasPos[g] {
			negs[g]++
		}
	}
	return hasPos, negs
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Fold is the fold (0 <= f < k) of a row id: a hash, so a row keeps its
// fold whatever other rows are present.
func Fold(id string, k int) int {
	h := fnv.New32a()
	h.Write([]byte(id))
	return int(h.Sum32() % uint32(k))
}

// parallel runs f(0..n-1) on workers goroutines (0 = GOMAXPROCS) and waits
// for them; it stops handing out work when ctx ends.
func parallel(ctx context.Context, n, workers int, f func(i int)) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, max(n, 1))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	var err error
	for i := 0; i < n; i++ {
		if err = ctx.Err(); err != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	return err
}

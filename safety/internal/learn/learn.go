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
	"runtime"
	"slices"
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
}

// DefaultRecipe is the recipe of the shipped model. Its data choices were
// made by leave-one-source-out measurement (see safety/MODEL.md): each
// leaves held-out distress sources at about the same false-crisis rate
// and raises held-out recall.
//   - goemotions-neg is not trained on: 48,000 everyday comments teach
//     "emotional or not" more than "crisis or distress", so the thresholds
//     that keep distress posts out must rise and recall falls.
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
	}
}

// Uses reports whether the recipe trains on r.
func (rc Recipe) Uses(r *Row) bool {
	if slices.Contains(rc.DropSources, r.Source) {
		return false
	}
	return r.Positive || !slices.Contains(rc.DropNegatives, r.Source)
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
}

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

// Fit trains a model on the rows the recipe uses, with thresholds chosen
// from out-of-fold scores on those same rows. Training runs on workers
// goroutines (0 = GOMAXPROCS); the result does not depend on how many.
func (rc Recipe) Fit(ctx context.Context, rows []Row, workers int) (Fit, error) {
	var used []*Row
	var counts []SourceCount
	at := map[string]int{}
	for i := range rows {
		r := &rows[i]
		if !rc.Uses(r) {
			continue
		}
		used = append(used, r)
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
	if len(used) == 0 {
		return Fit{}, errors.New("fit: the recipe uses none of the rows")
	}
	folds := max(rc.Folds, 2)
	// Model folds..0: folds out-of-fold models, then the model on all.
	models := make([]*lr.Model, folds+1)
	errs := make([]error, folds+1)
	err := parallel(ctx, folds+1, workers, func(f int) {
		var ex []lr.Example
		for _, r := range used {
			if f == folds || Fold(r.ID, folds) != f {
				ex = append(ex, lr.Example{Doc: r.Doc, Positive: r.Positive})
			}
		}
		models[f], errs[f] = lr.Train(ex, rc.Train)
	})
	if err != nil {
		return Fit{}, fmt.Errorf("fit: %w", err)
	}
	if err := errors.Join(errs...); err != nil {
		return Fit{}, fmt.Errorf("fit: %w", err)
	}
	scores := make([]float64, len(used))
	err = parallel(ctx, len(used), workers, func(i int) {
		r := used[i]
		scores[i] = -1
		if r.Verdict.NeedsScore() {
			scores[i] = models[Fold(r.ID, folds)].Score(r.Verdict.ModelText)
		}
	})
	if err != nil {
		return Fit{}, fmt.Errorf("fit: %w", err)
	}
	th, oof := rc.thresholds(used, scores)
	m := models[folds]
	m.Raise, m.High = th.Raise, th.High
	return Fit{Model: m, Sources: counts, OOF: oof}, nil
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
	hasPos := map[string]bool{}
	for _, r := range rows {
		if r.Positive {
			hasPos[r.Source] = true
		}
	}
	negs := map[string]int{}
	for _, r := range rows {
		if !hasPos[r.Source] {
			negs[r.Source]++
		}
	}
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

package crisiseval

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/havenbot/haven/safety"
	"github.com/havenbot/haven/safety/internal/learn"
)

// SourceResult is one source left out: the figures of the rules alone and
// of the full floor (the rules joined by a model trained without this
// source) on its rows.
type SourceResult struct {
	Source string `json:"source"`
	// Rules and Full are the figures on the left-out rows.
	Rules Result `json:"rules"`
	Full  Result `json:"full"`
	// Thresholds were chosen out of fold on the other sources (Short: the
	// short-message scorer's, 2 without chat sources).
	Thresholds safety.Thresholds `json:"thresholds"`
	// TrainRows is how many rows the fold's model was trained on.
	TrainRows int `json:"train_rows"`
}

// LOSOReport is a leave-one-source-out evaluation.
type LOSOReport struct {
	Sources []SourceResult `json:"sources"`
}

// SourceName is the source a data file stands for: its base name without
// the .jsonl extension.
func SourceName(path string) string {
	return strings.TrimSuffix(filepath.Base(path), ".jsonl")
}

// LOSO evaluates the crisis floor's generalization: each file is a source;
// for each, a model is trained by the shipped recipe on every other source
// (thresholds chosen out of fold on those), and the full floor (rules and
// that model) is measured on the source left out, beside the rules alone.
// Training runs on workers goroutines (0 = GOMAXPROCS). It never prints
// text; progress (source names) goes to progress when it is not nil.
func LOSO(ctx context.Context, paths []string, workers int, progress io.Writer) (LOSOReport, error) {
	if len(paths) < 2 {
		return LOSOReport{}, fmt.Errorf("loso: need at least two source files, got %d", len(paths))
	}
	var all []Row
	var texts []learn.Labelled
	var sources []string
	seen := map[string]bool{}
	for _, p := range paths {
		src := SourceName(p)
		if seen[src] {
			return LOSOReport{}, fmt.Errorf("loso: two files are named %s: a source must be one file", src)
		}
		seen[src] = true
		sources = append(sources, src)
		rows, err := ReadRows(p)
		if err != nil {
			return LOSOReport{}, fmt.Errorf("loso: %w", err)
		}
		for i, r := range rows {
			id := r.ID
			if id == "" {
				id = fmt.Sprintf("%s:%d", src, i+1)
			}
			all = append(all, r)
			texts = append(texts, learn.Labelled{ID: id, Source: src, Positive: r.Positive(),
				Input: safety.Input{Text: r.Text, History: r.History, AskedSafetyQuestion: r.AskedSafetyQuestion}})
		}
	}
	prepared, err := learn.Prepare(ctx, safety.NewFloorWith(safety.FloorOptions{}), texts, workers)
	if err != nil {
		return LOSOReport{}, fmt.Errorf("loso: %w", err)
	}
	rc := learn.DefaultRecipe()
	var rep LOSOReport
	for _, src := range sources {
		if rc.ChatSource(src) {
			// Chat sources train the short-message scorer in every fold;
			// their own held-out figures are by batch (see the training
			// command), not by source.
			continue
		}
		if progress != nil {
			fmt.Fprintf(progress, "loso: leaving out %s\n", src)
		}
		var train []learn.Row
		var test []int
		for i := range prepared {
			if prepared[i].Source == src {
				test = append(test, i)
			} else {
				train = append(train, prepared[i])
			}
		}
		fit, err := rc.Fit(ctx, train, workers)
		if err != nil {
			return LOSOReport{}, fmt.Errorf("loso: leaving out %s: %w", src, err)
		}
		th := safety.Thresholds{Raise: fit.Model.Raise, High: fit.Model.High, Short: 2, ShortLong: 2, ShortParagraph: 2}
		if fit.Short != nil {
			th.Short, th.ShortLong, th.ShortParagraph = fit.Short.Thresholds()
		}
		sr := SourceResult{
			Source:     src,
			Rules:      Result{Name: src, Confusion: map[string][4]int{}},
			Full:       Result{Name: src, Confusion: map[string][4]int{}},
			Thresholds: th,
		}
		for _, c := range fit.Sources {
			sr.TrainRows += c.Positives + c.Negatives
		}
		var short safety.Scorer // a nil *lr.Model would be a non-nil Scorer
		if fit.Short != nil {
			short = fit.Short
		}
		for _, i := range test {
			v := prepared[i].Verdict
			full := v.Scored(fit.Model, short, th).Level
			add(&sr.Rules, all[i], v.Level)
			add(&sr.Full, all[i], full)
		}
		rep.Sources = append(rep.Sources, sr)
	}
	return rep, nil
}

// WriteLOSO prints the leave-one-source-out table: per source left out, its
// rows; then, for the rules alone and for the rules with that fold's model,
// recall at level >= 2 (sources with crisis rows), the false-crisis rate
// (sources with other rows) and the share of level-3 rows put at 3 (sources
// with levels); and the fold's thresholds.
func WriteLOSO(w io.Writer, rep LOSOReport) error {
	var b strings.Builder
	fmt.Fprintf(&b, "leave one source out: the model of each row is trained without that source\n")
	fmt.Fprintf(&b, "%-28s %6s %6s %6s | %-24s | %-24s | %s\n", "source left out", "rows", "crisis", "other",
		"rules: recall    fc  L3@3", "+model: recall    fc  L3@3", "raise  high short  long  para")
	for _, s := range rep.Sources {
		fmt.Fprintf(&b, "%-28s %6d %6d %6d | %13s %5s %5s | %14s %5s %5s | %5.2f %5.2f %5.2f %5.2f %5.2f\n", s.Source, s.Rules.Rows,
			s.Rules.Positives, s.Rules.Negatives,
			fig(s.Rules.Positives > 0, s.Rules.Recall()), fig(s.Rules.Negatives > 0, s.Rules.FalseCrisisRate()),
			fig(s.Rules.Level3 > 0, s.Rules.Level3At3()),
			fig(s.Full.Positives > 0, s.Full.Recall()), fig(s.Full.Negatives > 0, s.Full.FalseCrisisRate()),
			fig(s.Full.Level3 > 0, s.Full.Level3At3()),
			s.Thresholds.Raise, s.Thresholds.High, s.Thresholds.Short, s.Thresholds.ShortLong, s.Thresholds.ShortParagraph)
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write loso report: %w", err)
	}
	return nil
}

func fig(ok bool, x float64) string {
	if !ok {
		return "-"
	}
	return fmt.Sprintf("%.3f", x)
}

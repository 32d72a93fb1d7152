package learn

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/havenbot/haven/safety"
)

// synthetic returns labelled texts written for the test: two mixed sources
// and a negative-only one.
func synthetic() []Labelled {
	pos := []string{"i want to die", "i wish i was dead", "i cant go on living", "no reason to live anymore", "i want to end my life"}
	neg := []string{"i want pizza tonight", "my exam went well", "i love my dog", "how do i fix my bike", "work was busy today"}
	calm := []string{"the train was late again", "i baked bread this morning", "my sister visits on sunday"}
	var out []Labelled
	for i := 0; i < 12; i++ {
		for j, p := range pos {
			src := []string{"forum", "tweets"}[j%2]
			out = append(out, Labelled{ID: fmt.Sprintf("p%d-%d", i, j), Source: src, Positive: true, Input: safety.Input{Text: fmt.Sprintf("%s and day %d", p, i)}})
		}
		for j, n := range neg {
			src := []string{"forum", "tweets"}[j%2]
			out = append(out, Labelled{ID: fmt.Sprintf("n%d-%d", i, j), Source: src, Input: safety.Input{Text: fmt.Sprintf("%s and day %d", n, i)}})
		}
		for j, c := range calm {
			out = append(out, Labelled{ID: fmt.Sprintf("c%d-%d", i, j), Source: "calm", Input: safety.Input{Text: fmt.Sprintf("%s on day %d", c, i)}})
		}
	}
	return out
}

func prepare(t *testing.T, texts []Labelled) []Row {
	t.Helper()
	rows, err := Prepare(context.Background(), safety.NewFloorWith(safety.FloorOptions{}), texts, 2)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestPrepareKeepsOrderAndReadsTheRules(t *testing.T) {
	texts := synthetic()
	rows := prepare(t, texts)
	for i, r := range rows {
		if r.ID != texts[i].ID || r.Source != texts[i].Source || r.Positive != texts[i].Positive {
			t.Fatalf("row %d is %s/%s, want %s/%s", i, r.Source, r.ID, texts[i].Source, texts[i].ID)
		}
		if len(r.Doc.IDs) == 0 {
			t.Fatalf("row %d has no features", i)
		}
	}
	if rows[0].Verdict.Level < safety.LevelIdeation {
		t.Errorf("the rules' verdict on a clear wish to die is %d", rows[0].Verdict.Level)
	}
}

func TestFitIsDeterministicWhateverTheWorkers(t *testing.T) {
	rows := prepare(t, synthetic())
	rc := DefaultRecipe()
	a, err := rc.Fit(context.Background(), rows, 1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := rc.Fit(context.Background(), rows, 3)
	if err != nil {
		t.Fatal(err)
	}
	da, _ := a.Model.MarshalBinary()
	db, _ := b.Model.MarshalBinary()
	if !bytes.Equal(da, db) {
		t.Error("the model depends on the number of workers")
	}
	if a.OOF != b.OOF {
		t.Errorf("out-of-fold figures differ: %+v and %+v", a.OOF, b.OOF)
	}
	if len(a.Sources) != 3 || a.Sources[0].Source != "forum" || a.Sources[2].Source != "calm" || a.Sources[2].Positives != 0 {
		t.Errorf("sources %+v", a.Sources)
	}
}

func TestRecipeUsesRowsByItsDataChoices(t *testing.T) {
	rc := Recipe{DropSources: []string{"everyday"}, DropNegatives: []string{"noisy"}}
	cases := []struct {
		row  Row
		want bool
	}{
		{Row{Source: "everyday"}, false},
		{Row{Source: "everyday", Positive: true}, false},
		{Row{Source: "noisy"}, false},
		{Row{Source: "noisy", Positive: true}, true},
		{Row{Source: "forum"}, true},
	}
	for _, c := range cases {
		if got := rc.Uses(&c.row); got != c.want {
			t.Errorf("Uses(%s positive=%v) = %v, want %v", c.row.Source, c.row.Positive, got, c.want)
		}
	}
	if _, err := rc.Fit(context.Background(), []Row{{Source: "everyday"}}, 1); err == nil || !strings.Contains(err.Error(), "none of the rows") {
		t.Errorf("Fit with no usable row: %v", err)
	}
}

// quiet is a verdict the rules are unsure of; cue adds a time or a means.
func quiet(cue bool) safety.RulesVerdict {
	return safety.RulesVerdict{Assessment: safety.Assessment{Level: 0}, ModelText: "i x", MayRaise: true, MayRaiseImminent: cue, Cue: cue}
}

func TestThresholdsComeFromTheBudgetAndThePrecision(t *testing.T) {
	var rows []*Row
	var scores []float64
	add := func(src string, pos bool, v safety.RulesVerdict, s float64) {
		rows = append(rows, &Row{Source: src, Positive: pos, Verdict: v})
		scores = append(scores, s)
	}
	// Negative-only source A: three rows score high; B: none does.
	for _, s := range []float64{0.95, 0.75, 0.6, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1} {
		add("a", false, quiet(false), s)
	}
	for range 10 {
		add("b", false, quiet(false), 0.1)
	}
	// A mixed source: crises with cues score 0.97 and 0.99, a calm row
	// with a cue 0.96.
	add("mixed", true, quiet(true), 0.97)
	add("mixed", true, quiet(true), 0.99)
	add("mixed", false, quiet(true), 0.96)
	rc := Recipe{RaiseBudget: 0.05, HighPrecision: 0.98}
	th, oof := rc.thresholds(rows, scores)
	// Raise: added false crises averaged over a and b: 3/10/2 at <= 0.60,
	// 2/10/2 up to 0.75, 1/10/2 = 0.05 from 0.76.
	if th.Raise != 0.76 {
		t.Errorf("raise = %.2f, want 0.76", th.Raise)
	}
	// High: at <= 0.96 two of three level-3 raises are crises; from 0.97
	// all are.
	if th.High != 0.97 {
		t.Errorf("high = %.2f, want 0.97", th.High)
	}
	if oof.AddedFalseCrisis != 0.05 || oof.Recall != 1 || oof.RulesRecall != 0 || oof.HighPrecision != 1 {
		t.Errorf("out-of-fold figures %+v", oof)
	}
	// A budget nothing meets: never raise.
	rc.RaiseBudget = -1
	if th, _ := rc.thresholds(rows, scores); th.Raise != never || th.High != never {
		t.Errorf("unreachable budget gave %+v, want never", th)
	}
}

func TestFoldIsAStableHashOfTheID(t *testing.T) {
	counts := make([]int, 5)
	for i := range 1000 {
		id := fmt.Sprintf("row-%d", i)
		f := Fold(id, 5)
		if f != Fold(id, 5) {
			t.Fatal("a row changes fold")
		}
		counts[f]++
	}
	for f, n := range counts {
		if n < 150 || n > 250 {
			t.Errorf("fold %d holds %d of 1000 rows", f, n)
		}
	}
}

func TestPrepareStopsWhenTheContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Prepare(ctx, safety.NewFloorWith(safety.FloorOptions{}), synthetic(), 1); err == nil {
		t.Error("Prepare ran on after its context ended")
	}
}

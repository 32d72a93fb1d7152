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

// fitOnOneAndThreeWorkers fits rc on rows twice, on one worker and on
// three, for the tests that the result does not depend on them.
func fitOnOneAndThreeWorkers(t *testing.T, rc Recipe, rows []Row) (a, b Fit) {
	t.Helper()
	a, err := rc.Fit(context.Background(), rows, 1)
	if err != nil {
		t.Fatal(err)
	}
	if b, err = rc.Fit(context.Background(), rows, 3); err != nil {
		t.Fatal(err)
	}
	return a, b
}

func TestFitIsDeterministicWhateverTheWorkers(t *testing.T) {
	a, b := fitOnOneAndThreeWorkers(t, DefaultRecipe(), prepare(t, synthetic()))
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

func TestBatchIsReadFromAChatRowID(t *testing.T) {
	for id, want := range map[string]string{
		"chat-crisis-slang-01":     "t1",
		"chat-neg-t5-idiom-03":     "t5",
		"chat-crisis-t12-plan-01":  "t12",
		"chat-crisis-w10-slang-11": "w10",
		"chat-neg-w13-plans-40":    "w13",
		"chat-neg-tw-01":           "t1",
	} {
		if got := Batch(id); got != want {
			t.Errorf("Batch(%q) = %q, want %q", id, got, want)
		}
	}
}

// chatRows are synthetic chat batches (two writers' worth each) beside the
// synthetic posts: short crisis messages and short ordinary ones.
func chatRows() []Labelled {
	pos := []string{"honestly i just want to not exist", "i keep thinking about ending it", "done with all of it for good", "not gonna be around much longer"}
	neg := []string{"honestly i just want a nap", "i keep thinking about that film", "done with my essay for good", "not gonna be around this weekend"}
	var out []Labelled
	for b, batch := range []string{"t1x", "t2", "w10", "w11"} {
		for i := range 4 {
			for j := range pos {
				id := fmt.Sprintf("chat-crisis-%s-k-%d%d", batch, i, j)
				out = append(out, Labelled{ID: id, Source: "chat-writers", Positive: true, Input: safety.Input{Text: fmt.Sprintf("%s %d", pos[j], b*10+i)}})
				id = fmt.Sprintf("chat-neg-%s-k-%d%d", batch, i, j)
				out = append(out, Labelled{ID: id, Source: "chat-writers", Input: safety.Input{Text: fmt.Sprintf("%s %d", neg[j], b*10+i)}})
			}
		}
	}
	return out
}

func TestFitTrainsTheShortScorerOnlyWithChatRows(t *testing.T) {
	rc := DefaultRecipe()
	posts, err := rc.Fit(context.Background(), prepare(t, synthetic()), 2)
	if err != nil {
		t.Fatal(err)
	}
	if posts.Short != nil || posts.ShortOOF != nil {
		t.Error("a short scorer without chat rows")
	}
	rows := prepare(t, append(synthetic(), chatRows()...))
	a, b := fitOnOneAndThreeWorkers(t, rc, rows)
	if a.Short == nil {
		t.Fatal("no short scorer with chat rows")
	}
	// The post scorer never trains on chat rows: the same model as without
	// them.
	dp, _ := posts.Model.MarshalBinary()
	da, _ := a.Model.MarshalBinary()
	if !bytes.Equal(dp, da) {
		t.Error("chat rows changed the post scorer")
	}
	sa, _ := a.Short.MarshalBinary()
	sb, _ := b.Short.MarshalBinary()
	if !bytes.Equal(sa, sb) {
		t.Error("the short scorer depends on the number of workers")
	}
	if a.Short.High != never {
		t.Errorf("the short scorer's high threshold is %.2f: it must never make level 3", a.Short.High)
	}
	// Out-of-fold figures by batch, in order, counting every chat row.
	var batches []string
	n := 0
	for _, f := range a.ShortOOF {
		batches = append(batches, f.Batch)
		n += f.Positives + f.Negatives
		if f.After.Caught < f.Before.Caught || f.After.FalseCrises < f.Before.FalseCrises {
			t.Errorf("batch %s: the short scorer lowered a verdict: %+v", f.Batch, f)
		}
	}
	if strings.Join(batches, " ") != "t1 t2 w10 w11" || n != 128 {
		t.Errorf("batches %v with %d rows, want t1 t2 w10 w11 and 128", batches, n)
	}
	var chat, posts2 int
	for _, c := range a.ShortSources {
		if c.Source == "chat-writers" {
			chat = c.Positives + c.Negatives
		} else {
			posts2 += c.Positives + c.Negatives
		}
	}
	if chat != 128 || posts2 == 0 {
		t.Errorf("short scorer trained on %d chat rows and %d others, want 128 and the posts", chat, posts2)
	}
}

func TestShortThresholdsCatchTheMostWithinTheBudgets(t *testing.T) {
	rc := Recipe{Short: ShortRecipe{ChatSources: []string{"chat"}}}
	var rows []*Row
	var base []safety.Level
	var scores []float64
	add := func(id, src string, pos bool, lv safety.Level, s float64) {
		rows = append(rows, &Row{ID: id, Source: src, Positive: pos, Verdict: safety.RulesVerdict{Short: true, Words: 5}})
		base = append(base, lv)
		scores = append(scores, s)
	}
	// A chat batch: five crises and ten negatives, two of which score
	// high (0.9, 0.8).
	for i, s := range []float64{0.95, 0.85, 0.75, 0.65, 0.55} {
		add(fmt.Sprintf("chat-crisis-w10-x-%d", i), "chat", true, 0, s)
	}
	for i, s := range []float64{0.9, 0.8, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1} {
		add(fmt.Sprintf("chat-neg-w10-x-%d", i), "chat", false, 0, s)
	}
	// A negative-only source: two of ten at 0.85 and 0.7, one already a
	// crisis by the rules (not the scorer's to count) at 0.99.
	for i, s := range []float64{0.85, 0.7, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1} {
		add(fmt.Sprintf("calm-%d", i), "calm", false, 0, s)
	}
	add("calm-9", "calm", false, safety.LevelIdeation, 0.99)
	cases := []struct {
		name                 string
		budget, sourceBudget float64
		want                 float64
	}{
		{"one chat negative of ten: two crises, at the highest threshold that catches them", 0.1, 0.1, 0.85},
		{"one row of a source is always allowed", 0.1, 0, 0.85},
		{"no room on chat: the crisis above 0.90", 0, 0.1, 0.95},
		{"room on chat, one row of calm: three crises", 1, 0, 0.75},
		{"room everywhere: every crisis", 1, 1, 0.55},
	}
	for _, c := range cases {
		rc.Short.Budget, rc.Short.SourceBudget = c.budget, c.sourceBudget
		got := rc.shortThresholds(rows, base, scores)
		if got.Short != c.want || got.ShortLong != never || got.ShortParagraph != never {
			t.Errorf("%s: thresholds %.2f / %.2f / %.2f, want %.2f / never / never (no message of %d words or more)", c.name, got.Short, got.ShortLong, got.ShortParagraph, c.want, safety.ShortLongWords)
		}
	}
	rc.Short.Budget = -1
	if got := rc.shortThresholds(rows, base, scores); got.Short != never || got.ShortLong != never {
		t.Errorf("an unreachable budget gave %+v, want never", got)
	}
}

func TestShortThresholdsSplitByLengthAndCountOrdinaryBatchesAsSources(t *testing.T) {
	rc := Recipe{Short: ShortRecipe{ChatSources: []string{"chat"}, Budget: 1, SourceBudget: 0}}
	var rows []*Row
	var base []safety.Level
	var scores []float64
	add := func(id string, pos bool, words int, s float64) {
		rows = append(rows, &Row{ID: id, Source: "chat", Positive: pos, Verdict: safety.RulesVerdict{Short: true, Words: words}})
		base = append(base, 0)
		scores = append(scores, s)
	}
	few, more, para := 5, safety.ShortLongWords, safety.ShortParagraphWords
	// A batch with crises: its negatives count only against Budget.
	add("chat-crisis-w10-a-1", true, few, 0.9)
	add("chat-crisis-w10-a-2", true, few, 0.8)
	add("chat-crisis-w10-b-1", true, more, 0.7)
	add("chat-crisis-w10-b-2", true, more, 0.65)
	add("chat-neg-w10-a-1", false, few, 0.99)
	// An ordinary batch may get one false crisis in all: at 0.85 (few
	// words), at 0.75 (few) and at 0.6 (more).
	add("chat-neg-w13-a-1", false, few, 0.85)
	add("chat-neg-w13-a-2", false, few, 0.75)
	add("chat-neg-w13-b-1", false, more, 0.6)
	add("chat-neg-w13-b-2", false, more, 0.1)
	// A paragraph: one crisis at 0.6 and one ordinary row at 0.5, whose
	// batch has spent its one row on few words.
	add("chat-crisis-w10-c-1", true, para, 0.6)
	add("chat-neg-w13-c-1", false, para, 0.5)
	// Few words: 0.80 catches both crises and one ordinary row; more:
	// 0.65 catches both and none; a paragraph: 0.60 catches its crisis
	// and stays above the ordinary row.
	got := rc.shortThresholds(rows, base, scores)
	if got.Short != 0.80 || got.ShortLong != 0.65 || got.ShortParagraph != 0.60 {
		t.Errorf("thresholds %.2f / %.2f / %.2f, want 0.80 / 0.65 / 0.60", got.Short, got.ShortLong, got.ShortParagraph)
	}
}

func TestShortScorerSkipsACrisisSaidAfterEarlierMessages(t *testing.T) {
	rc := DefaultRecipe()
	cases := []struct {
		row  Row
		want bool
	}{
		{Row{Source: "chat-writers", Positive: true}, true},
		{Row{Source: "chat-writers", Positive: true, Window: true}, false},
		{Row{Source: "chat-writers", Window: true}, true},
		{Row{Source: "goemotions-neg"}, true},
		{Row{Source: "kaggle-suicidewatch-sample", Positive: true}, true},
	}
	for _, c := range cases {
		if got := rc.UsesShort(&c.row); got != c.want {
			t.Errorf("UsesShort(%s positive=%v window=%v) = %v, want %v", c.row.Source, c.row.Positive, c.row.Window, got, c.want)
		}
	}
	if rc.Uses(&Row{Source: "chat-writers", Positive: true}) || rc.Uses(&Row{Source: "goemotions-neg"}) {
		t.Error("the post scorer trains on chat or everyday rows")
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

package crisiseval

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

func TestReadRowsTakesTheTrainingCorpusLabels(t *testing.T) {
	p := writeFile(t, "corpus.jsonl", []string{
		`{"id":"a","text":"I want to die","crisis":true,"source":"x"}`,
		`{"id":"b","text":"nice weather","crisis":false,"source":"x"}`,
		`{"id":"c","text":"I am a bit low","max_level":1}`,
		`{"id":"d","text":"hmm","max_level":2}`,
	})
	rows, err := ReadRows(p)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ pos, neg bool }{{true, false}, {false, true}, {false, true}, {false, false}}
	for i, w := range want {
		if rows[i].Positive() != w.pos || rows[i].Negative() != w.neg {
			t.Errorf("row %s: positive %v negative %v, want %v %v", rows[i].ID, rows[i].Positive(), rows[i].Negative(), w.pos, w.neg)
		}
	}
}

// losoSources writes three small sources with synthetic rows: two with
// crises and calm rows, one with calm rows only.
func losoSources(t *testing.T) []string {
	t.Helper()
	pos := []string{"I want to die", "I wish I was dead", "I can't go on living", "there is no reason to live anymore"}
	neg := []string{"I want pizza", "my exam went well", "I love my dog", "how do I fix my bike"}
	var a, b, c []string
	for i := 0; i < 8; i++ {
		for j, p := range pos {
			a = append(a, fmt.Sprintf(`{"id":"a%d-%d","text":"%s, day %d","crisis":true}`, i, j, p, i))
			b = append(b, fmt.Sprintf(`{"id":"b%d-%d","text":"%s and day %d","level":%d}`, i, j, p, i, 2+j%2))
		}
		for j, n := range neg {
			a = append(a, fmt.Sprintf(`{"id":"an%d-%d","text":"%s, day %d","crisis":false}`, i, j, n, i))
			b = append(b, fmt.Sprintf(`{"id":"bn%d-%d","text":"%s and day %d","level":0}`, i, j, n, i))
			c = append(c, fmt.Sprintf(`{"id":"c%d-%d","text":"%s on day %d","max_level":1}`, i, j, n, i))
		}
	}
	return []string{writeFile(t, "alpha.jsonl", a), writeFile(t, "beta.jsonl", b), writeFile(t, "gamma.jsonl", c)}
}

func TestLOSOMeasuresEachSourceWithAModelTrainedWithoutIt(t *testing.T) {
	rep, err := LOSO(context.Background(), losoSources(t), 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Sources) != 3 {
		t.Fatalf("%d sources, want 3", len(rep.Sources))
	}
	for _, s := range rep.Sources {
		if s.Rules.Rows != s.Full.Rows || s.Rules.Rows == 0 {
			t.Errorf("%s: rules measured %d rows, full %d", s.Source, s.Rules.Rows, s.Full.Rows)
		}
		if s.Full.Caught < s.Rules.Caught || s.Full.FalseCrisis < s.Rules.FalseCrisis {
			t.Errorf("%s: the model lowered a verdict: rules %+v full %+v", s.Source, s.Rules, s.Full)
		}
		if s.Thresholds.Raise <= 0 || s.Thresholds.High < s.Thresholds.Raise {
			t.Errorf("%s: thresholds %+v", s.Source, s.Thresholds)
		}
	}
	// Each fold trains on the other two sources only.
	if got := rep.Sources[2].TrainRows; got != 128 {
		t.Errorf("gamma's fold trained on %d rows, want 128 (alpha and beta)", got)
	}
	if rep.Sources[1].Full.Level3 != 16 {
		t.Errorf("beta: %d level-3 rows, want 16", rep.Sources[1].Full.Level3)
	}
	var b strings.Builder
	if err := WriteLOSO(&b, rep); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"source left out", "alpha", "beta", "gamma", "rules: recall", "+model: recall"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
	if strings.Contains(b.String(), "want to die") || strings.Contains(b.String(), "pizza") {
		t.Error("the table prints message text")
	}
}

func TestLOSOKeepsChatSourcesInEveryFoldsShortScorer(t *testing.T) {
	var rows []string
	for _, batch := range []string{"w10", "w11"} {
		for i := range 6 {
			rows = append(rows,
				fmt.Sprintf(`{"id":"chat-crisis-%s-k-%02d","text":"not gonna be around much longer %d","level":2}`, batch, i, i),
				fmt.Sprintf(`{"id":"chat-neg-%s-k-%02d","text":"not gonna be around this weekend %d","max_level":0}`, batch, i, i))
		}
	}
	chat := writeFile(t, "chat-writers.jsonl", rows)
	rep, err := LOSO(context.Background(), append(losoSources(t), chat), 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Sources) != 3 {
		t.Fatalf("%d sources left out, want the 3 post sources (a chat source is never left out)", len(rep.Sources))
	}
	for _, s := range rep.Sources {
		if s.Source == "chat-writers" {
			t.Errorf("the chat source was left out")
		}
		if s.Thresholds.Short <= 0 || s.Thresholds.ShortLong <= 0 {
			t.Errorf("%s: short thresholds %+v, want the fold's short scorer's", s.Source, s.Thresholds)
		}
		if s.Full.Caught < s.Rules.Caught || s.Full.FalseCrisis < s.Rules.FalseCrisis {
			t.Errorf("%s: a scorer lowered a verdict: rules %+v full %+v", s.Source, s.Rules, s.Full)
		}
	}
}

func TestLOSORejectsTooFewOrClashingSources(t *testing.T) {
	src := losoSources(t)
	if _, err := LOSO(context.Background(), src[:1], 1, nil); err == nil || !strings.Contains(err.Error(), "at least two") {
		t.Errorf("one source: %v", err)
	}
	twin := writeFile(t, "alpha.jsonl", []string{`{"id":"z","text":"x","crisis":false}`})
	if _, err := LOSO(context.Background(), []string{src[0], twin}, 1, nil); err == nil || !strings.Contains(err.Error(), "two files are named alpha") {
		t.Errorf("clashing names: %v", err)
	}
}

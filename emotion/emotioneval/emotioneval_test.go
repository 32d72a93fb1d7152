package emotioneval

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/havenbot/haven/emotion"
)

func TestReadTSVNamesTheBadLine(t *testing.T) {
	cases := []struct {
		name, data, want string
	}{
		{"no tab", "just text\n", "line 1: want text, a tab and label ids"},
		{"id out of range", "ok\t3\ta\nfine\t28\tb\n", `line 2: label id "28"`},
		{"not a number", "ok\tjoy\ta\n", `label id "joy"`},
		{"empty", "\n\n", "no rows"},
	}
	for _, c := range cases {
		p := filepath.Join(t.TempDir(), "x.tsv")
		if err := os.WriteFile(p, []byte(c.data), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadTSV(p); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to contain %q", c.name, err, c.want)
		}
	}
	if _, err := ReadTSV(filepath.Join(t.TempDir(), "missing.tsv")); err == nil || !strings.Contains(err.Error(), "missing.tsv") {
		t.Errorf("a missing file: error %v", err)
	}
}

func TestReadTSVReadsMultipleLabels(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.tsv")
	if err := os.WriteFile(p, []byte("a\t17,25\tid1\nb\t27\tid2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	rows, err := ReadTSV(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].Labels != 1<<17|1<<25 || rows[1].Labels != 1<<27 {
		t.Errorf("rows %+v", rows)
	}
	if GoldValence(rows[0].Labels) != emotion.Ambiguous || GoldValence(rows[1].Labels) != emotion.Neutral {
		t.Error("joy with sadness is not ambiguous, or neutral is not neutral")
	}
}

func TestEvaluateCountsLabelsAndValence(t *testing.T) {
	// Rows 0-2 are joy (id 17); row 3 is sadness (id 25). The reader reads
	// joy for rows 0, 1 and 3: joy has 2 true, 1 false positive, 1 missed.
	rows := []Row{{Text: "0", Labels: 1 << 17}, {Text: "1", Labels: 1 << 17}, {Text: "2", Labels: 1 << 17}, {Text: "3", Labels: 1 << 25}}
	read := func(s string) emotion.Reading {
		if s == "2" {
			return emotion.Reading{Valence: emotion.Neutral}
		}
		return emotion.Reading{Emotions: []emotion.Score{{Label: "joy", P: 0.9}}, Valence: emotion.Positive}
	}
	rep := Evaluate(rows, read)
	joy := rep.Labels[17]
	if joy.Label != "joy" || joy.Support != 3 || joy.Predicted != 3 || math.Abs(joy.F1-2.0/3) > 1e-9 {
		t.Errorf("joy figures %+v", joy)
	}
	if s := rep.Labels[25]; s.Support != 1 || s.F1 != 0 {
		t.Errorf("sadness figures %+v", s)
	}
	if want := (2.0 / 3) / 28; math.Abs(rep.MacroF1-want) > 1e-9 {
		t.Errorf("macro-F1 %v, want %v", rep.MacroF1, want)
	}
	if rep.ValenceAccuracy != 0.5 || rep.Valence[emotion.Negative][emotion.Positive] != 1 {
		t.Errorf("valence accuracy %v, confusion %v", rep.ValenceAccuracy, rep.Valence)
	}
}

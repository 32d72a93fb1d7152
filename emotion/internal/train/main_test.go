package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/havenbot/haven/emotion"
)

// writeSplits writes a tiny synthetic GoEmotions directory: for each label,
// rows naming it (written for the test) with that label's id, and a dev
// split of the same kind.
func writeSplits(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for split, n := range map[string]int{"train": 6, "dev": 3} {
		var b strings.Builder
		for r := range n {
			for i, l := range emotion.Labels {
				fmt.Fprintf(&b, "today I feel %s, round %d\t%d\tc%d-%d\n", l, r, i, r, i)
				if i%5 == 0 {
					fmt.Fprintf(&b, "%s and also %s here\t%d,%d\tm%d-%d\n", l, emotion.Labels[(i+1)%len(emotion.Labels)], i, (i+1)%len(emotion.Labels), r, i)
				}
			}
		}
		if err := os.WriteFile(filepath.Join(dir, "goemotions-"+split+".tsv"), []byte(b.String()), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestTrainWritesTheSameLoadableModelEveryTime(t *testing.T) {
	data := writeSplits(t)
	out := t.TempDir()
	var first []byte
	for i := range 2 {
		path := filepath.Join(out, fmt.Sprintf("m%d.bin", i))
		var stdout bytes.Buffer
		if err := run([]string{"-bits", "12", "-out", path, data}, &stdout); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m, err := emotion.LoadModel(b)
		if err != nil {
			t.Fatalf("the written model does not load: %v", err)
		}
		if r := m.Read("today I feel gratitude"); !r.Has("gratitude") {
			t.Errorf("the model trained on the synthetic set reads %v", r.Emotions)
		}
		if !strings.Contains(stdout.String(), "macro-F1") {
			t.Errorf("no figures printed:\n%s", stdout.String())
		}
		if i == 0 {
			first = b
		} else if !bytes.Equal(first, b) {
			t.Error("two trainings on the same files wrote different bytes")
		}
	}
}

func TestTrainNamesWhatIsMissing(t *testing.T) {
	data := writeSplits(t)
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no out", []string{data}, "no -out"},
		{"no directory", []string{"-out", filepath.Join(t.TempDir(), "m.bin")}, "give the GoEmotions directory"},
		{"empty directory", []string{"-out", filepath.Join(t.TempDir(), "m.bin"), t.TempDir()}, "goemotions-train.tsv"},
		{"bad bits", []string{"-bits", "40", "-out", filepath.Join(t.TempDir(), "m.bin"), data}, "bits 40 out of range"},
	}
	for _, c := range cases {
		if err := run(c.args, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to contain %q", c.name, err, c.want)
		}
	}
}

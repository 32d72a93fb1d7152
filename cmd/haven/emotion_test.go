package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The rows are written for the test: one plainly joyful, one plainly sad,
// one neutral question (ids 17 joy, 25 sadness, 27 neutral).
func TestEvalEmotionPrintsMacroF1AndValenceAccuracy(t *testing.T) {
	dir := t.TempDir()
	rows := "I got the job!!! I'm so happy\t17\ta\nMy dad died and I miss him so much\t25\tb\nWhat time does the library open?\t27\tc\n"
	if err := os.WriteFile(filepath.Join(dir, "goemotions-test.tsv"), []byte(rows), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := haven(t, "", noEnv, "eval", "emotion", dir)
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, errOut)
	}
	for _, want := range []string{"goemotions-test: 3 rows", "macro-F1 (28 labels)", "valence accuracy (Ekman grouping) 1.0000", "| grief |"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
}

func TestEvalEmotionNamesWhatIsWrong(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "goemotions-test.tsv"), []byte("fine\t99\tx\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"eval", "emotion"}, 2, "needs the GoEmotions directory"},
		{[]string{"eval", "emotion", "-split", "train", dir}, 2, "want test or dev"},
		{[]string{"eval", "emotion", "-split", "dev", dir}, 1, "goemotions-dev.tsv"},
		{[]string{"eval", "emotion", dir}, 1, `line 1: label id "99"`},
		{[]string{"eval", "emotion", "-model", filepath.Join(dir, "goemotions-test.tsv"), dir}, 1, "not a model file"},
	}
	for _, c := range cases {
		code, _, errOut := haven(t, "", noEnv, c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", c.args, code, errOut, c.code, c.want)
		}
	}
}

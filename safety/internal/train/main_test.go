package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/havenbot/haven/safety/internal/lr"
)

// writeData writes a small labelled file with synthetic rows.
func writeData(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	pos := []string{"I want to die", "I wish I was dead", "I want to end my life", "no reason to live anymore"}
	neg := []string{"I want pizza", "my exam went well", "I love my dog", "how do I fix my bike"}
	for i := 0; i < 10; i++ {
		for j, p := range pos {
			fmt.Fprintf(&b, `{"id": "p%d-%d", "text": %q, "level": 2}`+"\n", i, j, p)
		}
		for j, n := range neg {
			fmt.Fprintf(&b, `{"id": "n%d-%d", "text": %q, "max_level": 1}`+"\n", i, j, n)
		}
	}
	p := filepath.Join(t.TempDir(), "toy.jsonl")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestTrainWritesALoadableModel(t *testing.T) {
	data := writeData(t)
	out := filepath.Join(t.TempDir(), "model.bin")
	var stdout bytes.Buffer
	if err := run([]string{"-bits", "12", "-out", out, data}, &stdout); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	m, err := lr.UnmarshalBinary(raw)
	if err != nil {
		t.Fatalf("written model does not load: %v", err)
	}
	if p := m.Score("i want to die"); p < 0.5 {
		t.Errorf("trained model scores a training positive %.3f", p)
	}
	if !strings.Contains(stdout.String(), "trained on 80 rows") {
		t.Errorf("output = %q", stdout.String())
	}
}

func TestCrossValidationReportsRulesAndModel(t *testing.T) {
	var stdout bytes.Buffer
	if err := run([]string{"-bits", "12", "-cv", "5", writeData(t)}, &stdout); err != nil {
		t.Fatal(err)
	}
	got := stdout.String()
	for _, want := range []string{"5-fold cross-validation over 80 rows", "rules only", "rules+model t1=0.90 t0=never", "recall", "fc "} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if strings.Contains(got, "I want to die") {
		t.Error("report prints message text")
	}
}

func TestTrainRejectsBadUse(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(bad, []byte(`{"id": "x", "text": "hi"}`+"\n"), 0o644)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"-cv", "5"}, "no data files"},
		{[]string{writeData(t)}, "exactly one of -out FILE or -cv K"},
		{[]string{"-cv", "5", "-out", "x", writeData(t)}, "exactly one of"},
		{[]string{"-cv", "5", bad}, `needs "level" or "max_level"`},
		{[]string{"-cv", "5", filepath.Join(t.TempDir(), "missing.jsonl")}, "open data file"},
	}
	for _, c := range cases {
		err := run(c.args, &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("run(%v) = %v, want an error containing %q", c.args, err, c.want)
		}
	}
}

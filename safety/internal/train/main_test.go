package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/havenbot/haven/safety/internal/lr"
)

// writeSources writes two small labelled files with synthetic rows (one in
// the training corpus's format, one in the tuning files' format) and
// returns their paths.
func writeSources(t *testing.T) []string {
	t.Helper()
	dir := t.TempDir()
	pos := []string{"I want to die", "I wish I was dead", "I can't go on living", "no reason to live anymore"}
	neg := []string{"I want pizza", "my exam went well", "I love my dog", "how do I fix my bike"}
	var a, b strings.Builder
	for i := 0; i < 10; i++ {
		for j, p := range pos {
			fmt.Fprintf(&a, `{"id": "a-p%d-%d", "text": "%s on day %d", "crisis": true, "source": "a"}`+"\n", i, j, p, i)
			fmt.Fprintf(&b, `{"id": "b-p%d-%d", "text": "%s, day %d", "level": 2}`+"\n", i, j, p, i)
		}
		for j, n := range neg {
			fmt.Fprintf(&a, `{"id": "a-n%d-%d", "text": "%s on day %d", "crisis": false, "source": "a"}`+"\n", i, j, n, i)
			fmt.Fprintf(&b, `{"id": "b-n%d-%d", "text": "%s, day %d", "max_level": 1}`+"\n", i, j, n, i)
		}
	}
	pa, pb := filepath.Join(dir, "alpha.jsonl"), filepath.Join(dir, "beta.jsonl")
	if err := os.WriteFile(pa, []byte(a.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pb, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return []string{pa, pb}
}

func TestTrainWritesTheSameLoadableModelEveryTime(t *testing.T) {
	src := writeSources(t)
	dir := t.TempDir()
	var first []byte
	for i, workers := range []string{"1", "3"} {
		out := filepath.Join(dir, fmt.Sprintf("model%d.bin", i))
		var stdout bytes.Buffer
		if err := run(context.Background(), append([]string{"-workers", workers, "-out", out}, src...), &stdout); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		m, err := lr.UnmarshalBinary(data)
		if err != nil {
			t.Fatalf("the written model does not load: %v", err)
		}
		if p := m.Score("i want to die on day 3"); p < 0.5 {
			t.Errorf("the model scores a training crisis %.3f", p)
		}
		if first == nil {
			first = data
		} else if !bytes.Equal(first, data) {
			t.Error("the same data gave different model bytes")
		}
		got := stdout.String()
		for _, want := range []string{"| alpha | 40 | 40 |", "| beta | 40 | 40 |", "trained on 160 of 160 rows", "thresholds raise", "out of fold: recall"} {
			if !strings.Contains(got, want) {
				t.Errorf("report lacks %q:\n%s", want, got)
			}
		}
		if strings.Contains(got, "want to die") || strings.Contains(got, "pizza") {
			t.Error("the report prints message text")
		}
	}
}

func TestTrainRejectsBadUse(t *testing.T) {
	src := writeSources(t)
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(bad, []byte(`{"id": "x", "text": "hi", "crisis": false}`+"\n"+`{"id": "y", "text": "hello"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	again := filepath.Join(t.TempDir(), filepath.Base(src[0]))
	if err := os.Link(src[0], again); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "m.bin")
	chat := writeChat(t)
	cases := []struct {
		args []string
		want string
	}{
		{src, "no -out FILE"},
		{[]string{"-out", out, src[0], chat}, "no -short-out FILE"},
		{[]string{"-out", out, "-short-out", filepath.Join(dir, "s.bin"), src[0]}, "no chat source"},
		{[]string{"-out", out}, "no data files"},
		{[]string{"-out", out, bad}, "bad.jsonl line 2"},
		{[]string{"-out", out, src[0], again}, "two files are named alpha"},
		{[]string{"-out", out, filepath.Join(dir, "missing.jsonl")}, "open eval file"},
	}
	for _, c := range cases {
		err := run(context.Background(), c.args, &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("run(%v) = %v, want an error containing %q", c.args, err, c.want)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a failed run wrote a model")
	}
}

// writeChat writes a chat source (named as the recipe's chat-writers) of
// short messages in two batches, written for this test.
func writeChat(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	for _, batch := range []string{"w10", "w11"} {
		for i := range 6 {
			fmt.Fprintf(&b, `{"id": "chat-crisis-%s-k-%02d", "text": "not gonna be around much longer %d", "level": 2}`+"\n", batch, i, i)
			fmt.Fprintf(&b, `{"id": "chat-neg-%s-k-%02d", "text": "not gonna be around this weekend %d", "max_level": 0}`+"\n", batch, i, i)
		}
	}
	p := filepath.Join(t.TempDir(), "chat-writers.jsonl")
	if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestTrainWritesTheShortModelFromChatSources(t *testing.T) {
	src := append(writeSources(t), writeChat(t))
	dir := t.TempDir()
	var first []byte
	for i, workers := range []string{"1", "3"} {
		out, short := filepath.Join(dir, fmt.Sprintf("m%d.bin", i)), filepath.Join(dir, fmt.Sprintf("s%d.bin", i))
		var stdout bytes.Buffer
		if err := run(context.Background(), append([]string{"-workers", workers, "-out", out, "-short-out", short}, src...), &stdout); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(short)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := lr.UnmarshalBinary(data); err != nil {
			t.Fatalf("the written short model does not load: %v", err)
		}
		if first == nil {
			first = data
		} else if !bytes.Equal(first, data) {
			t.Error("the same data gave different short-model bytes")
		}
		got := stdout.String()
		for _, want := range []string{"short-message model", "chat-writers 12 + 12 (weight", "| w10 | 6 | 6 |", "| all | 12 | 12 |"} {
			if !strings.Contains(got, want) {
				t.Errorf("report lacks %q:\n%s", want, got)
			}
		}
		if strings.Contains(got, "around") {
			t.Error("the report prints message text")
		}
	}
}

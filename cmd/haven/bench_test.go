package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestBenchAnswersEveryMessageOnceAndPrintsTheFigures runs `haven bench`
// small: it must exit 0 (which it does only when every message of every
// person was answered exactly once, by Haven and by the echo bot) and print
// both rows and their ratio. Timings are not asserted.
func TestBenchAnswersEveryMessageOnceAndPrintsTheFigures(t *testing.T) {
	tests := []struct {
		name             string
		people, messages int
		args             []string
	}{
		{"scripted replies", 20, 3, []string{"bench", "-people", "20", "-messages", "3", "-dir", t.TempDir()}},
		{"fake model, a few at a time, thinking", 6, 2, []string{"bench", "-people", "6", "-messages", "2", "-concurrency", "2",
			"-think", "1ms", "-model-latency", "1ms", "-dir", t.TempDir()}},
		{"first messages spread over a ramp", 10, 2, []string{"bench", "-people", "10", "-messages", "2", "-ramp", "5ms", "-dir", t.TempDir()}},
	}
	row := func(name string, n int) *regexp.Regexp {
		return regexp.MustCompile(`(?m)^` + name + ` +` + itoa(n) + ` +[0-9.]+ +[0-9.]+ +[0-9.]+[µnm]?s +[0-9.]+[µnm]?s +[0-9.]+[µnm]?s$`)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			code := run(ctx, tt.args, stdio{in: strings.NewReader(""), out: &out, err: &errb}, func(string) (string, bool) { return "", false })
			if code != 0 {
				t.Fatalf("haven bench exited %d; stdout:\n%s\nstderr:\n%s", code, out.String(), errb.String())
			}
			people, messages := tt.people, tt.messages
			for _, re := range []*regexp.Regexp{
				regexp.MustCompile(`(?m)^haven bench: ` + itoa(people) + ` people x ` + itoa(messages) + ` messages`),
				row("haven", people*messages),
				row("echo bot", people*messages),
				regexp.MustCompile(`(?m)^haven/echo: throughput [0-9.]+x, p50 latency [0-9.]+x, p99 latency [0-9.]+x$`),
			} {
				if !re.MatchString(out.String()) {
					t.Errorf("output does not match %s:\n%s", re, out.String())
				}
			}
		})
	}
}

func TestBenchRefusesAMeaninglessLoad(t *testing.T) {
	for _, args := range [][]string{
		{"bench", "-people", "0"},
		{"bench", "-messages", "0"},
		{"bench", "-think", "-1s"},
		{"bench", "-ramp", "-1s"},
		{"bench", "extra"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(context.Background(), args, stdio{in: strings.NewReader(""), out: &out, err: &errb}, func(string) (string, bool) { return "", false })
			if code != 2 {
				t.Fatalf("exit %d, want 2 (usage); stderr:\n%s", code, errb.String())
			}
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestBenchWritesTheProfilesAskedFor(t *testing.T) {
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "cpu.prof"), filepath.Join(dir, "mem.prof")
	var out, errb bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := []string{"bench", "-people", "3", "-messages", "1", "-no-echo", "-cpuprofile", cpu, "-memprofile", mem, "-dir", dir}
	if code := run(ctx, args, stdio{in: strings.NewReader(""), out: &out, err: &errb}, func(string) (string, bool) { return "", false }); code != 0 {
		t.Fatalf("haven bench exited %d; stderr:\n%s", code, errb.String())
	}
	for _, p := range []string{cpu, mem} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		// A pprof profile is gzip-compressed protobuf.
		if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
			t.Errorf("%s is not a gzip-compressed profile (%d bytes)", filepath.Base(p), len(b))
		}
	}
}

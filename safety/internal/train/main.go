// Command train makes the crisis floor's learned scorer: it trains the
// shipped recipe (safety/internal/learn) on labelled JSONL files, chooses
// the thresholds from out-of-fold scores, and writes the model file that
// the safety package embeds. The same files give the same bytes. It prints
// figures and source names, never message text.
//
//	go run ./safety/internal/train -out safety/crisis_model.bin \
//	    -short-out safety/crisis_short_model.bin \
//	    ../shared/data/crisis-train/*.jsonl ../shared/data/crisis/*.jsonl \
//	    safety/testdata/chat-tune.jsonl safety/testdata/chat-writers.jsonl
//
// Each file is one source (named by its base name); its lines are
// {"id", "text", "crisis": bool} or {"id", "text", "level" | "max_level"}.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/havenbot/haven/safety"
	"github.com/havenbot/haven/safety/crisiseval"
	"github.com/havenbot/haven/safety/internal/learn"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "train:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	outPath := fs.String("out", "", "write the model file here (required)")
	shortPath := fs.String("short-out", "", "write the short-message model file here (required when chat sources are given)")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "trainings in parallel (the model does not depend on it)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *outPath == "" {
		return errors.New("no -out FILE: say where to write the model")
	}
	if fs.NArg() == 0 {
		return errors.New("no data files: give one or more labelled JSONL files")
	}
	start := time.Now()
	var texts []learn.Labelled
	seen := map[string]bool{}
	for _, p := range fs.Args() {
		src := crisiseval.SourceName(p)
		if seen[src] {
			return fmt.Errorf("two files are named %s: a source must be one file", src)
		}
		seen[src] = true
		rows, err := crisiseval.ReadRows(p)
		if err != nil {
			return err
		}
		for i, r := range rows {
			if !r.Positive() && !r.Negative() {
				continue
			}
			id := r.ID
			if id == "" {
				id = fmt.Sprintf("%s:%d", src, i+1)
			}
			texts = append(texts, learn.Labelled{ID: id, Source: src, Positive: r.Positive(),
				Input: safety.Input{Text: r.Text, History: r.History, AskedSafetyQuestion: r.AskedSafetyQuestion}})
		}
	}
	rows, err := learn.Prepare(ctx, safety.NewFloorWith(safety.FloorOptions{}), texts, *workers)
	if err != nil {
		return err
	}
	rc := learn.DefaultRecipe()
	chat := slices.ContainsFunc(rows, func(r learn.Row) bool { return rc.Chat(&r) })
	if chat && *shortPath == "" {
		return errors.New("chat sources given but no -short-out FILE: say where to write the short-message model")
	}
	if !chat && *shortPath != "" {
		return fmt.Errorf("-short-out given but no chat source (%s): the short-message model trains on them", strings.Join(rc.Short.ChatSources, ", "))
	}
	fit, err := rc.Fit(ctx, rows, *workers)
	if err != nil {
		return err
	}
	data, err := fit.Model.MarshalBinary()
	if err != nil {
		return fmt.Errorf("encode model: %w", err)
	}
	if err := os.WriteFile(*outPath, data, 0o644); err != nil {
		return fmt.Errorf("write model: %w", err)
	}
	var shortData []byte
	if fit.Short != nil {
		if shortData, err = fit.Short.MarshalBinary(); err != nil {
			return fmt.Errorf("encode short-message model: %w", err)
		}
		if err := os.WriteFile(*shortPath, shortData, 0o644); err != nil {
			return fmt.Errorf("write short-message model: %w", err)
		}
	}
	total := 0
	fmt.Fprintf(out, "| source | crisis rows | other rows |\n|---|---:|---:|\n")
	for _, c := range fit.Sources {
		fmt.Fprintf(out, "| %s | %d | %d |\n", c.Source, c.Positives, c.Negatives)
		total += c.Positives + c.Negatives
	}
	for _, s := range rc.DropSources {
		if seen[s] {
			fmt.Fprintf(out, "| %s | not trained on | |\n", s)
		}
	}
	for _, s := range rc.DropNegatives {
		if seen[s] {
			fmt.Fprintf(out, "| %s | | other rows not trained on |\n", s)
		}
	}
	fmt.Fprintf(out, "\ntrained on %d of %d rows; thresholds raise %.2f, high %.2f\n", total, len(rows), fit.Model.Raise, fit.Model.High)
	fmt.Fprintf(out, "out of fold: recall %.3f (rules alone %.3f), scorer's added false crises on negative-only sources %.4f, precision of its level-3 raises %.3f\n",
		fit.OOF.Recall, fit.OOF.RulesRecall, fit.OOF.AddedFalseCrisis, fit.OOF.HighPrecision)
	if fit.Short != nil {
		fmt.Fprintf(out, "\nshort-message model (messages of at most %d words): trained on", safety.ShortWords)
		for _, c := range fit.ShortSources {
			if rc.ChatSource(c.Source) {
				fmt.Fprintf(out, " %s %d + %d (weight %g)", c.Source, c.Positives, c.Negatives, rc.Short.ChatWeight)
			}
		}
		fmt.Fprintf(out, " and the post model's rows; thresholds %.2f under %d words, %.2f from %d, %.2f from %d\n", fit.Short.Raise, safety.ShortLongWords, fit.Short.High, safety.ShortLongWords, fit.Short.Third, safety.ShortParagraphWords)
		fmt.Fprintf(out, "out of fold, each chat batch scored by models that never saw it (crises caught, false crises: post model -> with short model):\n")
		fmt.Fprintf(out, "| batch | crises | other | caught | false crises |\n|---|---:|---:|---|---|\n")
		tot := learn.BatchFigures{Batch: "all"}
		for _, b := range fit.ShortOOF {
			tot.Add(b)
		}
		for _, b := range append(slices.Clip(fit.ShortOOF), tot) {
			fmt.Fprintf(out, "| %s | %d | %d | %d -> %d | %d -> %d |\n", b.Batch, b.Positives, b.Negatives,
				b.Before.Caught, b.After.Caught, b.Before.FalseCrises, b.After.FalseCrises)
		}
		fmt.Fprintf(out, "wrote %s (%d bytes)\n", *shortPath, len(shortData))
	}
	fmt.Fprintf(out, "wrote %s (%d bytes) in %s\n", *outPath, len(data), time.Since(start).Round(time.Second))
	return nil
}

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"
	"sort"
	"time"

	"github.com/havenbot/haven/safety"
	"github.com/havenbot/haven/safety/crisiseval"
)

// crisisAssessor returns the crisis gate as configured: the floor (rules
// and the embedded learned scorer, or the rules alone with rulesOnly),
// joined by the LLM assessor when one is configured and neither floorOnly
// nor rulesOnly is set.
func crisisAssessor(flags commonFlags, env func(string) (string, bool), floorOnly, rulesOnly bool) (crisiseval.Assessor, error) {
	if rulesOnly {
		return crisiseval.Floor(safety.NewFloorWith(safety.FloorOptions{})), nil
	}
	if floorOnly {
		return crisiseval.Floor(safety.NewFloor()), nil
	}
	cfg, err := loadConfig(flags, env)
	if err != nil {
		return nil, err
	}
	model, err := newLLM(cfg)
	if err != nil {
		return nil, err
	}
	return safety.NewGate(safety.GateOptions{LLM: model, Deadline: cfg.Safety.LLMDeadline}), nil
}

// assess runs `haven assess`: JSONL {"text": ..., "history": [...]} on stdin,
// one JSONL assessment per line on stdout, in order.
func assess(ctx context.Context, args []string, std stdio, env func(string) (string, bool)) error {
	var flags commonFlags
	fs := newFlagSet("assess", std)
	flags.register(fs)
	floorOnly := fs.Bool("floor", false, "use the floor (rules and learned scorer) only, even when an LLM is configured")
	rulesOnly := fs.Bool("rules", false, "use the floor's rules only: no learned scorer, no LLM")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "assessments run in parallel (output order is kept)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: assess reads stdin and takes no arguments (got %q)", errUsage, fs.Arg(0))
	}
	a, err := crisisAssessor(flags, env, *floorOnly, *rulesOnly)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(std.out, 64*1024)
	if _, err := crisiseval.AssessStream(ctx, a, std.in, w, *workers); err != nil {
		return fmt.Errorf("assess: %w", err)
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("assess: write output: %w", err)
	}
	return nil
}

// eval runs `haven eval crisis FILE...`: the crisis gate's figures per file
// and overall, and a non-zero exit below the thresholds; or, with --loso
// DIR, the leave-one-source-out table of the floor over DIR/*.jsonl and the
// FILEs.
func eval(ctx context.Context, args []string, std stdio, env func(string) (string, bool)) error {
	if len(args) > 0 && args[0] == "emotion" {
		return evalEmotion(ctx, args[1:], std)
	}
	if len(args) == 0 || args[0] != "crisis" {
		return fmt.Errorf("%w: eval needs a suite name (haven eval crisis FILE..., haven eval emotion DIR)", errUsage)
	}
	var flags commonFlags
	fs := newFlagSet("eval crisis", std)
	flags.register(fs)
	th := crisiseval.DefaultThresholds()
	floorOnly := fs.Bool("floor", false, "measure the floor (rules and learned scorer) only, even when an LLM is configured")
	rulesOnly := fs.Bool("rules", false, "measure the floor's rules only: no learned scorer, no LLM")
	loso := fs.String("loso", "", "leave one source out over every DIR/*.jsonl and the FILEs: train the learned scorer on the other sources and measure the floor on the one left out")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "with --loso: trainings run in parallel (the figures do not depend on it)")
	fs.Float64Var(&th.MinRecall, "min-recall", th.MinRecall, "fail when crisis recall (level >= 2) of a file with crisis rows is below this")
	fs.Float64Var(&th.MaxFalseCrisis, "max-false-crisis", th.MaxFalseCrisis, "fail when the false-crisis rate of a non-suicidal file is above this")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	if err := parseFlags(fs, args[1:]); err != nil {
		return err
	}
	if *loso != "" {
		return evalLOSO(ctx, *loso, fs.Args(), *workers, *asJSON, std)
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("%w: eval crisis needs at least one labelled JSONL file", errUsage)
	}
	a, err := crisisAssessor(flags, env, *floorOnly, *rulesOnly)
	if err != nil {
		return err
	}
	rep, err := crisiseval.EvalFiles(ctx, a, fs.Args())
	if err != nil {
		return fmt.Errorf("eval crisis: %w", err)
	}
	if *asJSON {
		enc := json.NewEncoder(std.out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return fmt.Errorf("eval crisis: write report: %w", err)
		}
	} else if err := crisiseval.WriteReport(std.out, rep); err != nil {
		return fmt.Errorf("eval crisis: write report: %w", err)
	}
	if err := th.Check(rep); err != nil {
		return fmt.Errorf("eval crisis: below thresholds: %w", err)
	}
	return nil
}

// evalLOSO runs `haven eval crisis --loso DIR [FILE...]`. The table is for
// judging a change by the sources it was not trained on; it has no pass
// mark, so the exit status says only whether it ran.
func evalLOSO(ctx context.Context, dir string, files []string, workers int, asJSON bool, std stdio) error {
	paths, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return fmt.Errorf("eval crisis --loso: list %s: %w", dir, err)
	}
	if len(paths) == 0 {
		return fmt.Errorf("%w: eval crisis --loso: no *.jsonl files in %s", errUsage, dir)
	}
	sort.Strings(paths)
	paths = append(paths, files...)
	start := time.Now()
	rep, err := crisiseval.LOSO(ctx, paths, workers, std.err)
	if err != nil {
		return fmt.Errorf("eval crisis: %w", err)
	}
	if asJSON {
		enc := json.NewEncoder(std.out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return fmt.Errorf("eval crisis: write report: %w", err)
		}
		return nil
	}
	if err := crisiseval.WriteLOSO(std.out, rep); err != nil {
		return fmt.Errorf("eval crisis: %w", err)
	}
	fmt.Fprintf(std.out, "%d sources in %s\n", len(rep.Sources), time.Since(start).Round(time.Second))
	return nil
}

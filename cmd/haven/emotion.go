package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/havenbot/haven/emotion"
	"github.com/havenbot/haven/emotion/emotioneval"
)

// evalEmotion runs `haven eval emotion [-split test|dev] [-model FILE]
// [-json] DIR`: the emotion reader's macro-F1 over the 28 labels and its
// valence accuracy on the Ekman grouping, on DIR/goemotions-SPLIT.tsv. It
// prints figures and label names, never message text; it has no pass mark.
func evalEmotion(ctx context.Context, args []string, std stdio) error {
	fs := newFlagSet("eval emotion", std)
	split := fs.String("split", "test", "the split to measure: test or dev (the thresholds were tuned on dev)")
	modelPath := fs.String("model", "", "measure this model file instead of the embedded one")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("%w: eval emotion needs the GoEmotions directory (haven eval emotion DIR)", errUsage)
	}
	if *split != "test" && *split != "dev" {
		return fmt.Errorf("%w: eval emotion: -split %q: want test or dev", errUsage, *split)
	}
	m := emotion.Embedded()
	if *modelPath != "" {
		data, err := os.ReadFile(*modelPath)
		if err != nil {
			return fmt.Errorf("eval emotion: %w", err)
		}
		if m, err = emotion.LoadModel(data); err != nil {
			return fmt.Errorf("eval emotion: %s: %w", *modelPath, err)
		}
	}
	rows, err := emotioneval.ReadTSV(filepath.Join(fs.Arg(0), "goemotions-"+*split+".tsv"))
	if err != nil {
		return fmt.Errorf("eval emotion: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("eval emotion: %w", err)
	}
	rep := emotioneval.Evaluate(rows, m.Read)
	if *asJSON {
		enc := json.NewEncoder(std.out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return fmt.Errorf("eval emotion: write report: %w", err)
		}
		return nil
	}
	if err := writeEmotionReport(std.out, *split, rep); err != nil {
		return fmt.Errorf("eval emotion: write report: %w", err)
	}
	return nil
}

func writeEmotionReport(out io.Writer, split string, rep emotioneval.Report) error {
	var w strings.Builder
	fmt.Fprintf(&w, "goemotions-%s: %d rows\n", split, rep.Rows)
	fmt.Fprintf(&w, "macro-F1 (28 labels) %.4f, micro-F1 %.4f\n", rep.MacroF1, rep.MicroF1)
	fmt.Fprintf(&w, "valence accuracy (Ekman grouping) %.4f\n\n", rep.ValenceAccuracy)
	fmt.Fprintf(&w, "| label | support | read | precision | recall | F1 |\n|---|---:|---:|---:|---:|---:|\n")
	for _, l := range rep.Labels {
		fmt.Fprintf(&w, "| %s | %d | %d | %.3f | %.3f | %.3f |\n", l.Label, l.Support, l.Predicted, l.Precision, l.Recall, l.F1)
	}
	vals := []emotion.Valence{emotion.Positive, emotion.Negative, emotion.Ambiguous, emotion.Neutral}
	fmt.Fprintf(&w, "\n| gold \\ read | positive | negative | ambiguous | neutral |\n|---|---:|---:|---:|---:|\n")
	for _, g := range vals {
		fmt.Fprintf(&w, "| %s |", g)
		for _, r := range vals {
			fmt.Fprintf(&w, " %d |", rep.Valence[g][r])
		}
		fmt.Fprintln(&w)
	}
	_, err := io.WriteString(out, w.String())
	return err
}

// Command train makes the emotion reader's model: a one-vs-rest logistic
// regression per GoEmotions label on the shared linear features, trained on
// the train split, with each label's threshold chosen on the dev split
// (the label's F1 there); the test split is never read. It writes the model
// file that the emotion package embeds; the same files and flags give the
// same bytes. It prints figures, never message text.
//
//	go run ./emotion/internal/train -out emotion/model.bin ../shared/data/emotions
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/havenbot/haven/emotion"
	"github.com/havenbot/haven/emotion/emotioneval"
	"github.com/havenbot/haven/internal/linear"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "train:", err)
		os.Exit(1)
	}
}

// Recipe is how the shipped model is made (the flags' defaults).
var Recipe = linear.TrainOptions{Bits: 14, Outputs: len(emotion.Labels), Epochs: 6, Rate: 0.2, L2: 3e-3, Balance: 0, Seed: 1}

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	outPath := fs.String("out", "", "write the model file here (required)")
	opts := Recipe
	fs.UintVar(&opts.Bits, "bits", opts.Bits, "hash bits: 2^bits buckets")
	fs.IntVar(&opts.Epochs, "epochs", opts.Epochs, "AdaGrad passes")
	fs.Float64Var(&opts.Rate, "rate", opts.Rate, "AdaGrad base rate")
	fs.Float64Var(&opts.L2, "l2", opts.L2, "weight decay")
	fs.Float64Var(&opts.Balance, "balance", opts.Balance, "class weighting power: 0 none, 1 balanced")
	fs.Uint64Var(&opts.Seed, "seed", opts.Seed, "shuffle seed")
	full := fs.Bool("float", false, "also report the dev figures of the unquantized weights")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *outPath == "" {
		return errors.New("no -out FILE: say where to write the model")
	}
	if fs.NArg() != 1 {
		return errors.New("give the GoEmotions directory (with goemotions-train.tsv and goemotions-dev.tsv)")
	}
	dir := fs.Arg(0)
	start := time.Now()
	train, err := emotioneval.ReadTSV(filepath.Join(dir, "goemotions-train.tsv"))
	if err != nil {
		return err
	}
	dev, err := emotioneval.ReadTSV(filepath.Join(dir, "goemotions-dev.tsv"))
	if err != nil {
		return err
	}
	fit, err := Fit(train, dev, opts)
	if err != nil {
		return err
	}
	data, err := fit.File.MarshalBinary()
	if err != nil {
		return fmt.Errorf("encode model: %w", err)
	}
	m, err := emotion.LoadModel(data)
	if err != nil {
		return fmt.Errorf("reload the written model: %w", err)
	}
	if err := os.WriteFile(*outPath, data, 0o644); err != nil {
		return fmt.Errorf("write model: %w", err)
	}
	rep := emotioneval.Evaluate(dev, m.Read)
	fmt.Fprintf(out, "trained on %d train rows; thresholds tuned on %d dev rows\n", len(train), len(dev))
	fmt.Fprintf(out, "options: bits %d, epochs %d, rate %g, l2 %g, balance %g, seed %d\n", opts.Bits, opts.Epochs, opts.Rate, opts.L2, opts.Balance, opts.Seed)
	fmt.Fprintf(out, "dev, thresholds tuned on it (optimistic): macro-F1 %.4f, micro-F1 %.4f, valence accuracy %.4f\n", rep.MacroF1, rep.MicroF1, rep.ValenceAccuracy)
	fmt.Fprintf(out, "dev, 2-fold cross-fitted thresholds (honest): macro-F1 %.4f\n", fit.CrossF1)
	if *full {
		fmt.Fprintf(out, "dev, unquantized weights, cross-fitted thresholds: macro-F1 %.4f\n", crossF1(probs(fit.Weights.Logits, dev), dev))
	}
	fmt.Fprintf(out, "| label | threshold | dev F1 |\n|---|---:|---:|\n")
	for i, l := range emotion.Labels {
		fmt.Fprintf(out, "| %s | %.2f | %.3f |\n", l, fit.File.Thresholds[i], rep.Labels[i].F1)
	}
	fmt.Fprintf(out, "wrote %s (%d bytes) in %s\n", *outPath, len(data), time.Since(start).Round(time.Second))
	return nil
}

// Fitted is a trained model with how it did on dev.
type Fitted struct {
	Weights *linear.Weights
	File    linear.Labelled
	// CrossF1 is dev macro-F1 with each half's thresholds tuned on the
	// other half: an honest figure for choosing options.
	CrossF1 float64
}

// Fit trains on train and tunes thresholds on dev.
func Fit(train, dev []emotioneval.Row, opts linear.TrainOptions) (Fitted, error) {
	ex := make([]linear.Example, len(train))
	for i, r := range train {
		ex[i] = linear.Example{Doc: linear.NewDoc(emotion.Canonical(r.Text), opts.Bits), Labels: uint64(r.Labels)}
	}
	w, err := linear.Train(ex, opts)
	if err != nil {
		return Fitted{}, fmt.Errorf("train: %w", err)
	}
	q := w.Quantize()
	p := probs(q.Logits, dev)
	names := make([]string, len(emotion.Labels))
	for i, l := range emotion.Labels {
		names[i] = string(l)
	}
	all := make([]int, len(dev))
	for i := range all {
		all[i] = i
	}
	return Fitted{
		Weights: w,
		File:    linear.Labelled{Model: q, Names: names, Thresholds: tune(p, dev, all)},
		CrossF1: crossF1(p, dev),
	}, nil
}

// probs returns every dev row's label probabilities from a logit function.
func probs(logits func(string, []float64), rows []emotioneval.Row) [][]float64 {
	out := make([][]float64, len(rows))
	for i, r := range rows {
		z := make([]float64, len(emotion.Labels))
		logits(emotion.Canonical(r.Text), z)
		for j := range z {
			z[j] = linear.Sigmoid(z[j])
		}
		out[i] = z
	}
	return out
}

// grid is the thresholds tried: 0.005 to 0.1 by 0.005 (the regularized
// model's probabilities of rare labels are small), then to 0.98 by 0.01.
var grid = func() []float64 {
	var g []float64
	for t := 1; t <= 20; t++ {
		g = append(g, float64(t)/200)
	}
	for t := 11; t <= 98; t++ {
		g = append(g, float64(t)/100)
	}
	return g
}()

// tune returns, per label, the grid threshold with the best F1 on the rows
// at idx (the lowest such on a tie).
func tune(p [][]float64, rows []emotioneval.Row, idx []int) []float64 {
	th := make([]float64, len(emotion.Labels))
	for j := range emotion.Labels {
		best := -1.0
		th[j] = 0.5
		for _, t := range grid {
			var tp, fp, fn int
			for _, i := range idx {
				g, y := rows[i].Labels&(1<<j) != 0, p[i][j] >= t
				switch {
				case g && y:
					tp++
				case y:
					fp++
				case g:
					fn++
				}
			}
			if _, _, f := emotioneval.PRF(tp, fp, fn); f > best {
				best, th[j] = f, t
			}
		}
	}
	return th
}

// crossF1 is macro-F1 on dev with thresholds tuned on the other half (rows
// split by parity of their index).
func crossF1(p [][]float64, rows []emotioneval.Row) float64 {
	var halves [2][]int
	for i := range rows {
		halves[i%2] = append(halves[i%2], i)
	}
	k := len(emotion.Labels)
	tp, fp, fn := make([]int, k), make([]int, k), make([]int, k)
	for h := range 2 {
		th := tune(p, rows, halves[1-h])
		for _, i := range halves[h] {
			for j := range k {
				g, y := rows[i].Labels&(1<<j) != 0, p[i][j] >= th[j]
				switch {
				case g && y:
					tp[j]++
				case y:
					fp[j]++
				case g:
					fn[j]++
				}
			}
		}
	}
	var macro float64
	for j := range k {
		_, _, f := emotioneval.PRF(tp[j], fp[j], fn[j])
		macro += f / float64(k)
	}
	return macro
}

// Command train fits the crisis floor's learned component (safety/internal/lr)
// on labelled JSONL files and writes a model file that a safety.Scorer can
// load (safety.NewFloorWith), or, with -cv, reports k-fold cross-validated
// figures of the rules alone against the rules with the model. The default
// floor embeds no model: cross-validation showed too small a gain (see the
// crisis issue's closing note). It never prints message text.
//
//	go run ./safety/internal/train -out safety/learned_model.bin FILE...
//	go run ./safety/internal/train -cv 5 FILE...
//
// Each line of a FILE is {"id", "text", "level"} or {"id", "text",
// "max_level"}: level >= 2 is a positive (crisis) row; level < 2 or
// max_level <= 1 is a negative row.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/havenbot/haven/safety"
	"github.com/havenbot/haven/safety/internal/lr"
)

type row struct {
	id       string
	source   string
	canon    string
	text     string
	positive bool
}

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "train:", err)
		os.Exit(1)
	}
}

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	outPath := fs.String("out", "", "write the model trained on all rows to this file")
	cv := fs.Int("cv", 0, "report k-fold cross-validated figures instead of writing a model")
	seed := fs.Uint64("seed", 1, "shuffle seed")
	epochs := fs.Int("epochs", 12, "training epochs")
	bits := fs.Uint("bits", lr.Bits, "feature hash bits")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return errors.New("no data files: give one or more labelled JSONL files")
	}
	if (*outPath == "") == (*cv == 0) {
		return errors.New("give exactly one of -out FILE or -cv K")
	}
	var rows []row
	for _, p := range fs.Args() {
		rs, err := readRows(p)
		if err != nil {
			return err
		}
		rows = append(rows, rs...)
	}
	opts := lr.TrainOptions{Bits: *bits, Epochs: *epochs, Seed: *seed}
	if *cv > 0 {
		return crossValidate(out, rows, *cv, opts)
	}
	m, err := lr.Train(examples(rows), opts)
	if err != nil {
		return err
	}
	data, err := m.MarshalBinary()
	if err != nil {
		return fmt.Errorf("encode model: %w", err)
	}
	if err := os.WriteFile(*outPath, data, 0o644); err != nil {
		return fmt.Errorf("write model: %w", err)
	}
	fmt.Fprintf(out, "trained on %d rows; wrote %s (%d bytes)\n", len(rows), *outPath, len(data))
	return nil
}

func readRows(path string) ([]row, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open data file: %w", err)
	}
	defer f.Close()
	src := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<16), 16<<20)
	var rows []row
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var r struct {
			ID       string  `json:"id"`
			Text     *string `json:"text"`
			Level    *int    `json:"level"`
			MaxLevel *int    `json:"max_level"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			return nil, fmt.Errorf("%s line %d: not a JSON object: %w", path, n, err)
		}
		if r.Text == nil {
			return nil, fmt.Errorf("%s line %d: missing \"text\"", path, n)
		}
		var pos bool
		switch {
		case r.Level != nil:
			pos = *r.Level >= 2
		case r.MaxLevel != nil && *r.MaxLevel <= 1:
			pos = false
		default:
			return nil, fmt.Errorf("%s line %d: needs \"level\" or \"max_level\" <= 1", path, n)
		}
		id := r.ID
		if id == "" {
			id = fmt.Sprintf("%s:%d", src, n)
		}
		rows = append(rows, row{id: id, source: src, text: *r.Text, canon: safety.Normalize(*r.Text), positive: pos})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return rows, nil
}

func examples(rows []row) []lr.Example {
	ex := make([]lr.Example, len(rows))
	for i, r := range rows {
		ex[i] = lr.Example{Canon: r.canon, Positive: r.positive}
	}
	return ex
}

func fold(id string, k int) int {
	h := fnv.New32a()
	h.Write([]byte(id))
	return int(h.Sum32() % uint32(k))
}

// tally counts one configuration's outcomes per source.
type tally struct {
	pos, caught, neg, falseCrisis int
}

type config struct {
	name   string
	t1, t0 float64
	model  bool
}

func crossValidate(out io.Writer, rows []row, k int, opts lr.TrainOptions) error {
	configs := []config{{name: "rules only"}}
	for _, t1 := range []float64{0.5, 0.6, 0.7, 0.8, 0.9} {
		for _, t0 := range []float64{0.9, 0.95, 2} {
			name := fmt.Sprintf("rules+model t1=%.2f t0=%.2f", t1, t0)
			if t0 > 1 {
				name = fmt.Sprintf("rules+model t1=%.2f t0=never", t1)
			}
			configs = append(configs, config{name: name, t1: t1, t0: t0, model: true})
		}
	}
	res := make([]map[string]*tally, len(configs))
	for i := range res {
		res[i] = map[string]*tally{}
	}
	rulesOnly := safety.NewFloor()
	for f := 0; f < k; f++ {
		var train, test []row
		for _, r := range rows {
			if fold(r.id, k) == f {
				test = append(test, r)
			} else {
				train = append(train, r)
			}
		}
		m, err := lr.Train(examples(train), opts)
		if err != nil {
			return fmt.Errorf("fold %d: %w", f, err)
		}
		for ci, c := range configs {
			fl := rulesOnly
			if c.model {
				fl = safety.NewFloorWith(safety.FloorOptions{Scorer: m, Threshold1: c.t1, Threshold0: c.t0})
			}
			for _, r := range test {
				lv := fl.Assess(safety.Input{Text: r.text}).Level
				for _, src := range []string{r.source, "overall"} {
					t := res[ci][src]
					if t == nil {
						t = &tally{}
						res[ci][src] = t
					}
					if r.positive {
						t.pos++
						if lv >= 2 {
							t.caught++
						}
					} else {
						t.neg++
						if lv >= 2 {
							t.falseCrisis++
						}
					}
				}
			}
		}
	}
	var srcs []string
	for s := range res[0] {
		srcs = append(srcs, s)
	}
	sort.Strings(srcs)
	fmt.Fprintf(out, "%d-fold cross-validation over %d rows (fold by id hash; model trained on the other folds)\n", k, len(rows))
	for ci, c := range configs {
		fmt.Fprintf(out, "%-34s", c.name)
		for _, s := range srcs {
			t := res[ci][s]
			fmt.Fprintf(out, "  %s:", s)
			if t.pos > 0 {
				fmt.Fprintf(out, " recall %.3f (%d/%d)", ratio(t.caught, t.pos), t.caught, t.pos)
			}
			if t.neg > 0 {
				fmt.Fprintf(out, " fc %.3f (%d/%d)", ratio(t.falseCrisis, t.neg), t.falseCrisis, t.neg)
			}
		}
		fmt.Fprintln(out)
	}
	return nil
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

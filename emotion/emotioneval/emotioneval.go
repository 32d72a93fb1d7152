// Package emotioneval measures an emotion reader on GoEmotions files:
// macro-F1 over the 28 labels and valence accuracy on the Ekman grouping.
// It reads the files and reports figures and label names, never message
// text.
package emotioneval

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/havenbot/haven/emotion"
)

// Row is one labelled text: Labels has bit i set for label id i (see
// emotion.Labels).
type Row struct {
	Text   string
	Labels uint32
}

// ReadTSV reads a GoEmotions split: text, a tab, comma-separated label ids
// (0-27), a tab, a comment id. A malformed line is an error that names the
// file and line.
func ReadTSV(path string) ([]Row, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	var rows []Row
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			continue
		}
		parts := strings.Split(line, "\t")
		if len(parts) < 2 {
			return nil, fmt.Errorf("read %s: line %d: want text, a tab and label ids", path, n)
		}
		var r Row
		r.Text = parts[0]
		for _, id := range strings.Split(parts[1], ",") {
			i, err := strconv.Atoi(strings.TrimSpace(id))
			if err != nil || i < 0 || i >= len(emotion.Labels) {
				return nil, fmt.Errorf("read %s: line %d: label id %q is not 0-%d", path, n, id, len(emotion.Labels)-1)
			}
			r.Labels |= 1 << i
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("read %s: no rows", path)
	}
	return rows, nil
}

// LabelFigures are one label's figures.
type LabelFigures struct {
	Label                 emotion.Label
	Support               int // rows with the label
	Predicted             int // rows read with it
	Precision, Recall, F1 float64
}

// Report is a reader's figures on a set of rows.
type Report struct {
	Rows int
	// MacroF1 is the unweighted mean of the 28 labels' F1; MicroF1 pools
	// every label decision.
	MacroF1, MicroF1 float64
	Labels           []LabelFigures
	// ValenceAccuracy is the share of rows whose read valence is the
	// valence of their gold labels (GoldValence).
	ValenceAccuracy float64
	// Valence counts rows by gold valence, then read valence.
	Valence map[emotion.Valence]map[emotion.Valence]int
}

// GoldValence is the valence of a row's gold labels: emotion.ValenceOf
// with every gold label at probability 1 (so a row labelled with both a
// positive and a negative emotion is Ambiguous).
func GoldValence(labels uint32) emotion.Valence {
	return emotion.ValenceOf(scores(labels))
}

func scores(labels uint32) []emotion.Score {
	var s []emotion.Score
	for i, l := range emotion.Labels {
		if labels&(1<<i) != 0 {
			s = append(s, emotion.Score{Label: l, P: 1})
		}
	}
	return s
}

// Evaluate reads every row with read and compares with the gold labels.
func Evaluate(rows []Row, read func(string) emotion.Reading) Report {
	k := len(emotion.Labels)
	tp, fp, fn := make([]int, k), make([]int, k), make([]int, k)
	rep := Report{Rows: len(rows), Valence: map[emotion.Valence]map[emotion.Valence]int{}}
	right := 0
	for _, r := range rows {
		got := read(r.Text)
		var pred uint32
		for _, s := range got.Emotions {
			for i, l := range emotion.Labels {
				if s.Label == l {
					pred |= 1 << i
				}
			}
		}
		for i := range k {
			g, p := r.Labels&(1<<i) != 0, pred&(1<<i) != 0
			switch {
			case g && p:
				tp[i]++
			case p:
				fp[i]++
			case g:
				fn[i]++
			}
		}
		gv := GoldValence(r.Labels)
		if rep.Valence[gv] == nil {
			rep.Valence[gv] = map[emotion.Valence]int{}
		}
		rep.Valence[gv][got.Valence]++
		if gv == got.Valence {
			right++
		}
	}
	var sTP, sFP, sFN int
	for i, l := range emotion.Labels {
		f := LabelFigures{Label: l, Support: tp[i] + fn[i], Predicted: tp[i] + fp[i]}
		f.Precision, f.Recall, f.F1 = PRF(tp[i], fp[i], fn[i])
		rep.Labels = append(rep.Labels, f)
		rep.MacroF1 += f.F1 / float64(k)
		sTP, sFP, sFN = sTP+tp[i], sFP+fp[i], sFN+fn[i]
	}
	_, _, rep.MicroF1 = PRF(sTP, sFP, sFN)
	if len(rows) > 0 {
		rep.ValenceAccuracy = float64(right) / float64(len(rows))
	}
	return rep
}

// PRF returns precision, recall and F1 from counts (0 where undefined).
func PRF(tp, fp, fn int) (p, r, f float64) {
	if tp+fp > 0 {
		p = float64(tp) / float64(tp+fp)
	}
	if tp+fn > 0 {
		r = float64(tp) / float64(tp+fn)
	}
	if p+r > 0 {
		f = 2 * p * r / (p + r)
	}
	return p, r, f
}

package lr

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// Example is one training text, featurized (see NewDoc), with its label and
// its weight (0 counts as 1).
type Example struct {
	Doc      Doc
	Positive bool
	Weight   float32
}

// TrainOptions set the learner. Zero values take the defaults.
type TrainOptions struct {
	// Bits is the hash space of the examples' docs (default Bits).
	Bits uint
	// Epochs of AdaGrad passes over the shuffled examples (default 4).
	Epochs int
	// L2 is the weight decay added to each touched weight's gradient
	// (default 1e-4).
	L2 float64
	// Rate is the AdaGrad base learning rate (default 0.1).
	Rate float64
	// Seed fixes the shuffle order.
	Seed uint64
}

func (o *TrainOptions) defaults() error {
	if o.Bits == 0 {
		o.Bits = Bits
	}
	if o.Bits < 8 || o.Bits > 24 {
		return fmt.Errorf("bits %d out of range 8-24", o.Bits)
	}
	if o.Epochs == 0 {
		o.Epochs = 4
	}
	if o.L2 == 0 {
		o.L2 = 1e-4
	}
	if o.Rate == 0 {
		o.Rate = 0.1
	}
	return nil
}

// Train fits a model to examples: the idf table from their document
// frequencies (smoothed: ln((1+N)/(1+df)) + 1, quantized as the file stores
// it), then a class-balanced, example-weighted logistic regression on the
// L2-normalized tf-idf vectors by AdaGrad. The thresholds are left at 1
// (never raise) for the caller to set. It runs on one goroutine and is
// deterministic: the same examples and options give the same model, bit for
// bit.
func Train(examples []Example, opts TrainOptions) (*Model, error) {
	if err := opts.defaults(); err != nil {
		return nil, fmt.Errorf("lr: train: %w", err)
	}
	if len(examples) == 0 {
		return nil, errors.New("lr: train: no examples")
	}
	n := 1 << opts.Bits
	var wPos, wNeg float64
	df := make([]int32, n)
	for i, ex := range examples {
		for _, id := range ex.Doc.IDs {
			if id >= uint32(n) {
				return nil, fmt.Errorf("lr: train: example %d has bucket %d outside %d hash bits", i, id, opts.Bits)
			}
			df[id]++
		}
		if ex.Positive {
			wPos += weight(ex)
		} else {
			wNeg += weight(ex)
		}
	}
	if wPos == 0 || wNeg == 0 {
		return nil, errors.New("lr: train: need both positive and negative examples")
	}
	idf := make([]float64, n)
	for i, d := range df {
		idf[i] = math.Log(float64(1+len(examples))/float64(1+d)) + 1
	}
	m := &Model{bits: opts.Bits, Raise: 1, High: 1}
	var qidf []uint8
	m.idfBase, m.idfStep, qidf = quantizeIDF(idf)
	m.cells = make([]cell, n)
	for i := range m.cells {
		m.cells[i].idf = qidf[i]
	}
	idf32 := m.idf()
	// Inverse L2 norm of each example's tf-idf vector.
	inv := make([]float32, len(examples))
	for i, ex := range examples {
		var nn float64
		for k, id := range ex.Doc.IDs {
			v := float64(ex.Doc.TF[k] * idf32[id])
			nn += v * v
		}
		if nn > 0 {
			inv[i] = float32(1 / math.Sqrt(nn))
		}
	}
	// Balance the classes: each carries half the total weight.
	cPos, cNeg := (wPos+wNeg)/(2*wPos), (wPos+wNeg)/(2*wNeg)
	w := make([]float64, n)
	g2 := make([]float64, n)
	var bias, bg2 float64
	order := make([]int32, len(examples))
	for i := range order {
		order[i] = int32(i)
	}
	rng := rand.New(rand.NewPCG(opts.Seed, opts.Seed^0x9e3779b97f4a7c15))
	for ep := 0; ep < opts.Epochs; ep++ {
		rng.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
		for _, i := range order {
			ex := &examples[i]
			s := float64(inv[i])
			var z float64
			for k, id := range ex.Doc.IDs {
				z += w[id] * float64(ex.Doc.TF[k]*idf32[id])
			}
			p := sigmoid(z*s + bias)
			y, cw := 0.0, cNeg
			if ex.Positive {
				y, cw = 1, cPos
			}
			g := (p - y) * cw * weight(*ex)
			gs := g * s
			for k, id := range ex.Doc.IDs {
				gi := gs*float64(ex.Doc.TF[k]*idf32[id]) + opts.L2*w[id]
				g2[id] += gi * gi
				w[id] -= opts.Rate * gi / (math.Sqrt(g2[id]) + 1e-8)
			}
			bg2 += g * g
			bias -= opts.Rate * g / (math.Sqrt(bg2) + 1e-8)
		}
	}
	var qw []int8
	m.wScale, qw = quantizeWeights(w)
	for i := range m.cells {
		m.cells[i].w = qw[i]
	}
	m.bias = float32(bias)
	return m, nil
}

func weight(ex Example) float64 {
	if ex.Weight == 0 {
		return 1
	}
	return float64(ex.Weight)
}

package linear

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// MaxOutputs is the most outputs one training may have (labels are a bit
// set).
const MaxOutputs = 64

// Example is one training text, featurized (see NewDoc), with its labels
// (bit j set: positive for output j) and its weight (0 counts as 1).
type Example struct {
	Doc    Doc
	Labels uint64
	Weight float32
}

// TrainOptions set the learner. Zero values take the defaults.
type TrainOptions struct {
	// Bits is the hash space of the examples' docs (default Bits).
	Bits uint
	// Outputs is the number of outputs K, 1 to MaxOutputs (default 1).
	Outputs int
	// Epochs of AdaGrad passes over the shuffled examples (default 4).
	Epochs int
	// L2 is the weight decay added to each touched weight's gradient
	// (default 1e-4).
	L2 float64
	// Rate is the AdaGrad base learning rate (default 0.1).
	Rate float64
	// Balance sets the class weighting of each output: its positives and
	// negatives are weighted by (total / (2 * class weight))^Balance, so 1
	// gives each class half the total weight and 0 (the default) weights
	// examples as they are. Values in between soften the balancing (rare
	// labels gain less).
	Balance float64
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
	if o.Outputs == 0 {
		o.Outputs = 1
	}
	if o.Outputs < 1 || o.Outputs > MaxOutputs {
		return fmt.Errorf("outputs %d out of range 1-%d", o.Outputs, MaxOutputs)
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
	if o.Balance < 0 || o.Balance > 1 || math.IsNaN(o.Balance) {
		return fmt.Errorf("balance %v out of range 0-1", o.Balance)
	}
	return nil
}

// Weights is a trained model before quantization: the quantized idf table
// it was trained with, and float weights and biases. Quantize makes the
// Model that is shipped; Weights scores at full precision to measure what
// quantization costs.
type Weights struct {
	Bits    uint
	K       int
	IDFBase float32
	IDFStep float32
	IDF     []uint8
	// W holds the weights bucket-major: W[id*K+j] is output j's weight of
	// bucket id.
	W    []float64
	Bias []float64
}

// Train fits K logistic regressions to examples in one pass per epoch:
// the idf table from their document frequencies (smoothed: ln((1+N)/(1+df))
// + 1, quantized as the file stores it), then example-weighted,
// class-weighted (see TrainOptions.Balance) logistic regressions on the
// L2-normalized tf-idf vectors by AdaGrad. It runs on one goroutine and is
// deterministic: the same examples and options give the same weights, bit
// for bit.
func Train(examples []Example, opts TrainOptions) (*Weights, error) {
	if err := opts.defaults(); err != nil {
		return nil, fmt.Errorf("linear: train: %w", err)
	}
	if len(examples) == 0 {
		return nil, errors.New("linear: train: no examples")
	}
	n := 1 << opts.Bits
	k := opts.Outputs
	wPos, wNeg := make([]float64, k), make([]float64, k)
	df := make([]int32, n)
	for i, ex := range examples {
		for _, id := range ex.Doc.IDs {
			if id >= uint32(n) {
				return nil, fmt.Errorf("linear: train: example %d has bucket %d outside %d hash bits", i, id, opts.Bits)
			}
			df[id]++
		}
		if k < MaxOutputs && ex.Labels>>k != 0 {
			return nil, fmt.Errorf("linear: train: example %d has a label beyond output %d", i, k-1)
		}
		for j := range k {
			if ex.Labels&(1<<j) != 0 {
				wPos[j] += weight(ex)
			} else {
				wNeg[j] += weight(ex)
			}
		}
	}
	for j := range k {
		if wPos[j] == 0 || wNeg[j] == 0 {
			if k == 1 {
				return nil, errors.New("linear: train: need both positive and negative examples")
			}
			return nil, fmt.Errorf("linear: train: output %d needs both positive and negative examples", j)
		}
	}
	idf := make([]float64, n)
	for i, d := range df {
		idf[i] = math.Log(float64(1+len(examples))/float64(1+d)) + 1
	}
	m := &Weights{Bits: opts.Bits, K: k}
	m.IDFBase, m.IDFStep, m.IDF = QuantizeIDF(idf)
	idf32 := make([]float32, n)
	for i, q := range m.IDF {
		idf32[i] = m.IDFBase + float32(q)*m.IDFStep
	}
	// Inverse L2 norm of each example's tf-idf vector.
	inv := make([]float32, len(examples))
	for i, ex := range examples {
		var nn float64
		for t, id := range ex.Doc.IDs {
			v := float64(ex.Doc.TF[t] * idf32[id])
			nn += v * v
		}
		if nn > 0 {
			inv[i] = float32(1 / math.Sqrt(nn))
		}
	}
	cPos, cNeg := make([]float64, k), make([]float64, k)
	for j := range k {
		cPos[j], cNeg[j] = 1, 1
		switch opts.Balance {
		case 0:
		case 1:
			cPos[j], cNeg[j] = (wPos[j]+wNeg[j])/(2*wPos[j]), (wPos[j]+wNeg[j])/(2*wNeg[j])
		default:
			cPos[j] = math.Pow((wPos[j]+wNeg[j])/(2*wPos[j]), opts.Balance)
			cNeg[j] = math.Pow((wPos[j]+wNeg[j])/(2*wNeg[j]), opts.Balance)
		}
	}
	w := make([]float64, n*k)
	g2 := make([]float64, n*k)
	bias, bg2 := make([]float64, k), make([]float64, k)
	z, gs := make([]float64, k), make([]float64, k)
	var v []float64
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
			if k == 1 {
				// The single-output case without the inner loops (the
				// same arithmetic, in the same order).
				var z float64
				for t, id := range ex.Doc.IDs {
					z += w[id] * float64(ex.Doc.TF[t]*idf32[id])
				}
				p := Sigmoid(z*s + bias[0])
				y, cw := 0.0, cNeg[0]
				if ex.Labels&1 != 0 {
					y, cw = 1, cPos[0]
				}
				g := (p - y) * cw * weight(*ex)
				gs := g * s
				for t, id := range ex.Doc.IDs {
					gi := gs*float64(ex.Doc.TF[t]*idf32[id]) + opts.L2*w[id]
					g2[id] += gi * gi
					w[id] -= opts.Rate * gi / (math.Sqrt(g2[id]) + 1e-8)
				}
				bg2[0] += g * g
				bias[0] -= opts.Rate * g / (math.Sqrt(bg2[0]) + 1e-8)
				continue
			}
			v = v[:0]
			for t, id := range ex.Doc.IDs {
				v = append(v, float64(ex.Doc.TF[t]*idf32[id]))
			}
			clear(z)
			for t, id := range ex.Doc.IDs {
				row := w[int(id)*k : int(id)*k+k]
				for j, x := range row {
					z[j] += x * v[t]
				}
			}
			for j := range k {
				p := Sigmoid(z[j]*s + bias[j])
				y, cw := 0.0, cNeg[j]
				if ex.Labels&(1<<j) != 0 {
					y, cw = 1, cPos[j]
				}
				g := (p - y) * cw * weight(*ex)
				gs[j] = g * s
				bg2[j] += g * g
				bias[j] -= opts.Rate * g / (math.Sqrt(bg2[j]) + 1e-8)
			}
			for t, id := range ex.Doc.IDs {
				row := w[int(id)*k : int(id)*k+k]
				acc := g2[int(id)*k : int(id)*k+k]
				for j := range row {
					gi := gs[j]*v[t] + opts.L2*row[j]
					acc[j] += gi * gi
					row[j] -= opts.Rate * gi / (math.Sqrt(acc[j]) + 1e-8)
				}
			}
		}
	}
	m.W, m.Bias = w, bias
	return m, nil
}

func weight(ex Example) float64 {
	if ex.Weight == 0 {
		return 1
	}
	return float64(ex.Weight)
}

// Quantize returns the shipped form of the weights: int8 weights with one
// scale per output, float32 biases.
func (m *Weights) Quantize() *Model {
	n := 1 << m.Bits
	bias, scale := make([]float32, m.K), make([]float32, m.K)
	ws := make([][]int8, m.K)
	col := make([]float64, n)
	for j := range m.K {
		for i := range n {
			col[i] = m.W[i*m.K+j]
		}
		scale[j], ws[j] = QuantizeWeights(col)
		bias[j] = float32(m.Bias[j])
	}
	q, err := NewModel(m.Bits, m.IDFBase, m.IDFStep, m.IDF, bias, scale, ws)
	if err != nil {
		// Train makes only well-formed weights.
		panic(fmt.Sprintf("linear: quantize: %v", err))
	}
	return q
}

// Logits writes to z (len(z) >= K) each output's log-odds for canon at full
// precision (see Model.Logits). It is for measurement, not speed.
func (m *Weights) Logits(canon string, z []float64) {
	d := NewDoc(canon, m.Bits)
	var nn float64
	dot := make([]float64, m.K)
	for t, id := range d.IDs {
		v := float64(d.TF[t] * (m.IDFBase + float32(m.IDF[id])*m.IDFStep))
		nn += v * v
		for j := range m.K {
			dot[j] += m.W[int(id)*m.K+j] * v
		}
	}
	for j := range m.K {
		z[j] = m.Bias[j]
		if nn > 0 {
			z[j] += dot[j] / math.Sqrt(nn)
		}
	}
}

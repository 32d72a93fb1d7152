// Package linear is Haven's shared linear text classifier: hashed word 1-2-
// grams and character 3-5-grams of a canonical text, weighted by sublinear
// term frequency times an idf table and L2-normalized, scored by one or more
// logistic regressions that share that one feature pass; their training
// (AdaGrad, one goroutine, deterministic); and a compact quantized form.
// The crisis gate (safety) and the emotion reader (emotion) both build on
// it, so neither depends on the other. It uses only the standard library
// and does no I/O of its own.
package linear

import (
	"fmt"
	"math"
	"sync"
)

// Model is a trained, quantized set of K logistic regressions over one
// feature space: one idf byte per bucket, and per output a bias and an int8
// weight per bucket with one scale. It is read-only after it is built and
// safe for concurrent use.
type Model struct {
	bits    uint
	k       int
	idfBase float32
	idfStep float32
	bias    []float32
	scale   []float32
	// rows holds, per bucket, its idf byte then its K weights (int8 as
	// bytes): stride 1+K, so that one feature reads one short run.
	rows []byte
}

// NewModel assembles a model from its quantized parts: hash bits (8 to
// 24), the idf table's base and step with one byte per bucket, and per
// output a bias, a weight scale and one int8 weight per bucket. It checks
// the sizes and that every number is finite.
func NewModel(bits uint, idfBase, idfStep float32, idf []uint8, bias, scale []float32, weights [][]int8) (*Model, error) {
	if bits < 8 || bits > 24 {
		return nil, fmt.Errorf("linear: hash bits %d out of range 8-24", bits)
	}
	n := 1 << bits
	if len(idf) != n {
		return nil, fmt.Errorf("linear: %d idf bytes for %d buckets", len(idf), n)
	}
	k := len(weights)
	if k == 0 {
		return nil, fmt.Errorf("linear: a model needs at least one output")
	}
	if len(bias) != k || len(scale) != k {
		return nil, fmt.Errorf("linear: %d outputs with %d biases and %d scales", k, len(bias), len(scale))
	}
	if !finite(idfBase) || !finite(idfStep) {
		return nil, fmt.Errorf("linear: idf base or step is not a finite number")
	}
	for j := range k {
		if len(weights[j]) != n {
			return nil, fmt.Errorf("linear: output %d has %d weights for %d buckets", j, len(weights[j]), n)
		}
		if !finite(bias[j]) || !finite(scale[j]) {
			return nil, fmt.Errorf("linear: output %d bias or weight scale is not a finite number", j)
		}
	}
	m := &Model{bits: bits, k: k, idfBase: idfBase, idfStep: idfStep,
		bias: append([]float32(nil), bias...), scale: append([]float32(nil), scale...),
		rows: make([]byte, n*(1+k))}
	for i := range n {
		r := m.rows[i*(1+k):]
		r[0] = idf[i]
		for j := range k {
			r[1+j] = byte(weights[j][i])
		}
	}
	return m, nil
}

func finite(x float32) bool {
	f := float64(x)
	return !math.IsNaN(f) && !math.IsInf(f, 0)
}

// Bits returns the model's hash bits.
func (m *Model) Bits() uint { return m.bits }

// Outputs returns the number of outputs K.
func (m *Model) Outputs() int { return m.k }

// IDF returns the idf table's base and step, and the idf byte of every
// bucket (a copy).
func (m *Model) IDF() (base, step float32, idf []uint8) {
	n := 1 << m.bits
	idf = make([]uint8, n)
	for i := range n {
		idf[i] = m.rows[i*(1+m.k)]
	}
	return m.idfBase, m.idfStep, idf
}

// Output returns output j's bias, weight scale and weights (a copy).
func (m *Model) Output(j int) (bias, scale float32, weights []int8) {
	n := 1 << m.bits
	weights = make([]int8, n)
	for i := range n {
		weights[i] = int8(m.rows[i*(1+m.k)+1+j])
	}
	return m.bias[j], m.scale[j], weights
}

// scratch is the per-call working memory of scoring, pooled so that it
// allocates nothing in the steady state.
type scratch struct {
	ids []uint32
	c   counter
	dot []float64
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// maxPooledIDs bounds the buffers returned to the pool: one huge text must
// not pin its buffers for ever.
const maxPooledIDs = 1 << 16

// Logits writes to z (len(z) >= K) each output's log-odds for canon, a
// canonical text (see AppendHashes): bias + scale * (w . x) / |x| with x the
// text's tf-idf vector; an empty text gives the biases. The features are
// computed once for all outputs.
func (m *Model) Logits(canon string, z []float64) {
	s := scratchPool.Get().(*scratch)
	s.ids = AppendHashes(s.ids[:0], canon, m.bits)
	s.c.count(s.ids)
	k := m.k
	if cap(s.dot) < k {
		s.dot = make([]float64, k)
	}
	dot := s.dot[:k]
	clear(dot)
	var nn float64
	stride := 1 + k
	if k == 1 {
		// The common single-output case without the inner loop.
		var d float64
		for _, slot := range s.c.used {
			r := m.rows[int(s.c.keys[slot]-1)*2:]
			v := float64(TF(int(s.c.counts[slot])) * (m.idfBase + float32(r[0])*m.idfStep))
			d += float64(int8(r[1])) * v
			nn += v * v
		}
		dot[0] = d
	} else {
		for _, slot := range s.c.used {
			off := int(s.c.keys[slot]-1) * stride
			r := m.rows[off : off+stride]
			v := float64(TF(int(s.c.counts[slot])) * (m.idfBase + float32(r[0])*m.idfStep))
			nn += v * v
			for j, w := range r[1:] {
				dot[j] += float64(int8(w)) * v
			}
		}
	}
	for j := range k {
		z[j] = float64(m.bias[j])
		if nn > 0 {
			z[j] += dot[j] * float64(m.scale[j]) / math.Sqrt(nn)
		}
	}
	if cap(s.ids) <= maxPooledIDs {
		scratchPool.Put(s)
	}
}

// Probs writes to p (len(p) >= K) each output's probability for canon:
// the logistic of its Logits.
func (m *Model) Probs(canon string, p []float64) {
	m.Logits(canon, p)
	for j := range m.k {
		p[j] = Sigmoid(p[j])
	}
}

// Sigmoid is the logistic function 1 / (1 + e^-z).
func Sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

// QuantizeIDF maps an idf table to a base, a step and one byte per bucket
// (round to nearest).
func QuantizeIDF(idf []float64) (base, step float32, q []uint8) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range idf {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	base, step = float32(lo), float32((hi-lo)/255)
	q = make([]uint8, len(idf))
	if step == 0 {
		return base, step, q
	}
	for i, x := range idf {
		q[i] = uint8(math.Round((x - float64(base)) / float64(step)))
	}
	return base, step, q
}

// QuantizeWeights maps weights to int8 with one scale (the largest
// magnitude maps to 127; all zero gives scale 1).
func QuantizeWeights(w []float64) (scale float32, q []int8) {
	var maxAbs float64
	for _, x := range w {
		maxAbs = math.Max(maxAbs, math.Abs(x))
	}
	scale = float32(maxAbs / 127)
	q = make([]int8, len(w))
	if scale == 0 {
		return 1, q
	}
	for i, x := range w {
		q[i] = int8(math.Round(x / float64(scale)))
	}
	return scale, q
}

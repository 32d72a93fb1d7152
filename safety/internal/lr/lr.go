// Package lr is the crisis floor's learned component: a logistic regression
// over hashed word and character n-grams of the canonical text (see
// safety.Normalize), its training, and its compact binary file format. It
// has no dependency outside the standard library and does no I/O of its
// own.
package lr

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// Bits is the default size of the feature hash space (2^Bits weights).
const Bits = 18

// magic starts every model file.
const magic = "HVNLR1\n"

// Model is a trained logistic regression. It is read-only after training and
// safe for concurrent use.
type Model struct {
	bits uint
	bias float32
	w    []float32
}

// Features appends to dst the hashed feature ids of canon, a canonical text
// (lowercase words separated by single spaces): word unigrams and bigrams,
// and character 3- to 5-grams of each word with its boundaries. A feature
// that occurs several times is listed as often (term counts).
func Features(dst []uint32, canon string, bits uint) []uint32 {
	mask := uint32(1)<<bits - 1
	prevStart, prevEnd := -1, -1
	for i := 0; i < len(canon); {
		for i < len(canon) && canon[i] == ' ' {
			i++
		}
		j := i
		for j < len(canon) && canon[j] != ' ' {
			j++
		}
		if j == i {
			break
		}
		w := canon[i:j]
		dst = append(dst, hash(1, w, "")&mask)
		if prevStart >= 0 {
			dst = append(dst, hash(2, canon[prevStart:prevEnd], w)&mask)
		}
		prevStart, prevEnd = i, j
		if w != "." && len(w) <= 40 {
			// Character n-grams of " word ".
			var buf [42]byte
			buf[0] = ' '
			copy(buf[1:], w)
			buf[len(w)+1] = ' '
			pw := buf[:len(w)+2]
			for n := 3; n <= 5; n++ {
				for k := 0; k+n <= len(pw); k++ {
					dst = append(dst, hashBytes(byte(n), pw[k:k+n])&mask)
				}
			}
		}
		i = j
	}
	return dst
}

// FNV-1a, seeded with the feature kind.
func hash(kind byte, a, b string) uint32 {
	h := uint32(2166136261)
	h ^= uint32(kind)
	h *= 16777619
	for i := 0; i < len(a); i++ {
		h ^= uint32(a[i])
		h *= 16777619
	}
	if b != "" {
		h ^= ' '
		h *= 16777619
		for i := 0; i < len(b); i++ {
			h ^= uint32(b[i])
			h *= 16777619
		}
	}
	return h
}

func hashBytes(kind byte, a []byte) uint32 {
	h := uint32(2166136261)
	h ^= uint32(kind) + 16
	h *= 16777619
	for _, c := range a {
		h ^= uint32(c)
		h *= 16777619
	}
	return h
}

// Score returns the model's probability that canon is a crisis text.
func (m *Model) Score(canon string) float64 {
	var stack [1024]uint32
	return m.scoreIDs(Features(stack[:0], canon, m.bits))
}

func (m *Model) scoreIDs(ids []uint32) float64 {
	if len(ids) == 0 {
		return sigmoid(float64(m.bias))
	}
	var z float64
	for _, id := range ids {
		z += float64(m.w[id])
	}
	z /= math.Sqrt(float64(len(ids)))
	return sigmoid(z + float64(m.bias))
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

// Example is one training text (canonical form) with its label.
type Example struct {
	Canon    string
	Positive bool
}

// TrainOptions set the learner.
type TrainOptions struct {
	// Bits is the hash space size (0 = Bits).
	Bits uint
	// Epochs of AdaGrad (0 = 12).
	Epochs int
	// L2 is the weight decay per update (0 = 1e-5).
	L2 float64
	// Rate is the AdaGrad base learning rate (0 = 0.5).
	Rate float64
	// Seed fixes the shuffle order so training is reproducible.
	Seed uint64
}

// Train fits a model to examples. It is deterministic for a given seed.
func Train(examples []Example, opts TrainOptions) (*Model, error) {
	if len(examples) == 0 {
		return nil, errors.New("lr: train: no examples")
	}
	if opts.Bits == 0 {
		opts.Bits = Bits
	}
	if opts.Bits < 8 || opts.Bits > 24 {
		return nil, fmt.Errorf("lr: train: bits %d out of range 8-24", opts.Bits)
	}
	if opts.Epochs == 0 {
		opts.Epochs = 12
	}
	if opts.L2 == 0 {
		opts.L2 = 1e-5
	}
	if opts.Rate == 0 {
		opts.Rate = 0.5
	}
	feats := make([][]uint32, len(examples))
	var pos, neg float64
	for i, ex := range examples {
		feats[i] = Features(nil, ex.Canon, opts.Bits)
		if ex.Positive {
			pos++
		} else {
			neg++
		}
	}
	if pos == 0 || neg == 0 {
		return nil, errors.New("lr: train: need both positive and negative examples")
	}
	// Balance the classes.
	wPos, wNeg := (pos+neg)/(2*pos), (pos+neg)/(2*neg)
	n := 1 << opts.Bits
	w := make([]float64, n)
	g2 := make([]float64, n)
	var bias, bg2 float64
	order := make([]int, len(examples))
	for i := range order {
		order[i] = i
	}
	rng := rand.New(rand.NewPCG(opts.Seed, opts.Seed^0x9e3779b97f4a7c15))
	for ep := 0; ep < opts.Epochs; ep++ {
		rng.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
		for _, i := range order {
			ids := feats[i]
			scale := 1.0
			if len(ids) > 0 {
				scale = 1 / math.Sqrt(float64(len(ids)))
			}
			var z float64
			for _, id := range ids {
				z += w[id]
			}
			p := sigmoid(z*scale + bias)
			y, cw := 0.0, wNeg
			if examples[i].Positive {
				y, cw = 1, wPos
			}
			g := (p - y) * cw
			for _, id := range ids {
				// A repeated id gets one update per occurrence, which adds
				// up to its count times the gradient.
				gi := g*scale + opts.L2*w[id]
				g2[id] += gi * gi
				w[id] -= opts.Rate * gi / (math.Sqrt(g2[id]) + 1e-8)
			}
			bg2 += g * g
			bias -= opts.Rate * g / (math.Sqrt(bg2) + 1e-8)
		}
	}
	m := &Model{bits: opts.Bits, bias: float32(bias), w: make([]float32, n)}
	for i, x := range w {
		m.w[i] = float32(x)
	}
	return m, nil
}

// MarshalBinary encodes the model: a magic line, the hash bits, the bias,
// then the weights quantized to int16 with one float32 scale, little-endian.
func (m *Model) MarshalBinary() ([]byte, error) {
	var maxAbs float32
	for _, x := range m.w {
		if a := float32(math.Abs(float64(x))); a > maxAbs {
			maxAbs = a
		}
	}
	scale := maxAbs / 32767
	if scale == 0 {
		scale = 1
	}
	var b bytes.Buffer
	b.WriteString(magic)
	_ = binary.Write(&b, binary.LittleEndian, uint32(m.bits))
	_ = binary.Write(&b, binary.LittleEndian, m.bias)
	_ = binary.Write(&b, binary.LittleEndian, scale)
	q := make([]int16, len(m.w))
	for i, x := range m.w {
		q[i] = int16(math.Round(float64(x / scale)))
	}
	_ = binary.Write(&b, binary.LittleEndian, q)
	return b.Bytes(), nil
}

// UnmarshalBinary decodes a model written by MarshalBinary. It returns an
// error naming what is wrong with a damaged or foreign file.
func UnmarshalBinary(data []byte) (*Model, error) {
	if !bytes.HasPrefix(data, []byte(magic)) {
		return nil, errors.New("lr: model file does not start with the model magic: not a model written by safety/internal/train")
	}
	r := bytes.NewReader(data[len(magic):])
	var bits uint32
	var bias, scale float32
	if err := binary.Read(r, binary.LittleEndian, &bits); err != nil {
		return nil, fmt.Errorf("lr: read model header: %w", err)
	}
	if bits < 8 || bits > 24 {
		return nil, fmt.Errorf("lr: model hash bits %d out of range 8-24", bits)
	}
	if err := binary.Read(r, binary.LittleEndian, &bias); err != nil {
		return nil, fmt.Errorf("lr: read model bias: %w", err)
	}
	if err := binary.Read(r, binary.LittleEndian, &scale); err != nil {
		return nil, fmt.Errorf("lr: read model scale: %w", err)
	}
	n := 1 << bits
	if r.Len() != 2*n {
		return nil, fmt.Errorf("lr: model has %d weight bytes, want %d for %d hash bits", r.Len(), 2*n, bits)
	}
	q := make([]int16, n)
	if err := binary.Read(r, binary.LittleEndian, q); err != nil {
		return nil, fmt.Errorf("lr: read model weights: %w", err)
	}
	m := &Model{bits: uint(bits), bias: bias, w: make([]float32, n)}
	for i, x := range q {
		m.w[i] = float32(x) * scale
	}
	return m, nil
}

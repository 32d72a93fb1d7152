// Package lr is the crisis floor's learned component: a logistic regression
// over hashed word 1-2-grams and character 3-5-grams of the canonical text
// (see safety.Normalize), weighted by sublinear term frequency times an idf
// table and L2-normalized; its training; and its compact binary file. It
// uses only the standard library and does no I/O of its own.
package lr

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"sync"
)

// magic starts every model file; the digit is the format version.
const magic = "HVNLR2\n"

// headerSize is the fixed part after the magic: bits (uint32), bias,
// weight scale, idf base and idf step (float32 each), and the two
// thresholds (float64 each).
const headerSize = 4 + 4*4 + 2*8

// cell is one hash bucket: its weight (times the model's weight scale) and
// its idf (idfBase + idf*idfStep).
type cell struct {
	w   int8
	idf uint8
}

// Model is a trained, quantized logistic regression. It is read-only after
// training or loading and safe for concurrent use.
type Model struct {
	bits    uint
	bias    float32
	wScale  float32
	idfBase float32
	idfStep float32
	cells   []cell
	// Raise is the score at and above which the floor raises an unsure
	// verdict to level 2; High the score that, with a timing or means cue,
	// makes level 3. Both are chosen from out-of-fold scores at training;
	// above 1 means never.
	Raise, High float64
}

// Bits returns the model's hash bits.
func (m *Model) Bits() uint { return m.bits }

// scratch is the per-call working memory of Score, pooled so that scoring
// allocates nothing in the steady state.
type scratch struct {
	ids []uint32
	c   counter
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// maxPooledIDs bounds the buffers returned to the pool: one huge text must
// not pin its buffers for ever.
const maxPooledIDs = 1 << 16

// Score returns the model's probability that canon, a canonical text, is a
// crisis text (the writer's suicidal ideation, intent, attempt or
// self-injury).
func (m *Model) Score(canon string) float64 {
	s := scratchPool.Get().(*scratch)
	s.ids = AppendHashes(s.ids[:0], canon, m.bits)
	s.c.count(s.ids)
	var dot, nn float64
	for _, slot := range s.c.used {
		c := m.cells[s.c.keys[slot]-1]
		v := float64(TF(int(s.c.counts[slot])) * (m.idfBase + float32(c.idf)*m.idfStep))
		dot += float64(c.w) * v
		nn += v * v
	}
	if cap(s.ids) <= maxPooledIDs {
		scratchPool.Put(s)
	}
	z := float64(m.bias)
	if nn > 0 {
		z += dot * float64(m.wScale) / math.Sqrt(nn)
	}
	return sigmoid(z)
}

// idf returns the dequantized idf table.
func (m *Model) idf() []float32 {
	t := make([]float32, len(m.cells))
	for i, c := range m.cells {
		t[i] = m.idfBase + float32(c.idf)*m.idfStep
	}
	return t
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

// quantizeIDF maps an idf table to a base, a step and one byte per bucket.
func quantizeIDF(idf []float64) (base, step float32, q []uint8) {
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

// quantizeWeights maps weights to int8 with one scale.
func quantizeWeights(w []float64) (scale float32, q []int8) {
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

// MarshalBinary encodes the model: the magic line, the header
// (little-endian), two bytes per bucket (int8 weight, uint8 idf), and a
// CRC-32 (IEEE) of everything before it. The same model always encodes to
// the same bytes.
func (m *Model) MarshalBinary() ([]byte, error) {
	var b bytes.Buffer
	b.Grow(len(magic) + headerSize + 2*len(m.cells) + 4)
	b.WriteString(magic)
	le := binary.LittleEndian
	var h [headerSize]byte
	le.PutUint32(h[0:], uint32(m.bits))
	le.PutUint32(h[4:], math.Float32bits(m.bias))
	le.PutUint32(h[8:], math.Float32bits(m.wScale))
	le.PutUint32(h[12:], math.Float32bits(m.idfBase))
	le.PutUint32(h[16:], math.Float32bits(m.idfStep))
	le.PutUint64(h[20:], math.Float64bits(m.Raise))
	le.PutUint64(h[28:], math.Float64bits(m.High))
	b.Write(h[:])
	for _, c := range m.cells {
		b.WriteByte(byte(c.w))
		b.WriteByte(c.idf)
	}
	var sum [4]byte
	le.PutUint32(sum[:], crc32.ChecksumIEEE(b.Bytes()))
	b.Write(sum[:])
	return b.Bytes(), nil
}

// UnmarshalBinary decodes a model written by MarshalBinary. A damaged,
// truncated or foreign file gets an error that names what is wrong.
func UnmarshalBinary(data []byte) (*Model, error) {
	if !bytes.HasPrefix(data, []byte(magic)) {
		if bytes.HasPrefix(data, []byte("HVNLR")) {
			return nil, errors.New("lr: model file is of another format version: retrain it with safety/internal/train")
		}
		return nil, errors.New("lr: not a model file: it does not start with the model magic")
	}
	if len(data) < len(magic)+headerSize+4 {
		return nil, fmt.Errorf("lr: model file truncated: %d bytes, shorter than its header", len(data))
	}
	le := binary.LittleEndian
	h := data[len(magic):]
	bits := le.Uint32(h[0:])
	if bits < 8 || bits > 24 {
		return nil, fmt.Errorf("lr: model hash bits %d out of range 8-24", bits)
	}
	n := 1 << bits
	if want := len(magic) + headerSize + 2*n + 4; len(data) != want {
		return nil, fmt.Errorf("lr: model file is %d bytes, want %d for %d hash bits (truncated or padded)", len(data), want, bits)
	}
	body, sum := data[:len(data)-4], le.Uint32(data[len(data)-4:])
	if got := crc32.ChecksumIEEE(body); got != sum {
		return nil, fmt.Errorf("lr: model file damaged: checksum %08x, want %08x", got, sum)
	}
	m := &Model{
		bits:    uint(bits),
		bias:    math.Float32frombits(le.Uint32(h[4:])),
		wScale:  math.Float32frombits(le.Uint32(h[8:])),
		idfBase: math.Float32frombits(le.Uint32(h[12:])),
		idfStep: math.Float32frombits(le.Uint32(h[16:])),
		Raise:   math.Float64frombits(le.Uint64(h[20:])),
		High:    math.Float64frombits(le.Uint64(h[28:])),
	}
	for _, f := range []struct {
		name string
		x    float32
	}{{"bias", m.bias}, {"weight scale", m.wScale}, {"idf base", m.idfBase}, {"idf step", m.idfStep}} {
		if x := float64(f.x); math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("lr: model %s is not a finite number", f.name)
		}
	}
	for _, f := range []struct {
		name string
		t    float64
	}{{"raise", m.Raise}, {"high", m.High}} {
		if !(f.t > 0 && f.t <= 2) {
			return nil, fmt.Errorf("lr: model %s threshold %v outside (0, 2] (2: never)", f.name, f.t)
		}
	}
	cells := data[len(magic)+headerSize : len(data)-4]
	m.cells = make([]cell, n)
	for i := range m.cells {
		m.cells[i] = cell{w: int8(cells[2*i]), idf: cells[2*i+1]}
	}
	return m, nil
}

// Thresholds returns the Raise and High thresholds stored with the model.
func (m *Model) Thresholds() (raise, high float64) { return m.Raise, m.High }

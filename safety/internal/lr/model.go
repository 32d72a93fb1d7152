// Package lr is the crisis floor's learned component: one logistic
// regression of the shared linear classifier (internal/linear: hashed word
// 1-2-grams and character 3-5-grams of the canonical text, see
// safety.Normalize, sublinear tf x idf, L2-normalized), trained with
// balanced classes, with the two thresholds the floor reads, in the crisis
// model's own compact file format. It does no I/O of its own.
package lr

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"

	"github.com/havenbot/haven/internal/linear"
)

// magic starts every model file; the digit is the format version.
const magic = "HVNLR3\n"

// headerSize is the fixed part after the magic: bits (uint32), bias,
// weight scale, idf base and idf step (float32 each), and the three
// thresholds (float64 each).
const headerSize = 4 + 4*4 + 3*8

// Model is a trained, quantized crisis scorer. It is read-only after
// training or loading and safe for concurrent use.
type Model struct {
	lin *linear.Model
	// Raise is the score at and above which the floor raises an unsure
	// verdict to level 2; High the score that, with a timing or means cue,
	// makes level 3; Third a third slot (the post scorer leaves it at
	// never). The short-message scorer keeps its three thresholds, by
	// message length, in the three (see safety.Thresholds.ShortFor). All
	// are chosen from out-of-fold scores at training; above 1 means never.
	Raise, High, Third float64
}

// Bits returns the model's hash bits.
func (m *Model) Bits() uint { return m.lin.Bits() }

// Score returns the model's probability that canon, a canonical text, is a
// crisis text (the writer's suicidal ideation, intent, attempt or
// self-injury).
func (m *Model) Score(canon string) float64 {
	var z [1]float64
	m.lin.Logits(canon, z[:])
	return linear.Sigmoid(z[0])
}

// Thresholds returns the three thresholds stored with the model.
func (m *Model) Thresholds() (raise, high, third float64) { return m.Raise, m.High, m.Third }

// MarshalBinary encodes the model: the magic line, the header
// (little-endian), two bytes per bucket (int8 weight, uint8 idf), and a
// CRC-32 (IEEE) of everything before it. The same model always encodes to
// the same bytes.
func (m *Model) MarshalBinary() ([]byte, error) {
	bias, wScale, w := m.lin.Output(0)
	idfBase, idfStep, idf := m.lin.IDF()
	var b bytes.Buffer
	b.Grow(len(magic) + headerSize + 2*len(w) + 4)
	b.WriteString(magic)
	le := binary.LittleEndian
	var h [headerSize]byte
	le.PutUint32(h[0:], uint32(m.lin.Bits()))
	le.PutUint32(h[4:], math.Float32bits(bias))
	le.PutUint32(h[8:], math.Float32bits(wScale))
	le.PutUint32(h[12:], math.Float32bits(idfBase))
	le.PutUint32(h[16:], math.Float32bits(idfStep))
	le.PutUint64(h[20:], math.Float64bits(m.Raise))
	le.PutUint64(h[28:], math.Float64bits(m.High))
	le.PutUint64(h[36:], math.Float64bits(m.Third))
	b.Write(h[:])
	for i := range w {
		b.WriteByte(byte(w[i]))
		b.WriteByte(idf[i])
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
	bias := math.Float32frombits(le.Uint32(h[4:]))
	wScale := math.Float32frombits(le.Uint32(h[8:]))
	idfBase := math.Float32frombits(le.Uint32(h[12:]))
	idfStep := math.Float32frombits(le.Uint32(h[16:]))
	m := &Model{Raise: math.Float64frombits(le.Uint64(h[20:])), High: math.Float64frombits(le.Uint64(h[28:])), Third: math.Float64frombits(le.Uint64(h[36:]))}
	for _, f := range []struct {
		name string
		x    float32
	}{{"bias", bias}, {"weight scale", wScale}, {"idf base", idfBase}, {"idf step", idfStep}} {
		if x := float64(f.x); math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("lr: model %s is not a finite number", f.name)
		}
	}
	for _, f := range []struct {
		name string
		t    float64
	}{{"raise", m.Raise}, {"high", m.High}, {"third", m.Third}} {
		if !(f.t > 0 && f.t <= 2) {
			return nil, fmt.Errorf("lr: model %s threshold %v outside (0, 2] (2: never)", f.name, f.t)
		}
	}
	cells := data[len(magic)+headerSize : len(data)-4]
	w, idf := make([]int8, n), make([]uint8, n)
	for i := range n {
		w[i], idf[i] = int8(cells[2*i]), cells[2*i+1]
	}
	lin, err := linear.NewModel(uint(bits), idfBase, idfStep, idf, []float32{bias}, []float32{wScale}, [][]int8{w})
	if err != nil {
		return nil, fmt.Errorf("lr: %w", err)
	}
	m.lin = lin
	return m, nil
}

// Example is one training text, featurized (see linear.NewDoc), with its
// label and its weight (0 counts as 1).
type Example struct {
	Doc      linear.Doc
	Positive bool
	Weight   float32
}

// TrainOptions set the learner (see linear.TrainOptions; Outputs and
// Balance are ignored: the crisis scorer has one output and balanced
// classes).
type TrainOptions = linear.TrainOptions

// Train fits a crisis scorer to examples: linear.Train with one output and
// each class carrying half the total weight. The thresholds are left at 1
// (never raise) for the caller to set. It is deterministic: the same
// examples and options give the same model, bit for bit.
func Train(examples []Example, opts TrainOptions) (*Model, error) {
	opts.Outputs, opts.Balance = 1, 1
	ex := make([]linear.Example, len(examples))
	for i, e := range examples {
		ex[i] = linear.Example{Doc: e.Doc, Weight: e.Weight}
		if e.Positive {
			ex[i].Labels = 1
		}
	}
	w, err := linear.Train(ex, opts)
	if err != nil {
		return nil, fmt.Errorf("lr: %w", err)
	}
	return &Model{lin: w.Quantize(), Raise: 1, High: 1, Third: 1}, nil
}

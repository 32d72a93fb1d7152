package linear

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
)

// fileMagic starts every multi-output model file; the digit is the format
// version.
const fileMagic = "HVNLM1\n"

// Labelled is a model whose outputs are named and carry a decision
// threshold each (a probability in (0, 1]; 1 means never).
type Labelled struct {
	*Model
	Names      []string
	Thresholds []float64
}

// MarshalBinary encodes the model: the magic line; a header of hash bits,
// K, idf base and idf step; per output its bias and weight scale
// (float32), its threshold (float64) and its name (one length byte, then
// the bytes); per bucket its idf byte and its K int8 weights; and a CRC-32
// (IEEE) of everything before it. Numbers are little-endian. The same
// model always encodes to the same bytes.
func (l Labelled) MarshalBinary() ([]byte, error) {
	m := l.Model
	if m == nil {
		return nil, errors.New("linear: encode: no model")
	}
	if len(l.Names) != m.k || len(l.Thresholds) != m.k {
		return nil, fmt.Errorf("linear: encode: %d outputs with %d names and %d thresholds", m.k, len(l.Names), len(l.Thresholds))
	}
	le := binary.LittleEndian
	var b bytes.Buffer
	b.WriteString(fileMagic)
	b.Write(le.AppendUint32(nil, uint32(m.bits)))
	b.Write(le.AppendUint32(nil, uint32(m.k)))
	b.Write(le.AppendUint32(nil, math.Float32bits(m.idfBase)))
	b.Write(le.AppendUint32(nil, math.Float32bits(m.idfStep)))
	for j := range m.k {
		if len(l.Names[j]) > 255 {
			return nil, fmt.Errorf("linear: encode: output %d name is longer than 255 bytes", j)
		}
		if t := l.Thresholds[j]; !(t > 0 && t <= 1) {
			return nil, fmt.Errorf("linear: encode: output %d threshold %v outside (0, 1]", j, t)
		}
		b.Write(le.AppendUint32(nil, math.Float32bits(m.bias[j])))
		b.Write(le.AppendUint32(nil, math.Float32bits(m.scale[j])))
		b.Write(le.AppendUint64(nil, math.Float64bits(l.Thresholds[j])))
		b.WriteByte(byte(len(l.Names[j])))
		b.WriteString(l.Names[j])
	}
	b.Write(m.rows)
	b.Write(le.AppendUint32(nil, crc32.ChecksumIEEE(b.Bytes())))
	return b.Bytes(), nil
}

// UnmarshalLabelled decodes a file written by Labelled.MarshalBinary. A
// damaged, truncated or foreign file gets an error that names what is
// wrong.
func UnmarshalLabelled(data []byte) (Labelled, error) {
	if !bytes.HasPrefix(data, []byte(fileMagic)) {
		if bytes.HasPrefix(data, []byte("HVNLM")) {
			return Labelled{}, errors.New("linear: model file is of another format version: retrain it")
		}
		return Labelled{}, errors.New("linear: not a model file: it does not start with the model magic")
	}
	if len(data) < len(fileMagic)+16+4 {
		return Labelled{}, fmt.Errorf("linear: model file truncated: %d bytes, shorter than its header", len(data))
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if got := crc32.ChecksumIEEE(body); got != sum {
		return Labelled{}, fmt.Errorf("linear: model file damaged or truncated: checksum %08x, want %08x", got, sum)
	}
	le := binary.LittleEndian
	h := body[len(fileMagic):]
	bits, k := le.Uint32(h[0:]), le.Uint32(h[4:])
	if bits < 8 || bits > 24 {
		return Labelled{}, fmt.Errorf("linear: model hash bits %d out of range 8-24", bits)
	}
	if k < 1 || k > MaxOutputs {
		return Labelled{}, fmt.Errorf("linear: model has %d outputs, want 1-%d", k, MaxOutputs)
	}
	idfBase, idfStep := math.Float32frombits(le.Uint32(h[8:])), math.Float32frombits(le.Uint32(h[12:]))
	p := h[16:]
	l := Labelled{Names: make([]string, k), Thresholds: make([]float64, k)}
	bias, scale := make([]float32, k), make([]float32, k)
	for j := range int(k) {
		if len(p) < 17 {
			return Labelled{}, fmt.Errorf("linear: model file truncated in output %d's header", j)
		}
		bias[j] = math.Float32frombits(le.Uint32(p[0:]))
		scale[j] = math.Float32frombits(le.Uint32(p[4:]))
		l.Thresholds[j] = math.Float64frombits(le.Uint64(p[8:]))
		if t := l.Thresholds[j]; !(t > 0 && t <= 1) {
			return Labelled{}, fmt.Errorf("linear: model output %d threshold %v outside (0, 1]", j, t)
		}
		nl := int(p[16])
		if len(p) < 17+nl {
			return Labelled{}, fmt.Errorf("linear: model file truncated in output %d's name", j)
		}
		l.Names[j] = string(p[17 : 17+nl])
		p = p[17+nl:]
	}
	n := 1 << bits
	if want := n * (1 + int(k)); len(p) != want {
		return Labelled{}, fmt.Errorf("linear: model file has %d weight bytes, want %d for %d hash bits and %d outputs (truncated or padded)", len(p), want, bits, k)
	}
	if !finite(idfBase) || !finite(idfStep) {
		return Labelled{}, errors.New("linear: model idf base or step is not a finite number")
	}
	for j := range int(k) {
		if !finite(bias[j]) || !finite(scale[j]) {
			return Labelled{}, fmt.Errorf("linear: model output %d bias or weight scale is not a finite number", j)
		}
	}
	l.Model = &Model{bits: uint(bits), k: int(k), idfBase: idfBase, idfStep: idfStep,
		bias: bias, scale: scale, rows: bytes.Clone(p)}
	return l, nil
}

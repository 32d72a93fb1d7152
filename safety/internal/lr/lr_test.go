package lr

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/havenbot/haven/internal/linear"
)

// toy is a small separable set written for the test: crisis-like wording
// against everyday wording, in canonical form.
func toy() []Example {
	pos := []string{"i want to die", "i wish i was dead", "i want to end my life", "no reason to live anymore", "i cant go on i want to die", "thinking about ending my life"}
	neg := []string{"i want to eat pizza", "my exam went well", "i love my dog", "how do i fix my bike", "work was busy today", "i am going to the beach"}
	var ex []Example
	for i := 0; i < 5; i++ {
		for _, p := range pos {
			ex = append(ex, Example{Doc: linear.NewDoc(p, 14), Positive: true})
		}
		for _, n := range neg {
			ex = append(ex, Example{Doc: linear.NewDoc(n, 14)})
		}
	}
	return ex
}

func TestScoreIsTheLogisticOfTheSharedModelsLogit(t *testing.T) {
	m, err := Train(toy(), TrainOptions{Bits: 14, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	z := make([]float64, 1)
	for _, c := range []string{"i want to die", "i love my dog", ""} {
		m.lin.Logits(c, z)
		if got, want := m.Score(c), 1/(1+math.Exp(-z[0])); got != want {
			t.Errorf("Score(%q) = %v, want %v", c, got, want)
		}
	}
}

func TestScoreAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop items: allocations are counted without it")
	}
	m, err := Train(toy(), TrainOptions{Bits: 14, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	canon := strings.Repeat("i have been feeling really low lately and work keeps piling up . ", 5)
	m.Score(canon)
	if n := testing.AllocsPerRun(100, func() { m.Score(canon) }); n != 0 {
		t.Errorf("Score allocates %.1f times per call, want 0", n)
	}
}

func TestTrainSeparatesTheTrainingClasses(t *testing.T) {
	m, err := Train(toy(), TrainOptions{Bits: 14, Seed: 3, Epochs: 10, Rate: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		canon string
		pos   bool
	}{{"i want to die", true}, {"no reason to live anymore", true}, {"i love my dog", false}, {"work was busy today", false}} {
		p := m.Score(c.canon)
		if c.pos && p < 0.5 || !c.pos && p > 0.5 {
			t.Errorf("score(%q) = %.3f, positive=%v", c.canon, p, c.pos)
		}
	}
}

func TestTrainIsDeterministic(t *testing.T) {
	a, _ := Train(toy(), TrainOptions{Bits: 14, Seed: 9})
	b, _ := Train(toy(), TrainOptions{Bits: 14, Seed: 9})
	c, _ := Train(toy(), TrainOptions{Bits: 14, Seed: 10})
	da, _ := a.MarshalBinary()
	db, _ := b.MarshalBinary()
	dc, _ := c.MarshalBinary()
	if !bytes.Equal(da, db) {
		t.Error("two trainings on the same examples and seed differ")
	}
	if bytes.Equal(da, dc) {
		t.Error("the seed does not change the shuffle")
	}
}

func TestTrainRejectsBadInput(t *testing.T) {
	cases := []struct {
		name string
		ex   []Example
		opts TrainOptions
		want string
	}{
		{"no examples", nil, TrainOptions{}, "no examples"},
		{"one class", []Example{{Doc: linear.NewDoc("a", 18), Positive: true}}, TrainOptions{}, "both positive and negative"},
		{"bits out of range", toy(), TrainOptions{Bits: 30}, "bits 30 out of range"},
		{"doc from a larger hash space", toy(), TrainOptions{Bits: 10}, "outside 10 hash bits"},
	}
	for _, c := range cases {
		if _, err := Train(c.ex, c.opts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to contain %q", c.name, err, c.want)
		}
	}
}

func TestModelFileRoundTripKeepsScoresAndBytes(t *testing.T) {
	m, err := Train(toy(), TrainOptions{Bits: 14, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	m.Raise, m.High, m.Third = 0.8, 0.95, 0.9
	data, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if want := len(magic) + headerSize + 2<<14 + 4; len(data) != want {
		t.Errorf("file is %d bytes, want %d", len(data), want)
	}
	m2, err := UnmarshalBinary(data)
	if err != nil {
		t.Fatal(err)
	}
	if r, h, third := m2.Thresholds(); r != 0.8 || h != 0.95 || third != 0.9 {
		t.Errorf("thresholds after the round trip: %v %v %v", r, h, third)
	}
	for _, c := range []string{"i want to die", "i love my dog", "something never seen"} {
		if a, b := m.Score(c), m2.Score(c); a != b {
			t.Errorf("score(%q): %.6f before, %.6f after the round trip", c, a, b)
		}
	}
	again, _ := m2.MarshalBinary()
	if !bytes.Equal(data, again) {
		t.Error("re-encoding a loaded model changes its bytes")
	}
}

func TestUnmarshalNamesWhatIsWrong(t *testing.T) {
	m, _ := Train(toy(), TrainOptions{Bits: 14, Seed: 1})
	m.Raise, m.High = 0.8, 0.9
	good, _ := m.MarshalBinary()
	flipped := slices.Clone(good)
	flipped[len(flipped)/2] ^= 0x10
	resum := func(b []byte) []byte {
		b = slices.Clone(b)
		binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.ChecksumIEEE(b[:len(b)-4]))
		return b
	}
	badThreshold := slices.Clone(good)
	binary.LittleEndian.PutUint64(badThreshold[len(magic)+20:], math.Float64bits(-1))
	badThird := slices.Clone(good)
	binary.LittleEndian.PutUint64(badThird[len(magic)+36:], math.Float64bits(3))
	nanBias := slices.Clone(good)
	binary.LittleEndian.PutUint32(nanBias[len(magic)+4:], math.Float32bits(float32(math.NaN())))
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "not a model file"},
		{"foreign file", []byte("PK\x03\x04 not a model"), "not a model file"},
		{"older format", []byte("HVNLR1\n\x12\x00\x00\x00"), "another format version"},
		{"the two-threshold format", []byte("HVNLR2\n\x12\x00\x00\x00"), "another format version"},
		{"truncated header", good[:len(magic)+10], "truncated"},
		{"truncated weights", good[:len(good)-7], "want"},
		{"bad bits", resum(append(append([]byte(magic), 40, 0, 0, 0), make([]byte, headerSize)...)), "bits 40"},
		{"flipped byte", flipped, "damaged: checksum"},
		{"threshold out of range", resum(badThreshold), "raise threshold -1"},
		{"third threshold out of range", resum(badThird), "third threshold 3"},
		{"NaN bias", resum(nanBias), "bias is not a finite number"},
	}
	for _, c := range cases {
		if _, err := UnmarshalBinary(c.data); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to contain %q", c.name, err, c.want)
		}
	}
}

func BenchmarkScore300(b *testing.B) {
	m, err := Train(toy(), TrainOptions{Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	canon := "i have been feeling really low lately and work keeps piling up my manager adds tasks every day and i cant sleep . honestly some days i dont see the point of any of it but im trying to keep going for my kids . could you help me plan my week so it feels less overwhelming . thanks it means a lot to me"
	b.ReportAllocs()
	for b.Loop() {
		m.Score(canon)
	}
}

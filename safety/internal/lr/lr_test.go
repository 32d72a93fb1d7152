package lr

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math"
	"slices"
	"strings"
	"testing"
)

// toy is a small separable set written for the test: crisis-like wording
// against everyday wording, in canonical form.
func toy() []Example {
	pos := []string{"i want to die", "i wish i was dead", "i want to end my life", "no reason to live anymore", "i cant go on i want to die", "thinking about ending my life"}
	neg := []string{"i want to eat pizza", "my exam went well", "i love my dog", "how do i fix my bike", "work was busy today", "i am going to the beach"}
	var ex []Example
	for i := 0; i < 5; i++ {
		for _, p := range pos {
			ex = append(ex, Example{Doc: NewDoc(p, 14), Positive: true})
		}
		for _, n := range neg {
			ex = append(ex, Example{Doc: NewDoc(n, 14)})
		}
	}
	return ex
}

func TestAppendHashesCountsWordsBigramsAndCharacterGrams(t *testing.T) {
	cases := []struct {
		canon string
		want  int
	}{
		// 2 words + 1 bigram + " i " (one 3-gram) + " want " (4+3+2).
		{"i want", 2 + 1 + 1 + 9},
		// A sentence mark is no feature and breaks the bigram.
		{"i . want", 2 + 0 + 1 + 9},
		{"", 0},
		{"   ", 0},
		{" . ", 0},
	}
	for _, c := range cases {
		ids := AppendHashes(nil, c.canon, 18)
		if len(ids) != c.want {
			t.Errorf("%q: %d features, want %d", c.canon, len(ids), c.want)
		}
		for _, id := range ids {
			if id >= 1<<18 {
				t.Fatalf("%q: bucket %d outside 18 bits", c.canon, id)
			}
		}
	}
}

func TestAppendHashesIsStableAndContextFree(t *testing.T) {
	a := AppendHashes(nil, "i want to rest", 18)
	b := AppendHashes(nil, "i want to rest", 18)
	if !slices.Equal(a, b) {
		t.Fatal("the same text hashes differently")
	}
	// The unigram "rest" lands in one bucket whatever surrounds it.
	word := AppendHashes(nil, "rest", 18)[0]
	if !slices.Contains(AppendHashes(nil, "i need rest now", 18), word) {
		t.Error("a word's bucket depends on its neighbours")
	}
	// A bigram is not its two words: "want rest" adds a feature that
	// "rest want" does not.
	if slices.Equal(sorted(AppendHashes(nil, "want rest", 18)), sorted(AppendHashes(nil, "rest want", 18))) {
		t.Error("word order is lost: bigrams hash the same both ways")
	}
	// Buckets spread: distinct words rarely collide in 2^18.
	seen := map[uint32]bool{}
	words := strings.Fields("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu")
	for _, w := range words {
		seen[AppendHashes(nil, w, 18)[0]] = true
	}
	if len(seen) < len(words)-1 {
		t.Errorf("%d distinct buckets for %d words", len(seen), len(words))
	}
}

func sorted(x []uint32) []uint32 { slices.Sort(x); return x }

func TestNewDocGivesSortedUniqueIDsWithSublinearTF(t *testing.T) {
	d := NewDoc("no no no no", 18)
	if !slices.IsSorted(d.IDs) {
		t.Error("ids not sorted")
	}
	for i := 1; i < len(d.IDs); i++ {
		if d.IDs[i] == d.IDs[i-1] {
			t.Fatal("repeated id")
		}
	}
	word := AppendHashes(nil, "no", 18)[0]
	k := slices.Index(d.IDs, word)
	if k < 0 {
		t.Fatal("the word's bucket is missing")
	}
	if want := float32(1 + math.Log(4)); math.Abs(float64(d.TF[k]-want)) > 1e-6 {
		t.Errorf("tf of a word seen 4 times = %v, want 1 + ln 4 = %v", d.TF[k], want)
	}
	if TF(1) != 1 || math.Abs(float64(TF(100))-(1+math.Log(100))) > 1e-5 {
		t.Errorf("TF(1) = %v, TF(100) = %v", TF(1), TF(100))
	}
}

// handModel builds a model with the given weights (already quantized) and
// a flat idf, for checking Score by hand.
func handModel(bits uint, bias, wScale, idf float32, w map[uint32]int8) *Model {
	m := &Model{bits: bits, bias: bias, wScale: wScale, idfBase: idf, idfStep: 0, cells: make([]cell, 1<<bits), Raise: 1, High: 1}
	for id, x := range w {
		m.cells[id].w = x
	}
	return m
}

func TestScoreIsTheLogisticOfTheL2NormalizedTFIDFDot(t *testing.T) {
	const bits = 16
	canon := "sad sad day"
	ids := AppendHashes(nil, canon, bits)
	sadWord := AppendHashes(nil, "sad", bits)[0]
	m := handModel(bits, -0.5, 0.1, 2, map[uint32]int8{sadWord: 30})
	// By hand: every feature has idf 2; "sad" occurs twice (tf 1 + ln 2),
	// every other bucket once (tf 1), barring collisions.
	counts := map[uint32]int{}
	for _, id := range ids {
		counts[id]++
	}
	var nn float64
	for _, c := range counts {
		v := float64(TF(c)) * 2
		nn += v * v
	}
	z := -0.5 + 0.1*30*float64(TF(counts[sadWord]))*2/math.Sqrt(nn)
	want := 1 / (1 + math.Exp(-z))
	if got := m.Score(canon); math.Abs(got-want) > 1e-6 {
		t.Errorf("Score = %.7f, want %.7f", got, want)
	}
	// L2 normalization: scaling every idf by the same factor changes no
	// score.
	m2 := handModel(bits, -0.5, 0.1, 7, map[uint32]int8{sadWord: 30})
	if a, b := m.Score(canon), m2.Score(canon); math.Abs(a-b) > 1e-6 {
		t.Errorf("idf x3.5 moved the score from %.6f to %.6f: vectors are not normalized", a, b)
	}
	// An empty text is the bias alone.
	if got, want := m.Score(""), 1/(1+math.Exp(0.5)); math.Abs(got-want) > 1e-9 {
		t.Errorf("Score(\"\") = %v, want %v", got, want)
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
		{"one class", []Example{{Doc: NewDoc("a", 18), Positive: true}}, TrainOptions{}, "both positive and negative"},
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
	m.Raise, m.High = 0.8, 0.95
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
	if r, h := m2.Thresholds(); r != 0.8 || h != 0.95 {
		t.Errorf("thresholds after the round trip: %v %v", r, h)
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
		{"truncated header", good[:len(magic)+10], "truncated"},
		{"truncated weights", good[:len(good)-7], "want"},
		{"bad bits", resum(append(append([]byte(magic), 40, 0, 0, 0), make([]byte, headerSize)...)), "bits 40"},
		{"flipped byte", flipped, "damaged: checksum"},
		{"threshold out of range", resum(badThreshold), "raise threshold -1"},
		{"NaN bias", resum(nanBias), "bias is not a finite number"},
	}
	for _, c := range cases {
		if _, err := UnmarshalBinary(c.data); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to contain %q", c.name, err, c.want)
		}
	}
}

func TestQuantizationKeepsScoresClose(t *testing.T) {
	// Train writes int8 weights and byte idfs; the float model it came
	// from is not kept, so compare with a model whose weights are exactly
	// representable: scale and dequantize, then requantize.
	w := []float64{-3.3, -0.01, 0, 0.2, 1.7, 4.2}
	scale, q := quantizeWeights(w)
	for i, x := range w {
		if got := float64(q[i]) * float64(scale); math.Abs(got-x) > float64(scale)/2+1e-9 {
			t.Errorf("weight %v quantized to %v (scale %v)", x, got, scale)
		}
	}
	idf := []float64{1, 1.5, 7.25, 11}
	base, step, qi := quantizeIDF(idf)
	for i, x := range idf {
		if got := float64(base) + float64(qi[i])*float64(step); math.Abs(got-x) > float64(step)/2+1e-6 {
			t.Errorf("idf %v quantized to %v", x, got)
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

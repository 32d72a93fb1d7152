package linear

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math"
	"slices"
	"strings"
	"testing"
)

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

// handModel builds a model with the given weights per output (already
// quantized), scale and bias per output, and a flat idf.
func handModel(t testing.TB, bits uint, idf float32, bias, scale []float32, w []map[uint32]int8) *Model {
	t.Helper()
	n := 1 << bits
	ws := make([][]int8, len(w))
	for j, mw := range w {
		ws[j] = make([]int8, n)
		for id, x := range mw {
			ws[j][id] = x
		}
	}
	m, err := NewModel(bits, idf, 0, make([]uint8, n), bias, scale, ws)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestLogitsAreTheL2NormalizedTFIDFDotOfEveryOutput(t *testing.T) {
	const bits = 16
	canon := "sad sad day"
	ids := AppendHashes(nil, canon, bits)
	sadWord := AppendHashes(nil, "sad", bits)[0]
	dayWord := AppendHashes(nil, "day", bits)[0]
	m := handModel(t, bits, 2, []float32{-0.5, 0.25}, []float32{0.1, 0.2},
		[]map[uint32]int8{{sadWord: 30}, {sadWord: -10, dayWord: 40}})
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
	sad, day := float64(TF(counts[sadWord]))*2, float64(TF(counts[dayWord]))*2
	want := []float64{-0.5 + 0.1*30*sad/math.Sqrt(nn), 0.25 + 0.2*(-10*sad+40*day)/math.Sqrt(nn)}
	z := make([]float64, 2)
	m.Logits(canon, z)
	for j := range want {
		if math.Abs(z[j]-want[j]) > 1e-6 {
			t.Errorf("output %d: logit %.7f, want %.7f", j, z[j], want[j])
		}
	}
	// L2 normalization: scaling every idf by the same factor changes no
	// score.
	m2 := handModel(t, bits, 7, []float32{-0.5, 0.25}, []float32{0.1, 0.2},
		[]map[uint32]int8{{sadWord: 30}, {sadWord: -10, dayWord: 40}})
	z2 := make([]float64, 2)
	m2.Logits(canon, z2)
	if math.Abs(z[0]-z2[0]) > 1e-6 || math.Abs(z[1]-z2[1]) > 1e-6 {
		t.Errorf("idf x3.5 moved the logits from %v to %v: vectors are not normalized", z, z2)
	}
	// An empty text is the biases alone.
	m.Probs("", z)
	if want := Sigmoid(-0.5); math.Abs(z[0]-want) > 1e-9 || math.Abs(z[1]-Sigmoid(0.25)) > 1e-9 {
		t.Errorf("Probs(\"\") = %v, want the biases' probabilities", z)
	}
}

// toy is a small set written for the test, in canonical form: output 0 is
// "about food", output 1 "good news".
func toy() []Example { return toyBits(14) }

func toyBits(bits uint) []Example {
	rows := []struct {
		text   string
		labels uint64
	}{
		{"i ate a great pizza", 3}, {"lunch was tasty", 1}, {"i cooked soup for dinner", 1},
		{"i passed my exam", 2}, {"we won the match", 2}, {"i got the job", 2},
		{"the bus was late", 0}, {"my phone broke", 0}, {"it rained all day", 0},
	}
	var ex []Example
	for i := 0; i < 5; i++ {
		for _, r := range rows {
			ex = append(ex, Example{Doc: NewDoc(r.text, bits), Labels: r.labels})
		}
	}
	return ex
}

func TestTrainLearnsEveryOutput(t *testing.T) {
	w, err := Train(toy(), TrainOptions{Bits: 14, Outputs: 2, Seed: 3, Epochs: 10, Rate: 0.5, Balance: 1})
	if err != nil {
		t.Fatal(err)
	}
	m := w.Quantize()
	p := make([]float64, 2)
	for _, c := range []struct {
		canon string
		want  [2]bool
	}{{"i ate a great pizza", [2]bool{true, true}}, {"i cooked soup for dinner", [2]bool{true, false}}, {"we won the match", [2]bool{false, true}}, {"my phone broke", [2]bool{false, false}}} {
		m.Probs(c.canon, p)
		for j := range 2 {
			if (p[j] > 0.5) != c.want[j] {
				t.Errorf("%q: output %d probability %.3f, want above 0.5: %v", c.canon, j, p[j], c.want[j])
			}
		}
	}
}

func TestQuantizedLogitsStayCloseToTheFloatWeights(t *testing.T) {
	w, err := Train(toy(), TrainOptions{Bits: 14, Outputs: 2, Seed: 3, Epochs: 10})
	if err != nil {
		t.Fatal(err)
	}
	m := w.Quantize()
	a, b := make([]float64, 2), make([]float64, 2)
	for _, c := range []string{"i passed my exam", "lunch was late", "something never seen"} {
		w.Logits(c, a)
		m.Logits(c, b)
		for j := range 2 {
			if math.Abs(a[j]-b[j]) > 0.05 {
				t.Errorf("%q output %d: float logit %.4f, quantized %.4f", c, j, a[j], b[j])
			}
		}
	}
}

func TestTrainIsDeterministic(t *testing.T) {
	enc := func(seed uint64) []byte {
		w, err := Train(toy(), TrainOptions{Bits: 14, Outputs: 2, Seed: seed, Balance: 0.5})
		if err != nil {
			t.Fatal(err)
		}
		data, err := Labelled{Model: w.Quantize(), Names: []string{"food", "news"}, Thresholds: []float64{0.5, 0.5}}.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	a, b, c := enc(9), enc(9), enc(10)
	if !bytes.Equal(a, b) {
		t.Error("two trainings on the same examples and seed differ")
	}
	if bytes.Equal(a, c) {
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
		{"one class", []Example{{Doc: NewDoc("a", 18), Labels: 1}}, TrainOptions{}, "both positive and negative"},
		{"an output never positive", toy(), TrainOptions{Bits: 14, Outputs: 3}, "output 2 needs both"},
		{"a label beyond the outputs", toy(), TrainOptions{Bits: 14, Outputs: 1}, "label beyond output 0"},
		{"bits out of range", toy(), TrainOptions{Bits: 30}, "bits 30 out of range"},
		{"too many outputs", toy(), TrainOptions{Outputs: 65}, "outputs 65 out of range"},
		{"balance out of range", toy(), TrainOptions{Balance: 2}, "balance 2 out of range"},
		{"doc from a larger hash space", toy(), TrainOptions{Bits: 10, Outputs: 2}, "outside 10 hash bits"},
	}
	for _, c := range cases {
		if _, err := Train(c.ex, c.opts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to contain %q", c.name, err, c.want)
		}
	}
}

func TestLogitsAllocateNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop items: allocations are counted without it")
	}
	w, err := Train(toy(), TrainOptions{Bits: 14, Outputs: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	m := w.Quantize()
	canon := strings.Repeat("i have been feeling really low lately and work keeps piling up . ", 5)
	z := make([]float64, 2)
	m.Logits(canon, z)
	if n := testing.AllocsPerRun(100, func() { m.Logits(canon, z) }); n != 0 {
		t.Errorf("Logits allocates %.1f times per call, want 0", n)
	}
}

func TestLabelledFileRoundTripKeepsScoresNamesAndBytes(t *testing.T) {
	w, err := Train(toy(), TrainOptions{Bits: 14, Outputs: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	l := Labelled{Model: w.Quantize(), Names: []string{"food", "good news"}, Thresholds: []float64{0.3, 0.75}}
	data, err := l.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	l2, err := UnmarshalLabelled(data)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(l2.Names, l.Names) || !slices.Equal(l2.Thresholds, l.Thresholds) {
		t.Errorf("names %v thresholds %v after the round trip", l2.Names, l2.Thresholds)
	}
	a, b := make([]float64, 2), make([]float64, 2)
	for _, c := range []string{"i passed my exam", "lunch", "something never seen"} {
		l.Logits(c, a)
		l2.Logits(c, b)
		if !slices.Equal(a, b) {
			t.Errorf("%q: logits %v before, %v after the round trip", c, a, b)
		}
	}
	again, _ := l2.MarshalBinary()
	if !bytes.Equal(data, again) {
		t.Error("re-encoding a loaded model changes its bytes")
	}
}

func TestUnmarshalLabelledNamesWhatIsWrong(t *testing.T) {
	w, err := Train(toyBits(10), TrainOptions{Bits: 10, Outputs: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	good, err := Labelled{Model: w.Quantize(), Names: []string{"a", "b"}, Thresholds: []float64{0.5, 0.5}}.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	resum := func(b []byte) []byte {
		b = slices.Clone(b)
		binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.ChecksumIEEE(b[:len(b)-4]))
		return b
	}
	flipped := slices.Clone(good)
	flipped[len(flipped)/2] ^= 0x10
	badBits := slices.Clone(good)
	badBits[len(fileMagic)] = 40
	badThreshold := slices.Clone(good)
	binary.LittleEndian.PutUint64(badThreshold[len(fileMagic)+16+8:], math.Float64bits(-1))
	nanBias := slices.Clone(good)
	binary.LittleEndian.PutUint32(nanBias[len(fileMagic)+16:], math.Float32bits(float32(math.NaN())))
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "not a model file"},
		{"foreign file", []byte("PK\x03\x04 not a model"), "not a model file"},
		{"newer format", []byte("HVNLM9\n\x12\x00\x00\x00"), "another format version"},
		{"truncated header", good[:len(fileMagic)+10], "truncated"},
		{"truncated weights", good[:len(good)-7], "checksum"},
		{"truncated weights, checksum redone", resum(good[:len(good)-7]), "want"},
		{"flipped byte", flipped, "damaged"},
		{"bad bits", resum(badBits), "bits 40"},
		{"threshold out of range", resum(badThreshold), "threshold -1"},
		{"NaN bias", resum(nanBias), "not a finite number"},
	}
	for _, c := range cases {
		if _, err := UnmarshalLabelled(c.data); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to contain %q", c.name, err, c.want)
		}
	}
}

func TestQuantizationRoundsToTheNearestStep(t *testing.T) {
	w := []float64{-3.3, -0.01, 0, 0.2, 1.7, 4.2}
	scale, q := QuantizeWeights(w)
	for i, x := range w {
		if got := float64(q[i]) * float64(scale); math.Abs(got-x) > float64(scale)/2+1e-9 {
			t.Errorf("weight %v quantized to %v (scale %v)", x, got, scale)
		}
	}
	idf := []float64{1, 1.5, 7.25, 11}
	base, step, qi := QuantizeIDF(idf)
	for i, x := range idf {
		if got := float64(base) + float64(qi[i])*float64(step); math.Abs(got-x) > float64(step)/2+1e-6 {
			t.Errorf("idf %v quantized to %v", x, got)
		}
	}
}

func BenchmarkLogits300With28Outputs(b *testing.B) {
	rows := make([]Example, 0, 56)
	for j := range 28 {
		rows = append(rows, Example{Doc: NewDoc("some words here", Bits), Labels: 1 << j}, Example{Doc: NewDoc("other words there", Bits)})
	}
	w, err := Train(rows, TrainOptions{Outputs: 28, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	m := w.Quantize()
	canon := "i have been feeling really low lately and work keeps piling up my manager adds tasks every day and i cant sleep . honestly some days i dont see the point of any of it but im trying to keep going for my kids . could you help me plan my week so it feels less overwhelming . thanks it means a lot to me"
	z := make([]float64, 28)
	b.ReportAllocs()
	for b.Loop() {
		m.Logits(canon, z)
	}
}

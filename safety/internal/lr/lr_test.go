package lr

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"
)

// toy returns a small separable set written for the test: crisis-like
// wording against everyday wording.
func toy() []Example {
	pos := []string{"i want to die", "i wish i was dead", "i want to end my life", "no reason to live anymore", "i cant go on i want to die", "thinking about ending my life"}
	neg := []string{"i want to eat pizza", "my exam went well", "i love my dog", "how do i fix my bike", "work was busy today", "i am going to the beach"}
	var ex []Example
	for i := 0; i < 5; i++ {
		for _, p := range pos {
			ex = append(ex, Example{Canon: p, Positive: true})
		}
		for _, n := range neg {
			ex = append(ex, Example{Canon: n})
		}
	}
	return ex
}

func TestTrainSeparatesTheTrainingClasses(t *testing.T) {
	m, err := Train(toy(), TrainOptions{Bits: 14, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range toy()[:12] {
		p := m.Score(ex.Canon)
		if ex.Positive && p < 0.5 || !ex.Positive && p > 0.5 {
			t.Errorf("score(%q) = %.3f, positive=%v", ex.Canon, p, ex.Positive)
		}
	}
}

func TestTrainIsDeterministicForASeed(t *testing.T) {
	a, _ := Train(toy(), TrainOptions{Bits: 12, Seed: 9})
	b, _ := Train(toy(), TrainOptions{Bits: 12, Seed: 9})
	da, _ := a.MarshalBinary()
	db, _ := b.MarshalBinary()
	if !bytes.Equal(da, db) {
		t.Error("two trainings with one seed differ")
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
		{"one class", []Example{{Canon: "a", Positive: true}}, TrainOptions{}, "both positive and negative"},
		{"bits out of range", toy(), TrainOptions{Bits: 30}, "bits 30 out of range"},
	}
	for _, c := range cases {
		if _, err := Train(c.ex, c.opts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to contain %q", c.name, err, c.want)
		}
	}
}

func TestModelFileRoundTripKeepsScores(t *testing.T) {
	m, err := Train(toy(), TrainOptions{Bits: 14, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	data, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if want := len(magic) + 12 + 2<<14; len(data) != want {
		t.Errorf("file is %d bytes, want %d", len(data), want)
	}
	m2, err := UnmarshalBinary(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range toy()[:12] {
		if a, b := m.Score(ex.Canon), m2.Score(ex.Canon); math.Abs(a-b) > 1e-3 {
			t.Errorf("score(%q): %.5f before, %.5f after the round trip", ex.Canon, a, b)
		}
	}
}

func TestUnmarshalNamesWhatIsWrong(t *testing.T) {
	m, _ := Train(toy(), TrainOptions{Bits: 10, Seed: 1})
	good, _ := m.MarshalBinary()
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "magic"},
		{"foreign file", []byte("PK\x03\x04 not a model"), "magic"},
		{"truncated header", good[:len(magic)+2], "header"},
		{"truncated weights", good[:len(good)-7], "weight bytes"},
		{"bad bits", append([]byte(magic), 40, 0, 0, 0), "bits 40"},
	}
	for _, c := range cases {
		if _, err := UnmarshalBinary(c.data); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to contain %q", c.name, err, c.want)
		}
	}
}

func TestFeaturesCoverWordsBigramsAndCharacterGrams(t *testing.T) {
	ids := Features(nil, "i want", 18)
	// 2 unigrams + 1 bigram + char grams of " i " (1 of length 3) and
	// " want " (4+3+2).
	if want := 2 + 1 + 1 + 9; len(ids) != want {
		t.Errorf("got %d features, want %d", len(ids), want)
	}
	for _, id := range ids {
		if id >= 1<<18 {
			t.Fatalf("feature id %d outside the hash space", id)
		}
	}
	if len(Features(nil, "", 18)) != 0 || len(Features(nil, "   ", 18)) != 0 {
		t.Error("empty text has features")
	}
}

func BenchmarkScore300(b *testing.B) {
	var ex []Example
	for i := 0; i < 200; i++ {
		ex = append(ex, Example{Canon: fmt.Sprintf("text number %d about feeling low and tired", i), Positive: i%2 == 0})
	}
	m, err := Train(ex, TrainOptions{Seed: 1, Epochs: 2})
	if err != nil {
		b.Fatal(err)
	}
	canon := "i have been feeling really low lately and work keeps piling up my manager adds tasks every day and i cant sleep . honestly some days i dont see the point of any of it but im trying to keep going for my kids . could you help me plan my week so it feels less overwhelming . thanks it means a lot to me"
	b.ReportAllocs()
	for b.Loop() {
		m.Score(canon)
	}
}

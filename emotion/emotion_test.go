package emotion

import (
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/havenbot/haven/internal/linear"
)

func TestEmbeddedModelLoadsWithTheLabelsInOrder(t *testing.T) {
	m, err := LoadModel(embeddedModelFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range Labels {
		if th := m.Threshold(l); !(th > 0 && th < 1) {
			t.Errorf("%s: threshold %v, want one tuned in (0, 1)", l, th)
		}
		if Group(l) == "" {
			t.Errorf("%s has no Ekman group", l)
		}
	}
	if m.Threshold("happiness") != 0 || Group("happiness") != "" {
		t.Error("a label that is not one of the 28 has a threshold or a group")
	}
}

// The messages are written for this test (none is from the dataset).
func TestReadMeetsMessagesWeWroteWithTheirValence(t *testing.T) {
	cases := []struct {
		text string
		want Valence
		has  Label // a label the reading must include ("" for none required)
	}{
		{"I got the job!!! I can't believe it, I'm so happy", Positive, "joy"},
		{"thank you so much, that really helped me", Positive, "gratitude"},
		{"My dad died last week and I miss him so much", Negative, "sadness"},
		{"my grandmother passed away and I keep crying", Negative, "sadness"},
		{"I'm so scared about the surgery tomorrow", Negative, "fear"},
		{"What time does the library open on Sunday?", Neutral, ""},
		{"how do I reset my password?", Neutral, ""},
		{"I went to the shop.", Neutral, ""},
	}
	for _, c := range cases {
		r := Read(c.text)
		if r.Valence != c.want {
			t.Errorf("%q: valence %s, want %s (emotions %v)", c.text, r.Valence, c.want, r.Emotions)
		}
		if c.has != "" && !r.Has(c.has) {
			t.Errorf("%q: emotions %v, want %s among them", c.text, r.Emotions, c.has)
		}
	}
}

func TestReadingIsSortedStrongestFirstAndAboveThresholds(t *testing.T) {
	m := Embedded()
	for _, text := range []string{"I'm excited about the move but terrified of leaving everyone behind", "wow, I did not expect that at all!", "ugh, this is so annoying and stupid"} {
		r := m.Read(text)
		if !slices.IsSortedFunc(r.Emotions, func(a, b Score) int { return -cmpFloat(a.P, b.P) }) {
			t.Errorf("%q: emotions not strongest first: %v", text, r.Emotions)
		}
		for _, e := range r.Emotions {
			if e.P < m.Threshold(e.Label) || e.P > 1 {
				t.Errorf("%q: %s at %.3f, threshold %.3f", text, e.Label, e.P, m.Threshold(e.Label))
			}
			if !r.Has(e.Label) {
				t.Errorf("Has(%s) is false for a label in the reading", e.Label)
			}
		}
	}
	if (Reading{}).Has("joy") {
		t.Error("the zero Reading has joy")
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func TestReadTakesAnyLengthAndAnyBytes(t *testing.T) {
	valid := map[Valence]bool{Positive: true, Negative: true, Ambiguous: true, Neutral: true}
	big := strings.Repeat("I am so happy today, thank you! ", 1<<15) // 1 MB
	cases := map[string]string{
		"1 MB":                big,
		"invalid UTF-8":       "I am \xff\xfe so \xc3 happy \xed\xa0\x80 today",
		"empty":               "",
		"only punctuation":    "?!?!... ,,, ;;",
		"NUL bytes":           "happy\x00\x00news",
		"a cut multibyte end": strings.Repeat("é", MaxBytes/2+1),
	}
	for name, text := range cases {
		r := Read(text)
		if !valid[r.Valence] {
			t.Errorf("%s: valence %q", name, r.Valence)
		}
		for _, e := range r.Emotions {
			if !(e.P >= 0 && e.P <= 1) {
				t.Errorf("%s: %s probability %v", name, e.Label, e.P)
			}
		}
	}
	// Only a bounded prefix is read: the 1 MB text reads as its first
	// MaxBytes do.
	if a, b := Read(big), Read(big[:MaxBytes]); !slices.Equal(a.Emotions, b.Emotions) {
		t.Errorf("1 MB reads %v, its first %d bytes %v", a.Emotions, MaxBytes, b.Emotions)
	}
}

func TestCanonicalFormIsWhatTheFeaturesExpect(t *testing.T) {
	cases := []struct{ in, want string }{
		{"Hello, World", "hello world"},
		{"I don't know. Maybe!", "i dont know . maybe !"},
		{"what?? really?!", "what ?? . really ??"},
		{"so good 😍😍", "so good 😍 😍"},
		{"line one\nline two", "line one . line two"},
		{"  spaced   out  ", "spaced out"},
		{"[NAME] is ÉLAN", "name is élan"},
		{"bad \xff byte", "bad byte"},
		{"it’s ok", "its ok"},
		{"", ""},
	}
	for _, c := range cases {
		if got := Canonical(c.in); got != c.want {
			t.Errorf("Canonical(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	long := strings.Repeat("ab ", 2*MaxBytes)
	if got := Canonical(long); len(got) > MaxBytes || !utf8.ValidString(got) {
		t.Errorf("a long text's canonical form is %d bytes, want at most %d", len(got), MaxBytes)
	}
}

func TestValenceOfFollowsTheEkmanGroups(t *testing.T) {
	s := func(pairs ...any) []Score {
		var out []Score
		for i := 0; i < len(pairs); i += 2 {
			out = append(out, Score{Label: Label(pairs[i].(string)), P: pairs[i+1].(float64)})
		}
		return out
	}
	cases := []struct {
		name string
		in   []Score
		want Valence
	}{
		{"nothing read", nil, Neutral},
		{"neutral", s("neutral", 1.0), Neutral},
		{"joy group", s("pride", 2.0, "relief", 1.5), Positive},
		{"sadness group", s("grief", 3.0), Negative},
		{"anger group", s("annoyance", 1.2), Negative},
		{"fear and disgust", s("nervousness", 1.1, "disgust", 1.3), Negative},
		{"surprise group alone", s("confusion", 1.4), Ambiguous},
		{"surprise weaker than neutral", s("curiosity", 1.1, "neutral", 1.3), Neutral},
		{"joy with surprise", s("surprise", 2.0, "excitement", 1.5), Positive},
		{"strong joy and strong grief", s("joy", 2.0, "grief", 1.6), Ambiguous},
		{"strong anger, faint approval", s("anger", 3.0, "approval", 1.1), Negative},
		{"strong love, faint sadness", s("love", 4.0, "sadness", 1.2), Positive},
		{"faint sadness beside neutral", s("neutral", 2.0, "sadness", 1.2), Neutral},
		{"sadness as strong as neutral", s("neutral", 1.5, "sadness", 1.4), Negative},
	}
	for _, c := range cases {
		if got := ValenceOf(c.in); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

func TestLoadModelNamesWhatIsWrong(t *testing.T) {
	rows := []linear.Example{{Doc: linear.NewDoc("good", 10), Labels: 1}, {Doc: linear.NewDoc("bad", 10), Labels: 2}}
	w, err := linear.Train(rows, linear.TrainOptions{Bits: 10, Outputs: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	two, err := linear.Labelled{Model: w.Quantize(), Names: []string{"admiration", "amusement"}, Thresholds: []float64{0.5, 0.5}}.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(Labels))
	ths := make([]float64, len(Labels))
	ex := make([]linear.Example, 0, 2*len(Labels))
	for i, l := range Labels {
		names[i], ths[i] = string(l), 0.5
		ex = append(ex, linear.Example{Doc: linear.NewDoc(string(l), 10), Labels: 1 << i}, linear.Example{Doc: linear.NewDoc("none", 10)})
	}
	names[3], names[4] = names[4], names[3]
	w28, err := linear.Train(ex, linear.TrainOptions{Bits: 10, Outputs: len(Labels), Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	swapped, err := linear.Labelled{Model: w28.Quantize(), Names: names, Thresholds: ths}.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"not a model", []byte("hello"), "not a model file"},
		{"damaged", embeddedModelFile[:len(embeddedModelFile)-100], "damaged"},
		{"two outputs", two, "2 outputs, want the 28 labels"},
		{"labels out of order", swapped, `output 3 is "approval", want "annoyance"`},
	}
	for _, c := range cases {
		if _, err := LoadModel(c.data); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to contain %q", c.name, err, c.want)
		}
	}
}

func TestReadIsSafeForConcurrentUse(t *testing.T) {
	texts := []string{"I got the job!!!", "My dad died last week", "what time is it?"}
	want := make([]Reading, len(texts))
	for i, s := range texts {
		want[i] = Read(s)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8*len(texts))
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, s := range texts {
				if got := Read(s); got.Valence != want[i].Valence || !slices.Equal(got.Emotions, want[i].Emotions) {
					errs <- s
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for s := range errs {
		t.Errorf("%q read differently on another goroutine", s)
	}
}

// bench300 is a 300-character message written for the benchmark.
const bench300 = "I have been feeling really low lately and work keeps piling up, my manager adds tasks every day and I can't sleep. Honestly some days I don't see the point of any of it, but I'm trying to keep going for my kids. Could you help me plan my week so it feels less overwhelming? Thanks, it means a lot to me."

func BenchmarkRead300(b *testing.B) {
	Read(bench300)
	b.ReportAllocs()
	for b.Loop() {
		Read(bench300)
	}
}

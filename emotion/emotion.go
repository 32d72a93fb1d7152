// Package emotion reads what a message says about feelings: the 28
// GoEmotions labels (27 emotions and neutral) with their probabilities, and
// the valence they add up to. It is a one-vs-rest logistic regression over
// hashed word and character n-grams (the shared linear classifier,
// internal/linear), trained on GoEmotions by emotion/internal/train, with
// one threshold per label tuned on the dev split; the model file is
// embedded (model.bin, see MODEL.md). Reading is pure Go, allocation-light
// and safe for concurrent use.
package emotion

import (
	"cmp"
	_ "embed"
	"fmt"
	"slices"
	"sync"

	"github.com/havenbot/haven/internal/linear"
)

// Label is one of the 28 GoEmotions labels ("admiration", ..., "neutral").
type Label string

// Valence is what the emotions add up to.
type Valence string

// The valences.
const (
	Positive  Valence = "positive"
	Negative  Valence = "negative"
	Ambiguous Valence = "ambiguous" // e.g. surprise/confusion, or strong positive and negative together
	Neutral   Valence = "neutral"
)

// Score is one label's probability. The model is strongly regularized, so
// probabilities are small (a label is read from its threshold, 0.01 to
// 0.28): compare P with Model.Threshold, not with 0.5.
type Score struct {
	Label Label
	P     float64
}

// Reading is what one message says about feelings.
type Reading struct {
	// Emotions are the labels at or above their tuned thresholds, strongest
	// first (may be empty).
	Emotions []Score
	Valence  Valence
}

// Has reports whether l is among r.Emotions.
func (r Reading) Has(l Label) bool {
	for _, s := range r.Emotions {
		if s.Label == l {
			return true
		}
	}
	return false
}

// Labels are the 28 labels in the order of the GoEmotions ids (labels.txt):
// Labels[i] is id i.
var Labels = [...]Label{
	"admiration", "amusement", "anger", "annoyance", "approval", "caring", "confusion",
	"curiosity", "desire", "disappointment", "disapproval", "disgust", "embarrassment",
	"excitement", "fear", "gratitude", "grief", "joy", "love", "nervousness", "optimism",
	"pride", "realization", "relief", "remorse", "sadness", "surprise", "neutral",
}

// Group is a label's Ekman group: "joy", "anger", "disgust", "fear",
// "sadness", "surprise" or "neutral" (Demszky et al. 2020); "" for a label
// that is not one of the 28.
func Group(l Label) string {
	return ekman[l]
}

var ekman = map[Label]string{
	"anger": "anger", "annoyance": "anger", "disapproval": "anger",
	"disgust": "disgust",
	"fear":    "fear", "nervousness": "fear",
	"joy": "joy", "amusement": "joy", "approval": "joy", "excitement": "joy", "gratitude": "joy",
	"love": "joy", "optimism": "joy", "relief": "joy", "pride": "joy", "admiration": "joy",
	"desire": "joy", "caring": "joy",
	"sadness": "sadness", "disappointment": "sadness", "embarrassment": "sadness",
	"grief": "sadness", "remorse": "sadness",
	"surprise": "surprise", "realization": "surprise", "confusion": "surprise", "curiosity": "surprise",
	"neutral": "neutral",
}

// MixedRatio decides mixed feelings: when a positive and a negative
// emotion are both read, the valence is Ambiguous if the weaker side's
// strongest emotion is at least MixedRatio times as strong as the stronger
// side's, and the stronger side's valence otherwise.
const MixedRatio = 0.5

// NeutralRatio decides faint feelings beside a neutral reading: when
// neutral is read and every other emotion read is less than NeutralRatio
// times as strong, the valence is Neutral.
const NeutralRatio = 0.7

// ValenceOf is what emotions add up to, comparing their P as given (Read
// passes each emotion's strength relative to its threshold, P/threshold,
// so that a rare label is not outweighed by a common one):
//   - neutral, with every other emotion weaker than NeutralRatio times it:
//     Neutral;
//   - a joy-group emotion and no negative one: Positive; an anger-,
//     disgust-, fear- or sadness-group emotion and no positive one:
//     Negative;
//   - both: Ambiguous when they are about as strong (see MixedRatio), else
//     the stronger side's;
//   - neither, with a surprise-group emotion (surprise, realization,
//     confusion, curiosity) stronger than neutral: Ambiguous;
//   - otherwise (neutral, or nothing read): Neutral.
func ValenceOf(emotions []Score) Valence {
	var pos, neg, amb, neu float64
	for _, s := range emotions {
		switch ekman[s.Label] {
		case "joy":
			pos = max(pos, s.P)
		case "anger", "disgust", "fear", "sadness":
			neg = max(neg, s.P)
		case "surprise":
			amb = max(amb, s.P)
		case "neutral":
			neu = max(neu, s.P)
		}
	}
	switch {
	case neu > 0 && max(pos, neg, amb) < NeutralRatio*neu:
		return Neutral
	case pos > 0 && neg > 0:
		if min(pos, neg) >= MixedRatio*max(pos, neg) {
			return Ambiguous
		}
		if pos > neg {
			return Positive
		}
		return Negative
	case pos > 0:
		return Positive
	case neg > 0:
		return Negative
	case amb > neu:
		return Ambiguous
	}
	return Neutral
}

// Model is a loaded emotion model: 28 outputs named by Labels with a
// threshold each. It is read-only and safe for concurrent use.
type Model struct {
	lin        *linear.Model
	thresholds [len(Labels)]float64
}

// LoadModel decodes a model file written by emotion/internal/train. A
// damaged or foreign file, or one whose outputs are not the 28 labels in
// order, gets an error that names what is wrong.
func LoadModel(data []byte) (*Model, error) {
	l, err := linear.UnmarshalLabelled(data)
	if err != nil {
		return nil, fmt.Errorf("load emotion model: %w", err)
	}
	if len(l.Names) != len(Labels) {
		return nil, fmt.Errorf("load emotion model: %d outputs, want the %d labels", len(l.Names), len(Labels))
	}
	m := &Model{lin: l.Model}
	for i, name := range l.Names {
		if Label(name) != Labels[i] {
			return nil, fmt.Errorf("load emotion model: output %d is %q, want %q", i, name, Labels[i])
		}
		m.thresholds[i] = l.Thresholds[i]
	}
	return m, nil
}

// Threshold returns the probability at and above which l is read (0 for a
// label that is not one of the 28).
func (m *Model) Threshold(l Label) float64 {
	if i := slices.Index(Labels[:], l); i >= 0 {
		return m.thresholds[i]
	}
	return 0
}

// Probs returns every label's probability for text (indexed as Labels),
// reading at most MaxBytes of it.
func (m *Model) Probs(text string) [len(Labels)]float64 {
	var p [len(Labels)]float64
	m.lin.Probs(Canonical(text), p[:])
	return p
}

// Read scores text (any length, any bytes; it reads the first MaxBytes).
func (m *Model) Read(text string) Reading {
	return m.reading(m.Probs(text))
}

// reading applies the thresholds to probabilities.
func (m *Model) reading(p [len(Labels)]float64) Reading {
	var r Reading
	var strength []Score
	for i, x := range p {
		if x >= m.thresholds[i] {
			r.Emotions = append(r.Emotions, Score{Label: Labels[i], P: x})
			strength = append(strength, Score{Label: Labels[i], P: x / m.thresholds[i]})
		}
	}
	slices.SortStableFunc(r.Emotions, func(a, b Score) int { return cmp.Compare(b.P, a.P) })
	r.Valence = ValenceOf(strength)
	return r
}

//go:embed model.bin
var embeddedModelFile []byte

var loadEmbedded = sync.OnceValues(func() (*Model, error) {
	return LoadModel(embeddedModelFile)
})

// Embedded returns the model built into the binary (model.bin, trained by
// emotion/internal/train; see MODEL.md). It is loaded once. A damaged
// embedded file is a build defect: it panics with what is wrong (the
// package tests load it).
func Embedded() *Model {
	m, err := loadEmbedded()
	if err != nil {
		panic(fmt.Sprintf("emotion: embedded model: %v", err))
	}
	return m
}

// Read scores text with the embedded model (any length, any bytes; it
// reads a bounded prefix). Safe for concurrent use.
func Read(text string) Reading {
	return Embedded().Read(text)
}

// Package emotion says what one message says about feelings: the
// GoEmotions labels it carries and the valence they add up to.
//
// This file holds only the shared contract (the types and Reading.Has);
// the classifier (Read) lands with the emotion work of issue 15. Until
// then, code that needs a Reading takes it as a value, and the zero
// Reading means nothing was read.
package emotion

import "slices"

// Label is one of the 28 GoEmotions labels ("admiration", ..., "neutral").
type Label string

// Valence is what the emotions add up to.
type Valence string

// The valences. The zero Valence ("") means the message was not read.
const (
	Positive Valence = "positive"
	Negative Valence = "negative"
	// Ambiguous is surprise or confusion, or strong positive and negative
	// together.
	Ambiguous Valence = "ambiguous"
	Neutral   Valence = "neutral"
)

// Score is one label's probability.
type Score struct {
	Label Label
	P     float64
}

// Reading is what one message says about feelings.
type Reading struct {
	// Emotions are the labels at or above their tuned thresholds,
	// strongest first (may be empty).
	Emotions []Score
	Valence  Valence
}

// Has reports whether l is among r.Emotions.
func (r Reading) Has(l Label) bool {
	return slices.ContainsFunc(r.Emotions, func(s Score) bool { return s.Label == l })
}

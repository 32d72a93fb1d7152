// Package emotion reads what a message says about feelings: the GoEmotions
// labels it expresses and the valence they add up to.
//
// This copy holds only the shared contract's types and Reading.Has, so that
// core/therapy can code against it; the classifier (Read) lands from the
// "emotion" branch, which keeps these declarations as they are.
package emotion

// Label is one of the 28 GoEmotions labels ("admiration", ..., "neutral").
type Label string

// Valence is what the emotions add up to.
type Valence string

// The valences.
const (
	Positive Valence = "positive"
	Negative Valence = "negative"
	// Ambiguous is surprise or confusion, or strong positive and negative
	// emotions together.
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

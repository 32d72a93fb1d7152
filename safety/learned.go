package safety

import "strings"

// Scorer is a learned crisis classifier: the probability that a canonical
// text (see Normalize) is at level 2 or above. Implementations are safe for
// concurrent use.
type Scorer interface {
	Score(canon string) float64
}

// FloorOptions configure NewFloorWith.
type FloorOptions struct {
	// Scorer, when set, may raise a verdict the rules are unsure of to level
	// 2; it never lowers a level and never overrides a rule decision (a
	// negation, third party, idiom, past, fiction, accident or denial). nil
	// means the rules alone.
	Scorer Scorer
	// Threshold1 is the score at and above which a level-1 verdict is raised
	// (0 = DefaultThreshold1).
	Threshold1 float64
	// Threshold0 is the score at and above which a level-0 verdict with no
	// rule match at all is raised (0 = DefaultThreshold0; above 1 never).
	Threshold0 float64
}

// Default thresholds for the learned scorer.
const (
	DefaultThreshold1 = 0.8
	DefaultThreshold0 = 0.95
)

// NewFloorWith returns the rules with opts.
func NewFloorWith(opts FloorOptions) *Floor {
	f := &Floor{rules: compiledRules, lex: defaultLexicon, scorer: opts.Scorer, t1: opts.Threshold1, t0: opts.Threshold0}
	if f.t1 == 0 {
		f.t1 = DefaultThreshold1
	}
	if f.t0 == 0 {
		f.t0 = DefaultThreshold0
	}
	return f
}

// ruleDecided reports whether a modifier in path deliberately kept a match
// below crisis: the learned scorer must not undo it.
func ruleDecided(path []string) bool {
	for _, p := range path {
		_, mod, ok := strings.Cut(p, "/")
		if !ok {
			if p == "denial_after_question" {
				return true
			}
			continue
		}
		switch mod {
		case "negated", "third_party", "idiom", "past_recovered", "past", "fiction", "accident", "laughter", "no_talk":
			return true
		}
	}
	return false
}

// learnedRaise applies the scorer to a verdict below crisis.
func (f *Floor) learnedRaise(a Assessment, canon string) Assessment {
	if f.scorer == nil || a.Level >= LevelIdeation || a.Flags.ThirdParty || ruleDecided(a.Path) {
		return a
	}
	t := f.t1
	if a.Level == LevelNone {
		t = f.t0
	}
	if t > 1 {
		return a
	}
	if idiomRe.MatchString(canon) {
		// A figure of speech ("this exam is killing me") is a rule
		// decision too.
		return a
	}
	p := f.scorer.Score(canon)
	if p < t {
		return a
	}
	a.Level = LevelIdeation
	a.Confidence = p
	a.Reason = "learned classifier: wording like posts about wanting to die"
	a.Path = append(a.Path, "model:raised")
	return a
}

package safety

import "testing"

// constScorer always gives the same score.
type constScorer float64

func (c constScorer) Score(string) float64 { return float64(c) }

func TestLearnedScorerOnlyRaisesWhatTheRulesAreUnsureOf(t *testing.T) {
	cases := []struct {
		name  string
		score float64
		t0    float64
		text  string
		want  Level
		path  string
	}{
		{"level 1 with a high score is raised", 0.99, 0, "I feel so hopeless lately", 2, "model:raised"},
		{"level 1 with a low score stays", 0.2, 0, "I feel so hopeless lately", 1, ""},
		{"level 0 is not raised with the default thresholds", 0.94, 0, "everything feels far away", 0, ""},
		{"level 0 is raised above its own threshold", 0.99, 0.98, "everything feels far away", 2, "model:raised"},
		{"level 3 is never lowered", 0, 0, "I'm going to kill myself tonight", 3, ""},
		{"level 2 is never lowered", 0, 0, "I want to die", 2, ""},
		{"negation stands", 1, 0.5, "I would never kill myself", 0, ""},
		{"third party stands", 1, 0.5, "my brother said he wants to die", 0, ""},
		{"idiom stands", 1, 0.5, "this exam is killing me", 0, ""},
		{"past and recovered stands", 1, 0.5, "I used to want to die, I'm in a better place now", 0, ""},
	}
	for _, c := range cases {
		f := NewFloorWith(FloorOptions{Scorer: constScorer(c.score), Threshold0: c.t0})
		a := f.Assess(Input{Text: c.text})
		if a.Level != c.want {
			t.Errorf("%s: level %d (path %v), want %d", c.name, a.Level, a.Path, c.want)
		}
		if c.path != "" && !hasPath(a, c.path) {
			t.Errorf("%s: path %v lacks %q", c.name, a.Path, c.path)
		}
		checkDerived(t, a)
	}
}

func TestNewFloorIsRulesOnly(t *testing.T) {
	if NewFloor().scorer != nil {
		t.Error("the default floor carries a learned scorer; cross-validation did not justify one (see safety/internal/train)")
	}
}

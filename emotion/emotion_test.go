package emotion

import "testing"

func TestHasFindsOnlyTheLabelsInTheReading(t *testing.T) {
	r := Reading{Emotions: []Score{{Label: "joy", P: 0.8}, {Label: "pride", P: 0.4}}, Valence: Positive}
	for _, tc := range []struct {
		l    Label
		want bool
	}{{"joy", true}, {"pride", true}, {"grief", false}, {"", false}} {
		if got := r.Has(tc.l); got != tc.want {
			t.Errorf("Has(%q) = %v, want %v", tc.l, got, tc.want)
		}
	}
	if (Reading{}).Has("neutral") {
		t.Error("the zero Reading has no labels")
	}
}

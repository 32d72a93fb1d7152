package memory

import (
	"math"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestFuseRanksByReciprocalRankWithRecencyAtHalfWeight(t *testing.T) {
	a, b, c, d := Ref{KindFact, 1}, Ref{KindFact, 2}, Ref{KindEpisode, 3}, Ref{KindFact, 4}
	got := Fuse(map[string][]Ref{
		"text":   {a, b},
		"vector": {b, c},
		"recent": {d, a},
	})
	want := map[Ref]float64{
		a: 1.0/61 + 0.5/62,
		b: 1.0/62 + 1.0/61,
		c: 1.0 / 62,
		d: 0.5 / 61,
	}
	order := []Ref{b, a, c, d}
	if len(got) != len(order) {
		t.Fatalf("fused %d records, want %d: %+v", len(got), len(order), got)
	}
	for i, s := range got {
		if s.Ref != order[i] {
			t.Errorf("rank %d = %+v, want %+v", i+1, s.Ref, order[i])
		}
		if math.Abs(s.Score-want[s.Ref]) > 1e-12 {
			t.Errorf("%+v scored %v, want %v", s.Ref, s.Score, want[s.Ref])
		}
	}
}

func TestFuseOfNothingIsEmpty(t *testing.T) {
	if got := Fuse(nil); len(got) != 0 {
		t.Fatalf("Fuse(nil) = %+v", got)
	}
}

func TestSupersession(t *testing.T) {
	york := Fact{Subject: Self, Predicate: PredLivesIn, Object: "York"}
	tests := []struct {
		name     string
		new, old Fact
		want     bool
	}{
		{"moving replaces where they live", Fact{Subject: Self, Predicate: PredLivesIn, Object: "Leeds"}, york, true},
		{"a like replaces the opposite dislike", Fact{Subject: Self, Predicate: PredLikes, Object: "running"}, Fact{Subject: Self, Predicate: PredDislikes, Object: "Running"}, true},
		{"two likes stand together", Fact{Subject: Self, Predicate: PredLikes, Object: "running"}, Fact{Subject: Self, Predicate: PredLikes, Object: "hiking"}, false},
		{"someone else's home does not replace theirs", Fact{Subject: "Anna", Predicate: PredLivesIn, Object: "Leeds"}, york, false},
	}
	for _, tt := range tests {
		if got := tt.new.Supersedes(tt.old); got != tt.want {
			t.Errorf("%s: Supersedes = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestQuoteKeepsEvidenceWithinItsLimitWithoutSplittingARune(t *testing.T) {
	long := strings.Repeat("é word ", 100)
	q := Quote(long)
	if n := utf8.RuneCountInString(q); n > MaxEvidence {
		t.Fatalf("quote has %d runes, limit %d", n, MaxEvidence)
	}
	if !utf8.ValidString(q) || !strings.HasSuffix(q, "…") {
		t.Fatalf("quote %q is not valid UTF-8 or does not show it was cut", q)
	}
	if got := Quote("  my   sister Anna  "); got != "my sister Anna" {
		t.Fatalf("Quote collapses spaces: got %q", got)
	}
}

func TestFactsSpeakToThePersonTheyAreAbout(t *testing.T) {
	tests := []struct {
		f    Fact
		want string
	}{
		{Fact{Subject: Self, Predicate: PredName, Object: "Sam"}, "your name is Sam"},
		{Fact{Subject: "Anna", Predicate: PredRelationship, Object: "sister"}, "Anna is your sister"},
		{Fact{Subject: Self, Predicate: PredLikes, Object: "hiking"}, "you like hiking"},
		{Fact{Subject: Self, Predicate: PredWorksAs, Object: "engineer"}, "you work as an engineer"},
		{Fact{Subject: Self, Predicate: PredDislikes, Object: "crowds"}, "you dislike crowds"},
		{Fact{Subject: "Anna", Predicate: PredLikes, Object: "hiking"}, "Anna likes hiking"},
		{Fact{Subject: Self, Predicate: "unknown", Object: "something"}, "something"},
	}
	for _, tt := range tests {
		if got := tt.f.Words(ToThem); got != tt.want {
			t.Errorf("Words(ToThem) = %q, want %q", got, tt.want)
		}
	}
}

func TestFactsAreWordedAboutThePersonForModelsAndSearch(t *testing.T) {
	tests := []struct {
		f      Fact
		want   string
		recall bool
	}{
		{Fact{Subject: Self, Predicate: PredLivesIn, Object: "Leeds"}, "lives in Leeds", true},
		{Fact{Subject: Self, Predicate: PredWorksAs, Object: "nurse"}, "works as nurse", true},
		{Fact{Subject: "Anna", Predicate: PredRelationship, Object: "sister"}, "Anna is their sister", true},
		{Fact{Subject: "Anna", Predicate: PredDislikes, Object: "cats"}, "Anna dislikes cats", true},
		{Fact{Subject: Self, Predicate: PredName, Object: "Sam"}, "name is Sam", false},
		{Fact{Subject: Self, Predicate: PredSelfBelief, Object: "I'm useless"}, "has said about themself: I'm useless", false},
		{Fact{Subject: Self, Predicate: PredNote, Object: "the exam is in May"}, "the exam is in May", false},
	}
	for _, tt := range tests {
		if got := tt.f.Words(AboutThem); got != tt.want {
			t.Errorf("Words(AboutThem) = %q, want %q", got, tt.want)
		}
		if got := tt.f.Recallable(); got != tt.recall {
			t.Errorf("%s: Recallable() = %t, want %t", tt.f.Predicate, got, tt.recall)
		}
	}
}

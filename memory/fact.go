package memory

import (
	"strings"
	"time"
	"unicode/utf8"
)

// MaxEvidence is the longest evidence quote a fact keeps, in characters.
const MaxEvidence = 280

// Self is the subject of facts about the person themselves.
const Self = "self"

// The predicates Haven's extractors produce. Any other predicate is refused
// by ValidFact.
const (
	PredName         = "name"
	PredPronouns     = "pronouns"
	PredLivesIn      = "lives_in"
	PredWorksAs      = "works_as"
	PredWorksAt      = "works_at"
	PredStudies      = "studies"
	PredRelationship = "relationship" // subject: the other person's name; object: "sister"
	PredPet          = "pet"          // subject: the pet's name; object: "dog"
	PredLikes        = "likes"
	PredDislikes     = "dislikes"
	PredNote         = "note"        // explicit "remember that ..."
	PredSelfBelief   = "self_belief" // what the person believes about themself
)

// predicates lists every known predicate and whether a new value replaces
// the old one (single-valued) for the same subject.
var predicates = map[string]bool{
	PredName: true, PredPronouns: true, PredLivesIn: true, PredWorksAs: true, PredWorksAt: true,
	PredStudies: true, PredRelationship: true, PredPet: true,
	PredLikes: false, PredDislikes: false, PredNote: false, PredSelfBelief: false,
}

// KnownPredicate reports whether p is a predicate Haven stores.
func KnownPredicate(p string) bool { _, ok := predicates[p]; return ok }

// Fact is one semantic memory: subject, predicate, object, with the
// person's own words as evidence and where they were said.
type Fact struct {
	ID        int64
	PersonID  string
	Subject   string
	Predicate string
	Object    string
	// Evidence is a quote of the person's own words, at most MaxEvidence
	// characters.
	Evidence string
	// SessionID and Turn say where the evidence was said (provenance).
	SessionID  string
	Turn       int
	Confidence float64
	// Active is false once a newer fact superseded this one; inactive facts
	// are kept (and exported) until forgotten, but never retrieved.
	Active       bool
	SupersededBy int64
	Created      time.Time
}

// Supersedes reports whether the new fact f replaces the active fact old of
// the same person: a single-valued predicate with the same subject ("lives
// in Leeds" replaces "lives in York"), or the opposite preference about the
// same thing ("likes running" replaces "dislikes running").
func (f Fact) Supersedes(old Fact) bool {
	if !strings.EqualFold(f.Subject, old.Subject) {
		return false
	}
	if f.Predicate == old.Predicate && predicates[f.Predicate] {
		return true
	}
	pref := func(p string) bool { return p == PredLikes || p == PredDislikes }
	return pref(f.Predicate) && pref(old.Predicate) && f.Predicate != old.Predicate &&
		strings.EqualFold(f.Object, old.Object)
}

// Same reports whether f says what old already says.
func (f Fact) Same(old Fact) bool {
	return strings.EqualFold(f.Subject, old.Subject) && f.Predicate == old.Predicate &&
		strings.EqualFold(f.Object, old.Object)
}

// ToPerson says the fact to the person it is about ("you live in Leeds",
// "Anna is your sister"), for lists and confirmations they read.
func (f Fact) ToPerson() string {
	if f.Subject == Self {
		switch f.Predicate {
		case PredName:
			return "your name is " + f.Object
		case PredPronouns:
			return "your pronouns are " + f.Object
		case PredLivesIn:
			return "you live in " + f.Object
		case PredWorksAs:
			return "you work as " + f.Object
		case PredWorksAt:
			return "you work at " + f.Object
		case PredStudies:
			return "you study " + f.Object
		case PredLikes:
			return "you like " + f.Object
		case PredDislikes:
			return "you dislike " + f.Object
		case PredSelfBelief:
			return "you said about yourself: " + f.Object
		}
	}
	switch f.Predicate {
	case PredRelationship, PredPet:
		return f.Subject + " is your " + f.Object
	}
	return f.Sentence()
}

// Sentence renders the fact in plain words ("lives in Leeds", "Anna is
// their sister").
func (f Fact) Sentence() string {
	about := ""
	if f.Subject != Self {
		about = f.Subject + " "
	}
	switch f.Predicate {
	case PredName:
		return "name is " + f.Object
	case PredPronouns:
		return "pronouns are " + f.Object
	case PredLivesIn:
		return "lives in " + f.Object
	case PredWorksAs:
		return "works as " + f.Object
	case PredWorksAt:
		return "works at " + f.Object
	case PredStudies:
		return "studies " + f.Object
	case PredRelationship:
		return f.Subject + " is their " + f.Object
	case PredPet:
		return f.Subject + " is their " + f.Object
	case PredLikes:
		return about + "likes " + f.Object
	case PredDislikes:
		return about + "dislikes " + f.Object
	case PredSelfBelief:
		return "has said about themself: " + f.Object
	default:
		return about + f.Object
	}
}

// ValidFact reports what is wrong with f as a new fact, or "" when it can be
// stored: a known predicate, non-empty subject and object, evidence within
// MaxEvidence characters, confidence in (0, 1].
func ValidFact(f Fact) string {
	switch {
	case f.PersonID == "":
		return "no person id"
	case !KnownPredicate(f.Predicate):
		return "unknown predicate " + f.Predicate
	case strings.TrimSpace(f.Subject) == "" || utf8.RuneCountInString(f.Subject) > 100:
		return "subject empty or longer than 100 characters"
	case strings.TrimSpace(f.Object) == "" || utf8.RuneCountInString(f.Object) > 200:
		return "object empty or longer than 200 characters"
	case utf8.RuneCountInString(f.Evidence) > MaxEvidence:
		return "evidence longer than 280 characters"
	case !(f.Confidence > 0 && f.Confidence <= 1):
		return "confidence outside (0, 1]"
	}
	return ""
}

// Quote cuts s to at most MaxEvidence characters on a word boundary where
// it can, for use as evidence.
func Quote(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= MaxEvidence {
		return s
	}
	r := []rune(s)[:MaxEvidence-1]
	cut := string(r)
	if i := strings.LastIndexByte(cut, ' '); i > MaxEvidence/2 {
		cut = cut[:i]
	}
	return cut + "…"
}

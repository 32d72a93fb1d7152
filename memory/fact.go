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

// Voice says to whom a fact is worded.
type Voice int

// The voices.
const (
	// AboutThem words a fact about the person, for a model's brief, the
	// search index and the export: "lives in Leeds", "Anna is their sister".
	AboutThem Voice = iota
	// ToThem words it to the person, for lists, confirmations and recall:
	// "you live in Leeds", "you work as a nurse", "Anna is your sister".
	ToThem
)

// wording is how one predicate is said. Templates use {s} for the subject,
// {o} for the object and {a} for the object with its article. The ...Other
// templates, when set, are for a subject who is not the person ("Anna likes
// hiking"); without them such a fact is worded about them.
type wording struct {
	about, aboutOther, to, toOther string
	// recall is true for facts Haven may bring up on its own; never a name,
	// pronouns, a note or a self-belief.
	recall bool
}

// wordings is the one place a fact's words are decided.
var wordings = map[string]wording{
	PredName:         {about: "name is {o}", to: "your name is {o}"},
	PredPronouns:     {about: "pronouns are {o}", to: "your pronouns are {o}"},
	PredLivesIn:      {about: "lives in {o}", to: "you live in {o}", recall: true},
	PredWorksAs:      {about: "works as {o}", to: "you work as {a}", recall: true},
	PredWorksAt:      {about: "works at {o}", to: "you work at {o}", recall: true},
	PredStudies:      {about: "studies {o}", to: "you study {o}", recall: true},
	PredRelationship: {about: "{s} is their {o}", to: "{s} is your {o}", toOther: "{s} is your {o}", recall: true},
	PredPet:          {about: "{s} is their {o}", to: "{s} is your {o}", toOther: "{s} is your {o}", recall: true},
	PredLikes:        {about: "likes {o}", aboutOther: "{s} likes {o}", to: "you like {o}", toOther: "{s} likes {o}", recall: true},
	PredDislikes:     {about: "dislikes {o}", aboutOther: "{s} dislikes {o}", to: "you dislike {o}", toOther: "{s} dislikes {o}", recall: true},
	PredNote:         {about: "{o}", aboutOther: "{s} {o}", to: "{o}", toOther: "{s} {o}"},
	PredSelfBelief:   {about: "has said about themself: {o}", to: "you said about yourself: {o}"},
}

// unknownWording words a predicate this build does not know.
var unknownWording = wording{about: "{o}", aboutOther: "{s} {o}", to: "{o}", toOther: "{s} {o}"}

// Words says the fact in voice v: the one wording of a fact, for every
// place Haven shows or uses it.
func (f Fact) Words(v Voice) string {
	w, ok := wordings[f.Predicate]
	if !ok {
		w = unknownWording
	}
	other := f.Subject != Self
	tmpl := w.about
	switch {
	case v == ToThem && other && w.toOther != "":
		tmpl = w.toOther
	case v == ToThem && !other:
		tmpl = w.to
	case other && w.aboutOther != "":
		tmpl = w.aboutOther
	}
	return strings.NewReplacer("{s}", f.Subject, "{o}", f.Object, "{a}", withArticle(f.Object)).Replace(tmpl)
}

// Recallable reports whether Haven may bring the fact up on its own, in a
// DM with proactive recall on.
func (f Fact) Recallable() bool {
	return wordings[f.Predicate].recall
}

// withArticle puts "a" or "an" before a role ("a nurse", "an engineer").
func withArticle(s string) string {
	if s == "" {
		return s
	}
	if strings.ContainsRune("aeiouAEIOU", rune(s[0])) {
		return "an " + s
	}
	return "a " + s
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

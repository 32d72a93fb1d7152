package memory

import (
	"strings"
	"time"
)

// Kind is the kind of a remembered record.
type Kind string

// The record kinds.
const (
	KindFact       Kind = "fact"
	KindEpisode    Kind = "episode"
	KindRule       Kind = "rule"
	KindTranscript Kind = "transcript"
)

// Ref names one record of a person.
type Ref struct {
	Kind Kind  `json:"kind"`
	ID   int64 `json:"id"`
}

// Record is one remembered item as listed to its owner: a fact (active or
// not), an episode or a rule.
type Record struct {
	Ref     Ref
	Created time.Time
	Fact    *Fact
	Episode *Episode
	Rule    *Rule
}

// ToPerson renders the record for the person it is about, as Text does
// but in the second person.
func (r Record) ToPerson() string {
	switch {
	case r.Fact != nil:
		s := r.Fact.ToPerson()
		if r.Fact.Evidence != "" {
			s += ` ("` + r.Fact.Evidence + `")`
		}
		if !r.Fact.Active {
			s += " [replaced]"
		}
		return s
	case r.Rule != nil && r.Rule.Key == "address":
		return "call you " + r.Rule.Text
	}
	return r.Text()
}

// Text is the record in plain words, for lists and for matching a "forget"
// query.
func (r Record) Text() string {
	switch {
	case r.Fact != nil:
		s := r.Fact.Sentence()
		if r.Fact.Evidence != "" {
			s += ` ("` + r.Fact.Evidence + `")`
		}
		if !r.Fact.Active {
			s += " [replaced]"
		}
		return s
	case r.Episode != nil:
		s := r.Episode.Summary
		if len(r.Episode.OpenLoops) > 0 {
			s += " Open: " + strings.Join(r.Episode.OpenLoops, "; ")
		}
		return s
	case r.Rule != nil:
		if r.Rule.Key == "address" {
			return "call them " + r.Rule.Text
		}
		return r.Rule.Text
	}
	return ""
}

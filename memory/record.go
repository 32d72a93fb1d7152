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
	KindJournal    Kind = "journal"
	KindMood       Kind = "mood"
)

// Ref names one record of a person.
type Ref struct {
	Kind Kind  `json:"kind"`
	ID   int64 `json:"id"`
}

// Record is one remembered item as listed to its owner: a fact (active or
// not), an episode, a rule or a mood entry.
type Record struct {
	Ref     Ref
	Created time.Time
	Fact    *Fact
	Episode *Episode
	Rule    *Rule
	Journal *JournalEntry
	Mood    *Mood
}

// Text is the record in plain words about the person, for a model's brief
// and for matching a "forget" query: Words(AboutThem).
func (r Record) Text() string { return r.Words(AboutThem) }

// Words renders the record in voice v: a fact in its one wording with the
// person's own words and whether it was replaced, an episode's summary and
// open loops, a rule in the person's words.
func (r Record) Words(v Voice) string {
	if r.Rule != nil && r.Rule.Key == "address" && v == ToThem {
		return "call you " + r.Rule.Text
	}
	switch {
	case r.Fact != nil:
		s := r.Fact.Words(v)
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
	case r.Journal != nil:
		return "journal entry of " + r.Journal.Created.Format("2 Jan 2006") + ": " + r.Journal.Text
	case r.Rule != nil:
		if r.Rule.Key == "address" {
			return "call them " + r.Rule.Text
		}
		return r.Rule.Text
	case r.Mood != nil:
		return r.Mood.Words()
	}
	return ""
}

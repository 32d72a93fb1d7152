package memory

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"
)

// MaxEvidence is the longest evidence quote a fact keeps, in characters.
const MaxEvidence = 280

// MaxRules is how many procedural rules a person may have; the oldest is
// dropped when a new one would pass the cap.
const MaxRules = 20

// MaxThemes is how many themes an episode keeps.
const MaxThemes = 3

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

// Episode is what one session was about, written when it ends.
type Episode struct {
	ID        int64
	PersonID  string
	SessionID string
	Summary   string
	// Themes are at most MaxThemes short topics ("work", "sleep").
	Themes []string
	// MoodArc is how the person's mood moved ("low → steadier").
	MoodArc string
	// OpenLoops are things left to come back to ("wanted to talk to her
	// manager on Friday").
	OpenLoops []string
	Started   time.Time
	Ended     time.Time
	Created   time.Time
}

// Rule is one procedural memory: how the person wants Haven to talk with
// them. Rules with the same Key conflict; the newest wins.
type Rule struct {
	ID       int64
	PersonID string
	// Key groups conflicting rules: "address" (what to call them), "advice",
	// "length", "questions", "tone", or "custom:..." for others.
	Key string
	// Text is the rule in plain words ("just listen, no advice"); for the
	// "address" key it is the name to use.
	Text      string
	Evidence  string
	SessionID string
	Created   time.Time
}

// Policy says when an extracted memory is written.
type Policy string

// The write policies.
const (
	// CommitNow writes the memory as soon as it is extracted.
	CommitNow Policy = "now"
	// AtSessionEnd holds the memory until the session ends.
	AtSessionEnd Policy = "session_end"
	// AfterRepetition holds the memory until it was said in more than one
	// turn (fragile negative self-beliefs).
	AfterRepetition Policy = "repetition"
	// Drop never writes it.
	Drop Policy = "drop"
)

// RepetitionsNeeded is how many distinct turns an AfterRepetition memory
// must be said in before it is written.
const RepetitionsNeeded = 2

// Settings are a person's memory controls.
type Settings struct {
	// Paused is incognito: nothing new is remembered while it is set.
	Paused bool `json:"paused"`
	// Proactive lets Haven bring up memories the message did not ask about
	// (recent ones, a catch-up on the last session). On by default.
	Proactive bool `json:"proactive"`
}

// DefaultSettings are the settings of a person who never changed them.
func DefaultSettings() Settings { return Settings{Proactive: true} }

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

// Text is the record in plain words, for lists and for matching a "forget"
// query.
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

// JobKind is the kind of a background memory job.
type JobKind string

// The job kinds.
const (
	// JobTurn extracts memories from one user message.
	JobTurn JobKind = "turn"
	// JobSessionEnd writes the episode of an ended session and commits the
	// memories held for its end.
	JobSessionEnd JobKind = "session_end"
)

// Job is one durable unit of background memory work.
type Job struct {
	ID        int64
	Kind      JobKind
	PersonID  string
	SessionID string
	// Turn is the turn number (checkpoint turn count) of a JobTurn.
	Turn int
	// Text is the person's message of a JobTurn; it is deleted with the job.
	Text     string
	Attempts int
	Created  time.Time
}

// SearchQuery asks for a person's candidate memories for a turn.
type SearchQuery struct {
	PersonID string
	// Text is matched with full-text search (BM25).
	Text string
	// Vector, when set, is matched by cosine similarity against memories
	// embedded with the same Model.
	Vector []float32
	Model  string
	// Limit bounds each ranked list; zero means 20.
	Limit int
	// Recent adds the most recent active records as a ranked list.
	Recent bool
}

// SearchResult holds ranked lists of active records (best first) and the
// records they name. Inactive facts never appear.
type SearchResult struct {
	Text   []Ref
	Vector []Ref
	Recent []Ref
	// Pinned are records loaded on every turn whatever the message says: the
	// person's name and pronouns.
	Pinned  []Ref
	Records map[Ref]Record
}

// Export is everything Haven holds about one person.
type Export struct {
	PersonID   string        `json:"person_id"`
	Display    string        `json:"display_name"`
	Created    time.Time     `json:"created"`
	Identities []string      `json:"identities"`
	Settings   Settings      `json:"settings"`
	Facts      []ExportFact  `json:"facts"`
	Episodes   []Episode     `json:"episodes"`
	Rules      []Rule        `json:"rules"`
	Sessions   []ExportSess  `json:"sessions"`
	Crisis     []CrisisEvent `json:"crisis_log"`
	Pending    int           `json:"pending_extraction_jobs"`
	Held       []Fact        `json:"held_for_later"`
}

// ExportFact is a fact as exported, with its state in words.
type ExportFact struct {
	Fact
	Sentence string `json:"sentence"`
}

// ExportSess is a session and its transcript as exported.
type ExportSess struct {
	ID             string    `json:"id"`
	ConversationID string    `json:"conversation_id"`
	Started        time.Time `json:"started"`
	Ended          time.Time `json:"ended,omitzero"`
	Entries        []Entry   `json:"transcript"`
}

// Retention says how long records are kept; zero keeps them forever.
type Retention struct {
	// Transcripts bounds transcript entries (by when they were said).
	Transcripts time.Duration
	// Inactive bounds superseded facts (by when they were superseded).
	Inactive time.Duration
	// CrisisLog bounds the crisis log, which has its own retention.
	CrisisLog time.Duration
	// Deliveries bounds the delivery records kept for dedupe and retries:
	// handled inbox rows and sent or abandoned outbox rows (by when they
	// were handled). They hold platform ids, so they must not live forever;
	// a redelivery older than this would be answered again.
	Deliveries time.Duration
}

// Swept is what one retention pass deleted.
type Swept struct {
	Transcripts, Inactive, CrisisLog, Deliveries int64
}

// Memories keeps what Haven remembers about people beyond the transcript:
// facts, episodes, rules, the extraction queue and memory controls. It sits
// next to Store; memory/sqlite implements both. Every method is scoped to
// one person where it takes a person id and never returns another person's
// records.
type Memories interface {
	// AddFact stores f (validated with ValidFact). A fact that says what an
	// active one already says is not stored again: the existing one is
	// returned. Active facts f supersedes become inactive, pointing at f.
	AddFact(ctx context.Context, f Fact) (Fact, error)
	// Facts returns the person's facts, oldest first; inactive ones too when
	// inactive is true.
	Facts(ctx context.Context, personID string, inactive bool) ([]Fact, error)
	// AddEpisode stores the episode of a session; a session has at most one
	// episode, and a second call for it is a no-op returning the first.
	AddEpisode(ctx context.Context, ep Episode) (Episode, error)
	// Episodes returns the person's n latest episodes, newest first.
	Episodes(ctx context.Context, personID string, n int) ([]Episode, error)
	// AddRule stores r; a rule with the same key is replaced (newest wins),
	// and past MaxRules the oldest rule is dropped.
	AddRule(ctx context.Context, r Rule) (Rule, error)
	// Rules returns the person's rules, oldest first.
	Rules(ctx context.Context, personID string) ([]Rule, error)
	// Hold keeps f until its policy lets it be written: key identifies what
	// f says, turn the turn it was said in. It returns in how many distinct
	// turns f has now been said.
	Hold(ctx context.Context, f Fact, p Policy, key string) (times int, err error)
	// TakeHeld removes and returns the held facts that are now due: those
	// held for the end of session sessionID and, for AfterRepetition, those
	// said at least RepetitionsNeeded times.
	TakeHeld(ctx context.Context, personID, sessionID string) ([]Fact, error)
	// Search returns ranked lists of the person's active records for q.
	Search(ctx context.Context, q SearchQuery) (SearchResult, error)
	// SetEmbedding stores the embedding of a fact or episode under model.
	SetEmbedding(ctx context.Context, personID string, ref Ref, model string, v []float32) error
	// Records returns every fact (active or not), rule and episode of the
	// person, oldest first: the numbered list the person sees.
	Records(ctx context.Context, personID string) ([]Record, error)
	// Forget deletes the person's records refs (and a transcript entry for a
	// KindTranscript ref) from storage, search and export.
	Forget(ctx context.Context, personID string, refs ...Ref) error
	// MatchTranscript returns the ids of the person's transcript entries
	// whose text match reports true for.
	MatchTranscript(ctx context.Context, personID string, match func(string) bool) ([]int64, error)
	// ForgetAll deletes the person and everything about them; the crisis log
	// keeps its rows with every id removed (de-identified).
	ForgetAll(ctx context.Context, personID string) error
	// Export returns everything Haven holds about the person.
	Export(ctx context.Context, personID string) (Export, error)
	// Settings returns the person's memory controls (DefaultSettings when
	// never set).
	Settings(ctx context.Context, personID string) (Settings, error)
	// SetSettings saves the person's memory controls.
	SetSettings(ctx context.Context, personID string, s Settings) error
	// Enqueue adds a job to the durable queue.
	Enqueue(ctx context.Context, j Job) error
	// Claim leases the oldest due job for lease, or returns ok false when
	// none is due. A leased job not finished before its lease ends is
	// claimed again (a crash or restart loses no job).
	Claim(ctx context.Context, lease time.Duration) (j Job, ok bool, err error)
	// Finish deletes a done job.
	Finish(ctx context.Context, id int64) error
	// Retry returns a failed job to the queue, due again after delay.
	Retry(ctx context.Context, id int64, delay time.Duration) error
	// EndSession ends the open session sessionID at now; ended is false when
	// it had already ended.
	EndSession(ctx context.Context, sessionID string, now time.Time) (ended bool, err error)
	// IdleSessions returns up to n open sessions with no activity since
	// before.
	IdleSessions(ctx context.Context, before time.Time, n int) ([]Session, error)
	// SessionEntries returns the session's whole transcript, oldest first.
	SessionEntries(ctx context.Context, sessionID string) ([]Entry, error)
	// ApplyRetention deletes what r says is past keeping at now.
	ApplyRetention(ctx context.Context, r Retention, now time.Time) (Swept, error)
}

// Embedder turns texts into vectors with an embedding model.
// llm.OpenAIEmbedder implements it.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	// Model names the embedding model; vectors of different models are
	// never compared.
	Model() string
}

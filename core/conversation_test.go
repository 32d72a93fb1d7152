package core

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/havenbot/haven/memory"
	"github.com/havenbot/haven/memory/jobs"
)

// The conversation suite (issue 15): multi-turn scripts in
// testdata/conversations, written for this issue, each turn asserting
// properties of what Haven did rather than its wording. The suite runs the
// whole engine (crisis gate, dispatch, therapy, memory and its job queue) on
// a real SQLite file, in rule mode (no model), and reports the share of
// properties that hold, overall and per kind. It fails when that share
// falls below suiteFloor, and always when a crisis property fails.

// suiteFloor is the least share of properties that must hold: a little
// under what main reaches (96.6% with issue 15's work merged), so a change
// that makes listening worse fails here. Raise it as listening improves.
const suiteFloor = 0.95

// The property kinds, as the report counts them.
const (
	propCrisis     = "crisis"          // the crisis reply where the script expects one (never allowed to fail)
	propNoCrisis   = "no-false-crisis" // no crisis reply where the script expects none
	propMet        = "met"             // the valence the reply met (TurnReport.Met)
	propRead       = "read"            // the valence the message was read as (TurnReport.Valence)
	propAnswered   = "answered"        // a direct question answered (TurnReport.Answered)
	propExercise   = "exercise"        // the exercise running after the turn
	propEvent      = "exercise-event"  // what happened to the exercise this turn
	propSafetyQ    = "safety-question" // whether the reply asks the safety question
	propCommand    = "command"         // whether the message was taken as a command
	propGrammar    = "grammar"         // second-person grammar in the reply
	propRepeat     = "no-repeat-question"
	propForgot     = "forgot"     // nothing stored or in the transcript mentions the words
	propRemembered = "remembered" // something stored mentions the words
	propEnds       = "ends-session"
)

// script is one conversation file.
type script struct {
	// Name says what the conversation is; Covers lists the themes
	// it exercises (good-news, sarcasm, grief-anger, ...).
	Name   string       `yaml:"name"`
	Covers []string     `yaml:"covers"`
	Turns  []scriptTurn `yaml:"turns"`
}

// scriptTurn is one message and what its turn must show. Unset fields
// assert nothing; the grammar, repeated-question and crisis properties are
// checked on every turn.
type scriptTurn struct {
	Say string `yaml:"say"`
	// Crisis: the crisis reply must answer (true) or must not (false);
	// unset means must not.
	Crisis *bool `yaml:"crisis"`
	// Met is the valence the reply must meet: positive, negative, none, or
	// any (some feeling, whichever).
	Met string `yaml:"met"`
	// Read is the valence the message must be read as.
	Read string `yaml:"read"`
	// Answered: the reply answers the question the message asked.
	Answered *bool `yaml:"answered"`
	// Exercise is the exercise that must run after the turn ("none" for
	// none).
	Exercise string `yaml:"exercise"`
	// Event is what must happen to the exercise: started, advanced,
	// stopped, finished, declined, offered, side, ...; "none" for nothing.
	// "not-started" means anything but started. A list takes any of its
	// events.
	Event oneOf `yaml:"event"`
	// AsksSafety: the reply must (true) or must not (false) ask the safety
	// question.
	AsksSafety *bool `yaml:"asks_safety"`
	// Command: the message must (true) or must not (false) be taken as a
	// command.
	Command *bool `yaml:"command"`
	// Forgot: after the turn, no memory record and no transcript line of
	// the person mentions any of these words.
	Forgot []string `yaml:"forgot"`
	// Remembered: after the turn, some memory record mentions each word.
	Remembered []string `yaml:"remembered"`
	// Ends: the turn ends the session (a farewell) or keeps it open.
	Ends *bool `yaml:"ends"`
}

// oneOf is a script value that is one string or a list of them.
type oneOf []string

// UnmarshalYAML reads a string or a list of strings.
func (o *oneOf) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		*o = oneOf{n.Value}
		return nil
	}
	var l []string
	if err := n.Decode(&l); err != nil {
		return err
	}
	*o = l
	return nil
}

// tally counts properties, per kind.
type tally struct {
	held, total map[string]int
	failures    []string
}

func newTally() *tally { return &tally{held: map[string]int{}, total: map[string]int{}} }

// check records one property: msg is "" when it holds.
func (ty *tally) check(kind, where, msg string) {
	ty.total[kind]++
	if msg == "" {
		ty.held[kind]++
		return
	}
	ty.failures = append(ty.failures, fmt.Sprintf("%s [%s] %s", where, kind, msg))
}

func (ty *tally) share() (held, total int) {
	for k, n := range ty.total {
		total += n
		held += ty.held[k]
	}
	return held, total
}

func loadScripts(t *testing.T) map[string]script {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "conversations", "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]script{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var s script
		dec := yaml.NewDecoder(bytes.NewReader(data))
		dec.KnownFields(true)
		if err := dec.Decode(&s); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if s.Name == "" || len(s.Turns) == 0 {
			t.Fatalf("%s: a script needs a name and turns", f)
		}
		for i, tu := range s.Turns {
			if strings.TrimSpace(tu.Say) == "" {
				t.Fatalf("%s: turn %d says nothing", f, i+1)
			}
		}
		out[strings.TrimSuffix(filepath.Base(f), ".yaml")] = s
	}
	return out
}

// TestConversationSuite runs every script and reports the share of
// properties that hold.
func TestConversationSuite(t *testing.T) {
	scripts := loadScripts(t)
	if len(scripts) < 40 {
		t.Fatalf("%d conversation scripts, want at least 40", len(scripts))
	}
	names := make([]string, 0, len(scripts))
	for n := range scripts {
		names = append(names, n)
	}
	sort.Strings(names)
	ty := newTally()
	for _, n := range names {
		runScript(t, n, scripts[n], ty)
	}
	held, total := ty.share()
	kinds := make([]string, 0, len(ty.total))
	for k := range ty.total {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	var b strings.Builder
	fmt.Fprintf(&b, "conversation suite: %d scripts, %d/%d properties hold (%.1f%%)\n", len(scripts), held, total, pct(held, total))
	for _, k := range kinds {
		fmt.Fprintf(&b, "  %-20s %4d/%-4d %5.1f%%\n", k, ty.held[k], ty.total[k], pct(ty.held[k], ty.total[k]))
	}
	t.Log(b.String())
	if testing.Verbose() || os.Getenv("HAVEN_SUITE_FAILURES") != "" {
		for _, f := range ty.failures {
			t.Log(f)
		}
	}
	for _, f := range ty.failures {
		if strings.Contains(f, "["+propCrisis+"]") {
			t.Errorf("crisis property failed: %s", f)
		}
	}
	if share := float64(held) / float64(total); share < suiteFloor {
		t.Errorf("%.1f%% of properties hold, below the floor of %.1f%% (HAVEN_SUITE_FAILURES=1 lists the failures)", 100*share, 100*suiteFloor)
	}
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// runScript plays one script against a fresh engine and store.
func runScript(t *testing.T, name string, s script, ty *tally) {
	t.Helper()
	var reports []TurnReport
	m := newMemEnv(t, func(o *Options, _ *jobs.Options) {
		o.Observe = func(r TurnReport) { reports = append(reports, r) }
	})
	db, err := sql.Open("sqlite", m.path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sm := &suiteEnv{memEnv: m, db: db}
	const author = "sam"
	var history [][]string // the questions of each earlier therapeutic reply
	for i, tu := range s.Turns {
		where := fmt.Sprintf("%s turn %d %q", name, i+1, tu.Say)
		before := len(reports)
		outs := m.say(t, author, tu.Say)
		if len(reports) != before+1 {
			t.Fatalf("%s: %d reports for one turn", where, len(reports)-before)
		}
		r := reports[len(reports)-1]
		reply := texts(outs)
		checkTurn(t, sm, author, where, tu, r, reply, ty)
		if r.Route == RouteTherapeutic {
			qs := questionsOf(reply)
			ty.check(propRepeat, where, repeatedQuestion(qs, history))
			history = append(history, qs)
		}
		ty.check(propGrammar, where, grammarProblem(reply))
	}
}

// checkTurn checks one turn's declared properties.
func checkTurn(t *testing.T, m *suiteEnv, author, where string, tu scriptTurn, r TurnReport, reply string, ty *tally) {
	t.Helper()
	want := func(ok bool, format string, args ...any) string {
		if ok {
			return ""
		}
		return fmt.Sprintf(format, args...) + fmt.Sprintf(" (reply %q)", clipText(reply, 160))
	}
	crisis := r.Route == RouteCrisis
	if tu.Crisis != nil && *tu.Crisis {
		ty.check(propCrisis, where, want(crisis, "no crisis reply (route %s, level %d)", r.Route, r.Level))
	} else {
		ty.check(propNoCrisis, where, want(!crisis, "crisis reply (level %d)", r.Level))
	}
	if tu.Met != "" {
		ok := r.Met == tu.Met
		switch tu.Met {
		case "none":
			ok = r.Met == ""
		case "any":
			ok = r.Met != ""
		}
		ty.check(propMet, where, want(ok, "met %q, want %s", r.Met, tu.Met))
	}
	if tu.Read != "" {
		ty.check(propRead, where, want(r.Valence == tu.Read, "read as %q, want %q", r.Valence, tu.Read))
	}
	if tu.Answered != nil {
		ty.check(propAnswered, where, want(r.Answered == *tu.Answered, "answered %t, want %t", r.Answered, *tu.Answered))
	}
	if tu.Exercise != "" {
		w := tu.Exercise
		if w == "none" {
			w = ""
		}
		ty.check(propExercise, where, want(r.Exercise == w, "exercise %q (step %d), want %q", r.Exercise, r.ExerciseStep, w))
	}
	if len(tu.Event) > 0 {
		ok := slices.ContainsFunc(tu.Event, func(w string) bool { return eventIs(r.ExerciseEvent, w) })
		ty.check(propEvent, where, want(ok, "exercise event %q, want %s", r.ExerciseEvent, strings.Join(tu.Event, " or ")))
	}
	if tu.AsksSafety != nil {
		ty.check(propSafetyQ, where, want(r.AskedSafetyQuestion == *tu.AsksSafety, "asked the safety question: %t, want %t", r.AskedSafetyQuestion, *tu.AsksSafety))
	}
	if tu.Command != nil {
		ty.check(propCommand, where, want((r.Route == RouteCommand) == *tu.Command, "route %s, want a command: %t", r.Route, *tu.Command))
	}
	if len(tu.Forgot) > 0 || len(tu.Remembered) > 0 {
		recs, lines := m.stored(t, author)
		for _, w := range tu.Forgot {
			ty.check(propForgot, where, want(!mentionsAny(recs, w) && !mentionsAny(lines, w), "still holds %q: records %q, transcript %q", w, filterMentions(recs, w), filterMentions(lines, w)))
		}
		for _, w := range tu.Remembered {
			ty.check(propRemembered, where, want(mentionsAny(recs, w), "no record mentions %q (records %q)", w, recs))
		}
	}
	if tu.Ends != nil {
		ended := m.latestSessionEnded(t, author)
		ty.check(propEnds, where, want(ended == *tu.Ends, "session ended: %t, want %t", ended, *tu.Ends))
	}
}

// eventIs reports whether the turn's exercise event is what the script
// wants. "stopped" also takes "stopped_distress" (stopped because the
// person said they were in distress);
// "not-started" is anything but started; "none" is no event.
func eventIs(got, want string) bool {
	switch want {
	case "none":
		return got == ""
	case "not-started":
		return got != "started"
	case "stopped":
		return got == "stopped" || got == "stopped_distress"
	}
	return got == want
}

// suiteEnv is a memEnv with a second connection to its database, to read
// what the store holds.
type suiteEnv struct {
	*memEnv
	db *sql.DB
}

// latestSessionEnded reports whether the person's latest session (the one
// the last turn ran in) has ended.
func (m *suiteEnv) latestSessionEnded(t *testing.T, author string) bool {
	t.Helper()
	var ended sql.NullString
	err := m.db.QueryRowContext(context.Background(),
		`SELECT s.ended_at FROM sessions s JOIN identities i ON i.person_id = s.person_id
		 WHERE i.platform_user_id = ? ORDER BY s.started_at DESC, s.rowid DESC LIMIT 1`, "test::"+author).Scan(&ended)
	if err != nil {
		t.Fatalf("read the latest session of %s: %v", author, err)
	}
	return ended.Valid
}

// stored returns the text of every memory record of the person and of
// every transcript line of their sessions.
func (m *suiteEnv) stored(t *testing.T, author string) (records, lines []string) {
	t.Helper()
	ctx := context.Background()
	p := m.person(t, author)
	recs, err := m.store.Records(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		records = append(records, r.Words(memory.ToThem)+" | "+r.Text())
	}
	rows, err := m.db.QueryContext(ctx, `SELECT t.text FROM transcript t JOIN sessions s ON s.id = t.session_id WHERE s.person_id = ?`, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return records, lines
}

func mentionsAny(texts []string, word string) bool { return len(filterMentions(texts, word)) > 0 }

func filterMentions(texts []string, word string) []string {
	re := regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(word) + `\b`)
	var out []string
	for _, s := range texts {
		if re.MatchString(s) {
			out = append(out, s)
		}
	}
	return out
}

func clipText(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

var sentenceRE = regexp.MustCompile(`[^.!?]*[?]`)

// questionsOf returns the questions a reply asks, normalised.
func questionsOf(reply string) []string {
	var out []string
	for _, q := range sentenceRE.FindAllString(reply, -1) {
		q = strings.ToLower(strings.Join(strings.Fields(q), " "))
		if q != "" && q != "?" {
			out = append(out, q)
		}
	}
	return out
}

// repeatedQuestion returns "" unless one of qs was asked in the last five
// therapeutic replies of history.
func repeatedQuestion(qs []string, history [][]string) string {
	from := max(0, len(history)-5)
	for i := from; i < len(history); i++ {
		for _, q := range qs {
			if slices.Contains(history[i], q) {
				return fmt.Sprintf("question %q repeated from %d replies ago", q, len(history)-i)
			}
		}
	}
	return ""
}

var (
	// quotedRE finds the person's words quoted back, which keep their own
	// pronouns.
	quotedRE = regexp.MustCompile(`"[^"]*"|“[^”]*”`)
	// badGrammar are second-person slips: first-person words left beside
	// "you", or a verb left in the first person.
	badGrammar = []*regexp.Regexp{
		regexp.MustCompile(`(?i)\byou (i|i'm|i'd|i've|i'll|im|me|my|mine|myself|am)\b`),
		regexp.MustCompile(`(?i)\byour (i|i'm|i'd|i've|me|my|mine)\b`),
		regexp.MustCompile(`(?i)\byou (has|is|was|wasn't|isn't|doesn't|does)\b`),
		regexp.MustCompile(`(?i)\bi (are|were being)\b`),
	}
	// wereRE finds "she were" and the like, a first-person "was" turned to
	// "were" beside a third person; after "if", "wish" or "though" it is
	// the subjunctive and right.
	wereRE = regexp.MustCompile(`(?i)(\w+)? ?\b(he|she|it) were\b`)
	// reflectionRE is a sentence that reflects the person's words back;
	// first-person words in it are slips.
	reflectionRE = regexp.MustCompile(`(?i)^\s*(so |and |it sounds like |it sounds as if |sounds like |you're saying |you said |you feel |you've been )`)
	firstRE      = regexp.MustCompile(`(?i)\b(i|i'm|i'd|i've|i'll|my|me|myself|mine)\b`)
	sentencesRE  = regexp.MustCompile(`[^.!?]+[.!?]*`)
)

// grammarProblem returns "" when the reply's reflections are in the second
// person, or the slip it found.
func grammarProblem(reply string) string {
	s := quotedRE.ReplaceAllString(reply, `"…"`)
	for _, re := range badGrammar {
		if m := re.FindString(s); m != "" {
			return fmt.Sprintf("%q in %q", m, clipText(reply, 160))
		}
	}
	for _, m := range wereRE.FindAllStringSubmatch(s, -1) {
		switch strings.ToLower(m[1]) {
		case "if", "wish", "though", "as":
			continue
		}
		return fmt.Sprintf("%q in %q", strings.TrimSpace(m[0]), clipText(reply, 160))
	}
	for _, sent := range sentencesRE.FindAllString(s, -1) {
		if !reflectionRE.MatchString(sent) {
			continue
		}
		// The reflected words run to the first clause break; what follows
		// ("..., and I want to help") is Haven speaking for itself.
		clause, _, _ := strings.Cut(strings.NewReplacer(";", ",", "—", ",", " - ", ",").Replace(sent), ",")
		if m := firstRE.FindString(clause); m != "" && strings.Contains(strings.ToLower(clause), "you") {
			return fmt.Sprintf("%q in the reflection %q", m, strings.TrimSpace(sent))
		}
	}
	return ""
}

func TestGrammarCheckerFindsFirstPersonLeftInReflections(t *testing.T) {
	tests := []struct {
		reply string
		bad   bool
	}{
		{"So you I'd give anything to see her again.", true},
		{"So you want to scream at my family.", true},
		{"It sounds like you feel my boss never listens.", true},
		{"You has been through a lot.", true},
		{"You're annoyed at yourself for not noticing she were ill sooner.", true},
		{"It sounds like you wish she were here.", false},
		{"It sounds like you're in a lot of pain right now, and I want to help you stay safe.", false},
		{"So you'd give anything to see her again. What do you miss most?", false},
		{"Thank you. I'm here whenever you want to talk.", false},
		{"You wrote \"I am so tired of this\", and that sounds heavy.", false},
		{"It sounds like your boss never listens to you.", false},
		{"I'm glad you told me.", false},
	}
	for _, tt := range tests {
		if got := grammarProblem(tt.reply); (got != "") != tt.bad {
			t.Errorf("grammarProblem(%q) = %q, want a problem: %t", tt.reply, got, tt.bad)
		}
	}
}

func TestRepeatedQuestionLooksBackFiveReplies(t *testing.T) {
	h := [][]string{{"what's that been like?"}, nil, nil, nil, nil, nil}
	if got := repeatedQuestion([]string{"what's that been like?"}, h); got != "" {
		t.Errorf("a question six replies back is not a repeat: %s", got)
	}
	if got := repeatedQuestion([]string{"what's that been like?"}, h[:5]); got == "" {
		t.Error("a question five replies back is a repeat")
	}
	if got := questionsOf("That sounds hard. What's that been like? I'm here."); !slices.Equal(got, []string{"what's that been like?"}) {
		t.Errorf("questionsOf = %q", got)
	}
}

package core

import (
	"context"
	"log/slog"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/memory/sqlite"
	"github.com/havenbot/haven/safety"
)

// These are multi-turn engine tests of issue 15's exercise, safety-answer
// and farewell behaviours: a real engine on a real SQLite file, rule mode
// (no model).

// convo runs one person's conversation through a fresh engine.
type convo struct {
	t *testing.T
	e *Engine
}

func newConvo(t *testing.T) *convo {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "haven.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	e, err := New(Options{Store: store, Gate: safety.NewGate(safety.GateOptions{}), DefaultCountry: "GB",
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	return &convo{t: t, e: e}
}

// say runs one turn and returns it.
func (c *convo) say(text string) *Turn {
	c.t.Helper()
	tr := &Turn{In: dm(text)}
	if err := c.e.runCommitted(context.Background(), tr); err != nil {
		c.t.Fatalf("turn %q: %v", text, err)
	}
	if tr.Reply == "" {
		c.t.Fatalf("turn %q: empty reply", text)
	}
	return tr
}

// exercise returns "exercise/step" after the turn, "" for none.
func exerciseOf(tr *Turn) string {
	if tr.Therapy.Exercise == "" {
		return ""
	}
	return tr.Therapy.Exercise + "/" + tr.Therapy.Step
}

func has(t *testing.T, tr *Turn, re string) {
	t.Helper()
	if !regexp.MustCompile("(?i)" + re).MatchString(tr.Reply) {
		t.Errorf("reply to %q does not mention /%s/: %q", tr.In.Text, re, tr.Reply)
	}
}

func hasNot(t *testing.T, tr *Turn, re string) {
	t.Helper()
	if m := regexp.MustCompile("(?i)" + re).FindString(tr.Reply); m != "" {
		t.Errorf("reply to %q contains %q: %q", tr.In.Text, m, tr.Reply)
	}
}

// nextStepWords are words only an exercise step gives.
const nextStepWords = `in for 4|hold for 4|last round|three things you can hear|four things you can feel|tell me when`

// safetyQuestionWords are the words of a question about suicide or safety.
const safetyQuestionWords = `suicide|end(ing)? your life|act on these|safe right now|somewhere safe|safer tonight|thoughts like that`

func TestAHelpRequestIsAskedFirstAndNoStartsNothing(t *testing.T) {
	for _, no := range []string{"no", "not now", "maybe later", "no thanks", "nah"} {
		t.Run(no, func(t *testing.T) {
			c := newConvo(t)
			tr := c.say("I'm so tense, can you help me calm down?")
			if tr.ExerciseEvent != "offered" || !strings.HasSuffix(exerciseOf(tr), "/offered") {
				t.Fatalf("help request: event %q exercise %q, want an offer (%q)", tr.ExerciseEvent, exerciseOf(tr), tr.Reply)
			}
			has(t, tr, `would you like to try`)
			hasNot(t, tr, nextStepWords)
			tr = c.say(no)
			if tr.ExerciseEvent != "declined" || exerciseOf(tr) != "" {
				t.Errorf("%q to the offer: event %q exercise %q, want declined and nothing running", no, tr.ExerciseEvent, exerciseOf(tr))
			}
			hasNot(t, tr, nextStepWords)
		})
	}
}

// "no" to "tell me when you're ready" stops the exercise; it used to start
// the first round.
func TestNoToTheFirstStepStartsNothing(t *testing.T) {
	for _, no := range []string{"no", "not now", "maybe later", "nope"} {
		t.Run(no, func(t *testing.T) {
			c := newConvo(t)
			tr := c.say("can we do box breathing?")
			if exerciseOf(tr) != "box_breathing/settle" {
				t.Fatalf("named request: exercise %q, want box_breathing/settle", exerciseOf(tr))
			}
			tr = c.say(no)
			if tr.ExerciseEvent != "stopped" || exerciseOf(tr) != "" {
				t.Errorf("%q at the ready step: event %q exercise %q, want stopped", no, tr.ExerciseEvent, exerciseOf(tr))
			}
			hasNot(t, tr, nextStepWords)
		})
	}
}

// Distress during an exercise stops it at once and turns to grounding words
// and validation, never the next step, in whatever words it is said.
func TestDistressMidExerciseStopsItAndGrounds(t *testing.T) {
	tests := []struct{ start, step, msg string }{
		{"can we do box breathing?", "ready", "I can't breathe properly, I'm panicking"},
		{"can we do box breathing?", "ready", "this is making me more anxious"},
		{"can we do box breathing?", "ready", "feeling worse tbh"},
		{"can we do box breathing?", "ready", "my chest is getting really tight"},
		{"can we do grounding?", "a lamp, a window, my cat, a mug, my phone", "this is making me more anxious, stop"},
		{"can we do grounding?", "a lamp, a window, my cat, a mug, my phone", "honestly I'm getting more and more scared"},
		{"progressive muscle relaxation please", "done", "I think I'm having a panic attack"},
		{"can we do a thought record?", "at work, an email from my boss", "this is just making everything worse"},
	}
	for _, tt := range tests {
		t.Run(tt.msg, func(t *testing.T) {
			c := newConvo(t)
			c.say(tt.start)
			c.say(tt.step)
			tr := c.say(tt.msg)
			if tr.ExerciseEvent != "stopped_distress" || exerciseOf(tr) != "" {
				t.Fatalf("event %q exercise %q, want stopped_distress and nothing running (%q)", tr.ExerciseEvent, exerciseOf(tr), tr.Reply)
			}
			if tr.ReplyKind != channels.OutReply || tr.Therapy.Stage != "stabilizing" {
				t.Errorf("kind %s stage %s, want an ordinary reply in the stabilizing stage", tr.ReplyKind, tr.Therapy.Stage)
			}
			has(t, tr, `stop`)
			has(t, tr, `feet|floor|notice`)
			hasNot(t, tr, nextStepWords+`|would you like to try`)
			if n := strings.Count(tr.Reply, "?"); n != 1 {
				t.Errorf("reply asks %d questions, want 1: %q", n, tr.Reply)
			}
		})
	}
}

func TestStopAnywhereInTheMessageStopsTheExercise(t *testing.T) {
	for _, msg := range []string{"stop", "ok this feels silly, stop", "please stop now", "I think I want to stop"} {
		t.Run(msg, func(t *testing.T) {
			c := newConvo(t)
			c.say("can we do grounding?")
			tr := c.say(msg)
			if tr.ExerciseEvent != "stopped" || exerciseOf(tr) != "" {
				t.Errorf("event %q exercise %q, want stopped", tr.ExerciseEvent, exerciseOf(tr))
			}
			hasNot(t, tr, nextStepWords)
		})
	}
}

// Every exercise checks in half-way; an answer that it is going alright
// brings the step the check-in held back, "not really" stops it gently.
func TestTheHalfWayCheckInAsksAndThenGoesOnOrStops(t *testing.T) {
	c := newConvo(t)
	c.say("can we do box breathing?")
	c.say("ready")
	tr := c.say("done")
	if tr.ExerciseEvent != "checked_in" || exerciseOf(tr) != "box_breathing/round-2" {
		t.Fatalf("after round one: event %q exercise %q, want checked_in before round-2", tr.ExerciseEvent, exerciseOf(tr))
	}
	has(t, tr, `how is this going|how are you finding`)
	hasNot(t, tr, nextStepWords)
	tr = c.say("good, it's helping")
	if tr.ExerciseEvent != "advanced" || exerciseOf(tr) != "box_breathing/round-2" {
		t.Errorf("after a good check-in: event %q exercise %q", tr.ExerciseEvent, exerciseOf(tr))
	}
	has(t, tr, `in for 4`)
	tr = c.say("done")
	if tr.ExerciseEvent != "advanced" || exerciseOf(tr) != "box_breathing/round-3" {
		t.Errorf("the check-in came twice: event %q exercise %q", tr.ExerciseEvent, exerciseOf(tr))
	}

	c2 := newConvo(t)
	c2.say("can we do grounding?")
	for _, a := range []string{"a lamp, a window, a cup, a door, a plant", "my feet, the chair, my sleeve, the air", "a fan, a car, a bird"} {
		tr = c2.say(a)
	}
	if tr.ExerciseEvent != "checked_in" {
		t.Fatalf("grounding half-way: event %q, want checked_in", tr.ExerciseEvent)
	}
	tr = c2.say("not really helping")
	if tr.ExerciseEvent != "stopped" || exerciseOf(tr) != "" {
		t.Errorf("\"not really helping\" at the check-in: event %q exercise %q, want stopped", tr.ExerciseEvent, exerciseOf(tr))
	}
}

// A side question during a step is answered and the same step resumes, its
// instruction repeated briefly.
func TestASideQuestionIsAnsweredAndTheStepResumes(t *testing.T) {
	c := newConvo(t)
	c.say("can we do box breathing?")
	c.say("ready")
	tr := c.say("wait, is it normal to feel dizzy when doing this?")
	if tr.ExerciseEvent != "side_question" || exerciseOf(tr) != "box_breathing/round-1" {
		t.Fatalf("event %q exercise %q, want side_question on round-1 (%q)", tr.ExerciseEvent, exerciseOf(tr), tr.Reply)
	}
	has(t, tr, `light-headed`)
	has(t, tr, `back to|return to`)
	has(t, tr, `in for 4`)
	tr = c.say("ok done")
	if tr.ExerciseEvent != "checked_in" || exerciseOf(tr) != "box_breathing/round-2" {
		t.Errorf("after the side question the step goes on: event %q exercise %q", tr.ExerciseEvent, exerciseOf(tr))
	}
}

// The crisis path is unchanged: a crisis-level message mid-exercise, also
// one that says it is panicking, or one during the check-in, gets the
// crisis reply, and the exercise is interrupted.
func TestACrisisMessageMidExerciseStillGetsTheCrisisReply(t *testing.T) {
	tests := []struct {
		name  string
		setup []string
		msg   string
	}{
		{"mid-step", []string{"can we do box breathing?", "ready"}, "I want to kill myself"},
		{"with panic words", []string{"can we do box breathing?", "ready"}, "I'm panicking and I want to die"},
		{"during the check-in", []string{"can we do box breathing?", "ready", "done"}, "I don't want to be alive anymore"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newConvo(t)
			for _, s := range tt.setup {
				c.say(s)
			}
			tr := c.say(tt.msg)
			if tr.ReplyKind != channels.OutCrisis {
				t.Fatalf("kind %s, want the crisis reply (%q)", tr.ReplyKind, tr.Reply)
			}
			if tr.ExerciseEvent != "interrupted" || exerciseOf(tr) != "" {
				t.Errorf("event %q exercise %q, want interrupted", tr.ExerciseEvent, exerciseOf(tr))
			}
			hasNot(t, tr, nextStepWords)
			has(t, tr, `116 123`)
		})
	}
}

// After the person clearly answered the safety question, Haven steps down
// to support: a sad memory gets support, not the question again, while the
// session keeps its risk (the goodbye names the line). New risk asks again.
func TestAfterAClearSafetyAnswerASadMemoryGetsSupportNotTheQuestion(t *testing.T) {
	c := newConvo(t)
	tr := c.say("I don't want to be here anymore")
	if tr.ReplyKind != channels.OutCrisis {
		t.Fatalf("opening disclosure: kind %s, want crisis", tr.ReplyKind)
	}
	tr = c.say("no I'm not going to do anything")
	if tr.ReplyKind != channels.OutReply || tr.AskedSafetyQuestion || !tr.Therapy.SafetyAnswered {
		t.Fatalf("clear answer: kind %s asked %t answered %t (%q)", tr.ReplyKind, tr.AskedSafetyQuestion, tr.Therapy.SafetyAnswered, tr.Reply)
	}
	hasNot(t, tr, safetyQuestionWords)
	has(t, tr, `lines I shared|numbers I gave`)
	if tr.Checkpoint.SessionMaxRisk < 2 {
		t.Errorf("session risk %d after the answer, want it kept at 2 or more", tr.Checkpoint.SessionMaxRisk)
	}
	for _, msg := range []string{
		"I keep thinking about my mum's lentil soup, she made it every winter",
		"I miss her so much",
		"she always knew what to say",
	} {
		tr = c.say(msg)
		if tr.ReplyKind != channels.OutReply || tr.AskedSafetyQuestion {
			t.Errorf("%q: kind %s asked %t, want ordinary support (%q)", msg, tr.ReplyKind, tr.AskedSafetyQuestion, tr.Reply)
		}
		hasNot(t, tr, safetyQuestionWords+`|support lines|numbers I gave`)
		if tr.Therapy.Stage == "stabilizing" {
			t.Errorf("%q: still in the stabilizing stage after a clear answer", msg)
		}
	}
	tr = c.say("thanks, bye")
	if want := safety.ReminderLine("GB"); !strings.Contains(tr.Reply, want) {
		t.Errorf("goodbye after a crisis = %q, want it to carry %q", tr.Reply, want)
	}
}

func TestNewRiskAfterAClearAnswerAsksAgain(t *testing.T) {
	c := newConvo(t)
	tr := c.say("I feel like such a burden to everyone")
	if !tr.AskedSafetyQuestion {
		t.Fatalf("warning sign: no safety question (%q)", tr.Reply)
	}
	tr = c.say("no, I'm not")
	if tr.AskedSafetyQuestion || !tr.Therapy.SafetyAnswered {
		t.Fatalf("clear answer: asked %t answered %t (%q)", tr.AskedSafetyQuestion, tr.Therapy.SafetyAnswered, tr.Reply)
	}
	hasNot(t, tr, safetyQuestionWords)
	tr = c.say("my mum used to make lentil soup when I was ill")
	if tr.AskedSafetyQuestion {
		t.Errorf("a memory after a clear answer got the safety question: %q", tr.Reply)
	}
	tr = c.say("honestly everything feels hopeless again")
	if !tr.AskedSafetyQuestion || tr.Therapy.SafetyAnswered {
		t.Errorf("new warning signs: asked %t answered %t, want the question again (%q)", tr.AskedSafetyQuestion, tr.Therapy.SafetyAnswered, tr.Reply)
	}
}

// A plain goodbye as a first message is a goodbye; a goodbye with warning
// signs in it, or with finality, still gets the safety question.
func TestAPlainFarewellIsAFarewell(t *testing.T) {
	tests := []struct {
		msg      string
		farewell bool
	}{
		{"ok I need to go now, bye", true},
		{"sorry, gotta go. talk later!", true},
		{"I have to go now, bye", true},
		{"anyway bye, I'm a burden to everyone", false},
		{"I need to go now, goodbye forever", false},
		{"I need to go now. thank you for everything", false},
	}
	for _, tt := range tests {
		t.Run(tt.msg, func(t *testing.T) {
			c := newConvo(t)
			tr := c.say(tt.msg)
			if tt.farewell {
				if tr.AskedSafetyQuestion || tr.ReplyKind != channels.OutReply || !tr.EndsSession {
					t.Errorf("asked %t kind %s ends %t, want a goodbye that ends the session (%q)", tr.AskedSafetyQuestion, tr.ReplyKind, tr.EndsSession, tr.Reply)
				}
				hasNot(t, tr, safetyQuestionWords+`|\?`)
				has(t, tr, `AI companion`)
				has(t, tr, `take care|come back|whenever|here when`)
				return
			}
			if tr.ReplyKind != channels.OutCrisis && !tr.AskedSafetyQuestion {
				t.Errorf("a goodbye with warning signs got no safety question: %q", tr.Reply)
			}
		})
	}
}

// A goodbye after warning signs earlier in the session keeps the question,
// as before.
func TestAFarewellAfterEarlierRiskKeepsTheQuestion(t *testing.T) {
	c := newConvo(t)
	c.say("I feel like such a burden to everyone")
	c.say("I don't know")
	tr := c.say("ok I need to go now, bye")
	if tr.ReplyKind != channels.OutCrisis && !tr.AskedSafetyQuestion {
		t.Errorf("goodbye after warning signs: no safety question (%q)", tr.Reply)
	}
}

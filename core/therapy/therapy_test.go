package therapy

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/havenbot/haven/core/therapy/exercises"
)

// session plays a scripted conversation through Respond, carrying the
// persisted state from one turn to the next as core does.
type session struct {
	turn    int
	state   State
	keys    []string
	history []Line
	rules   []string
}

func (s *session) say(text string) Response {
	r := Respond(Request{
		Text: text, TurnCount: s.turn, State: s.state,
		RecentKeys: s.keys, History: s.history, Rules: s.rules,
	})
	s.turn++
	s.state = r.State
	if len(r.Keys) > 0 {
		s.keys = r.Keys
	}
	s.history = append(s.history, Line{User: true, Text: text}, Line{Text: r.Text})
	return r
}

func checkReply(t *testing.T, text string, r Response) {
	t.Helper()
	if strings.TrimSpace(r.Text) == "" {
		t.Fatalf("%q: empty reply", text)
	}
	if n := strings.Count(r.Text, "?"); n > 1 {
		t.Errorf("%q: %d questions in %q", text, n, r.Text)
	}
	if rule := Guard(r.Text, GuardOptions{}); rule != "" {
		t.Errorf("%q: scripted reply fails the output guard (%s): %q", text, rule, r.Text)
	}
}

// answers feeds each step of an exercise something a person might say.
func answerFor(step exercises.Step) string {
	if step.Answer {
		return "a lamp, my phone and the window, I feel calmer"
	}
	return "done"
}

func TestEveryExerciseRunsStepByStepToItsEnd(t *testing.T) {
	starts := map[string]string{
		exercises.BoxBreathing: "can we do box breathing", exercises.Grounding54321: "grounding please",
		exercises.ThoughtRecord: "can we do a thought record", exercises.Defusion: "help me unhook from a thought",
		exercises.DBTStop: "the STOP skill please", exercises.DBTTipp: "can we do TIPP",
		exercises.MuscleRelaxation: "progressive muscle relaxation", exercises.ValuesCheck: "values check",
		exercises.WorryPostponement: "let's make a worry postponement plan", exercises.ThreeGoodThings: "three good things",
	}
	for _, ex := range exercises.All() {
		t.Run(ex.ID, func(t *testing.T) {
			s := &session{turn: 3, state: State{Stage: StageDeepening}}
			r := s.say(starts[ex.ID])
			checkReply(t, starts[ex.ID], r)
			if r.Mode != ModeGuidedExercise || r.State.Exercise != ex.ID || r.State.Step != ex.First() || r.Event != "started" {
				t.Fatalf("start: mode %s exercise %s step %s event %s", r.Mode, r.State.Exercise, r.State.Step, r.Event)
			}
			if string(r.Modality) != ex.Modality {
				t.Errorf("modality %s, want the exercise's %s", r.Modality, ex.Modality)
			}
			checkedIn := false
			for i, step := range ex.Steps {
				msg := answerFor(step)
				r = s.say(msg)
				checkReply(t, msg, r)
				if i < len(ex.Steps)-1 {
					if r.Event == "checked_in" && !checkedIn {
						// Half-way, the exercise asks how it is going
						// before the next step.
						checkedIn = true
						if r.State.Step != ex.Steps[i+1].ID || !r.State.CheckIn || strings.Count(r.Text, "?") != 1 {
							t.Fatalf("check-in after step %s: step %q check-in %t reply %q", step.ID, r.State.Step, r.State.CheckIn, r.Text)
						}
						r = s.say("good so far")
						checkReply(t, "good so far", r)
					}
					if r.State.Step != ex.Steps[i+1].ID || r.Event != "advanced" {
						t.Fatalf("after step %s: step %q event %q", step.ID, r.State.Step, r.Event)
					}
					continue
				}
				if !checkedIn {
					t.Errorf("%s finished without a half-way check-in", ex.ID)
				}
				if r.State.Exercise != "" || r.State.Step != "" || r.Event != "finished" || !slices.Contains(r.State.Done, ex.ID) {
					t.Fatalf("last step: exercise %q step %q event %q done %v", r.State.Exercise, r.State.Step, r.Event, r.State.Done)
				}
				if r.State.Answers != nil {
					t.Errorf("answers kept after the exercise ended: %v", r.State.Answers)
				}
			}
		})
	}
}

func TestThoughtRecordSummaryUsesThePersonsWords(t *testing.T) {
	s := &session{turn: 2, state: State{Stage: StageDeepening}}
	s.say("can we do a thought record?")
	for _, a := range []string{"at work, an email from my boss", "anxious, 80", "I'm going to get fired",
		"he sounded annoyed", "he said last week my work was good", "he might just be busy, one email isn't a verdict"} {
		if r := s.say(a); r.Event == "checked_in" {
			s.say("it's okay")
		}
	}
	r := s.say("40")
	if !strings.Contains(r.Text, "I'm going to get fired") || !strings.Contains(r.Text, "one email isn't a verdict") {
		t.Errorf("summary should quote the thought and the balanced thought: %q", r.Text)
	}
}

func TestExerciseHoldStuckSkipSideQuestionAndExit(t *testing.T) {
	s := &session{turn: 2, state: State{Stage: StageDeepening}}
	s.say("can we do grounding?")
	steps := []struct {
		text, step, event string
		mode              Mode
	}{
		{"hang on", "see-5", "held", ModeGuidedExercise},
		{"I can't think of anything", "see-5", "stuck", ModeGuidedExercise},
		{"I don't know", "touch-4", "skipped", ModeGuidedExercise},
		{"why does this help?", "touch-4", "side_question", ModeGuidedExercise},
		{"are you a real person?", "touch-4", "side_question", ModeGuidedExercise},
		{"skip", "hear-3", "skipped", ModeGuidedExercise},
		{"not now", "", "stopped", ModeSupportive},
	}
	for _, st := range steps {
		r := s.say(st.text)
		checkReply(t, st.text, r)
		if r.State.Step != st.step || r.Event != st.event || r.Mode != st.mode {
			t.Errorf("%q: step %q event %q mode %s, want %q %q %s (reply %q)", st.text, r.State.Step, r.Event, r.Mode, st.step, st.event, st.mode, r.Text)
		}
		if st.text == "are you a real person?" && !strings.Contains(r.Text, "AI companion") {
			t.Errorf("side question about Haven should say what it is: %q", r.Text)
		}
		if st.event == "side_question" && !strings.Contains(r.Text, "four things you can feel") {
			t.Errorf("side answer should return to the step: %q", r.Text)
		}
	}
}

func TestSwitchingExercisesMidWay(t *testing.T) {
	s := &session{turn: 2, state: State{Stage: StageDeepening}}
	s.say("box breathing please")
	r := s.say("actually can we do grounding instead")
	if r.State.Exercise != exercises.Grounding54321 || r.State.Step != "see-5" {
		t.Fatalf("switch: exercise %s step %s", r.State.Exercise, r.State.Step)
	}
}

func TestOfferIsRememberedAndAYesNextTurnStartsIt(t *testing.T) {
	offer := func() *session {
		s := &session{turn: 3, state: State{Stage: StageDeepening}}
		r := s.say("I'm so anxious about tomorrow, my heart is pounding")
		if r.State.Step != StepOffered || r.State.Exercise == "" || r.Event != "offered" || r.State.Offered != r.State.Exercise {
			t.Fatalf("no offer remembered: exercise %q step %q event %q (%q)", r.State.Exercise, r.State.Step, r.Event, r.Text)
		}
		return s
	}
	tests := []struct {
		name, answer    string
		wantStep, event string
	}{
		{"yes starts it", "yes please", "settle", "started"},
		{"sure starts it", "sure, let's try", "settle", "started"},
		{"no declines it", "no thanks", "", "declined"},
		{"not now declines it", "not now", "", "declined"},
		{"talking on lets it lapse", "it's the interview, I keep imagining it going wrong", "", "declined"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := offer()
			r := s.say(tt.answer)
			checkReply(t, tt.answer, r)
			if r.State.Step != tt.wantStep || r.Event != tt.event {
				t.Errorf("step %q event %q, want %q %q (%q)", r.State.Step, r.Event, tt.wantStep, tt.event, r.Text)
			}
		})
	}
	t.Run("a late yes still starts it", func(t *testing.T) {
		s := offer()
		s.say("it's the interview, I keep imagining it going wrong")
		if r := s.say("ok yes let's try"); r.Event != "started" {
			t.Errorf("late yes: event %q (%q)", r.Event, r.Text)
		}
	})
}

func TestNoOfferWithoutADistressSignOrTooSoon(t *testing.T) {
	for _, tt := range []struct {
		turn int
		text string
	}{
		{0, "I'm so anxious about tomorrow"},
		{1, "I'm so anxious about tomorrow"},
		{5, "I went to the park with my sister"},
	} {
		r := Respond(Request{Text: tt.text, TurnCount: tt.turn, State: State{Stage: StageDeepening}})
		if r.State.Step == StepOffered {
			t.Errorf("turn %d %q: unexpected offer %q", tt.turn, tt.text, r.Text)
		}
	}
	r := Respond(Request{Text: "I'm so anxious about tomorrow", TurnCount: 6, State: State{OfferTurn: 5}})
	if r.State.Step == StepOffered {
		t.Error("an offer right after another one")
	}
}

func TestSafetyQuestionPausesAnExerciseAndIsTheOneQuestion(t *testing.T) {
	const q = "Are you having thoughts of suicide?"
	r := Respond(Request{Text: "I feel like such a burden", TurnCount: 4, State: State{Exercise: exercises.BoxBreathing, Step: "round-2"},
		SafetyQuestion: q})
	if !strings.HasSuffix(r.Text, q) || strings.Count(r.Text, "?") != 1 {
		t.Errorf("reply should end with the one safety question: %q", r.Text)
	}
	if r.State.Exercise != "" || r.Event != "paused" || r.State.Interrupted != exercises.BoxBreathing || r.State.Stage != StageStabilizing {
		t.Errorf("exercise %q event %q interrupted %q stage %s", r.State.Exercise, r.Event, r.State.Interrupted, r.State.Stage)
	}
}

func TestAfterCrisisDropsTheExerciseAndStabilizes(t *testing.T) {
	st := AfterCrisis(State{Exercise: exercises.Grounding54321, Step: "hear-3", Answers: map[string]string{"see-5": "x"}, Stuck: 1})
	if st.Stage != StageStabilizing || st.Exercise != "" || st.Step != "" || st.Interrupted != exercises.Grounding54321 || st.Answers != nil || st.Stabilize == 0 {
		t.Fatalf("AfterCrisis = %+v", st)
	}
	// An exercise only offered is not remembered as interrupted.
	if st := AfterCrisis(State{Exercise: exercises.BoxBreathing, Step: StepOffered}); st.Interrupted != "" || st.Exercise != "" {
		t.Errorf("AfterCrisis of an offer = %+v", st)
	}
	// The next turns stay stabilizing and never resume the exercise.
	s := &session{turn: 5, state: st}
	for _, msg := range []string{"ok", "done", "I'm a bit calmer"} {
		r := s.say(msg)
		checkReply(t, msg, r)
		if r.State.Exercise != "" || r.State.Stage != StageStabilizing || r.Modality != ModalityPFA {
			t.Errorf("%q: exercise %q stage %s modality %s", msg, r.State.Exercise, r.State.Stage, r.Modality)
		}
	}
	if r := s.say("I went for a walk after"); r.State.Stage != StageDeepening {
		t.Errorf("stabilizing should end after a few calm turns, stage %s", r.State.Stage)
	}
}

func TestStateEncodingRoundTripsWithItsVersion(t *testing.T) {
	st := State{Stage: StageDeepening, Exercise: exercises.BoxBreathing, Step: "round-2", Rules: []string{RuleJustListen},
		Modality: ModalityCBT, Themes: []string{"work"}, Answers: map[string]string{"a": "b"}}
	v, data, err := st.Encode()
	if err != nil || v != StateVersion {
		t.Fatalf("Encode = %d, %v", v, err)
	}
	got, err := DecodeState(v, data)
	if err != nil || !cmpEqual(got, st) {
		t.Errorf("DecodeState = %+v, %v; want %+v", got, err, st)
	}
	if _, data, _ := (State{}).Encode(); data != nil {
		t.Errorf("the zero state should encode as nothing, got %s", data)
	}
	if got, err := DecodeState(0, nil); err != nil || !cmpEqual(got, State{}) {
		t.Errorf("no data: %+v, %v", got, err)
	}
	if _, err := DecodeState(v, json.RawMessage(`[1,2]`)); err == nil || !strings.Contains(err.Error(), "decode therapy state") {
		t.Errorf("malformed data: err = %v", err)
	}
	if _, err := DecodeState(v+1, data); err == nil || !strings.Contains(err.Error(), "version") {
		t.Errorf("unknown version: err = %v", err)
	}
}

func TestDispatchRules(t *testing.T) {
	tests := []struct {
		text     string
		in       DispatchInput
		mode     Mode
		modality Modality
		source   Source
		claimed  bool
	}{
		{"hello", DispatchInput{}, ModeSupportive, ModalityNone, SourceRules, false},
		{"I have been so stressed about work", DispatchInput{}, ModeReflective, ModalityCBT, SourceRules, false},
		{"my dad died in march", DispatchInput{}, ModeSupportive, ModalityGrief, SourceRules, false},
		{"why does anxiety make my heart race?", DispatchInput{}, ModePsychoeducation, ModalityCBT, SourceRules, false},
		{"any tips for sleep", DispatchInput{}, ModePsychoeducation, ModalityCBT, SourceRules, false},
		{"can we do a breathing exercise", DispatchInput{}, ModeGuidedExercise, ModalityPFA, SourceRules, true},
		{"done", DispatchInput{State: State{Exercise: exercises.ThoughtRecord, Step: "thought"}}, ModeGuidedExercise, ModalityCBT, SourceRules, true},
		{"yes", DispatchInput{State: State{Exercise: exercises.DBTStop, Step: StepOffered}}, ModeGuidedExercise, ModalityDBT, SourceRules, true},
		{"remind me to breathe", DispatchInput{State: State{Exercise: exercises.BoxBreathing, Step: "round-1"}}, ModeGuidedExercise, ModalityPFA, SourceRules, true},
		{"are you a therapist?", DispatchInput{}, ModeClarifying, ModalityNone, SourceRules, true},
		{"is this conversation private?", DispatchInput{}, ModeClarifying, ModalityNone, SourceRules, true},
		{"meh", DispatchInput{}, ModeClarifying, ModalityNone, SourceRules, false},
		{"ok bye, talk later", DispatchInput{}, ModeClosing, ModalityNone, SourceRules, false},
		{"part of me wants to quit drinking", DispatchInput{}, ModeSupportive, ModalityMI, SourceRules, false},
		{"the weather turned on the way home", DispatchInput{}, ModeSupportive, ModalityNone, SourceDefault, false},
		{"the weather turned on the way home", DispatchInput{State: State{Modality: ModalityGrief}}, ModeSupportive, ModalityGrief, SourceDefault, false},
	}
	for _, tt := range tests {
		in := tt.in
		in.Text = tt.text
		d, ok := Classify(in)
		if !ok {
			d = Default(d)
		}
		if d.Mode != tt.mode || d.Modality != tt.modality || d.Source != tt.source || d.Claimed() != tt.claimed {
			t.Errorf("%q: %s/%s/%s claimed %t, want %s/%s/%s claimed %t", tt.text, d.Mode, d.Modality, d.Source, d.Claimed(),
				tt.mode, tt.modality, tt.source, tt.claimed)
		}
		if d.Closing() != (tt.mode == ModeClosing) {
			t.Errorf("%q: Closing() = %t", tt.text, d.Closing())
		}
	}
}

func TestModelChoiceIsValidated(t *testing.T) {
	d, _ := Classify(DispatchInput{Text: "the weather turned on the way home"})
	tests := []struct {
		mode, modality string
		ok             bool
	}{
		{"reflective", "ipt", true},
		{"closing", "none", true},
		{"guided_exercise", "none", false},
		{"hypnosis", "none", false},
		{"supportive", "emdr", false},
	}
	for _, tt := range tests {
		got, err := d.WithModel(tt.mode, tt.modality)
		if (err == nil) != tt.ok {
			t.Errorf("%s/%s: err = %v", tt.mode, tt.modality, err)
			continue
		}
		if tt.ok && (got.Mode != Mode(tt.mode) || got.Modality != Modality(tt.modality) || got.Source != SourceLLM || got.Closing() != (tt.mode == "closing")) {
			t.Errorf("%s/%s: got %+v", tt.mode, tt.modality, got)
		}
	}
}

func TestDetectModality(t *testing.T) {
	tests := []struct {
		text string
		want Modality
	}{
		{"my grandad passed away", ModalityGrief},
		{"I was in a car accident this morning", ModalityPFA},
		{"I'm so angry I could scream", ModalityDBT},
		{"I keep putting it off and can't decide", ModalityMI},
		{"I can't stop thinking about it, my mind won't quiet", ModalityACT},
		{"my sister and I had an argument and she ignored me", ModalityIPT},
		{"I'm such a failure, I always mess up", ModalityCBT},
		{"I had pasta for lunch", ModalityNone},
		{"my phone died halfway through the call", ModalityNone},
		{"our dog died on saturday", ModalityGrief},
	}
	for _, tt := range tests {
		if got := DetectModality(tt.text); got != tt.want {
			t.Errorf("DetectModality(%q) = %s, want %s", tt.text, got, tt.want)
		}
	}
}

var adviceWords = regexp.MustCompile(`(?i)you should|you could try|have you tried|would you like to try|want to give it a go|exercise|tips?\b`)

func TestJustListenFromMemoryOrSessionMeansNoAdviceNoOffers(t *testing.T) {
	msgs := []string{"I'm so stressed and anxious, my heart is pounding", "work is a nightmare and I can't sleep",
		"I'm so angry at my boss", "I feel low and tired all the time", "I keep worrying what if it goes wrong"}
	for _, src := range []string{"memory", "session"} {
		t.Run(src, func(t *testing.T) {
			s := &session{turn: 3, state: State{Stage: StageDeepening}}
			if src == "memory" {
				s.rules = []string{"Please just listen, no advice"}
			} else {
				r := s.say("can you just listen? I don't want advice")
				if !slices.Contains(r.State.Rules, RuleJustListen) {
					t.Fatalf("rule not kept in the session state: %+v", r.State)
				}
			}
			for _, m := range msgs {
				r := s.say(m)
				checkReply(t, m, r)
				if r.State.Step == StepOffered || adviceWords.MatchString(r.Text) {
					t.Errorf("%q: advice or offer under just-listen: %q", m, r.Text)
				}
				if rule := Guard(r.Text, GuardOptions{NoAdvice: true}); rule != "" {
					t.Errorf("%q: scripted reply fails the no-advice guard: %q", m, r.Text)
				}
			}
			if r := s.say("you can give me advice again"); slices.Contains(r.State.Rules, RuleJustListen) {
				t.Error("the rule should lift when the person says so")
			}
		})
	}
}

func TestShorterRepliesAreShorter(t *testing.T) {
	msg := "I have been so stressed about work, my manager keeps piling things on"
	long := Respond(Request{Text: msg, TurnCount: 3, FirstContact: false})
	short := Respond(Request{Text: msg, TurnCount: 3, Rules: []string{"keep replies short"}})
	if len([]rune(short.Text)) >= len([]rune(long.Text)) || len(sentences(short.Text)) > 2 {
		t.Errorf("shorter reply (%d runes, %d sentences) is not shorter than %d runes: %q",
			len([]rune(short.Text)), len(sentences(short.Text)), len([]rune(long.Text)), short.Text)
	}
}

func TestNeverTheSameSentenceTwiceInARow(t *testing.T) {
	msgs := []string{"hi", "I have been so stressed about work", "I have been so stressed about work", "work is a lot",
		"work is a lot", "idk", "idk", "meh", "I'm exhausted", "I'm exhausted", "thanks", "thanks", "my mum died", "my mum died",
		"I feel low", "I feel low", "I feel low"}
	s := &session{}
	prev := ""
	for _, m := range msgs {
		r := s.say(m)
		checkReply(t, m, r)
		for _, sent := range sentences(r.Text) {
			if strings.Contains(prev, sent) {
				t.Errorf("%q: repeats %q from the last reply", m, sent)
			}
		}
		prev = r.Text
	}
}

func TestBoundaries(t *testing.T) {
	tests := []struct {
		text  string
		first bool
		want  string
	}{
		{"hello", true, "AI companion"},
		{"I have been so stressed about work", true, "not a therapist"},
		{"are you a real person?", false, "AI companion"},
		{"can you be my therapist?", false, "not a therapist"},
		{"is this confidential?", false, "isn't confidential"},
		{"should I see a therapist about this?", false, "GP"},
	}
	for _, tt := range tests {
		r := Respond(Request{Text: tt.text, FirstContact: tt.first, TurnCount: 2})
		checkReply(t, tt.text, r)
		if !strings.Contains(r.Text, tt.want) {
			t.Errorf("%q: reply does not contain %q: %q", tt.text, tt.want, r.Text)
		}
	}
	r := Respond(Request{Text: "it's been like this for months and I can't get out of bed, I feel so low", TurnCount: 4})
	if !strings.Contains(r.Text, "GP") || !strings.Contains(r.Text, "here") {
		t.Errorf("professional help should be suggested without pushing away: %q", r.Text)
	}
	again := Respond(Request{Text: "it's been like this for months and I can't get out of bed, I feel so low", TurnCount: 5, State: r.State})
	if strings.Contains(again.Text, "GP") {
		t.Errorf("professional help suggested twice in a session: %q", again.Text)
	}
}

func TestClosingSummaryNamesThemesNotQuotes(t *testing.T) {
	s := &session{}
	s.say("hi")
	s.say("I have been so stressed about work")
	s.say("and my sister won't talk to me, it's so lonely")
	r := s.say("thanks, I have to go now")
	if r.Mode != ModeClosing || r.State.Stage != StageClosing || strings.Contains(r.Text, "?") {
		t.Fatalf("closing: mode %s stage %s %q", r.Mode, r.State.Stage, r.Text)
	}
	for _, want := range []string{"work", "pressure"} {
		if !strings.Contains(r.Text, want) {
			t.Errorf("summary lacks %q: %q", want, r.Text)
		}
	}
}

func TestHugeMessageIsReadFromItsStart(t *testing.T) {
	big := "I have been so stressed about work. " + strings.Repeat("blah ", 1<<18)
	r := Respond(Request{Text: big, TurnCount: 2})
	if !strings.Contains(r.Text, "stressed about work") {
		t.Errorf("reply to a huge message: %q", r.Text)
	}
}

func TestAQuestionThatPointsBackIsAnsweredFromTheEarlierTopic(t *testing.T) {
	history := []Line{{User: true, Text: "I've been really anxious lately, my heart races and I can't focus"}, {Text: "When did you start feeling this way?"}}
	tests := []struct {
		text    string
		history []Line
		want    string
	}{
		{"why does that happen?", history, "anxiety-body"},
		{"is this normal?", history, "anxiety-body"},
		{"why does that happen?", nil, ""},
		{"why did she say that?", history, ""},
	}
	for _, tt := range tests {
		d, _ := classify(DispatchInput{Text: tt.text, History: tt.history})
		if d.snippet != tt.want || (tt.want != "" && d.Mode != ModePsychoeducation) {
			t.Errorf("%q: snippet %q mode %s, want %q", tt.text, d.snippet, d.Mode, tt.want)
		}
	}
}

func TestAnIntroductionIsMetByNameAndOnlyAnIntroduction(t *testing.T) {
	tests := []struct {
		text, name string
		met        bool
	}{
		{"my name is Sam", "Sam", true},
		{"call me sam", "Sam", true},
		{"I'm tired", "Sam", false},
		{"I'm Sam", "", false},
	}
	for _, tt := range tests {
		r := Respond(Request{Text: tt.text, Name: tt.name, TurnCount: 2})
		if got := strings.HasPrefix(r.Text, "Nice to meet you"); got != tt.met {
			t.Errorf("%q (name %q): %q", tt.text, tt.name, r.Text)
		}
	}
}

func TestAHarshWordAboutThemselvesIsMetNotMirrored(t *testing.T) {
	for _, msg := range []string{"I feel so stupid", "I'm such an idiot", "I'm pathetic"} {
		r := Respond(Request{Text: msg, TurnCount: 3})
		low := strings.ToLower(r.Text)
		for _, word := range []string{"stupid", "idiot", "pathetic"} {
			if strings.Contains(low, word) {
				t.Errorf("%q: the reply repeats %q back: %q", msg, word, r.Text)
			}
		}
	}
}

// cmpEqual compares two states by their encoding (the package has a
// function named reflect).
func cmpEqual(a, b State) bool {
	_, x, _ := a.Encode()
	_, y, _ := b.Encode()
	return string(x) == string(y)
}

func TestGoodbyeIsALeaveTakingNotAMention(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"bye", true},
		{"ok bye, talk later", true},
		{"thanks, that helped. bye!", true},
		{"thank you. I think I'll go to bed now, good night", true},
		{"thanks for listening, I need to go to bed now. talk tomorrow", true},
		{"gotta go, my mum is calling", true},
		{"I have to go now", true},
		{"I said bye to my sister at the station and cried", false},
		{"I need to go to the doctor about my anxiety", false},
		{"I never got to say goodbye to my dad before he died", false},
		{"hello", false},
	}
	for _, tt := range tests {
		if got := isGoodbye(tt.text); got != tt.want {
			t.Errorf("isGoodbye(%q) = %t, want %t", tt.text, got, tt.want)
		}
	}
}

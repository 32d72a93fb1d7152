package therapy

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/havenbot/haven/core/therapy/exercises"
	"github.com/havenbot/haven/emotion"
	"github.com/havenbot/haven/llm/llmtest"
)

func TestReflectionTurnsPronounsAndVerbsToTheSecondPerson(t *testing.T) {
	tests := []struct{ in, want string }{
		{"I'd give anything to talk to him one more time", "you'd give anything to talk to him one more time"},
		{"I’m so tired of my boss yelling at me", "you're so tired of your boss yelling at you"},
		{"I've lost all my motivation", "you've lost all your motivation"},
		{"I was so angry at myself", "you were so angry at yourself"},
		{"I am scared it was my fault", "you are scared it was your fault"},
		{"I'll never be good enough for them", "you'll never be good enough for them"},
		{"I feel like the best years are behind me and nothing is mine", "you feel like the best years are behind you and nothing is yours"},
		{"I told you I can't do this", "you told me you can't do this"},
		{"im so done with everything", "you're so done with everything"},
		{"my partner and I had a huge fight", "you and your partner had a huge fight"},
		{"I have been so stressed about work", "you've been so stressed about work"},
	}
	for _, tt := range tests {
		got := reflect(tt.in)
		if got != tt.want {
			t.Errorf("reflect(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if regexp.MustCompile(`(?i)\byou (i|i'd|i'm|i've|my)\b`).MatchString(got) {
			t.Errorf("reflect(%q) = %q keeps a first-person word after you", tt.in, got)
		}
	}
}

func TestReflectionIsTheHeartOfTheMessageNotTheWholeOfIt(t *testing.T) {
	tests := []struct{ in, want string }{
		{"everyone keeps saying she's in a better place and I want to scream", "you want to scream"},
		{"work was fine I guess, but I feel so alone in the evenings", "you feel so alone in the evenings"},
		{"he said I never try and now I'm so stressed about everything", "you're so stressed about everything"},
		{"since she died I can't focus on anything", "you can't focus on anything"},
		{"honestly not sure how much longer i can keep this up", ""},
		{"if i fail this exam i'll lose my place", ""},
		{"nothing i do ever matters", ""},
		{"my dad died in march", ""},
		{"he said I was lazy", ""},
		{"please just listen, I don't want advice", ""},
		{"I don't know", ""},
		{"im killing myself trying to keep everyone happy at work", ""},
		{"this deadline is killing me and I feel so behind", "you feel so behind"},
		{"nine months since my last panic attack, which I never thought I'd say", ""},
		{"I finally told my sister, which I never thought I'd do, and I feel lighter", "you feel lighter"},
	}
	for _, tt := range tests {
		got := reflection(tt.in)
		if got != tt.want {
			t.Errorf("reflection(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got != "" && len(strings.Fields(got)) >= len(strings.Fields(tt.in)) {
			t.Errorf("reflection(%q) = %q is the whole message", tt.in, got)
		}
	}
}

// reading is a literal emotion reading for the tests.
func reading(v emotion.Valence, labels ...emotion.Label) emotion.Reading {
	r := emotion.Reading{Valence: v}
	for i, l := range labels {
		r.Emotions = append(r.Emotions, emotion.Score{Label: l, P: 0.9 - 0.1*float64(i)})
	}
	return r
}

func TestTheFeelingIsMet(t *testing.T) {
	const exams = "so I have 3 exams next week and I've studied for exactly zero of them. great life choices"
	const scream = "everyone keeps saying she's in a better place and I want to scream"
	tests := []struct {
		name    string
		text    string
		feeling emotion.Reading
		met     emotion.Valence
		says    string // a pattern the reply must have ("" for none)
		never   string // a pattern the reply must not have
	}{
		{"good news, rule mode", "I got the job!!!", emotion.Reading{}, emotion.Positive, `(?i)congratulations|wonderful|brilliant|so glad|love hearing`, `(?i)weighing|sorry`},
		{"words of dying are never good news", "im killing myself trying to keep everyone happy at work", reading(emotion.Positive, "joy"), "", `(?i)work`, `(?i)congratulations|wonderful|brilliant|so glad|love hearing|killing`},
		{"a phone that died is no loss", "my phone died right before the deadline", reading(emotion.Negative, "grief"), emotion.Negative, ``, `(?i)loss|grief|miss most|sorry for`},
		{"dying of laughter is no loss", "I nearly died laughing at the office party", reading(emotion.Negative, "grief"), emotion.Negative, ``, `(?i)loss|grief|miss most|sorry for`},
		{"making someone else happy is not a feeling of the person's own", "keeping my boss happy is a full time job", emotion.Reading{}, "", `(?i)work`, `(?i)congratulations|wonderful|brilliant|so glad|love hearing`},
		{"good news, read", "I got the job!!!", reading(emotion.Positive, "excitement", "joy"), emotion.Positive, `(?i)you got the job`, `(?i)weighing`},
		{"pride, read", "finished my first 10k run today", reading(emotion.Positive, "pride"), emotion.Positive, `(?i)congratulations|wonderful|brilliant|so glad|love hearing`, `(?i)sorry`},
		{"grief with anger, rule mode", scream, emotion.Reading{}, emotion.Negative, `(?i)you want to scream`, `(?i)lift|good to hear|dbt|stop skill|would you like to try`},
		{"grief with anger, read", scream, reading(emotion.Negative, "anger", "grief", "sadness"), emotion.Negative, `(?i)grief|loss|hurts`, `(?i)lift|good to hear|would you like to try`},
		{"grief with anger read as anger only", scream, reading(emotion.Negative, "anger", "annoyance"), emotion.Negative, `(?i)grief|loss|hurts`, `(?i)lift|would you like to try`},
		{"sarcasm, rule mode", exams, emotion.Reading{}, emotion.Negative, `(?i)pressure|stressful|tough`, `(?i)good to hear|congratulations|wonderful|great`},
		{"sarcasm read as admiration", exams, reading(emotion.Positive, "admiration"), emotion.Negative, `(?i)pressure|stressful|tough`, `(?i)good to hear|congratulations|wonderful`},
		{"mixed", "I'm excited about the move but I'm scared of leaving everyone", reading(emotion.Ambiguous, "excitement", "fear"), emotion.Ambiguous, `(?i)mix|both|more than one`, ``},
		{"plain worry", "I'm worried about my exams", emotion.Reading{}, emotion.Negative, `(?i)worry|on edge|unsettling`, ``},
		{"a neutral fact", "the weather turned on the way home", reading(emotion.Neutral, "neutral"), "", ``, ``},
		{"warmth over pain", "thanks for asking, I'm just so exhausted", reading(emotion.Positive, "gratitude"), emotion.Negative, `(?i)empty|tired|running`, `(?i)congratulations|good to hear`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, turn := range []int{1, 3, 6} {
				r := Respond(Request{Text: tt.text, TurnCount: turn, Feeling: tt.feeling})
				checkReply(t, tt.text, r)
				if r.Met != tt.met {
					t.Errorf("turn %d: met %q, want %q: %q", turn, r.Met, tt.met, r.Text)
				}
				if tt.says != "" && !regexp.MustCompile(tt.says).MatchString(r.Text) {
					t.Errorf("turn %d: reply lacks /%s/: %q", turn, tt.says, r.Text)
				}
				if tt.never != "" && regexp.MustCompile(tt.never).MatchString(r.Text) {
					t.Errorf("turn %d: reply has /%s/: %q", turn, tt.never, r.Text)
				}
				if r.Event == "offered" && (tt.met == emotion.Positive || strings.Contains(tt.text, "scream")) {
					t.Errorf("turn %d: offers an exercise on good news or grief: %q", turn, r.Text)
				}
			}
		})
	}
}

func TestGriefWithAngerIsGriefNotDBT(t *testing.T) {
	r := Respond(Request{Text: "everyone keeps saying she's in a better place and I want to scream", TurnCount: 5})
	if r.Modality != ModalityGrief {
		t.Errorf("modality %s, want grief", r.Modality)
	}
	if r.State.Exercise != "" {
		t.Errorf("exercise %s offered on grief", r.State.Exercise)
	}
}

func TestADirectQuestionIsAnsweredFirst(t *testing.T) {
	tests := []struct {
		name  string
		req   Request
		first string // the reply opens with a sentence matching this
		never string
	}{
		{"a script, no model", Request{Text: "are you just a script?"}, `(?i)AI companion`, ``},
		{"caffeine", Request{Text: "is caffeine making this worse?", TurnCount: 3}, `(?i)caffeine`, ``},
		{"dizzy", Request{Text: "wait, is it normal to feel dizzy when doing this?", TurnCount: 3}, `(?i)common`, `(?i)take your time`},
		{"unknown", Request{Text: "what's the capital of Mongolia?", TurnCount: 3}, `(?i)^I don't know that one`, ``},
		{"crisis policy", Request{Text: "do you call the police if I mention suicide?", TurnCount: 3}, `(?i)^No\. I'm an AI, so I can't call the police`, `(?i)I don't know that one`},
		{"crisis policy, what happens", Request{Text: "what happens if I tell you I'm suicidal?", TurnCount: 3}, `(?i)^No\. I'm an AI`, ``},
		{"crisis policy, parents", Request{Text: "will you tell my parents if I say I self harm?", TurnCount: 3}, `(?i)^No\. I'm an AI`, ``},
		{"health unknown", Request{Text: "does magnesium help with headaches?", TurnCount: 3}, `(?i)^I don't know that one.*doctor or pharmacist`, ``},
		{"question then share", Request{Text: "can I tell you something? I failed my driving test again and I feel so stupid", TurnCount: 3}, `(?i)^Of course`, `(?i)stupid`},
		{"how are you", Request{Text: "how are you?", TurnCount: 3}, `(?i)program`, ``},
		{"what should I do", Request{Text: "I hate my job. what should I do?", TurnCount: 3}, `(?i)think it through`, ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Respond(tt.req)
			checkReply(t, tt.req.Text, r)
			if !r.Answered {
				t.Errorf("not answered: %q", r.Text)
			}
			body := strings.TrimPrefix(r.Text, "Hi, I'm Haven, an AI companion (not a therapist or an emergency service). ")
			if !regexp.MustCompile(tt.first).MatchString(body) {
				t.Errorf("reply does not answer first (/%s/): %q", tt.first, r.Text)
			}
			if tt.never != "" && regexp.MustCompile(tt.never).MatchString(r.Text) {
				t.Errorf("reply has /%s/: %q", tt.never, r.Text)
			}
		})
	}
}

func TestAreYouAScriptGetsTheTruthAboutTheModel(t *testing.T) {
	for _, msg := range []string{"are you just a script?", "am I talking to a bot", "are you a real person?", "is this automated?"} {
		r := Respond(Request{Text: msg, TurnCount: 2})
		if !r.Answered || !strings.Contains(r.Text, "without a language model") || !strings.Contains(r.Text, "AI companion") {
			t.Errorf("%q, no model: %q (answered %t)", msg, r.Text, r.Answered)
		}
		r = Respond(Request{Text: msg, TurnCount: 2, LanguageModel: true})
		if !r.Answered || !strings.Contains(r.Text, "written by a language model") || strings.Contains(r.Text, "without") {
			t.Errorf("%q, model: %q (answered %t)", msg, r.Text, r.Answered)
		}
	}
}

func TestAQuestionAskedOutOfPainIsMetNotAnswered(t *testing.T) {
	for _, msg := range []string{"why does this always happen to me?", "what's wrong with me?", "why can't I ever do anything right?"} {
		r := Respond(Request{Text: msg, TurnCount: 3})
		if r.Answered || strings.Contains(r.Text, "don't know that one") {
			t.Errorf("%q: answered as a question: %q", msg, r.Text)
		}
	}
}

func TestTheAnswerFunctionForSideQuestions(t *testing.T) {
	p := build(Request{Text: "ok", TurnCount: 4, State: State{Exercise: exercises.BoxBreathing, Step: "round-1"}})
	got, ok := p.answerQuestion("is it normal to feel dizzy when doing this?")
	if !ok || !strings.Contains(got, "lightheaded") || len(got) > 200 {
		t.Errorf("answerQuestion = %q, %t; want the short dizziness answer", got, ok)
	}
	if !p.answered {
		t.Error("answerQuestion does not mark the turn answered")
	}
	if _, ok := p.answerQuestion("done"); ok {
		t.Error("answerQuestion answers a message that asks nothing")
	}
}

// twentyTurns is a conversation that keeps coming back to the same few
// feelings and topics, the way people do.
var twentyTurns = []string{
	"hi", "I have been so stressed about work", "my manager keeps piling things on", "I feel like nobody listens to me",
	"idk", "work is just a lot right now", "I'm exhausted", "my boss yelled at me again today",
	"I'm so tired of this job", "I feel low", "honestly I feel low again", "it's just hard",
	"I'm stressed", "work is a lot", "my sister doesn't get it", "I feel so alone with it",
	"I'm still stressed about work", "I feel low", "it's a lot", "thanks",
}

func TestTwentyTurnsRepeatNoQuestionWithinFiveReplies(t *testing.T) {
	s := &session{}
	var asked [][]string // the question keys and sentences of each reply
	distinct := map[string]bool{}
	for i, msg := range twentyTurns {
		r := s.say(msg)
		checkReply(t, msg, r)
		var qs []string
		for _, k := range r.Keys {
			if IsQuestionKey(k) {
				qs = append(qs, k)
			}
		}
		for _, sent := range sentences(r.Text) {
			if strings.HasSuffix(sent, "?") {
				qs = append(qs, sent)
				distinct[sent] = true
			}
		}
		for back := 1; back <= recentReplies && back <= len(asked); back++ {
			for _, q := range qs {
				if slices.Contains(asked[len(asked)-back], q) {
					t.Errorf("turn %d (%q): %q was asked %d replies ago", i+1, msg, q, back)
				}
			}
		}
		asked = append(asked, qs)
	}
	t.Logf("%d distinct questions in %d replies", len(distinct), len(twentyTurns))
	if len(distinct) < 15 {
		t.Errorf("%d distinct questions in twenty replies, want at least 15", len(distinct))
	}
}

func TestQuestionKeysAreTheQuestions(t *testing.T) {
	s := &session{}
	for _, msg := range twentyTurns {
		d := build(Request{Text: msg, TurnCount: s.turn, State: s.state, RecentKeys: s.keys, History: s.history}).draft()
		s.say(msg)
		if d.Question.Key != "" && !IsQuestionKey(d.Question.Key) {
			t.Errorf("%q: question key %q is not a question key", msg, d.Question.Key)
		}
		for _, p := range d.Body {
			if IsQuestionKey(p.Key) {
				t.Errorf("%q: statement key %q reads as a question key", msg, p.Key)
			}
		}
	}
}

func TestPromptCarriesTheFeelingAndTheQuestion(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.SetDefault(llmtest.Reply{Content: "That's so much to carry, and the anger makes sense. What was she like?"})
	th := newModel(t, srv, 5*time.Second)
	r := th.Respond(t.Context(), Request{
		Text: "everyone keeps saying she's in a better place and I want to scream", TurnCount: 4,
		Feeling: reading(emotion.Negative, "anger", "grief"),
	})
	if r.Source != ReplyLLM || r.Met != emotion.Negative {
		t.Fatalf("source %s met %q", r.Source, r.Met)
	}
	sys := srv.Requests()[0].System()
	for _, want := range []string{"anger 0.90", "grief 0.80", "overall negative", "grief with anger", "no calming skills"} {
		if !strings.Contains(sys, want) {
			t.Errorf("system prompt lacks %q:\n%s", want, sys)
		}
	}

	srv.SetDefault(llmtest.Reply{Content: "Caffeine can do that. Sounds like you have generalized anxiety disorder."})
	r = th.Respond(t.Context(), Request{Text: "is caffeine making this worse?", TurnCount: 4})
	if r.Source != ReplyGuarded || r.GuardReason != GuardDiagnosis || !r.Answered || !strings.Contains(r.Text, "Caffeine") {
		t.Errorf("a generated answer that diagnoses: source %s rule %s answered %t: %q", r.Source, r.GuardReason, r.Answered, r.Text)
	}
	sys = srv.Requests()[1].System()
	if !strings.Contains(sys, "direct question") || !strings.Contains(sys, "Reference: It can. Caffeine") {
		t.Errorf("system prompt lacks the question and its reference:\n%s", sys)
	}
}

func TestWithAModelAScriptQuestionIsAnsweredTruthfully(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.SetDefault(llmtest.Reply{Content: "unused"})
	th := newModel(t, srv, 5*time.Second)
	r := th.Respond(t.Context(), Request{Text: "are you just a script?", TurnCount: 2})
	if !r.Answered || !strings.Contains(r.Text, "written by a language model") {
		t.Errorf("answered %t: %q", r.Answered, r.Text)
	}
}

func TestGoodNewsIsNotCarriedOntoWordsOfDying(t *testing.T) {
	prev := lastFeeling{Family: "good", Valence: emotion.Positive}
	if m, ok := readMeeting("this traffic is killing me lol", emotion.Reading{}, ModalityNone, prev); ok && m.valence == emotion.Positive {
		t.Errorf("met %q (%s) after good news: a figure of dying is not more good news", m.f.name, m.valence)
	}
	// The same carrying on without such words still carries.
	if m, ok := readMeeting("and then we went for pizza after", emotion.Reading{}, ModalityNone, prev); ok && m.valence != emotion.Positive {
		t.Errorf("met %q (%s) after good news, want it carried", m.f.name, m.valence)
	}
}

func TestAChangeOfSubjectDoesNotCarryTheLastFeeling(t *testing.T) {
	prev := lastFeeling{Family: "low", Valence: emotion.Negative}
	for _, text := range []string{"anyway im making pasta tonight", "on a lighter note the cat learned a new trick", "btw the parcel finally came"} {
		if m, ok := readMeeting(text, emotion.Reading{}, ModalityNone, prev); ok && m.carried {
			t.Errorf("%q: met %q carried from the last message: a change of subject is not more of it", text, m.f.name)
		}
	}
	// Telling more of the same still carries it.
	if m, ok := readMeeting("and then he shouted at me again in the car", emotion.Reading{}, ModalityNone, prev); !ok || !m.carried {
		t.Errorf("telling more after a low message: met %q (carried %v), want it carried", m.f.name, m.carried)
	}
}

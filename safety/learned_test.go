package safety

import (
	"slices"
	"strings"
	"sync"
	"testing"
)

// constScorer always gives the same score.
// scorerFunc scores a canonical text by a function.
type scorerFunc func(canon string) float64

func (s scorerFunc) Score(canon string) float64 { return s(canon) }

type constScorer float64

func (c constScorer) Score(string) float64 { return float64(c) }

// recordingScorer gives a fixed score and records the texts it read.
type recordingScorer struct {
	mu    sync.Mutex
	score float64
	read  []string
}

func (r *recordingScorer) Score(canon string) float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.read = append(r.read, canon)
	return r.score
}

// testThresholds raise at 0.8 and make level 3 at 0.95.
var testThresholds = Thresholds{Raise: 0.8, High: 0.95}

func TestLearnedScorerCombinationTable(t *testing.T) {
	cases := []struct {
		name  string
		score float64
		in    Input
		want  Level
		path  string
	}{
		// The model may raise an unsure verdict to 2.
		{"quiet verdict with a score above Raise becomes 2", 0.85, Input{Text: "I have nothing left and I'm so tired of all of it"}, 2, "model:raised"},
		{"warning signs with a score above Raise become 2", 0.85, Input{Text: "I feel so hopeless lately"}, 2, "model:raised"},
		{"a score below Raise changes nothing", 0.79, Input{Text: "I feel so hopeless lately"}, 1, ""},
		{"a quiet verdict with a low score stays 0", 0.1, Input{Text: "I have nothing left and I'm so tired of all of it"}, 0, ""},
		// A very high score with a timing or means cue makes 3.
		{"very high score with a timing cue becomes 3", 0.97, Input{Text: "I have nothing left and tonight I'm done with all of it"}, 3, "model:imminent"},
		{"very high score with a means cue becomes 3", 0.97, Input{Text: "I keep looking at the pills in my drawer, I have nothing left"}, 3, "model:imminent"},
		{"very high score without a cue stays 2", 0.97, Input{Text: "I have nothing left and I'm so tired of all of it"}, 2, "model:raised"},
		{"a cue with a score between Raise and High stays 2", 0.9, Input{Text: "I have nothing left and tonight I'm done with all of it"}, 2, "model:raised"},
		{"rules' level 2 with a cue and a very high score becomes 3", 0.97, Input{Text: "I want to die, I keep staring at the pills"}, 3, "model:imminent"},
		// Nothing the model says lowers a verdict.
		{"level 3 is never lowered", 0, Input{Text: "I'm going to kill myself tonight"}, 3, ""},
		{"level 2 is never lowered", 0, Input{Text: "I want to die"}, 2, ""},
		{"level 1 is never lowered", 0, Input{Text: "I feel so hopeless lately"}, 1, ""},
		// Deliberate rule decisions stand.
		{"negation stands", 1, Input{Text: "I would never kill myself"}, 0, ""},
		{"third party stands", 1, Input{Text: "my brother said he wants to die"}, 0, ""},
		{"idiom stands", 1, Input{Text: "this exam is killing me"}, 0, ""},
		{"figure of speech without a rule match stands", 1, Input{Text: "my phone is dying and I'm dead tired"}, 0, ""},
		{"past and recovered stands", 1, Input{Text: "I used to want to die, I'm in a better place now"}, 0, ""},
		{"accident stands", 1, Input{Text: "I accidentally cut myself while shaving and it won't stop bleeding"}, 0, ""},
		{"a rule's reading of a phrase as ordinary stands", 1, Input{Text: "I'm going to end it with my boyfriend tonight"}, 0, ""},
		{"laughter stands", 1, Input{Text: "kill me lol"}, 0, ""},
		{"denial after a safety question stands", 1, Input{Text: "no, I'm not", AskedSafetyQuestion: true, History: []string{"I can't do this anymore"}}, 0, ""},
		{"negated talk of suicide no rule matched stands", 1, Input{Text: "I'm not suicidal, just stressed about work"}, 0, ""},
		{"talk of suicide as a topic stands", 1, Input{Text: "I'm writing an essay on suicide prevention"}, 0, ""},
		{"past talk of suicide no rule matched stands", 1, Input{Text: "I was suicidal in high school"}, 0, ""},
		{"a conditional keeps 2 and is not raised to 3", 1, Input{Text: "if I fail this exam I'll kill myself, I have pills in my drawer"}, 2, ""},
		{"a text with no first person is not raised", 1, Input{Text: "what is the most common way people end it"}, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := NewFloorWith(FloorOptions{Scorer: constScorer(c.score), Thresholds: testThresholds})
			rules := NewFloorWith(FloorOptions{}).Assess(c.in)
			a := f.Assess(c.in)
			if a.Level != c.want {
				t.Errorf("level %d (path %v), want %d", a.Level, a.Path, c.want)
			}
			if a.Level < rules.Level {
				t.Errorf("the model lowered the rules' level %d to %d", rules.Level, a.Level)
			}
			if c.path != "" && !hasPath(a, c.path) {
				t.Errorf("path %v lacks %q", a.Path, c.path)
			}
			if c.path == "" && (hasPath(a, "model:raised") || hasPath(a, "model:imminent")) {
				t.Errorf("path %v says the model raised", a.Path)
			}
			if !slices.Equal(a.Flags.Names(), rules.Flags.Names()) {
				t.Errorf("flags %v, rules alone %v", a.Flags.Names(), rules.Flags.Names())
			}
			checkDerived(t, a)
		})
	}
}

func TestLearnedScorerReadsTheMessageWithoutDecidedClauses(t *testing.T) {
	cases := []struct {
		text     string
		read     string // "" = the scorer is not asked
		notAsked bool
	}{
		{"I would never kill myself. I just feel empty lately", "i just feel empty lately", false},
		{"my sister said she wants to die. I can't sleep and I feel empty", "i cant sleep and i feel empty", false},
		{"I'm not suicidal, but I don't see the point of waking up", "but i dont see the point of waking up", false},
		{"this exam is killing me", "", true},
		{"I want to kill myself", "", true}, // level 2 with no cue: no score changes it
		{"why is suicide more common in men? for my psych essay", "for my psych essay", false},
		{"how do i ask my flatmate if she is suicidal without making it worse", "", true},
	}
	for _, c := range cases {
		r := &recordingScorer{score: 0}
		NewFloorWith(FloorOptions{Scorer: r, Thresholds: testThresholds}).Assess(Input{Text: c.text})
		switch {
		case c.notAsked && len(r.read) > 0:
			t.Errorf("%q: the scorer was asked to read %q", c.text, r.read)
		case !c.notAsked && (len(r.read) != 1 || r.read[0] != c.read):
			t.Errorf("%q: the scorer read %q, want %q", c.text, r.read, c.read)
		}
	}
}

func TestShortScorerReadsAnAttemptTheRulesCouldNotPlace(t *testing.T) {
	th := Thresholds{Raise: 2, High: 0.9, Short: 0.8}
	for _, c := range []struct {
		name    string
		short   float64
		text    string
		want    Level
		attempt bool
	}{
		{"a very high score makes the attempt 3, with the attempt reply", 0.95, "took 25 of them about an hour ago", 3, true},
		{"a score at the short threshold only makes 2", 0.85, "took 25 of them about an hour ago", 2, false},
		{"below the threshold the rules' reading stands", 0.5, "took 25 of them about an hour ago", 1, false},
		{"no attempt read, no 3", 0.95, "honestly just done pretending everything is fine", 2, false},
		{"an attempt about someone else is not the writer's", 0.95, "my brother took 25 of them about an hour ago", 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := NewFloorWith(FloorOptions{Short: constScorer(c.short), Thresholds: th}).Assess(Input{Text: c.text})
			if a.Level != c.want || a.Flags.Attempt != c.attempt {
				t.Errorf("level %d, attempt %v (%v), want %d, %v", a.Level, a.Flags.Attempt, a.Path, c.want, c.attempt)
			}
		})
	}
}

func TestShortScorerReadsAMessageWhoseSubjectChatLeftOut(t *testing.T) {
	for _, c := range []struct {
		text string
		read bool
	}{
		{"cant face them anymore", true},
		// An object ("them", "us") or the bot addressed ("you") names
		// nobody else as the subject.
		{"so tired of them all", true},
		{"thank you for listening all these months", true},
		{"nobody will miss us", true},
		{"she cant face them anymore", false},
		{"what happens to them after", false},
		// A question word that starts a sentence asks about a topic; one
		// inside a sentence does not.
		{"did it. twenty of them. now what", true},
		{"thought about how easy it would be on the way home", true},
		{"how do people get through this kind of week", false},
		{"suicide thoughts every night again", true},
	} {
		r := &recordingScorer{score: 0}
		NewFloorWith(FloorOptions{Short: r, Thresholds: testThresholds}).Assess(Input{Text: c.text})
		if got := len(r.read) > 0; got != c.read {
			t.Errorf("%q: short scorer asked %v, want %v", c.text, got, c.read)
		}
	}
}

func TestWithScoreLeavesTheVerdictUntouched(t *testing.T) {
	v := NewFloorWith(FloorOptions{}).AssessRules(Input{Text: "I have nothing left and tonight I'm done with all of it"})
	if !v.MayRaise || !v.Cue || !v.NeedsScore() {
		t.Fatalf("verdict %+v: want a quiet verdict with a cue that a score may raise", v)
	}
	before := slices.Clone(v.Path)
	hi := v.WithScore(0.99, testThresholds)
	lo := v.WithScore(0.1, testThresholds)
	if hi.Level != 3 || lo.Level != v.Level {
		t.Errorf("levels %d and %d, want 3 and %d", hi.Level, lo.Level, v.Level)
	}
	if !slices.Equal(v.Path, before) || slices.Contains(lo.Path, "model:raised") {
		t.Errorf("one WithScore changed another's path: verdict %v, low %v", v.Path, lo.Path)
	}
	if hi.Confidence >= confidentFloor {
		t.Errorf("a learned raise has confidence %v; a configured LLM must be able to moderate it", hi.Confidence)
	}
}

func TestThresholdsAboveOneNeverFire(t *testing.T) {
	f := NewFloorWith(FloorOptions{Scorer: constScorer(1), Thresholds: Thresholds{Raise: 2, High: 2}})
	if a := f.Assess(Input{Text: "I feel so hopeless lately"}); a.Level != 1 {
		t.Errorf("level %d with thresholds 2: want the rules' 1", a.Level)
	}
	// A scorer without stored thresholds and none given never raises.
	if a := NewFloorWith(FloorOptions{Scorer: constScorer(1)}).Assess(Input{Text: "I feel so hopeless lately"}); a.Level != 1 {
		t.Errorf("level %d with no thresholds: want the rules' 1", a.Level)
	}
}

func TestNewFloorIsRulesPlusTheEmbeddedModel(t *testing.T) {
	f := NewFloor()
	if f.scorer == nil {
		t.Fatal("the default floor has no learned scorer")
	}
	if f.th.Raise < 0.5 || f.th.Raise > 1 || f.th.High < f.th.Raise || f.th.High > 1 {
		t.Errorf("embedded thresholds %+v: want 0.5 <= raise <= high <= 1", f.th)
	}
	if _, err := LoadModel(embeddedModelFile); err != nil {
		t.Fatalf("the embedded model does not load: %v", err)
	}
	// The model reads canonical text and knows the wording of crisis posts.
	m := EmbeddedModel()
	if hi, lo := m.Score(Normalize("I can't do this anymore, I just want to die")), m.Score(Normalize("I can't wait for the weekend, the weather looks great")); hi <= lo {
		t.Errorf("crisis wording scores %.3f, everyday wording %.3f", hi, lo)
	}
}

func TestShortScorerRaisesOnlyAnUnsureShortMessageToTwo(t *testing.T) {
	long := "I have nothing left and I'm so tired of all of it, of the flat and the job and the way every week goes by without anything changing at all, and of pretending to everyone at work and at home that it is all fine"
	cases := []struct {
		name  string
		short float64
		in    Input
		want  Level
		path  string
	}{
		{"a quiet short message with a short score at the threshold becomes 2", 0.8, Input{Text: "I have nothing left"}, 2, "model:short"},
		{"a warning sign (level 1) with a short score at the threshold becomes 2", 0.8, Input{Text: "I feel so hopeless lately"}, 2, "model:short"},
		{"a warning sign below the threshold stays 1", 0.79, Input{Text: "I feel so hopeless lately"}, 1, ""},
		{"a short score below the threshold changes nothing", 0.79, Input{Text: "I have nothing left"}, 0, ""},
		{"a message of more than ShortWords words is not read", 1, Input{Text: long}, 0, ""},
		{"never above 2, whatever the score", 1, Input{Text: "I have nothing left, tonight"}, 2, "model:short"},
		{"level 2 is never lowered", 0, Input{Text: "I want to die"}, 2, ""},
		{"level 3 is never lowered", 0, Input{Text: "I'm going to kill myself tonight"}, 3, ""},
		{"negation stands", 1, Input{Text: "I would never kill myself"}, 0, ""},
		{"third party stands", 1, Input{Text: "my brother said he wants to die"}, 0, ""},
		{"idiom stands", 1, Input{Text: "this exam is killing me"}, 0, ""},
		{"a rule that found no context leaves the words to the scorer", 0.8, Input{Text: "picked up a rope and some duct tape from the hardware store"}, 2, "model:short"},
		{"and below the threshold they stay where the rules put them", 0.79, Input{Text: "picked up a rope and some duct tape from the hardware store"}, 0, ""},
		{"a text with no first person is not raised", 1, Input{Text: "what is the meaning of life"}, 0, ""},
		{"a message with its subject left out, as chat drops it, is read", 0.8, Input{Text: "honestly just done pretending everything is fine"}, 2, "model:short"},
		{"a message without a subject that names someone else is not", 1, Input{Text: "sister keeps saying she wants out"}, 0, ""},
		{"what is left after a clause set aside is not a message without a subject", 1, Input{Text: "going to the lake tonight with the lads, not coming back till late"}, 0, ""},
		{"a bare reply in a conversation is read with the conversation, not alone", 1, Input{Text: "because I do", History: []string{"why do you like pasta so much"}}, 2, "model:short-conversation"},
		{"the same words with nothing before them are read", 0.8, Input{Text: "because I do"}, 2, "model:short"},
		{"a clear yes to the safety question stands", 1, Input{Text: "yes I'm safe", AskedIfSafe: true}, 0, ""},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			if n := wordCount(Normalize(long)); n <= ShortWords {
				t.Fatalf("the long message has %d words, not more than %d", n, ShortWords)
			}
			f := NewFloorWith(FloorOptions{Short: constScorer(tt.short), Thresholds: Thresholds{Raise: 2, High: 2, Short: 0.8}})
			a := f.Assess(tt.in)
			if a.Level != tt.want {
				t.Fatalf("level %d (%v), want %d", a.Level, a.Path, tt.want)
			}
			if tt.path != "" && !slices.Contains(a.Path, tt.path) {
				t.Errorf("path %v, want %s in it", a.Path, tt.path)
			}
			if tt.path == "" && slices.Contains(a.Path, "model:short") {
				t.Errorf("path %v: the short scorer raised", a.Path)
			}
		})
	}
}

func TestShortScorerReadsFewWordsAndASentenceWithTheirOwnThresholds(t *testing.T) {
	few := Input{Text: "I have nothing left"}
	more := Input{Text: "I have nothing left and every single day feels exactly the same as the last one"}
	if n := wordCount(Normalize(more.Text)); n < ShortLongWords || n > ShortWords {
		t.Fatalf("the longer message has %d words, want %d to %d", n, ShortLongWords, ShortWords)
	}
	th := Thresholds{Raise: 2, High: 2, Short: 0.9, ShortLong: 0.7}
	f := NewFloorWith(FloorOptions{Short: constScorer(0.8), Thresholds: th})
	if a := f.Assess(few); a.Level != 0 {
		t.Errorf("a few words at 0.8 against 0.9: level %d (%v), want 0", a.Level, a.Path)
	}
	if a := f.Assess(more); a.Level != 2 {
		t.Errorf("a sentence at 0.8 against 0.7: level %d (%v), want 2", a.Level, a.Path)
	}
	// A zero ShortLong is Short.
	f = NewFloorWith(FloorOptions{Short: constScorer(0.8), Thresholds: Thresholds{Raise: 2, High: 2, Short: 0.9}})
	if a := f.Assess(more); a.Level != 0 {
		t.Errorf("with ShortLong zero, a sentence at 0.8 against 0.9: level %d (%v), want 0", a.Level, a.Path)
	}
}

func TestShortScorerReadsAShortParagraphWithItsOwnThreshold(t *testing.T) {
	para := Input{Text: "I have nothing left and every single day feels exactly the same as the last one, work and the bus and the flat and nobody to talk to"}
	if n := wordCount(Normalize(para.Text)); n < ShortParagraphWords || n > ShortWords {
		t.Fatalf("the paragraph has %d words, want %d to %d", n, ShortParagraphWords, ShortWords)
	}
	for _, c := range []struct {
		name string
		th   Thresholds
		want Level
	}{
		{"at its own threshold", Thresholds{Raise: 2, High: 2, Short: 0.9, ShortLong: 0.9, ShortParagraph: 0.7}, 2},
		{"not at the sentence threshold", Thresholds{Raise: 2, High: 2, Short: 0.5, ShortLong: 0.5, ShortParagraph: 0.9}, 0},
		{"zero: never read", Thresholds{Raise: 2, High: 2, Short: 0.5, ShortLong: 0.5}, 0},
	} {
		f := NewFloorWith(FloorOptions{Short: constScorer(0.8), Thresholds: c.th})
		if a := f.Assess(para); a.Level != c.want {
			t.Errorf("%s: a paragraph at 0.8: level %d (%v), want %d", c.name, a.Level, a.Path, c.want)
		}
	}
}

func TestShortScorerAddsToThePostScorerWithoutUndoingIt(t *testing.T) {
	in := Input{Text: "I have nothing left and tonight I'm done with all of it"}
	// The post scorer's level 3 stays whatever the short scorer says.
	f := NewFloorWith(FloorOptions{Scorer: constScorer(0.97), Short: constScorer(0), Thresholds: Thresholds{Raise: 0.8, High: 0.95, Short: 0.8}})
	if a := f.Assess(in); a.Level != 3 {
		t.Errorf("level %d (%v), want the post scorer's 3", a.Level, a.Path)
	}
	// Either scorer alone raises; the short one reads the same text.
	rec := &recordingScorer{score: 0.9}
	f = NewFloorWith(FloorOptions{Scorer: constScorer(0), Short: rec, Thresholds: Thresholds{Raise: 0.8, High: 0.95, Short: 0.8}})
	if a := f.Assess(Input{Text: "I have nothing left, it's all my fault"}); a.Level != 2 || !slices.Contains(a.Path, "model:short") {
		t.Errorf("level %d (%v), want 2 by the short scorer", a.Level, a.Path)
	}
	if len(rec.read) != 1 || rec.read[0] != Normalize("I have nothing left, it's all my fault") {
		t.Errorf("the short scorer read %q", rec.read)
	}
}

func TestNewFloorHasTheEmbeddedShortModel(t *testing.T) {
	f := NewFloor()
	if f.short == nil {
		t.Fatal("the default floor has no short-message scorer")
	}
	if f.th.Short < 0.5 || f.th.Short > 1 || f.th.ShortLong < 0.5 || f.th.ShortLong > 1 {
		t.Errorf("embedded short thresholds %.2f / %.2f: want 0.5 to 1", f.th.Short, f.th.ShortLong)
	}
	if _, err := LoadModel(embeddedShortModelFile); err != nil {
		t.Fatalf("the embedded short model does not load: %v", err)
	}
	m := EmbeddedShortModel()
	if hi, lo := m.Score(Normalize("honestly i just want to not exist anymore")), m.Score(Normalize("honestly i just want a nap and some pizza")); hi <= lo {
		t.Errorf("crisis wording scores %.3f, everyday wording %.3f", hi, lo)
	}
}

func TestLoadModelRejectsADamagedFile(t *testing.T) {
	damaged := slices.Clone(embeddedModelFile)
	damaged[len(damaged)/3] ^= 0x01
	cases := map[string][]byte{
		"flipped byte": damaged,
		"truncated":    embeddedModelFile[:len(embeddedModelFile)/2],
		"not a model":  []byte("{\"weights\": []}"),
	}
	for name, data := range cases {
		if _, err := LoadModel(data); err == nil || !strings.Contains(err.Error(), "load crisis model") {
			t.Errorf("%s: error %v, want a load error", name, err)
		}
	}
}

// TestFigurativeAndThirdPartyStayCalmWithTheModel checks wording that shares
// words with risk (written for this test) against the full default floor:
// the model must not raise any of it into crisis.
func TestFigurativeAndThirdPartyStayCalmWithTheModel(t *testing.T) {
	f := NewFloor()
	rules := NewFloorWith(FloorOptions{})
	for _, s := range []string{
		// climbing and ropes
		"the rope on my climbing harness is frayed, time to buy a new one",
		"I'm learning to tie a bowline with my climbing rope before the trip tomorrow",
		"I bought a new climbing rope for the gym this weekend",
		// carving out a place
		"I want to carve out a career in design",
		// batteries and devices
		"my phone died halfway through the call with my mum, so annoying",
		"the battery in my car died again this morning and I was late to work",
		"my laptop battery is dead and I lost all my notes",
		// a relative's or friend's crisis
		"my cousin tried to kill himself last month and I feel guilty I didn't see it",
		"my friend keeps saying she wants to die and I don't know how to help her",
		"what should I do if my roommate says he wants to kill himself",
		// plans for work
		"I need to figure out a plan for my history essay, it's due Monday",
		"I'm so stressed, I need a plan for this essay or I'm going to fail the class",
		"my essay plan is due tomorrow and I have no idea where to start",
		// negation, the past, the topic
		"I'm not suicidal, I'm just really tired of this job",
		"I'm not suicidal, just stressed about work",
		"I was suicidal in high school but I'm in a much better place now",
		"I used to cut but I'm three years clean and proud of it",
		"I'm writing an essay on suicide prevention",
		"I volunteer for a suicide hotline on weekends",
		"what is suicide?",
		// idioms and everyday life
		"I'm dying laughing at this video",
		"ugh kill me, I have three meetings back to back",
		"I'm dead tired after that shift",
		"how do I kill a python process",
		"I cut myself cooking dinner",
		"I took two ibuprofen for my headache",
		"I saved up enough money for the trip",
		"my grandma passed away last night and I can't stop crying",
		"I'm going to the doctor tomorrow about my meds",
	} {
		a, r := f.Assess(Input{Text: s}), rules.Assess(Input{Text: s})
		if a.Level >= LevelIdeation {
			t.Errorf("%q: level %d (path %v), want below crisis", s, a.Level, a.Path)
		}
		if a.Level != r.Level {
			t.Errorf("%q: the model moved the rules' level %d to %d (path %v)", s, r.Level, a.Level, a.Path)
		}
	}
}

// TestEvasionDoesNotSlipUnderTheModel: the model reads the canonical text,
// so an obfuscated message gets the verdict of its plain form, including
// where only the model raises it.
func TestEvasionDoesNotSlipUnderTheModel(t *testing.T) {
	f := NewFloor()
	rules := NewFloorWith(FloorOptions{})
	raisedByModel := 0
	for _, p := range append(append([]string(nil), evasionClear...), evasionModel...) {
		plain := f.Assess(Input{Text: p})
		if rules.Assess(Input{Text: p}).Level < plain.Level {
			raisedByModel++
		}
		for _, o := range obfuscations {
			in := o.f(p)
			if Normalize(in) != Normalize(p) {
				continue // the evasion suite checks these by level
			}
			if a := f.Assess(Input{Text: in}); a.Level != plain.Level {
				t.Errorf("%s of %q: level %d (path %v), plain text %d", o.name, p, a.Level, a.Path, plain.Level)
			}
		}
	}
	if raisedByModel == 0 {
		t.Error("no phrase in the set is raised by the model: the test proves nothing about it")
	}
}

// evasionModel are messages the rules alone leave below crisis and the
// model raises (written for this test).
var evasionModel = []string{
	"I don't see myself alive next year", // the rules read it since the fifth chat batch
	"I hate myself so much I can't do this",
	"life is pointless and I'm so tired",
}

// wordScorer scores 1 a text with its word in it, 0 any other.
type wordScorer string

func (w wordScorer) Score(canon string) float64 {
	if strings.Contains(canon, string(w)) {
		return 1
	}
	return 0
}

func TestTheWindowReadsAnEarlierMessageTheScorersRaised(t *testing.T) {
	th := Thresholds{Raise: 2, High: 2, Short: 0.9, ShortLong: 0.9}
	f := NewFloorWith(FloorOptions{Short: wordScorer("fade out"), Thresholds: th})
	wish := "i have been wondering what it would be like to just fade out"
	if a := f.Assess(Input{Text: wish}); a.Level != LevelIdeation {
		t.Fatalf("the wish alone: level %d (%v), want the scorer's 2", a.Level, a.Path)
	}
	if a := NewFloorWith(FloorOptions{}).Assess(Input{Text: wish}); a.Level >= LevelIdeation {
		t.Fatalf("the wish alone, rules only: level %d (%v), want below 2 (the test needs a wish only the scorer reads)", a.Level, a.Path)
	}
	for _, tc := range []struct {
		name    string
		in      Input
		atLeast Level
		atMost  Level
	}{
		{"a means after the wish", Input{Text: "dad keeps a whole drawer of sleeping tablets", History: []string{wish}}, LevelIdeation, LevelImminent},
		{"a time after the wish", Input{Text: "tomorrow morning before work", History: []string{wish}}, LevelImminent, LevelImminent},
		{"the same means after dinner plans", Input{Text: "dad keeps a whole drawer of sleeping tablets", History: []string{"been wondering what to cook for dinner"}}, LevelNone, LevelWarning},
		{"an ordinary reply is not carried by the scorer's reading alone", Input{Text: "i said yes to a marathon with my brother", History: []string{wish}}, LevelNone, LevelWarning},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := f.Assess(tc.in)
			if a.Level < tc.atLeast || a.Level > tc.atMost {
				t.Errorf("level %d (%v), want %d..%d", a.Level, a.Path, tc.atLeast, tc.atMost)
			}
		})
	}
}

func TestShortScorerReadsTheConversationAsOneMessage(t *testing.T) {
	th := Thresholds{Raise: 2, High: 2, Short: 0.9, ShortLong: 0.9, ShortParagraph: 0.9}
	// The scorer says 0.95 only of the two messages read together.
	joined := scorerFunc(func(canon string) float64 {
		if strings.Contains(canon, "quiet") && strings.Contains(canon, "sunday") {
			return 0.95
		}
		return 0.1
	})
	f := NewFloorWith(FloorOptions{Short: joined, Thresholds: th})
	for _, c := range []struct {
		name string
		in   Input
		want Level
	}{
		{"a crisis told over two messages", Input{Text: "after sunday it stays that way", History: []string{"the house is so quiet"}}, 2},
		{"the same last message alone", Input{Text: "after sunday it stays that way"}, 0},
		{"a step back in the last message", Input{Text: "after sunday it stays that way, but I'm safe, my sister is here", History: []string{"the house is so quiet"}}, 0},
		{"a step back earlier", Input{Text: "after sunday it stays that way", History: []string{"the house is so quiet", "I talked to my therapist today"}}, 0},
		{"after a clear answer to the safety question", Input{Text: "after sunday it stays that way", History: []string{"the house is so quiet"}, Answered: true}, 0},
	} {
		a := f.Assess(c.in)
		if a.Level != c.want {
			t.Errorf("%s: level %d (%v), want %d", c.name, a.Level, a.Path, c.want)
		}
		if c.want == 2 && !slices.Contains(a.Path, "model:short-conversation") {
			t.Errorf("%s: path %v, want model:short-conversation", c.name, a.Path)
		}
	}
}

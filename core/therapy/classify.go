package therapy

import (
	"fmt"
	"slices"
	"strings"

	"github.com/havenbot/haven/internal/textmatch"

	"github.com/havenbot/haven/core/therapy/exercises"
)

// intent is what the dispatch rules recognised in the message; the scripted
// writer uses it to pick the kind of reply.
type intent int

const (
	intentNone intent = iota
	intentExercise
	intentOfferReply
	intentRule
	intentIdentity
	intentConfidential
	// intentCrisisPolicy asks what Haven does when told of suicide or
	// self-harm ("do you call the police if I mention suicide?").
	intentCrisisPolicy
	intentStartExercise
	intentGoodbye
	intentPsychoed
	intentGreeting
	intentThanks
	intentVague
	intentShare
)

// Decision is dispatch's choice for one turn.
type Decision struct {
	Mode     Mode
	Modality Modality
	// Source says how Mode was chosen: rules, llm or default.
	Source Source
	// LLMCalls and Tokens count model use by dispatch.
	LLMCalls, Tokens int

	intent   intent
	snippet  string
	exercise string
}

var (
	// introRE is the person telling their name and nothing else.
	introRE = textmatch.MustCompile(`(?i)^\s*(my name is|my name's|i'm|i’m|i am|call me|this is|you can call me)\s+([a-z]+)[\s.!]*$`)
	// greetingRE is a greeting alone, or with an introduction ("hi, I'm Sam").
	greetingRE = textmatch.MustCompile(`(?i)^\s*(hi+|hello+|hey+|hiya|howdy|yo|good (morning|afternoon|evening)|morning|evening)\b[\s!.,]*(there|haven|again)?[\s!.,]*((i'm|i’m|im|i am|this is|my name is|my name's) [a-z]+[\s!.]*)?$`)
	thanksRE   = textmatch.MustCompile(`(?i)\b(thanks|thank you|thx|ty|cheers)\b`)
	goodbyeRE  = textmatch.MustCompile(`(?i)\b(bye|goodbye|good night|goodnight|night night|nighty night|nite|see you|talk (to you )?(later|tomorrow|soon)|catch you later|gotta go|have to go|need to go|i'?ll go now|ttyl|signing off|logging off|that'?s all for (now|today)|(i'?m )?off to (bed|sleep)|(i'?m )?(going|heading) (off )?to (bed|sleep)( now)?)\b|^\s*night[\s.!]*$`)
	whoRE      = textmatch.MustCompile(`(?i)\b(who|what) are you\b|\bare you (a |an )?(real )?(human|real|person|bot|ai|robot|machine|therapist|counsel+or|psychologist|doctor|professional)\b|\b(can|could|will) you be my (therapist|counsel+or|doctor)\b|\bam i (talking|speaking|chatting) (to|with) (a |an )?(real |actual )?(person|human|bot|ai|robot|machine)\b`)
	privacyRE  = textmatch.MustCompile(`(?i)\b(is|are) (this|it|(this|our) (chat|conversation|talk)|these messages|what i (say|tell you)) (private|confidential|secret|safe|secure)\b|\bwill you tell (anyone|someone|my)\b|\bwho (can|will|else can) (see|read) (this|my messages|what i)\b|\bdo you (store|save|keep|record|remember) (this|my|our|what)\b|\bconfidential\b`)
	vagueRE    = textmatch.MustCompile(`(?i)^\s*(idk|i don'?t know|dunno|meh|nothing|not sure|whatever|ok(ay)?|fine|hm+|ugh+|eh|so so|kinda|i guess)[\s.!?]*$`)
	yesRE      = textmatch.MustCompile(`(?i)^\s*(y|ya|ye[sa]h?|yep|yup|sure|ok(ay)?|alright|all right|please|go on|go ahead|let'?s( do it| try( it)?| go| do that)?|why not|sounds good|that sounds good|i('?d| would) like that|i'?ll try|i can try|let'?s give it a (go|try)|that (would|might) help|definitely|absolutely)\b`)
	negRE      = textmatch.MustCompile(`(?i)\b(no|not|nah|nope|don'?t|rather not|later)\b`)
	noRE       = textmatch.MustCompile(`(?i)^\s*(no|nah|nope|not (now|really|today|right now|yet)|no thanks|maybe later|i'?m (ok|okay|good|fine)|rather not|i'?d rather (not|just talk))\b`)
	acuteRE    = textmatch.MustCompile(`(?i)\b(panic(king)? attack|(i'?m|i am|currently) (panicking|freaking out|shaking)|can'?t (breathe|calm down|stop shaking|stop crying)|cannot breathe|freaking out|hyperventilat\w*|heart (is )?(racing|pounding)|falling apart|spiral+ing|losing it)\b`)
	calmerRE   = textmatch.MustCompile(`(?i)\b(better|calmer|calm now|(ok|okay) now|settled|breathing (easier|normally)|less (tense|anxious|panicky)|more relaxed|relaxed)\b`)
	helpNeedRE = textmatch.MustCompile(`(?i)\b(for (weeks|months|years|a long time|ages)|every (day|night|single day)|all the time|nothing (helps|works)|can'?t (get out of bed|function|work|eat|cope|go on like this)|haven'?t (eaten|slept) (in|for) days|stopped (eating|going out)|months now|weeks now)\b`)
)

// modalityRule maps what a person describes to a modality, in order.
var modalityRules = []struct {
	m  Modality
	re *textmatch.Regexp
}{
	{ModalityGrief, textmatch.MustCompile(`(?i)\b((in )?a better place|(she|he)'?s gone|passed away|died|death of|funeral|grie(f|ving|ve)|mourn(ing)?|lost my (mum|mom|mother|dad|father|wife|husband|partner|son|daughter|child|baby|brother|sister|friend|grand\w+|dog|cat|pet)|miss(ing)? (him|her|them) so|since (he|she|they) (died|passed))\b`)},
	{ModalityPFA, textmatch.MustCompile(`(?i)\b(accident|crash(ed)?|attacked|assault(ed)?|robbed|mugged|fire|flood|earthquake|disaster|in shock|just happened|witness(ed)?|emergency room|traumati[cz]\w*)\b`)},
	{ModalityDBT, textmatch.MustCompile(`(?i)\b(panic(king)?|(so|really|too) (angry|furious|mad)|rage|urges?( to)?|can'?t control (my|it|myself)|explod(e|ing)|lash(ed|ing)? out|emotions? (are|is|feel) (too|so) (much|intense|strong|big)|overwhelming (feelings|emotions)|impulsive|scream(ing)?|freaking out)\b`)},
	{ModalityMI, textmatch.MustCompile(`(?i)\b((should|want to|trying to|need to|ought to) (quit|stop|cut down|cut back|give up|start)\b|part of me (wants|doesn'?t)|can'?t decide|on the fence|torn between|(no|lack of|lost (my|all)) motivation|keep putting (it|things) off|procrastinat\w*|ambivalen\w*|drinking too much|smoking|vaping|gambling)\b`)},
	{ModalityACT, textmatch.MustCompile(`(?i)\b(can'?t stop thinking|(racing|intrusive|sticky|same) thoughts|overthink\w*|ruminat\w*|my (mind|brain) (won'?t|keeps|never)|what (really )?matters|my values|avoid(ing|ance)?|stuck in my head)\b`)},
	{ModalityIPT, textmatch.MustCompile(`(?i)\b((partner|boyfriend|girlfriend|husband|wife|friends?|mum|mom|mother|dad|father|parents?|sister|brother|boss|manager|coworkers?|colleagues?|roommate|flatmate)\b.*\b(fight|fought|argu\w*|conflict|ignor\w*|doesn'?t (listen|understand|care)|left me|cheat\w*|distant|yell\w*|shout\w*)|broke up|break ?up|divorce|separated|moved (to|away|out)|new (job|city|school|baby)|retire\w*|lonel\w*|no friends|isolated)\b`)},
	{ModalityCBT, textmatch.MustCompile(`(?i)\b(i'?m (such a|a total|a complete|so) (failure|idiot|loser|mess|stupid|useless)|i always (mess|screw|fail|ruin)\w*|i never (do|get) anything right|everyone (hates|thinks|will think)|nobody (likes|cares)|what if|worst case|anxi(ous|ety)|worr(y|ied|ying)|nervous|stress(ed|ful)?|overwhelm(ed|ing)?|catastroph\w*|exam|deadline)\b`)},
}

// DetectModality returns the modality what the person describes calls for,
// or ModalityNone.
func DetectModality(text string) Modality {
	text = withoutFigures(text) // "my phone died" is no loss
	for _, r := range modalityRules {
		if r.re.MatchString(text) {
			return r.m
		}
	}
	return ModalityNone
}

// DispatchInput is what dispatch reads.
type DispatchInput struct {
	Text string
	// State is the session's therapy state as the last turn left it.
	State State
	// TurnCount is the number of earlier turns in this session.
	TurnCount int
	// History is the recent conversation, for the model.
	History []Line
}

// classify applies the keyword and pattern rules. ok is false when no rule
// is confident; the caller then asks the model or takes the default.
func classify(in DispatchInput) (Decision, bool) {
	text := strings.TrimSpace(clip(in.Text, maxReadBytes))
	d := Decision{Source: SourceRules, Modality: modalityFor(text, in)}
	exercise, step := in.State.Exercise, in.State.Step
	set := func(i intent, m Mode) (Decision, bool) {
		d.intent, d.Mode = i, m
		return d, true
	}
	if ex := exercises.Get(exercise); ex != nil && step != StepOffered {
		d.Modality = Modality(ex.Modality)
		if isGoodbye(text) {
			// Leaving in the middle ends the exercise with the session.
			return set(intentGoodbye, ModeClosing)
		}
		return set(intentExercise, ModeGuidedExercise)
	}
	if step == StepOffered && exercises.Get(exercise) != nil {
		if isYes(text) {
			d.exercise = exercise
			d.Modality = Modality(exercises.Get(exercise).Modality)
			return set(intentOfferReply, ModeGuidedExercise)
		}
		if noRE.MatchString(text) {
			return set(intentOfferReply, ModeSupportive)
		}
	}
	if ex := exercises.Get(in.State.Offered); ex != nil && step != StepOffered && in.TurnCount+1-in.State.OfferTurn <= 2 &&
		isYes(text) && len(strings.Fields(text)) <= 5 {
		// A late yes: the person answered the offer a message later.
		d.exercise, d.Modality = ex.ID, Modality(ex.Modality)
		return set(intentOfferReply, ModeGuidedExercise)
	}
	if ex := exercises.Requested(text); ex != nil {
		d.exercise = ex.ID
		d.Modality = Modality(ex.Modality)
		return set(intentStartExercise, ModeGuidedExercise)
	}
	if exercises.RequestedAny(text) {
		return set(intentStartExercise, ModeGuidedExercise)
	}
	if whoRE.MatchString(text) || botRE.MatchString(text) {
		return set(intentIdentity, ModeClarifying)
	}
	if crisisPolicyRE.MatchString(text) {
		return set(intentCrisisPolicy, ModeClarifying)
	}
	if privacyRE.MatchString(text) {
		return set(intentConfidential, ModeClarifying)
	}
	if isGoodbye(text) {
		return set(intentGoodbye, ModeClosing)
	}
	s, ok := askedSnippet(text, d.Modality)
	if !ok {
		s, ok = askedAboutEarlier(text, in.History)
	}
	if ok {
		d.snippet = s.key
		if d.Modality == ModalityNone {
			d.Modality = s.modality
		}
		return set(intentPsychoed, ModePsychoeducation)
	}
	if rc := readRuleChange(text); rc.any() {
		if reflection(text) != "" {
			return set(intentRule, ModeReflective)
		}
		return set(intentRule, ModeSupportive)
	}
	if greetingRE.MatchString(text) {
		return set(intentGreeting, ModeSupportive)
	}
	if thanksRE.MatchString(text) && len(strings.Fields(text)) <= 6 {
		return set(intentThanks, ModeSupportive)
	}
	if vagueRE.MatchString(text) {
		return set(intentVague, ModeClarifying)
	}
	if reflection(text) != "" {
		return set(intentShare, ModeReflective)
	}
	_, hasFeeling := firstFeeling(text)
	_, hasTopic := firstTopic(text)
	if hasFeeling || hasTopic || DetectModality(text) != ModalityNone {
		return set(intentShare, ModeSupportive)
	}
	d.intent = intentShare
	return d, false
}

// Classify applies the therapeutic branch's keyword and pattern rules to a
// message. ok is false when no rule is confident; the caller then asks a
// model (see Decision.WithModel) or takes Default. It never calls a model.
func Classify(in DispatchInput) (d Decision, ok bool) {
	return classify(in)
}

// Claimed reports whether the message belongs to the therapeutic branch
// whatever else it asks for: it answers or continues a guided exercise,
// asks for one, or asks who Haven is or whether the conversation is
// private.
func (d Decision) Claimed() bool {
	switch d.intent {
	case intentExercise, intentOfferReply, intentStartExercise, intentIdentity, intentConfidential, intentCrisisPolicy:
		return true
	}
	return false
}

// Closing reports whether the person is saying goodbye: the turn closes the
// session.
func (d Decision) Closing() bool {
	return d.Mode == ModeClosing
}

// Default is the decision when no rule is confident and no model answered:
// supportive listening, keeping the modality d detected.
func Default(d Decision) Decision {
	d.Mode, d.Source, d.intent = ModeSupportive, SourceDefault, intentShare
	return d
}

// ModelGuide describes the modes and modalities a model may choose, one
// line each, for a dispatch prompt that asks for {"mode", "modality"}.
const ModelGuide = `mode: "supportive" (they share something and need warmth), "reflective" (they describe their feelings or situation at some length), "clarifying" (their message is vague or unclear), "psychoeducation" (they ask how minds, bodies, sleep, stress or grief work), "closing" (they are saying goodbye).
modality: "mi" (ambivalence about a change), "cbt" (worry, stress, harsh or all-or-nothing thoughts), "act" (stuck thoughts, avoidance, values), "dbt" (intense emotions or urges), "grief" (a death or loss), "ipt" (relationships, conflicts, life changes, loneliness), "pfa" (a recent shocking event), "none".`

// ModelModes and ModelModalities are the values a model may answer; a
// guided exercise is never the model's call (it takes the person's word).
var (
	ModelModes      = []Mode{ModeSupportive, ModeReflective, ModeClarifying, ModePsychoeducation, ModeClosing}
	ModelModalities = Modalities
)

// WithModel returns d with the mode and modality a model chose, or an error
// naming the value that is not allowed. A modality the rules detected is
// kept.
func (d Decision) WithModel(mode, modality string) (Decision, error) {
	m := Mode(mode)
	if !slices.Contains(ModelModes, m) {
		return Decision{}, fmt.Errorf("mode %q is not one the model may choose", mode)
	}
	mo := Modality(modality)
	if !slices.Contains(ModelModalities, mo) {
		return Decision{}, fmt.Errorf("modality %q is unknown", modality)
	}
	d.Mode, d.Source = m, SourceLLM
	if d.Modality == ModalityNone || d.Modality == "" {
		d.Modality = mo
	}
	switch m {
	case ModeClosing:
		d.intent = intentGoodbye
	case ModeClarifying:
		d.intent = intentVague
	default:
		d.intent = intentShare
	}
	return d, nil
}

// modalityFor detects the modality of the message, keeping the session's
// modality when the message itself names none.
func modalityFor(text string, in DispatchInput) Modality {
	if m := DetectModality(text); m != ModalityNone {
		return m
	}
	if in.State.Stabilize > 0 && in.State.Modality == ModalityPFA {
		return ModalityPFA
	}
	if in.State.Modality != "" && !greetingRE.MatchString(text) && !isGoodbye(text) {
		return in.State.Modality
	}
	return ModalityNone
}

func isYes(text string) bool {
	if !yesRE.MatchString(text) {
		return false
	}
	// "ok but not now", "sure, later" are not a yes.
	first, _, _ := strings.Cut(strings.ToLower(text), " ")
	rest := strings.TrimPrefix(strings.ToLower(text), first)
	return !negRE.MatchString(rest)
}

// nextStage returns the session's stage after this turn, updating the
// stabilizing countdown in s.
func nextStage(prev Stage, turn int, d Decision, text string, s *State) Stage {
	acute := acuteRE.MatchString(text)
	switch {
	case d.Mode == ModeClosing:
		return StageClosing
	case acute:
		s.Stabilize = max(s.Stabilize, stabilizeN)
		return StageStabilizing
	case s.Stabilize > 0:
		if calmerRE.MatchString(text) {
			s.Stabilize -= 2
		} else {
			s.Stabilize--
		}
		s.Stabilize = max(s.Stabilize, 0)
		return StageStabilizing
	}
	if turn == 0 {
		return StageOpening
	}
	if prev == StageDeepening || prev == StageStabilizing || prev == StageClosing {
		return StageDeepening
	}
	switch d.intent {
	case intentGreeting, intentThanks, intentVague, intentIdentity, intentConfidential, intentCrisisPolicy:
		if turn < 3 {
			return StageOpening
		}
	}
	return StageDeepening
}

// isGoodbye reports whether the person is taking their leave: a short
// message (at most 12 words) whose first or last clause is a short goodbye
// ("ok bye, talk later", "thanks, that helped. bye!"). A goodbye told as
// part of a story ("I said bye to my sister at the station") is not one.
// Dispatch decides the end of the session from it, so it is the one
// goodbye rule.
func isGoodbye(text string) bool {
	if len(strings.Fields(text)) > 12 || !goodbyeRE.MatchString(text) {
		return false
	}
	clauses := strings.FieldsFunc(text, func(r rune) bool { return strings.ContainsRune(".!?,;:\n", r) })
	var nonEmpty []string
	for _, c := range clauses {
		if strings.TrimSpace(c) != "" {
			nonEmpty = append(nonEmpty, c)
		}
	}
	if len(nonEmpty) == 0 {
		return false
	}
	short := func(c string) bool {
		return len(strings.Fields(c)) <= maxGoodbyeClauseWords && goodbyeRE.MatchString(c)
	}
	return short(nonEmpty[0]) || short(nonEmpty[len(nonEmpty)-1])
}

// maxGoodbyeClauseWords bounds a goodbye clause: "I have to go now" is one,
// "I need to go to the doctor about my anxiety" is not.
const maxGoodbyeClauseWords = 6

package safety

import (
	"regexp"
	"strings"
	"testing"
)

// forbidden are phrases no crisis reply may contain.
var forbidden = regexp.MustCompile(`(?i)\b(?:promise me|committed suicide|commit suicide|successful (?:suicide|attempt)|failed attempt|i am (?:a )?human|i'm (?:a )?human|i am a (?:real )?person|i'm a (?:real )?person|i (?:have |'ve )?(?:called|contacted|alerted|notified|sent) (?:911|999|112|emergency|the police|an ambulance|someone|help)|don't do anything stupid|everything will be (?:ok|okay|fine)|pills?|overdose|hang|noose|rope|gun|firearm|bridge|jump|blade|razor|wrists?|dose|lethal|poison|bleach|tylenol|paracetamol)\b`)

var digitsRe = regexp.MustCompile(`\d[\d -]*\d|\d`)

// checkReplyRules applies the safe-messaging rules to one composed reply.
func checkReplyRules(t *testing.T, label, text, country string, d *Directory) {
	t.Helper()
	if m := forbidden.FindString(text); m != "" {
		t.Errorf("%s: forbidden phrase %q", label, m)
	}
	if n := strings.Count(text, "?"); n > 1 {
		t.Errorf("%s: %d question marks", label, n)
	}
	allowed := ""
	for _, r := range d.Lookup(country) {
		allowed += " " + r.Contact + " " + r.Phone + " " + r.SMS + " " + r.Hours
	}
	for _, r := range d.Lookup(InternationalCode) {
		allowed += " " + r.Contact + " " + r.Hours
	}
	for _, num := range digitsRe.FindAllString(text, -1) {
		num = strings.TrimSpace(num)
		if !strings.Contains(allowed, num) {
			t.Errorf("%s: number %q is not from the directory for %q", label, num, country)
		}
	}
}

func TestCrisisRepliesFollowSafeMessagingRules(t *testing.T) {
	d := DefaultDirectory()
	assessments := map[string]Assessment{
		"imminent":    {Level: 3},
		"ideation":    {Level: 2, Reason: "wish to be dead or suicidal thoughts, first person"},
		"self-injury": {Level: 2, Reason: "self-injury", Flags: Flags{SelfInjury: true}},
		"third party": {Level: 0, Flags: Flags{ThirdParty: true}},
	}
	countries := append(d.Countries(), "", "ZZ")
	for name, a := range assessments {
		seen := map[string]bool{}
		for _, c := range countries {
			for v := 0; v < 6; v++ {
				for i, public := range []bool{false, true, false, true} {
					followUp := i >= 2
					r := CrisisReply(ReplyInput{Assessment: a.Finish(), Country: c, Variant: v, Public: public, FollowUp: followUp})
					label := name + "/" + c
					if followUp {
						label += "/follow-up"
					}
					checkReplyRules(t, label, r.Text, c, d)
					if public && r.PublicNote == "" {
						t.Errorf("%s: public reply has no public note", label)
					}
					if !public && r.PublicNote != "" {
						t.Errorf("%s: private reply has a public note", label)
					}
					if public {
						checkReplyRules(t, label+" public note", r.PublicNote, c, d)
					}
					if r.AsksQuestion != strings.Contains(r.Text, "?") {
						t.Errorf("%s: AsksQuestion=%v but text question marks=%d", label, r.AsksQuestion, strings.Count(r.Text, "?"))
					}
					seen[r.Text] = true
				}
			}
		}
		if len(seen) < 3 {
			t.Errorf("%s: only %d distinct phrasings", name, len(seen))
		}
	}
}

func TestEveryTemplateFollowsRules(t *testing.T) {
	d := DefaultDirectory()
	groups := [][]string{ackImminent, ackIdeation, ackSelfInjury, ackThird, emergencyStep, emergencyStepNoNumber,
		personStep, meansStep, resourceLead, ideationStep, selfInjuryStep, thirdSteps, thirdEmergency, thirdEmergencyNoNumber,
		aiNote, ackFollowUp, questionImminent, questionIdeation, questionSelfInjury, questionThird, safetyPlanOffer, publicNotes,
		clarifyingQuestions, {locationHint}, {attemptStep, attemptStepNoNumber}}
	for gi, g := range groups {
		for i, tpl := range g {
			checkReplyRules(t, "template", strings.ReplaceAll(tpl, "{emergency}", ""), "", d)
			if digitsRe.MatchString(tpl) {
				t.Errorf("group %d template %d: contains a number; numbers come only from the directory", gi, i)
			}
		}
	}
}

func TestAnAttemptMadeGetsEmergencyNowNotIfYouMightAct(t *testing.T) {
	attempt := Assessment{Level: 3, Flags: Flags{Attempt: true}}.Finish()
	for _, in := range []ReplyInput{
		{Assessment: attempt, Country: "GB"},
		{Assessment: attempt},
		{Assessment: attempt, Country: "GB", FollowUp: true},
		{Assessment: attempt, FollowUp: true},
	} {
		for v := range 4 {
			in.Variant = v
			r := CrisisReply(in)
			if !strings.Contains(r.Text, "If you have already taken something or hurt yourself, please call") {
				t.Errorf("country %q follow-up %v variant %d: no emergency step for an attempt made: %q", in.Country, in.FollowUp, v, r.Text)
			}
			if strings.Contains(r.Text, "If you might act") {
				t.Errorf("country %q follow-up %v variant %d: 'if you might act' after an attempt made: %q", in.Country, in.FollowUp, v, r.Text)
			}
			if in.Country == "GB" && !strings.Contains(r.Text, "999") {
				t.Errorf("country GB variant %d: no emergency number: %q", v, r.Text)
			}
		}
	}
}

func TestAnAttemptIsFlaggedAndAnIntentIsNot(t *testing.T) {
	f := NewFloor()
	for _, c := range []struct {
		in   Input
		want bool
	}{
		{Input{Text: "i just took all my pills"}, true},
		{Input{Text: "done. took the lot.", History: []string{"been saving my pills for weeks", "finally got enough"}}, true},
		{Input{Text: "I just took 30 of my sleeping pills"}, true},
		{Input{Text: "swallowed 20 of the blue ones 10 mins ago"}, true},
		{Input{Text: "took the lot. feel weird"}, true},
		{Input{Text: "i'm going to take all my pills tonight"}, false},
		{Input{Text: "if i took 30 of my sleeping pills would i die"}, false},
		{Input{Text: "i dont know if i took too many pills, feel sick"}, true},
		{Input{Text: "two years ago I tried to end my life. today I bought a rope"}, false},
	} {
		if a := f.Assess(c.in); a.Flags.Attempt != c.want {
			t.Errorf("%q: attempt flag %v (level %d, %v), want %v", c.in.Text, a.Flags.Attempt, a.Level, a.Path, c.want)
		}
	}
}

func TestLevel3ReplyPutsEmergencyPersonAndMeansFirst(t *testing.T) {
	r := CrisisReply(ReplyInput{Assessment: Assessment{Level: 3}.Finish(), Country: "GB"})
	i999 := strings.Index(r.Text, "999")
	iLine := strings.Index(r.Text, "116 123")
	if i999 < 0 || iLine < 0 || i999 > iLine {
		t.Errorf("emergency number must come before the helpline: %q", r.Text)
	}
	if !strings.Contains(r.Text, "distance") || !strings.Contains(strings.ToLower(r.Text), "someone") {
		t.Errorf("level 3 reply lacks distance from means or a person nearby")
	}
	if !r.AsksIfSafe || r.AsksSafetyQuestion {
		t.Errorf("level 3 reply should ask whether the person is safe (AsksIfSafe), got %+v", r)
	}
}

func TestEverySafetyQuestionHasOnePolarity(t *testing.T) {
	for level := LevelIdeation; level <= LevelImminent; level++ {
		for _, flags := range []Flags{{}, {SelfInjury: true}} {
			for v := range 12 {
				r := CrisisReply(ReplyInput{Assessment: Assessment{Level: level, Flags: flags}.Finish(), Country: "US", Variant: v})
				if r.AsksSafetyQuestion && r.AsksIfSafe {
					t.Fatalf("level %d variant %d: a question cannot mean risk on both yes and no", level, v)
				}
				if r.AsksQuestion != (r.AsksSafetyQuestion || r.AsksIfSafe) {
					t.Fatalf("level %d variant %d: crisis question without a polarity: %+v", level, v, r)
				}
			}
		}
	}
}

func TestFollowUpIsShorterAndDoesNotRepeatTheBlock(t *testing.T) {
	for _, level := range []Level{LevelIdeation, LevelImminent} {
		for v := range 6 {
			in := ReplyInput{Assessment: Assessment{Level: level}.Finish(), Country: "GB", Variant: v}
			first := CrisisReply(in)
			in.FollowUp = true
			next := CrisisReply(in)
			if len(next.Text) >= len(first.Text)*2/3 {
				t.Errorf("level %d variant %d: follow-up is %d bytes, first reply %d: not shorter", level, v, len(next.Text), len(first.Text))
			}
			if strings.Contains(next.Text, "\n- ") || !strings.Contains(next.Text, "116 123") {
				t.Errorf("level %d variant %d: follow-up should name one line, not the list: %q", level, v, next.Text)
			}
			if level == LevelImminent && !strings.Contains(next.Text, "999") {
				t.Errorf("variant %d: imminent follow-up lacks the emergency number: %q", v, next.Text)
			}
			if !next.AsksQuestion {
				t.Errorf("level %d variant %d: follow-up asks no question", level, v)
			}
		}
	}
}

func TestReplyWithUnknownCountryHasLocationFreeFallback(t *testing.T) {
	r := CrisisReply(ReplyInput{Assessment: Assessment{Level: 2}.Finish()})
	if !strings.Contains(r.Text, "local emergency number") || !strings.Contains(r.Text, "findahelpline") {
		t.Errorf("no location-free fallback: %q", r.Text)
	}
}

func TestClarifyingQuestionIsOneDirectQuestion(t *testing.T) {
	seen := map[string]bool{}
	for v := 0; v < 8; v++ {
		q := ClarifyingQuestion(v)
		seen[q] = true
		if strings.Count(q, "?") != 1 {
			t.Errorf("variant %d: want exactly one question: %q", v, q)
		}
		if digitsRe.MatchString(q) || strings.Contains(strings.ToLower(q), "helpline") || strings.Contains(strings.ToLower(q), "call") {
			t.Errorf("variant %d: a clarifying question carries no hotline: %q", v, q)
		}
		lq := strings.ToLower(q)
		if !strings.Contains(lq, "suicide") && !strings.Contains(lq, "ending your life") && !strings.Contains(lq, "killing yourself") {
			t.Errorf("variant %d: not a direct question about suicide: %q", v, q)
		}
		if strings.Contains(lq, "you're not") || strings.Contains(lq, "are you?") {
			t.Errorf("variant %d: leading question: %q", v, q)
		}
	}
	if len(seen) < 3 {
		t.Errorf("only %d phrasings", len(seen))
	}
}

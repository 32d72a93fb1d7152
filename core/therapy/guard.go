package therapy

import (
	"strings"
	"unicode/utf8"

	"github.com/havenbot/haven/internal/textmatch"
)

// GuardOptions tune Guard for one reply.
type GuardOptions struct {
	// MaxRunes is the longest acceptable reply; zero means DefaultMaxRunes.
	MaxRunes int
	// NoQuestion rejects any question (a safety question is appended after
	// the generated words).
	NoQuestion bool
	// NoAdvice rejects advice and suggestions (the person asked Haven to
	// just listen).
	NoAdvice bool
	// Trusted are parts of the reply that did not come from the model (the
	// crisis gate's safety question, a verified emergency number, a
	// remembered fact): they count towards the length and the one question,
	// and the content rules skip them.
	Trusted []string
}

// The guard rules, as reported by Guard and counted by the Therapist.
const (
	GuardEmpty           = "empty"
	GuardTooLong         = "too_long"
	GuardQuestions       = "questions"
	GuardDiagnosis       = "diagnosis"
	GuardMedication      = "medication"
	GuardMethod          = "method"
	GuardHumanClaim      = "human_claim"
	GuardConfidentiality = "confidentiality"
	GuardNumbers         = "numbers"
	GuardAdvice          = "advice"
	GuardPromptLeak      = "prompt_leak"
)

var (
	diagnosisRE  = textmatch.MustCompile(`(?i)\b(you (have|probably have|may have|might have|could have|seem to have|are suffering from|suffer from)|(sounds|seems|looks|sound|seem|look) like (you have |you'?re having |a case of |an? )?|i('?d| would)? diagnose|diagnos(is|ed) (you )?with|you'?re (clinically|probably|definitely) |symptoms of )(clinical |major |severe |mild )?(depression|depressive disorder|bipolar|ptsd|c-?ptsd|adhd|ocd|gad|generali[sz]ed anxiety disorder|anxiety disorder|panic disorder|bpd|borderline( personality)?|schizophreni\w*|psychos[ie]s|psychotic|autis\w*|an? (eating|personality|mood|mental|anxiety|sleep) disorder|insomnia disorder|narcissis\w*)\b|\byou(?:'re| are) (bipolar|schizophrenic|psychotic|autistic|borderline|a narcissist|clinically depressed)\b`)
	drugRE       = textmatch.MustCompile(`(?i)\b(sertraline|zoloft|prozac|fluoxetine|xanax|alprazolam|lorazepam|ativan|diazepam|valium|klonopin|clonazepam|lexapro|escitalopram|citalopram|paroxetine|paxil|venlafaxine|effexor|duloxetine|cymbalta|bupropion|wellbutrin|mirtazapine|lithium|quetiapine|seroquel|olanzapine|aripiprazole|abilify|adderall|ritalin|methylphenidate|zolpidem|ambien|melatonin|benzodiazepines?|benzos?|ssris?|snris?|beta[- ]blockers?|propranolol|ibuprofen|paracetamol|acetaminophen|tylenol|sleeping pills?|antidepressants?|antipsychotics?|sedatives?|tranquili[sz]ers?)\b|\b\d+\s?(mg|milligrams?|mcg|ml)\b|\b(dose|dosage|doses)\b`)
	medAdviceRE  = textmatch.MustCompile(`(?i)\b(take|taking|try|trying|stop|stopping|start|starting|increase|decrease|reduce|double|skip|come off|wean)\b[^.!?]{0,40}\b(meds|medication|medications|medicine|pills|tablets)\b`)
	prescriberRE = textmatch.MustCompile(`(?i)\b(doctor|gp|pharmacist|prescriber|psychiatrist|nurse)\b`)
	methodRE     = textmatch.MustCompile(`(?i)\b(overdos\w*|lethal|fatal|noose|hang(ing)? (yourself|myself|themselves)|jump(ing)? (off|from|in front)|slit|(slit|cut|cutting) (your |my |their )?wrists?|bleed(ing)? out|carbon monoxide|suffocat\w*|asphyxia\w*|poison\w*|how many pills|painless (way|death|method)|methods? (of|to|for) (suicide|killing|dying|ending)|kill (yourself|myself|themselves)|end (your|my) life|firearm|guns?|razor|train tracks|cut (yourself|myself|deeper))\b`)
	humanRE      = textmatch.MustCompile(`(?i)\b(i(?:'m| am) (?:a |an |your )?(?:real |actual |licensed |qualified |trained )?(human|person|man|woman|therapist|counsel+or|psychologist|psychiatrist|doctor|clinician|social worker|nurse|professional)\b|i(?:'m| am) not (?:an? )?(ai|bot|robot|machine|program|language model)\b|as (a|your) (therapist|counsel+or|psychologist|doctor|clinician|fellow human)\b|speaking as (a|your) (therapist|counsel+or|professional)\b|i(?:'m| am) (?:also )?human\b)`)
	secretRE     = textmatch.MustCompile(`(?i)\b((this|our (conversation|chat|talk)|everything( you (say|tell me|share))?|what you (say|tell me|share)|your (secret|messages|words)) (is|are|stays|stay|will stay|remains?|will remain) (completely |totally |100% |strictly )?(confidential|private|between us|secret|safe with me|anonymous)|i (won'?t|will not|will never|never) (tell|share|repeat) (this |it )?(with )?(anyone|anybody|a soul)|no one (else )?will (ever )?(know|see|read|find out)|(strictly|completely|totally) confidential|your secret is safe)\b`)
	numberRE     = textmatch.MustCompile(`(?i)\b(911|999|988|112|111|116|000|110|119|1737)\b|https?://|www\.|\b\w+\.(com|org|net|gov|uk|au|ca)\b|\b(call|text|dial|ring) \+?\d`)
	digitsRE     = textmatch.MustCompile(`\+?\d[\d ().-]{4,}\d`)
	adviceRE     = textmatch.MustCompile(`(?i)\b(you should|you could try|you might try|try to|have you tried|why don'?t you|i (suggest|recommend|advise)|my advice|it might help to|it could help to|consider (trying|talking|taking|doing)|would you like to try|we could try|let'?s try|exercise|tips?)\b`)
	leakRE       = textmatch.MustCompile(`(?i)(<<<|>>>|PERSON>>>|\bsystem prompt\b|\bas an ai language model\b|\bmy instructions\b)`)
)

// Guard checks a generated reply. It returns "" when the reply may be sent,
// or the name of the first rule it breaks: no diagnosis, no medication
// advice, no method or lethality content, no claim to be human or a
// therapist, no promise of confidentiality, no invented numbers or links,
// at most one question (none when opts.NoQuestion), no advice when the
// person asked Haven to just listen, and a length within opts.MaxRunes.
// The result never contains reply text.
func Guard(reply string, opts GuardOptions) string {
	maxRunes := opts.MaxRunes
	if maxRunes <= 0 {
		maxRunes = DefaultMaxRunes
	}
	whole := strings.TrimSpace(reply)
	r := whole
	for _, s := range opts.Trusted {
		if s != "" {
			r = strings.Replace(r, s, " ", 1)
		}
	}
	r = strings.TrimSpace(r)
	switch {
	case r == "":
		return GuardEmpty
	case utf8.RuneCountInString(whole) > maxRunes:
		return GuardTooLong
	case leakRE.MatchString(r):
		return GuardPromptLeak
	case methodRE.MatchString(r):
		return GuardMethod
	case diagnosisRE.MatchString(r):
		return GuardDiagnosis
	case drugRE.MatchString(r) || medAdvice(r):
		return GuardMedication
	case humanRE.MatchString(r):
		return GuardHumanClaim
	case secretRE.MatchString(r):
		return GuardConfidentiality
	case numberRE.MatchString(r) || phoneLike(r):
		return GuardNumbers
	case strings.Count(whole, "?") > 1 || (opts.NoQuestion && strings.Contains(r, "?")):
		return GuardQuestions
	case opts.NoAdvice && adviceRE.MatchString(r):
		return GuardAdvice
	}
	return ""
}

// medAdvice reports a sentence that tells the person to start, stop or
// change medication without pointing to a doctor or pharmacist.
func medAdvice(r string) bool {
	for _, s := range sentences(r) {
		if medAdviceRE.MatchString(s) && !prescriberRE.MatchString(s) {
			return true
		}
	}
	return false
}

// sentences splits text at sentence ends.
func sentences(text string) []string {
	var out []string
	start := 0
	for i, r := range text {
		if r == '.' || r == '!' || r == '?' || r == '\n' {
			if s := strings.TrimSpace(text[start : i+1]); s != "" {
				out = append(out, s)
			}
			start = i + 1
		}
	}
	if s := strings.TrimSpace(text[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

// phoneLike reports a run of digits long enough to be a phone number (six
// or more digits, spaces and dashes allowed): "5-4-3-2-1" is not one.
func phoneLike(r string) bool {
	for _, m := range digitsRE.FindAllString(r, -1) {
		n := 0
		for _, c := range m {
			if c >= '0' && c <= '9' {
				n++
			}
		}
		if n >= 6 {
			return true
		}
	}
	return false
}

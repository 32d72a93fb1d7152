package safety

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The Suicide Risk Lexicon (Low et al. 2024, Apache-2.0) is an independent
// check of the rules' coverage: its phrases were validated by experts and
// were never used to write a rule. Each phrase is put into first-person
// chat templates chosen by the phrase's grammatical form, and the floor
// must read every active-ideation, lethal-means and self-injury phrase at
// level 2 or above.
//
// Templates by form (each with a neutral filler of the same form that must
// stay below crisis, so that a template alone cannot carry the level):
//   - a sentence ("I ..."): the phrase itself, and after "honestly";
//   - a past action ("tried ..."): "I <p>", "I <p> last night";
//   - a verb phrase ("hang myself", "jump off a bridge"): "I want to <p>",
//     "I'm going to <p>", "sometimes I think I should <p>";
//   - a gerund ("hanging myself", "cutting"): "I keep thinking about <p>",
//     "I can't stop thinking about <p>";
//   - a passive ("hit by the train"): "I want to get <p>", "I hope I get <p>";
//   - a held object ("knife to my throat"): "I'm holding a <p> right now",
//     "I keep putting a <p>";
//   - a means (a noun of the lethal-means construct: "noose", "9mm"): "I
//     keep thinking about using a <p> on myself", "I'm going to get a <p>
//     and end this";
//   - a state or behaviour (any other noun: "NSSI", "suicidal intent"):
//     "I've been struggling with <p> again", "my <p> is back".
//
// A phrase cut off after a possessive ("mutilate my") gets "body".

// lexiconForm is the grammatical form of a lexicon phrase.
type lexiconForm int

const (
	formSentence lexiconForm = iota
	formPast
	formVerb
	formGerund
	formPassive
	formHeld
	formMeans
	formState
)

// baseVerbs are English verbs that begin a verb phrase in the lexicon's
// constructs (the grammar of the templates, not risk words of the rules).
var baseVerbs = map[string]bool{
	"kill": true, "hang": true, "shoot": true, "stab": true, "cut": true, "slit": true, "slice": true,
	"carve": true, "burn": true, "electrocute": true, "drown": true, "poison": true, "jump": true,
	"blow": true, "end": true, "take": true, "set": true, "drink": true, "run": true, "wound": true,
	"mutilate": true, "hurt": true, "harm": true, "overdose": true, "suffocate": true, "strangle": true,
	"starve": true, "throw": true, "walk": true, "step": true, "swallow": true, "injure": true, "kms": true,
}

func classifyLexiconPhrase(construct, p string) lexiconForm {
	words := strings.Fields(strings.ToLower(p))
	first := words[0]
	switch {
	case first == "i":
		return formSentence
	case first == "tried":
		return formPast
	case len(words) > 1 && words[1] == "by":
		return formPassive
	case baseVerbs[first]:
		return formVerb
	case strings.HasSuffix(first, "ing") && len(first) > 4:
		return formGerund
	case strings.Contains(p, " to my "):
		return formHeld
	case construct == "lethal_means_for_suicide":
		return formMeans
	}
	return formState
}

var lexiconTemplates = map[lexiconForm]struct {
	templates []string
	filler    string
}{
	formSentence: {[]string{"%s", "honestly, %s"}, "I wrote a shopping list"},
	formPast:     {[]string{"I %s", "I %s last night"}, "tried yoga"},
	formVerb:     {[]string{"I want to %s", "I'm going to %s", "sometimes I think I should %s"}, "clean my room"},
	formGerund:   {[]string{"I keep thinking about %s", "I can't stop thinking about %s"}, "cleaning my room"},
	formPassive:  {[]string{"I want to get %s", "I hope I get %s"}, "picked by the team"},
	formHeld:     {[]string{"I'm holding a %s right now", "I keep putting a %s"}, "cup to my lips"},
	formMeans:    {[]string{"I keep thinking about using a %s on myself", "I'm going to get a %s and end this"}, "stapler"},
	formState:    {[]string{"I've been struggling with %s again", "my %s is back"}, "procrastination"},
}

// fillTemplate puts a phrase into a template, with "an" before a vowel and "body"
// after a phrase that ends in a possessive.
func fillTemplate(tpl, p string) string {
	if strings.HasSuffix(p, " my") {
		p += " body"
	}
	s := strings.Replace(tpl, "%s", p, 1)
	for _, v := range []string{"a a", "a e", "a i", "a o", "a u"} {
		s = strings.ReplaceAll(s, " "+v, " an"+v[1:])
	}
	return s
}

// sharedData returns ../shared/data/<sub> beside the module root, or skips
// the test when it is absent (the data sits outside the repository).
func sharedData(t *testing.T, sub string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("module root not found")
		}
		dir = parent
	}
	d := filepath.Join(filepath.Dir(dir), "shared", "data", sub)
	if _, err := os.Stat(d); err != nil {
		t.Skipf("shared data not found at %s (shared/ must sit beside the repo): skipping", d)
	}
	return d
}

func readRiskLexicon(t *testing.T) map[string][]string {
	t.Helper()
	p := filepath.Join(sharedData(t, "crisis-train"), "suicide_risk_lexicon_subset.json")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Skipf("suicide risk lexicon not found at %s: skipping", p)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatalf("read %s: %v", p, err)
	}
	lex := map[string][]string{}
	for k, v := range raw {
		var phrases []string
		if json.Unmarshal(v, &phrases) == nil {
			lex[k] = phrases
		}
	}
	return lex
}

func TestLexiconTemplatesAloneStayBelowCrisis(t *testing.T) {
	f := NewFloor()
	for form, tt := range lexiconTemplates {
		for _, tpl := range tt.templates {
			s := fillTemplate(tpl, tt.filler)
			if a := f.Assess(Input{Text: s}); a.Level >= LevelIdeation {
				t.Errorf("form %d: template with a neutral filler %q: level %d (%v): the template carries the level", form, s, a.Level, a.Path)
			}
		}
	}
}

// TestRiskLexiconCoverage asserts level >= 2 for every templated phrase of
// the active-ideation, lethal-means and self-injury constructs, and reports
// what the passive-ideation phrases reach (SAFETY.md: a wish to be dead is
// level 2, so they are asserted too).
func TestRiskLexiconCoverage(t *testing.T) {
	lex := readRiskLexicon(t)
	f := NewFloor()
	required := []string{"active_suicidal_ideation_suicidal_planning", "lethal_means_for_suicide", "direct_self_injury", "passive_suicidal_ideation"}
	for _, construct := range required {
		phrases := lex[construct]
		if len(phrases) == 0 {
			t.Errorf("construct %s missing from the lexicon file", construct)
			continue
		}
		total, atLeast2, at3 := 0, 0, 0
		for _, p := range phrases {
			form := classifyLexiconPhrase(construct, p)
			if construct == "passive_suicidal_ideation" {
				form = formSentence
				if !strings.HasPrefix(strings.ToLower(p), "i ") {
					p = passiveSentence(p)
				}
			}
			for _, tpl := range lexiconTemplates[form].templates {
				s := fillTemplate(tpl, p)
				a := f.Assess(Input{Text: s})
				total++
				if a.Level >= LevelIdeation {
					atLeast2++
				} else {
					t.Errorf("%s: %q: level %d (%v), want >= 2", construct, s, a.Level, a.Path)
				}
				if a.Level == LevelImminent {
					at3++
				}
			}
		}
		t.Logf("%s: %d phrases, %d templated messages: %d at level >= 2, %d at level 3", construct, len(phrases), total, atLeast2, at3)
	}
	var others []string
	for k := range lex {
		if !contains(required, k) {
			others = append(others, k)
		}
	}
	sort.Strings(others)
	t.Logf("constructs not asserted (risk factors, not ideation): %s", strings.Join(others, ", "))
}

// passiveSentence makes a first-person sentence of a passive-ideation
// phrase: "want to die" -> "I want to die", "better off dead" -> "I'd be
// better off dead", "would be better off dead" -> "I would be better off
// dead".
func passiveSentence(p string) string {
	switch first, _, _ := strings.Cut(p, " "); first {
	case "want", "wish", "would":
		return "I " + p
	}
	return "I'd be " + p
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

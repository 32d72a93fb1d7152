package safety

import (
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// forbiddenIn are, per translated language, the phrases no reply may
// contain: method words, a promise asked for, "committed suicide", a claim
// to be human or to have called someone, "everything will be fine".
var forbiddenIn = map[string]*regexp.Regexp{
	"es": regexp.MustCompile(`(?i)\b(?:prom[eé]teme|pastillas?|sobredosis|ahorcar\w*|cuerda|pistola|arma|puente|saltar|cuchilla|muñecas?|veneno|dosis|letal|cometi[oó] suicidio|cometer suicidio|soy (?:un )?humano|soy una persona|he llamado|todo (?:va a )?(?:estar|saldr[aá]) bien)\b`),
	"fr": regexp.MustCompile(`(?i)\b(?:promets-moi|pilules?|comprim[eé]s|surdose|pendre|corde|arme|pont|sauter|lame|rasoir|poignets?|poison|dose|l[eé]tal|commis (?:un )?suicide|commettre|je suis (?:un )?humain|j'ai appel[eé]|tout va bien se passer)\b`),
	"de": regexp.MustCompile(`(?i)\b(?:versprich mir|tabletten|pillen|[üu]berdosis|erh[äa]ngen|seil|strick|waffe|br[üu]cke|springen|klinge|rasierklinge|handgelenk|gift|dosis|t[öo]dlich|selbstmord|ich bin ein mensch|ich habe .{0,20}angerufen|alles wird gut)\b`),
	"pt": regexp.MustCompile(`(?i)\b(?:me promete|prometa que|comprimidos|p[ií]lulas|overdose|enforcar|corda|arma|ponte|pular|l[âa]mina|pulsos?|veneno|dose|letal|cometeu suic[ií]dio|sou (?:um )?humano|sou uma pessoa|liguei|tudo vai ficar bem)\b`),
	"it": regexp.MustCompile(`(?i)\b(?:promettimi|pillole|pastiglie|overdose|impiccar\w*|corda|arma|ponte|saltare|lama|polsi?|veleno|dose|letale|commesso suicidio|sono (?:un )?umano|sono una persona|ho chiamato|andr[àa] tutto bene)\b`),
}

// replyStrings returns every phrasing of t.
func replyStrings(t *replyText) []string {
	var out []string
	v := reflect.ValueOf(*t)
	for i := range v.NumField() {
		switch f := v.Field(i); f.Kind() {
		case reflect.String:
			out = append(out, f.String())
		case reflect.Slice:
			for k := range f.Len() {
				out = append(out, f.Index(k).String())
			}
		}
	}
	return out
}

func TestEveryTranslationIsCompleteAndFollowsRules(t *testing.T) {
	d := DefaultDirectory()
	for code, rt := range replyTexts {
		re := forbiddenIn[code]
		if re == nil {
			t.Errorf("%s: no forbidden-phrase list for this translation", code)
			continue
		}
		v := reflect.ValueOf(*rt)
		for i := range v.NumField() {
			if f := v.Field(i); f.IsZero() || (f.Kind() == reflect.Slice && f.Len() == 0) {
				t.Errorf("%s: %s is empty", code, v.Type().Field(i).Name)
			}
		}
		for _, s := range replyStrings(rt) {
			checkReplyRules(t, code+" template", strings.ReplaceAll(s, "{emergency}", ""), "", d)
			if m := re.FindString(s); m != "" {
				t.Errorf("%s template: forbidden phrase %q", code, m)
			}
			if digitsRe.MatchString(s) {
				t.Errorf("%s template %q: a number; numbers come only from the directory", code, s)
			}
		}
		for _, q := range append(append([]string{rt.askThird}, rt.askSafe...), rt.askThoughts...) {
			if strings.Count(q, "?") != 1 {
				t.Errorf("%s: %q is not one question", code, q)
			}
		}
	}
}

// TestTranslatedCrisisRepliesFollowSafeMessagingRules composes every kind
// of translated reply for every country and checks the rules of the
// English replies on it.
func TestTranslatedCrisisRepliesFollowSafeMessagingRules(t *testing.T) {
	d := DefaultDirectory()
	kinds := map[string]Assessment{
		"imminent":    {Level: 3},
		"ideation":    {Level: 2, Reason: "wish to be dead, first person"},
		"self-injury": {Level: 2, Reason: "self-injury", Flags: Flags{SelfInjury: true}},
		"third party": {Level: 0, Flags: Flags{ThirdParty: true}},
	}
	countries := append(d.Countries(), "", "ZZ")
	for code := range replyTexts {
		for name, a := range kinds {
			a.Language, a.PartialReading = code, true
			seen := map[string]bool{}
			for _, c := range countries {
				for v := range 4 {
					for i, public := range []bool{false, true, false, true} {
						in := ReplyInput{Assessment: a.Finish(), Country: c, Variant: v, Public: public, FollowUp: i >= 2}
						r := CrisisReply(in)
						label := code + "/" + name + "/" + c
						checkReplyRules(t, label, r.Text, c, d)
						if m := forbiddenIn[code].FindString(r.Text); m != "" {
							t.Errorf("%s: forbidden phrase %q", label, m)
						}
						if r.AsksQuestion != strings.Contains(r.Text, "?") || strings.Count(r.Text, "?") != 1 {
							t.Errorf("%s: AsksQuestion %v, %d question marks", label, r.AsksQuestion, strings.Count(r.Text, "?"))
						}
						if a.Level >= LevelIdeation && r.AsksSafetyQuestion == r.AsksIfSafe {
							t.Errorf("%s: the question must have one polarity: %+v", label, r)
						}
						if public != (r.PublicNote != "") {
							t.Errorf("%s: public %v, public note %q", label, public, r.PublicNote)
						}
						if strings.Contains(r.Text, "{") {
							t.Errorf("%s: unfilled placeholder: %q", label, r.Text)
						}
						if strings.Contains(r.Text, "I'm an AI") {
							t.Errorf("%s: English text in a translated reply", label)
						}
						seen[r.Text] = true
					}
				}
			}
			if len(seen) < 2 {
				t.Errorf("%s %s: one phrasing only", code, name)
			}
		}
	}
}

func TestTranslatedImminentReplyPutsEmergencyFirstAndNamesTheLine(t *testing.T) {
	a := Assessment{Level: 3, Language: "es", PartialReading: true}.Finish()
	r := CrisisReply(ReplyInput{Assessment: a, Country: "ES"})
	i112, i024 := strings.Index(r.Text, "112"), strings.Index(r.Text, "024")
	if i112 < 0 || i024 < 0 || i112 > i024 {
		t.Errorf("emergency number must come before the helpline: %q", r.Text)
	}
	if !strings.Contains(r.Text, "distancia") || !r.AsksIfSafe {
		t.Errorf("level 3 reply lacks distance from means or the are-you-safe question: %q", r.Text)
	}
	f := CrisisReply(ReplyInput{Assessment: a, Country: "ES", FollowUp: true})
	if len(f.Text) >= len(r.Text)*2/3 || !strings.Contains(f.Text, "024") || !strings.Contains(f.Text, "112") {
		t.Errorf("follow-up is not a short reply naming the line and the emergency number: %q", f.Text)
	}
}

// TestUntranslatedLanguageGetsEnglishWithALineAndTheDirectory: Turkish has
// a lexicon but no vetted reply.
func TestUntranslatedLanguageGetsEnglishWithALineAndTheDirectory(t *testing.T) {
	d := DefaultDirectory()
	for _, c := range []string{"", "DE", "ZZ"} {
		for _, level := range []Level{LevelIdeation, LevelImminent} {
			a := Assessment{Level: level, Language: "tr", PartialReading: true}.Finish()
			r := CrisisReply(ReplyInput{Assessment: a, Country: c})
			if !strings.HasPrefix(r.Text, "I read Turkish only partly and can answer safely only in English") {
				t.Errorf("%s level %d: no line about the language: %q", c, level, r.Text)
			}
			if !strings.Contains(r.Text, "findahelpline.com") {
				t.Errorf("%s level %d: no international directory: %q", c, level, r.Text)
			}
			if !strings.HasSuffix(r.Text, "?") {
				t.Errorf("%s level %d: the question is no longer last: %q", c, level, r.Text)
			}
			checkReplyRules(t, "tr/"+c, r.Text, c, d)
		}
	}
}

// TestEnglishCrisisReplyIsUnchanged: with no language, CrisisReply is the
// English reply it always was.
func TestEnglishCrisisReplyIsUnchanged(t *testing.T) {
	for _, a := range []Assessment{{Level: 2}, {Level: 3}, {Flags: Flags{ThirdParty: true}}} {
		for v := range 4 {
			in := ReplyInput{Assessment: a.Finish(), Country: "GB", Variant: v}
			if got, want := CrisisReply(in), englishCrisisReply(in); got != want {
				t.Errorf("English reply changed: %q, want %q", got.Text, want.Text)
			}
		}
	}
}

func TestPartialReadingNoticeIsPlainKindAndNamesTheDirectory(t *testing.T) {
	d := DefaultDirectory()
	for _, c := range []struct{ lang, want string }{
		{"es", "Leo el español solo en parte"}, {"fr", "Je ne lis le français qu'en partie"},
		{"de", "Ich verstehe Deutsch nur teilweise"}, {"pt", "Eu leio português só em parte"},
		{"it", "Capisco l'italiano solo in parte"}, {"tr", "I can read Turkish only in part"},
		{"sv", "I can read Swedish only in part"}, {"", "I can read this language only in part"},
	} {
		n := PartialReadingNotice(Assessment{Language: c.lang, PartialReading: true}, 0, nil)
		if !strings.Contains(n, c.want) {
			t.Errorf("%s: %q does not say %q", c.lang, n, c.want)
		}
		if !strings.Contains(n, "findahelpline.com") {
			t.Errorf("%s: no international directory: %q", c.lang, n)
		}
		if strings.Contains(n, "?") || strings.Contains(strings.ToLower(n), "emergenc") || strings.Contains(strings.ToLower(n), "suicid") {
			t.Errorf("%s: a notice asks nothing and holds no crisis block: %q", c.lang, n)
		}
		checkReplyRules(t, "notice "+c.lang, n, "", d)
		if n2 := PartialReadingNotice(Assessment{Language: c.lang}, 1, nil); n2 == n {
			t.Errorf("%s: one phrasing only", c.lang)
		}
	}
}

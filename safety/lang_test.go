package safety

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/havenbot/haven/llm/llmtest"
)

// langCase is a message in another language, the levels the floor may give
// it, and whether it sets the self-injury flag.
type langCase struct {
	text       string
	min, max   Level
	selfInjury bool
}

// langTable holds one language's cases: risk phrases, their negations and
// the figures of speech that are not risk. Every message is written for
// these tests (none comes from a dataset).
type langTable struct {
	code                    string
	risk, negations, idioms []langCase
}

func risk(text string, min Level) langCase { return langCase{text: text, min: min, max: LevelImminent} }
func harm(text string) langCase {
	return langCase{text: text, min: LevelIdeation, max: LevelImminent, selfInjury: true}
}
func calm(text string) langCase { return langCase{text: text, min: LevelNone, max: LevelNone} }
func imminent(text string) langCase {
	return langCase{text: text, min: LevelImminent, max: LevelImminent}
}
func between(text string, min, max Level) langCase { return langCase{text: text, min: min, max: max} }

var langTables = []langTable{
	{code: "es",
		risk: []langCase{
			risk("ya no quiero vivir", 2), risk("me quiero morir", 2), risk("kiero morirme", 2), risk("quisiera estar muerta", 2),
			risk("ojalá me muriera", 2), risk("tengo ganas de morirme", 2), risk("quiero dormir y no despertar", 2),
			risk("quiero suicidarme", 2), risk("me quiero matar", 2), risk("pienso en quitarme la vida", 2),
			imminent("me voy a matar esta noche"), imminent("tengo un plan para suicidarme"), imminent("voy a quitarme la vida"),
			imminent("me tomé todas las pastillas"), imminent("quiero morir hoy"), imminent("cuando leas esto ya no estaré"),
			harm("me corto"), harm("me volví a cortar"), harm("me hago daño a propósito"),
			between("si suspendo me voy a matar", 2, 2), between("si suspendo me voy a matar jajaja", 1, 1),
		},
		negations: []langCase{calm("no quiero morir"), calm("yo nunca me mataría"), calm("yo no me quiero morir"), calm("no, no quiero suicidarme")},
		idioms: []langCase{calm("me muero de hambre"), calm("me muero de risa"), calm("me quiero morir de vergüenza"),
			calm("me corto el pelo mañana"), calm("me voy a matar estudiando para el examen"), calm("me muero por verte")},
	},
	{code: "pt",
		risk: []langCase{
			risk("quero morrer", 2), risk("não quero mais viver", 2), risk("nao aguento mais viver", 2), risk("queria dormir e não acordar", 2),
			risk("quero me matar", 2), risk("penso em me suicidar", 2), risk("to com vontade de morrer", 2),
			imminent("vou me matar hoje"), imminent("tenho um plano pra me matar"), imminent("tomei todos os comprimidos"),
			harm("eu me corto"), harm("estou me cortando de novo"), harm("me machuco de propósito"),
		},
		negations: []langCase{calm("não quero morrer"), calm("nunca vou me matar"), calm("n quero morrer")},
		idioms: []langCase{calm("to morrendo de fome"), calm("morri de rir"), calm("quero morrer de vergonha"), calm("vou me matar de tanto estudar"),
			calm("me corto o cabelo amanhã")},
	},
	{code: "fr",
		risk: []langCase{
			risk("je veux mourir", 2), risk("je veux juste mourir", 2), risk("j'ai envie de mourir", 2), risk("jai envie de crever", 2),
			risk("je ne veux plus vivre", 2), risk("je veux me suicider", 2), risk("je pense au suicide", 2), risk("je veux en finir", 2),
			imminent("je vais me tuer ce soir"), imminent("j'ai un plan pour me suicider"), imminent("je vais mettre fin à mes jours"),
			imminent("j'ai pris toutes mes pilules"), harm("je me scarifie"), harm("je me fais du mal"),
		},
		negations: []langCase{calm("je ne veux pas mourir"), calm("je veux pas mourir"), calm("je veux plus mourir"), calm("jamais je veux me tuer")},
		idioms: []langCase{calm("je suis mort de rire"), calm("je meurs de faim"), calm("je vais me tuer à la tâche"),
			calm("je veux mourir de honte"), calm("je me coupe les cheveux"), calm("je veux en finir avec ce dossier")},
	},
	{code: "de",
		risk: []langCase{
			risk("ich will einfach nur sterben", 2), risk("ich will sterben", 2), risk("ich möchte nicht mehr leben", 2),
			risk("ich wünschte ich wäre tot", 2), risk("ich will mich umbringen", 2), risk("ich denke an Suizid", 2),
			imminent("ich bringe mich heute nacht um"), imminent("ich werde mich umbringen"), imminent("ich habe einen Plan mich umzubringen"),
			imminent("ich habe alle Tabletten genommen"), harm("ich ritze mich"), harm("ich verletze mich selbst"),
		},
		negations: []langCase{calm("ich will nicht sterben"), calm("ich würde mich nie umbringen"), calm("ich möchte nicht sterben")},
		idioms: []langCase{calm("ich sterbe vor Langeweile"), calm("ich lach mich tot"), calm("ich will sterben vor Lachen"),
			calm("ich bring dich um"), calm("ich schneide mich beim Kochen")},
	},
	{code: "it",
		risk: []langCase{
			risk("voglio morire", 2), risk("vorrei essere morta", 2), risk("non voglio più vivere", 2), risk("voglio ammazzarmi", 2),
			risk("penso al suicidio", 2), imminent("stasera mi ammazzo"), imminent("ho deciso di uccidermi"), imminent("ho preso tutte le pillole"),
			harm("mi taglio"), harm("mi faccio del male"),
		},
		negations: []langCase{calm("non voglio morire"), calm("non mi ammazzo"), calm("mai voglio uccidermi")},
		idioms: []langCase{calm("muoio di fame"), calm("voglio morire dal ridere"), calm("mi taglio i capelli"), calm("mi ammazzo di lavoro"),
			calm("sono stanco morto")},
	},
	{code: "nl",
		risk: []langCase{
			risk("ik wil dood", 2), risk("k wil dood", 2), risk("ik wil niet meer leven", 2), risk("van mij hoeft het niet meer", 2),
			risk("ik wil zelfmoord plegen", 2), risk("ik denk aan zelfmoord", 2), imminent("ik ga vanavond zelfmoord plegen"),
			imminent("ik maak er een einde aan"), harm("ik snij mezelf"), harm("ik doe mezelf pijn"),
		},
		negations: []langCase{calm("ik wil niet dood"), calm("ik wil nooit dood")},
		idioms:    []langCase{calm("ik ga dood van de honger"), calm("ik wil dood van schaamte"), calm("ik ben doodmoe"), calm("ik lig dood van het lachen")},
	},
	{code: "pl",
		risk: []langCase{
			risk("chcę umrzeć", 2), risk("chce umrzec", 2), risk("nie chce mi się żyć", 2), risk("chcę się zabić", 2),
			risk("myślę o samobójstwie", 2), imminent("zabiję się dzisiaj"), imminent("popełnię samobójstwo"),
			harm("tnę się"), harm("robię sobie krzywdę"),
		},
		negations: []langCase{calm("nie chcę umrzeć"), calm("nigdy się nie zabiję")},
		idioms:    []langCase{calm("umieram z głodu"), calm("umieram ze śmiechu"), calm("chcę umrzeć ze wstydu")},
	},
	{code: "ru",
		risk: []langCase{
			risk("я хочу умереть", 2), risk("не хочу жить", 2), risk("хочется умереть", 2), risk("хочу покончить с собой", 2),
			risk("думаю о самоубийстве", 2), imminent("я убью себя сегодня"), imminent("покончу с собой"),
			imminent("выпила все таблетки"), harm("я режу себя"), harm("причиняю себе боль"),
		},
		negations: []langCase{calm("я не хочу умереть"), calm("никогда не хочу умереть")},
		idioms:    []langCase{calm("умираю от смеха"), calm("хочу умереть от стыда"), calm("убить время"), calm("я умираю от голода")},
	},
	{code: "uk",
		risk: []langCase{
			risk("я хочу померти", 2), risk("не хочу жити", 2), risk("хочу покінчити з собою", 2), risk("думаю про самогубство", 2),
			imminent("я вб'ю себе сьогодні"), imminent("покінчу з собою"), harm("ріжу себе"), harm("завдаю собі шкоди"),
		},
		negations: []langCase{calm("я не хочу померти"), calm("ніколи не хочу померти")},
		idioms:    []langCase{calm("помираю від сміху"), calm("хочу померти від сорому"), calm("вмираю з голоду")},
	},
	{code: "tr",
		risk: []langCase{
			risk("ölmek istiyorum", 2), risk("olmek istiyom", 2), risk("artık yaşamak istemiyorum", 2), risk("intihar etmek istiyorum", 2),
			risk("kendimi öldürmek istiyorum", 2), imminent("bu gece intihar edeceğim"), imminent("kendimi öldüreceğim"),
			harm("kendime zarar veriyorum"), harm("kendimi kestim"),
		},
		negations: []langCase{calm("ölmek istemiyorum"), calm("intihar etmeyeceğim")},
		idioms:    []langCase{calm("açlıktan ölüyorum"), calm("gülmekten öldüm"), calm("utançtan ölmek istiyorum")},
	},
	{code: "ar",
		risk: []langCase{
			risk("أريد أن أموت", 2), risk("بدي اموت", 2), risk("نفسي اموت", 2), risk("لا أريد أن أعيش", 2), risk("أفكر في الانتحار", 2),
			risk("عايز انتحر", 2), imminent("سأنتحر الليلة"), imminent("سأقتل نفسي"), harm("أجرح نفسي"), harm("اذيت نفسي"),
		},
		negations: []langCase{calm("لا أريد أن أموت"), calm("ما بدي اموت")},
		idioms:    []langCase{calm("أموت من الضحك"), calm("بدي اموت من الضحك"), calm("ميت من الجوع")},
	},
	{code: "hi",
		risk: []langCase{
			risk("मैं मरना चाहता हूँ", 2), risk("मैं मरना चाहती हूं", 2), risk("मुझे जीना नहीं है", 2), risk("मैं आत्महत्या करना चाहता हूं", 2),
			risk("main marna chahta hoon", 2), risk("mujhe marna hai", 2), risk("jeena nahi chahti hu", 2),
			imminent("मैं आज रात आत्महत्या कर लूंगा"), imminent("khud ko maar lunga"), harm("मैं खुद को काटता हूं"), harm("khud ko kaat leti hu"),
		},
		negations: []langCase{calm("मैं मरना नहीं चाहता"), calm("main marna nahi chahta")},
		idioms:    []langCase{calm("भूख से मर रहा हूं"), calm("हंसते हंसते मर गया"), calm("sharam se marna chahta hu")},
	},
	{code: "id",
		risk: []langCase{
			risk("aku ingin mati", 2), risk("pengen mati aja", 2), risk("aku gak mau hidup lagi", 2), risk("aku mau bunuh diri", 2),
			risk("kepikiran bunuh diri terus", 2), imminent("aku akan bunuh diri malam ini"), imminent("aku akan mengakhiri hidupku"),
			harm("aku menyakiti diri sendiri"), harm("aku menyayat tanganku"),
		},
		negations: []langCase{calm("aku tidak ingin mati"), calm("aku gak mau bunuh diri")},
		idioms:    []langCase{calm("mati lampu lagi"), calm("pengen mati gaya di kantor"), calm("aku lapar banget")},
	},
	{code: "ja",
		risk: []langCase{
			risk("死にたい", 2), risk("もう生きていたくない", 2), risk("自殺したい", 2), risk("しにたい", 2),
			imminent("今夜死のうと思う"), imminent("遺書を書いた"), harm("またリスカした"), harm("腕を切った"),
		},
		negations: []langCase{calm("死にたくない"), calm("死にたいわけじゃない"), calm("リスカしてない")},
		idioms:    []langCase{calm("恥ずかしくて死にたい"), calm("死ぬほど笑った"), calm("お腹すいて死にそう")},
	},
	{code: "ko",
		risk: []langCase{
			risk("죽고 싶어", 2), risk("죽고싶다", 2), risk("살기 싫어", 2), risk("자살하고 싶어", 2),
			imminent("오늘 밤 자살할 거야"), imminent("유서를 썼어"), harm("자해했어"), harm("손목을 그었어"),
		},
		negations: []langCase{calm("죽고 싶지 않아"), calm("죽고 싶진 않아")},
		idioms:    []langCase{calm("배고파 죽겠다"), calm("웃겨 죽겠어"), calm("창피해서 죽고 싶어")},
	},
	{code: "zh",
		risk: []langCase{
			risk("我想死", 2), risk("我不想活了", 2), risk("活不下去了", 2), risk("我想自杀", 2), risk("我想自殺", 2),
			imminent("我今晚要自杀"), imminent("我打算自杀"), imminent("遗书写好了"), harm("我割腕了"), harm("我又自残了"),
		},
		negations: []langCase{calm("我不想死"), calm("我没想死")},
		idioms:    []langCase{calm("笑死我了"), calm("累死了"), calm("想死你了"), calm("热死了")},
	},
}

// TestLanguageLexiconReadsRiskNegationsAndIdioms runs every language's
// table through the floor alone (no model), and checks the message is
// identified as that language and read only partly.
func TestLanguageLexiconReadsRiskNegationsAndIdioms(t *testing.T) {
	f := NewFloor()
	for _, lt := range langTables {
		groups := map[string][]langCase{"risk": lt.risk, "negation": lt.negations, "idiom": lt.idioms}
		for g, cases := range groups {
			for _, c := range cases {
				a := f.Assess(Input{Text: c.text})
				if a.Level < c.min || a.Level > c.max {
					t.Errorf("%s %s %q: level %d (path %v), want %d..%d", lt.code, g, c.text, a.Level, a.Path, c.min, c.max)
				}
				if c.selfInjury && !a.Flags.SelfInjury {
					t.Errorf("%s %s %q: no self-injury flag (path %v)", lt.code, g, c.text, a.Path)
				}
				if a.Language != lt.code || !a.PartialReading {
					t.Errorf("%s %s %q: language %q partial %v, want %q, partial", lt.code, g, c.text, a.Language, a.PartialReading, lt.code)
				}
			}
		}
	}
}

// TestEveryLanguageHasTestedRiskNegationsAndIdioms keeps the coverage the
// issue asks for: each language of the lexicon has risk phrases (wanting
// to die or to kill oneself, self-harm, a plan or intent), negations and
// idioms under test.
func TestEveryLanguageHasTestedRiskNegationsAndIdioms(t *testing.T) {
	want := []string{"es", "pt", "fr", "de", "it", "nl", "pl", "ru", "uk", "tr", "ar", "hi", "id", "ja", "ko", "zh"}
	have := map[string]langTable{}
	for _, lt := range langTables {
		have[lt.code] = lt
	}
	for _, code := range want {
		lt, ok := have[code]
		if !ok || defaultLangIndex.byCode[code] == nil {
			t.Errorf("%s: no lexicon or no tests", code)
			continue
		}
		var selfHarm, imm, ideation bool
		for _, c := range lt.risk {
			selfHarm = selfHarm || c.selfInjury
			imm = imm || c.min == LevelImminent
			ideation = ideation || (c.min == LevelIdeation && !c.selfInjury)
		}
		if !selfHarm || !imm || !ideation || len(lt.negations) < 2 || len(lt.idioms) < 2 {
			t.Errorf("%s: ideation %v, self-harm %v, plan or intent %v, %d negations, %d idioms", code, ideation, selfHarm, imm, len(lt.negations), len(lt.idioms))
		}
	}
}

// TestIssueSentencesReachCrisis: the three messages of the issue.
func TestIssueSentencesReachCrisis(t *testing.T) {
	g := NewGate(GateOptions{})
	for text, lang := range map[string]string{
		"ya no quiero vivir":           "es",
		"ich will einfach nur sterben": "de",
		"je veux mourir":               "fr",
	} {
		a := g.Assess(t.Context(), Input{Text: text})
		if a.Level < LevelIdeation || !a.NeedsCrisisResponse {
			t.Errorf("%q: level %d, want a crisis", text, a.Level)
		}
		if a.Language != lang || !a.PartialReading {
			t.Errorf("%q: language %q partial %v, want %q, partial", text, a.Language, a.PartialReading, lang)
		}
	}
}

// englishProbes are English messages from the existing tables, plain and
// obfuscated the ways the evasion suite writes them.
func englishProbes() []string {
	var out []string
	for _, o := range obfuscations {
		for _, p := range slices.Concat(evasionClear, evasionSlang, evasionIdioms) {
			out = append(out, o.f(p))
		}
	}
	return append(out, bench300, "hi", "ok", "thanks", "lol", "yes", "no", "idk", "I'm fine", "Maria", "🙂",
		"I had tacos at a cafe in Madrid", "my friend said hola to me", "the word is 'Weltschmerz'")
}

// TestEnglishVerdictsAreUnchanged: for English, the languages step leaves
// the verdict exactly as the English floor gives it, and names no
// language.
func TestEnglishVerdictsAreUnchanged(t *testing.T) {
	f := NewFloor()
	for _, p := range englishProbes() {
		for _, in := range []Input{{Text: p}, {Text: p, AskedSafetyQuestion: true}, {Text: p, AskedIfSafe: true}, {Text: p, History: []string{"work was awful today"}}} {
			want := f.assessEnglish(in)
			got := f.Assess(in)
			if got.Level != want.Level || got.Flags != want.Flags || got.Reason != want.Reason || !slices.Equal(got.Path, want.Path) {
				t.Errorf("%q: %+v, English floor alone %+v", p, got, want)
			}
			if got.Language != "" || got.PartialReading {
				t.Errorf("%q: language %q partial %v, want English", p, got.Language, got.PartialReading)
			}
		}
	}
}

// TestLanguageIsIdentifiedOnShortMessages: greetings and short everyday
// messages, with no crisis phrase, are told apart.
func TestLanguageIsIdentifiedOnShortMessages(t *testing.T) {
	cases := map[string]string{
		"hola": "es", "hola, ¿qué tal?": "es", "estoy muy cansada hoy": "es", "bonjour": "fr", "salut ça va": "fr",
		"je suis fatiguée": "fr", "hallo, wie geht es dir?": "de", "ich bin so müde": "de", "oi, tudo bem?": "pt",
		"estou muito cansado": "pt", "ciao come stai": "it", "sono stanca": "it", "hoi, hoe gaat het": "nl",
		"cześć, co słychać": "pl", "привет как дела": "ru", "привіт, як справи": "uk", "merhaba nasılsın": "tr",
		"مرحبا كيف حالك": "ar", "नमस्ते आप कैसे हैं": "hi", "halo apa kabar": "id", "こんにちは": "ja",
		"안녕하세요": "ko", "你好": "zh", "Γεια σου, τι κάνεις;": "el", "שלום מה שלומך": "he",
		"Xin chào, hôm nay tôi rất buồn và mệt mỏi": "vi",
	}
	ix := defaultLangIndex
	for text, want := range cases {
		r, _ := ix.readMessage(text, nil)
		if !r.foreign || r.code != want {
			t.Errorf("%q: %q (foreign %v), want %q", text, r.code, r.foreign, want)
		}
	}
	// Swedish has none of the lexicon's words; whatlanggo is unsure which
	// language it is, the accents say it is not English.
	if r, _ := ix.readMessage("jag vill inte leva längre, allt är mörkt", nil); !r.foreign {
		t.Errorf("Swedish read as English")
	}
}

// TestShortAnswerTakesTheConversationsLanguage: "sí" or "ok" after
// messages in Spanish is read in Spanish.
func TestShortAnswerTakesTheConversationsLanguage(t *testing.T) {
	f := NewFloor()
	hist := []string{"estoy muy cansada", "no sé qué hacer"}
	for _, text := range []string{"ok", "si", "👍"} {
		a := f.Assess(Input{Text: text, History: hist})
		if a.Language != "es" || !a.PartialReading {
			t.Errorf("%q after Spanish: language %q partial %v", text, a.Language, a.PartialReading)
		}
	}
	if a := f.Assess(Input{Text: "ok", History: []string{"work was awful today"}}); a.PartialReading {
		t.Errorf("ok after English: partial reading")
	}
}

// TestAnswersToSafetyQuestionsInOtherLanguages mirror the English floor:
// yes or "I don't know" to "are you having thoughts of suicide?" is a
// crisis; no, or "I don't know", to "are you safe?" is imminent; yes to it
// is safe.
func TestAnswersToSafetyQuestionsInOtherLanguages(t *testing.T) {
	f := NewFloor()
	for _, c := range []struct {
		text             string
		thoughts, ifSafe bool
		want             Level
	}{
		{"sí", true, false, 2}, {"oui", true, false, 2}, {"ja", true, false, 2}, {"sim", true, false, 2},
		{"да", true, false, 2}, {"evet", true, false, 2}, {"はい", true, false, 2}, {"네", true, false, 2}, {"是的", true, false, 2},
		{"no sé", true, false, 2}, {"je sais pas", true, false, 2}, {"keine ahnung", true, false, 2},
		{"nein", true, false, 0}, {"non", true, false, 0}, {"нет", true, false, 0},
		{"nein", false, true, 3}, {"não", false, true, 3}, {"нет", false, true, 3}, {"いいえ", false, true, 3}, {"no sé", false, true, 3},
		{"sí", false, true, 0}, {"oui", false, true, 0}, {"ja", false, true, 0},
	} {
		a := f.Assess(Input{Text: c.text, AskedSafetyQuestion: c.thoughts, AskedIfSafe: c.ifSafe})
		if a.Level != c.want {
			t.Errorf("%q (thoughts question %v, are-you-safe %v): level %d (path %v), want %d", c.text, c.thoughts, c.ifSafe, a.Level, a.Path, c.want)
		}
	}
}

// TestRiskOverSeveralMessagesInOtherLanguages: ideation in one message, a
// time in the next.
func TestRiskOverSeveralMessagesInOtherLanguages(t *testing.T) {
	f := NewFloor()
	for _, c := range []struct {
		hist []string
		text string
		want Level
	}{
		{[]string{"me quiero morir"}, "hoy lo hago", 3},
		{[]string{"je veux mourir"}, "ce soir", 3},
		{[]string{"死にたい"}, "今夜やる", 3},
		{[]string{"me muero de hambre"}, "hoy lo hago", 0},
	} {
		if a := f.Assess(Input{Text: c.text, History: c.hist}); a.Level != c.want {
			t.Errorf("%q after %q: level %d (path %v), want %d", c.text, c.hist, a.Level, a.Path, c.want)
		}
	}
}

// TestLexiconStaysOutOfEnglishCorpora reads the English training and
// tuning files when they are there (beside the repository, as in CI): no
// phrase of another language may match an English row, and at most 0.5%
// of the rows of any file may be taken for another language (some rows
// are in other languages; that is how the figure was set, not a target).
// Texts are never printed; a failure names the file and the row id.
func TestLexiconStaysOutOfEnglishCorpora(t *testing.T) {
	files, _ := filepath.Glob("../../shared/data/crisis*/*.jsonl")
	if len(files) == 0 {
		t.Skip("no shared data beside the repository")
	}
	const perFile = 5000
	ix := defaultLangIndex
	for _, fn := range files {
		fh, err := os.Open(fn)
		if err != nil {
			t.Fatalf("open %s: %v", fn, err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		n, foreign := 0, 0
		for sc.Scan() && n < perFile {
			var row struct {
				ID   string `json:"id"`
				Text string `json:"text"`
			}
			if json.Unmarshal(sc.Bytes(), &row) != nil || row.Text == "" {
				continue
			}
			n++
			r, _ := ix.readMessage(row.Text, nil)
			if r.foreign {
				foreign++
			}
			for _, h := range r.hits {
				if h.level >= LevelIdeation {
					t.Errorf("%s row %s: %s lexicon phrase (%s) matched an English row", filepath.Base(fn), row.ID, h.phrase.lang.code, h.phrase.k)
				}
			}
		}
		fh.Close()
		if n > 0 && float64(foreign) > 0.005*float64(n) {
			t.Errorf("%s: %d of %d rows taken for another language", filepath.Base(fn), foreign, n)
		}
	}
}

func BenchmarkLanguagesEnglish300(b *testing.B) {
	f := NewFloor()
	in := Input{Text: bench300}
	a := f.assessEnglish(in)
	b.ReportAllocs()
	for b.Loop() {
		f.withLanguages(in, a)
	}
}

func BenchmarkLanguagesShortSpanish(b *testing.B) {
	f := NewFloor()
	in := Input{Text: "ya no quiero vivir"}
	a := f.assessEnglish(in)
	b.ReportAllocs()
	for b.Loop() {
		f.withLanguages(in, a)
	}
}

func BenchmarkLanguagesSwedish(b *testing.B) {
	f := NewFloor()
	in := Input{Text: "jag vill inte leva längre, allt är mörkt"}
	a := f.assessEnglish(in)
	b.ReportAllocs()
	for b.Loop() {
		f.withLanguages(in, a)
	}
}

// TestModelVerdictCountsInOtherLanguages: with a model, its verdict on a
// message in another language counts as in English (it may raise a level
// the lexicon missed), the reading is no longer partial, the language
// stays for the reply; a model that fails leaves the partial reading.
func TestModelVerdictCountsInOtherLanguages(t *testing.T) {
	for _, c := range []struct {
		name, text  string
		reply       llmtest.Reply
		want        Level
		wantPartial bool
	}{
		{"model raises what the lexicon cannot read", "ya no aguanto más, todos estarían mejor sin mí", llmtest.Reply{Content: answer(2, 0.9)}, 2, false},
		{"model agrees with a lexicon phrase", "je veux mourir", llmtest.Reply{Content: answer(2, 0.9)}, 2, false},
		{"model cannot lower a lexicon phrase", "ich will einfach nur sterben", llmtest.Reply{Content: answer(0, 0.95)}, 2, false},
		{"a greeting stays calm and read", "hola, ¿qué tal?", llmtest.Reply{Content: answer(0, 0.9)}, 0, false},
		{"a broken answer leaves the partial reading", "hola, ¿qué tal?", llmtest.Reply{Content: "not json"}, 0, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			srv.Enqueue(c.reply)
			a := newLLMGate(t, srv, time.Minute).Assess(t.Context(), Input{Text: c.text})
			if a.Level != c.want || a.PartialReading != c.wantPartial || a.Language == "" {
				t.Errorf("level %d partial %v language %q (path %v), want level %d partial %v", a.Level, a.PartialReading, a.Language, a.Path, c.want, c.wantPartial)
			}
		})
	}
}

package extract

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/havenbot/haven/internal/textmatch"

	"github.com/havenbot/haven/memory"
)

var themeWords = []struct {
	theme string
	re    *textmatch.Regexp
}{
	{"work", textmatch.MustCompile(`(?i)\b(work|job|boss|manager|office|colleagues?|coworkers?|shifts?|career|promotion|fired|interview)\b`)},
	{"family", textmatch.MustCompile(`(?i)\b(mum|mom|mother|dad|father|sister|brother|family|parents|son|daughter|kids|children|grandma|grandpa)\b`)},
	{"relationships", textmatch.MustCompile(`(?i)\b(partner|girlfriend|boyfriend|wife|husband|ex|dating|break ?up|broke up|divorce|relationship)\b`)},
	{"sleep", textmatch.MustCompile(`(?i)\b(sleep|sleeping|insomnia|awake|nightmares?|exhausted|tired)\b`)},
	{"health", textmatch.MustCompile(`(?i)\b(sick|ill|illness|doctor|pain|hospital|health|diagnos\w*|medication)\b`)},
	{"studies", textmatch.MustCompile(`(?i)\b(exams?|school|uni|university|college|class|homework|essay|studying|grades?)\b`)},
	{"money", textmatch.MustCompile(`(?i)\b(money|rent|bills|debt|afford|broke|salary|pay)\b`)},
	{"friends", textmatch.MustCompile(`(?i)\b(friends?|lonely|loneliness|alone|isolated)\b`)},
	{"grief", textmatch.MustCompile(`(?i)\b(died|passed away|funeral|grief|grieving|loss|lost my)\b`)},
	{"anxiety", textmatch.MustCompile(`(?i)\b(anxious|anxiety|panic|worried|worry|nervous|overthinking)\b`)},
	{"stress", textmatch.MustCompile(`(?i)\b(stress|stressed|stressful|overwhelmed|pressure|burn ?out|burnt out)\b`)},
	{"mood", textmatch.MustCompile(`(?i)\b(sad|down|depressed|low|empty|numb|crying|cried)\b`)},
}

var (
	negWords = textmatch.MustCompile(`(?i)\b(sad|stressed|anxious|awful|terrible|tired|angry|lonely|hopeless|overwhelmed|worried|upset|bad|hurt|scared|crying|exhausted|low|down|miserable|frustrated|panic\w*)\b`)
	posWords = textmatch.MustCompile(`(?i)\b(better|good|calm|calmer|relieved|happy|okay|ok|fine|thanks|thank|hopeful|glad|lighter|great|grateful|helped|helps|steadier)\b`)
	reLoop   = textmatch.MustCompile(`(?i)\b(?:i(?:'m| am) going to|i(?:'ll| will)|i want to|i need to|i(?:'m| am) planning to|i plan to|i have to|i'm gonna|i am gonna|i should)\s+([^.!?\n]{3,100})`)
)

func mood(texts []string) string {
	score := 0
	for _, t := range texts {
		score += len(posWords.FindAllString(t, -1)) - len(negWords.FindAllString(t, -1))
	}
	switch {
	case score <= -2:
		return "low"
	case score < 0:
		return "a bit low"
	case score == 0:
		return "mixed"
	default:
		return "brighter"
	}
}

// thirdPerson rewrites a first-person phrase for an open loop ("talk to my
// manager" -> "talk to their manager").
func thirdPerson(s string) string {
	r := strings.NewReplacer(" my ", " their ", " me ", " them ", " myself", " themself", " I ", " they ")
	return strings.TrimSpace(r.Replace(" " + s + " "))
}

// Summarize writes a session's episode from its transcript with no model:
// themes from a small lexicon, the mood arc from the first and last third of
// the person's messages, open loops from their plans ("I'm going to ..."),
// and a summary quoting how the session began. Crisis entries are never
// read. ok is false when the person said nothing to summarize.
func Summarize(entries []memory.Entry) (memory.Episode, bool) {
	var said []string
	for _, e := range entries {
		if e.Role == memory.RoleUser && !e.Crisis && strings.TrimSpace(e.Text) != "" && !strings.HasPrefix(strings.TrimSpace(e.Text), "/") {
			said = append(said, e.Text)
		}
	}
	if len(said) == 0 {
		return memory.Episode{}, false
	}
	all := strings.Join(said, "\n")
	type hit struct {
		theme string
		n     int
	}
	var hits []hit
	for _, tw := range themeWords {
		if n := len(tw.re.FindAllString(all, -1)); n > 0 {
			hits = append(hits, hit{tw.theme, n})
		}
	}
	slices.SortStableFunc(hits, func(a, b hit) int { return b.n - a.n })
	var ep memory.Episode
	for _, h := range hits {
		if len(ep.Themes) == memory.MaxThemes {
			break
		}
		ep.Themes = append(ep.Themes, h.theme)
	}
	third := max(1, len(said)/3)
	start, end := mood(said[:third]), mood(said[len(said)-third:])
	if len(said) == 1 || start == end {
		ep.MoodArc = start
	} else {
		ep.MoodArc = start + " → " + end
	}
	for _, s := range said {
		for _, m := range reLoop.FindAllStringSubmatch(s, -1) {
			if len(ep.OpenLoops) == 3 || UnsafeRule(m[0]) || negWords.MatchString(m[1]) && strings.Contains(m[1], "die") {
				continue
			}
			ep.OpenLoops = append(ep.OpenLoops, "wanted to "+thirdPerson(strings.TrimSpace(m[1])))
		}
	}
	var b strings.Builder
	if len(ep.Themes) > 0 {
		b.WriteString("Talked about " + joinAnd(ep.Themes) + ".")
	} else {
		b.WriteString("A short conversation.")
	}
	first := said[0]
	for _, s := range said {
		if utf8.RuneCountInString(s) >= 20 {
			first = s
			break
		}
	}
	q := []rune(strings.Join(strings.Fields(first), " "))
	if len(q) > 120 {
		q = append(q[:119], '…')
	}
	fmt.Fprintf(&b, " It began: %q. Mood: %s.", string(q), ep.MoodArc)
	ep.Summary = b.String()
	return ep, true
}

func joinAnd(xs []string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

// EpisodeSchema is the JSON schema of the structured episode summary.
var EpisodeSchema = json.RawMessage(`{
  "type": "object", "additionalProperties": false,
  "required": ["summary", "themes", "mood_arc", "open_loops"],
  "properties": {
    "summary": {"type": "string", "description": "two or three sentences, third person"},
    "themes": {"type": "array", "maxItems": 3, "items": {"type": "string"}},
    "mood_arc": {"type": "string", "description": "how their mood moved, e.g. low → steadier"},
    "open_loops": {"type": "array", "maxItems": 3, "items": {"type": "string"}, "description": "things to come back to, e.g. wanted to talk to their manager on Friday"}
  }
}`)

const episodePrompt = `You summarise a finished conversation between a person and a supportive companion for the
companion's memory. Return JSON only, following the schema: a short third-person summary, at most three one- or
two-word themes, the mood arc, and open loops (plans or worries to follow up on). Leave out anything about suicide,
self-harm or crisis.`

// ValidateEpisode checks a model's episode summary.
func ValidateEpisode(answer string) (memory.Episode, error) {
	raw, err := extractJSON(answer)
	if err != nil {
		return memory.Episode{}, err
	}
	var got struct {
		Summary   string   `json:"summary"`
		Themes    []string `json:"themes"`
		MoodArc   string   `json:"mood_arc"`
		OpenLoops []string `json:"open_loops"`
	}
	if err := decodeStrict(raw, &got); err != nil {
		return memory.Episode{}, fmt.Errorf("decode episode: %w", err)
	}
	n := utf8.RuneCountInString(got.Summary)
	switch {
	case n == 0 || n > 600:
		return memory.Episode{}, fmt.Errorf("summary has %d characters, want 1-600", n)
	case len(got.Themes) > memory.MaxThemes || len(got.OpenLoops) > 3:
		return memory.Episode{}, errors.New("more than 3 themes or open loops")
	case utf8.RuneCountInString(got.MoodArc) > 60:
		return memory.Episode{}, errors.New("mood arc longer than 60 characters")
	}
	for _, t := range got.Themes {
		if t = strings.TrimSpace(t); t == "" || utf8.RuneCountInString(t) > 30 {
			return memory.Episode{}, errors.New("a theme is empty or longer than 30 characters")
		}
	}
	for _, l := range got.OpenLoops {
		if l = strings.TrimSpace(l); l == "" || utf8.RuneCountInString(l) > 160 {
			return memory.Episode{}, errors.New("an open loop is empty or longer than 160 characters")
		}
	}
	return memory.Episode{Summary: strings.TrimSpace(got.Summary), Themes: got.Themes, MoodArc: strings.TrimSpace(got.MoodArc), OpenLoops: got.OpenLoops}, nil
}

// Episode summarizes a session: with the LLM when set (validated), else or
// on any failure with Summarize. ok is false when there is nothing to
// summarize.
func (x *Extractor) Episode(ctx context.Context, entries []memory.Entry) (memory.Episode, bool) {
	det, ok := Summarize(entries)
	if !ok || x == nil || x.LLM == nil {
		return det, ok
	}
	var b strings.Builder
	for _, e := range entries {
		if e.Crisis || strings.TrimSpace(e.Text) == "" {
			continue
		}
		who := "Person"
		if e.Role == memory.RoleAssistant {
			who = "Companion"
		}
		fmt.Fprintf(&b, "%s: %s\n", who, e.Text)
	}
	answer, err := x.LLM(ctx, episodePrompt, b.String(), "episode_summary", EpisodeSchema)
	var ep memory.Episode
	if err == nil {
		ep, err = ValidateEpisode(answer)
	}
	if err != nil {
		if x.Log != nil {
			x.Log.Warn("episode summary: llm failed, using patterns", slog.Any("err", err))
		}
		return det, true
	}
	return ep, true
}

package reply

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Part is a piece of a reply: one or more sentences.
type Part struct {
	Text string
	// Key names the template or memory the text came from ("" for none), so
	// that the next reply can avoid saying it again.
	Key string
	// Essential parts are never cut to fit the length limit (an exercise
	// step, Haven saying what it is on first contact).
	Essential bool
}

// Draft is a reply before assembly.
type Draft struct {
	// Body is what the branch says, in order. A first part that opens with a
	// greeting keeps its first sentence in front of Recall.
	Body []Part
	// Recall is one remembered thing brought up lightly; it is the first
	// part cut when the reply is too long.
	Recall Part
	// Question is the reply's one question, after the body.
	Question Part
	// Notice is a safety line (the emergency number when someone is in
	// danger); it is never cut and always comes last.
	Notice Part
}

// Assembled is an assembled reply.
type Assembled struct {
	Text string
	// Keys are the keys of the parts kept, in order.
	Keys []string
	// Fits is false when even the essential parts exceed the limit.
	Fits bool
}

var greetingRE = regexp.MustCompile(`^(Hi|Hello|Hey)\b`)

// Assemble joins d in its fixed order: a greeting's first sentence, the
// recall, the rest of the body, the question, the notice. While the whole is
// longer than maxRunes (counted in runes; zero means no limit) it cuts the
// recall first, then the body's non-essential parts from the front. The
// first letter is capitalized.
func Assemble(d Draft, maxRunes int) Assembled {
	body := splitOpening(d.Body)
	recall := d.Recall
	for {
		parts := make([]Part, 0, len(body)+3)
		if len(body) > 0 && greetingRE.MatchString(body[0].Text) && body[0].Key != continuedKey {
			parts = append(parts, body[0])
			parts = append(parts, recall)
			parts = append(parts, body[1:]...)
		} else {
			parts = append(parts, recall)
			parts = append(parts, body...)
		}
		parts = append(parts, d.Question, d.Notice)
		text, keys := join(parts)
		if maxRunes <= 0 || utf8.RuneCountInString(text) <= maxRunes {
			return Assembled{Text: text, Keys: keys, Fits: true}
		}
		switch i := firstCuttable(body); {
		case recall.Text != "":
			recall = Part{}
		case i >= 0:
			body = append(body[:i:i], body[i+1:]...)
		default:
			return Assembled{Text: text, Keys: keys, Fits: false}
		}
	}
}

// continuedKey marks the rest of a part whose greeting sentence was split
// off; it carries no key of its own.
const continuedKey = "\x00continued"

// splitOpening splits a first part that opens with a greeting after its
// first sentence, so the recall can follow the greeting.
func splitOpening(body []Part) []Part {
	if len(body) == 0 || !greetingRE.MatchString(body[0].Text) {
		return body
	}
	first := body[0]
	i := strings.Index(first.Text, ". ")
	if i < 0 {
		return body
	}
	out := make([]Part, 0, len(body)+1)
	out = append(out, Part{Text: first.Text[:i+1], Key: first.Key, Essential: first.Essential},
		Part{Text: first.Text[i+2:], Key: continuedKey, Essential: first.Essential})
	return append(out, body[1:]...)
}

func firstCuttable(body []Part) int {
	for i, p := range body {
		if !p.Essential && p.Key != continuedKey {
			return i
		}
	}
	return -1
}

func join(parts []Part) (string, []string) {
	var b strings.Builder
	var keys []string
	for _, p := range parts {
		t := strings.TrimSpace(p.Text)
		if t == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t)
		if p.Key != "" && p.Key != continuedKey {
			keys = append(keys, p.Key)
		}
	}
	return capitalize(b.String()), keys
}

func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 || unicode.IsUpper(r) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

package therapy

import (
	"hash/fnv"
	"slices"
	"strconv"
	"strings"

	"github.com/havenbot/haven/core/reply"
)

// composer writes a scripted reply from keyed template groups: statements,
// then at most one question. It never picks a template used in the last
// recentReplies replies (by key, or by sentence when the conversation is
// at hand), so Haven does not loop; a question group that is used up hands
// over to the open questions. reply.Assemble puts the result together with
// what core adds (a recalled memory, a safety notice) and holds it to the
// length limit.
type composer struct {
	seed uint32
	// recent are the template keys of the last replies; prev are their
	// texts, newest last.
	recent []string
	prev   []string
	parts  []reply.Part
	q      reply.Part
}

// recentReplies is how many of Haven's last replies a template is not
// repeated within.
const recentReplies = 5

func newComposer(text string, turn int, recent []string, prev []string) composer {
	h := fnv.New32a()
	h.Write([]byte(text))
	return composer{seed: h.Sum32() + uint32(turn), recent: recent, prev: prev}
}

// pick chooses one option of a group, skipping options used in the last
// replies, and returns it with its key; fresh is false when every option
// was used recently (the first choice is returned then).
func (c *composer) pick(group string, options []string) (text, key string, fresh bool) {
	n := len(options)
	start := int(c.seed % uint32(n))
	for i := range n {
		idx := (start + i) % n
		key := group + "/" + strconv.Itoa(idx)
		if !slices.Contains(c.recent, key) && !c.said(options[idx]) && !c.saying(options[idx]) {
			return options[idx], key, true
		}
	}
	return options[start], group + "/" + strconv.Itoa(start), false
}

// said reports whether one of the last replies contained s.
func (c *composer) said(s string) bool {
	for _, p := range c.prev {
		if strings.Contains(p, s) {
			return true
		}
	}
	return false
}

// saying reports whether this reply already holds s.
func (c *composer) saying(s string) bool {
	for _, p := range c.parts {
		if p.Text == s {
			return true
		}
	}
	return false
}

// say adds a statement picked from options.
func (c *composer) say(group string, options ...string) {
	s, k, _ := c.pick(group, options)
	c.parts = append(c.parts, reply.Part{Text: s, Key: k})
}

// must adds an essential statement picked from options: it survives
// "shorter replies" and the length limit (identity on first contact, an
// exercise step).
func (c *composer) must(group string, options ...string) {
	s, k, _ := c.pick(group, options)
	c.parts = append(c.parts, reply.Part{Text: s, Key: k, Essential: true})
}

// ask sets the closing question, replacing any earlier one. When every
// option of the group was asked in the last replies, an open question is
// asked instead.
func (c *composer) ask(group string, options ...string) {
	s, k, fresh := c.pick(group, options)
	if !fresh && group != openGroup {
		if os, ok, f := c.pick(openGroup, openQuestions); f {
			s, k = os, ok
		}
	}
	c.q = reply.Part{Text: s, Key: k}
}

// openGroup is the group of the open questions, the follow-up of last
// resort.
const openGroup = "open-q"

// openQuestions are open questions that fit after almost anything the
// person says.
var openQuestions = []string{
	"Can you tell me more about that?",
	"How has that been for you?",
	"What feels most important about it to you?",
	"What's that been like?",
	"How do you feel about that?",
	"What goes through your mind when you think about it?",
	"What do you make of that?",
	"What's the part of this you keep coming back to?",
	"What would you like to happen next?",
	"What has helped, even a little?",
	"What's it like to say it out loud?",
	"Who else knows how this has been for you?",
}

// IsQuestionKey reports whether a reply key names a follow-up question
// (the one question a scripted reply ends with): question groups end in
// "-q" or have "-q-" in them, and "offer" is the question that offers an
// exercise. The crisis gate's safety question has its own key.
func IsQuestionKey(key string) bool {
	group, _, _ := strings.Cut(key, "/")
	return strings.HasSuffix(group, "-q") || strings.Contains(group, "-q-") || group == "offer"
}

// hasQuestion reports whether a statement already asks something.
func (c *composer) hasQuestion() bool {
	for _, p := range c.parts {
		if strings.Contains(p.Text, "?") {
			return true
		}
	}
	return false
}

// safetyQuestionKey is the key of the crisis gate's safety question.
const safetyQuestionKey = "safety-q"

// draft returns the statements and the one question: the safety question
// when there is one (statements that ask are then dropped), else the
// closing question unless a statement already asks. shorter keeps the
// essential statements and one other.
func (c *composer) draft(safetyQ string, shorter bool) reply.Draft {
	parts, q := slices.Clone(c.parts), c.q
	if safetyQ != "" {
		q = reply.Part{Text: safetyQ, Key: safetyQuestionKey, Essential: true}
		parts = slices.DeleteFunc(parts, func(p reply.Part) bool { return strings.Contains(p.Text, "?") })
	} else if q.Text != "" && c.hasQuestion() {
		q = reply.Part{}
	}
	if shorter {
		kept := false
		parts = slices.DeleteFunc(parts, func(p reply.Part) bool {
			if p.Essential {
				return false
			}
			if kept {
				return true
			}
			kept = true
			return false
		})
	}
	return reply.Draft{Body: parts, Question: q}
}

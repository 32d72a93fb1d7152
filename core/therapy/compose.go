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
// reply (by key or by sentence), so Haven does not say the same sentence
// twice in a row. reply.Assemble puts the result together with what core
// adds (a recalled memory, a safety notice) and holds it to the length
// limit.
type composer struct {
	seed uint32
	// recent are the template keys of the last reply; prev is its text.
	recent []string
	prev   string
	parts  []reply.Part
	q      reply.Part
}

func newComposer(text string, turn int, recent []string, prev string) composer {
	h := fnv.New32a()
	h.Write([]byte(text))
	return composer{seed: h.Sum32() + uint32(turn), recent: recent, prev: prev}
}

// pick chooses one option of a group, skipping options used in the last
// reply, and returns it with its key.
func (c *composer) pick(group string, options []string) (string, string) {
	n := len(options)
	start := int(c.seed % uint32(n))
	for i := range n {
		idx := (start + i) % n
		key := group + "/" + strconv.Itoa(idx)
		if !slices.Contains(c.recent, key) && !c.said(options[idx]) {
			return options[idx], key
		}
	}
	return options[start], group + "/" + strconv.Itoa(start)
}

// said reports whether the last reply contained s.
func (c *composer) said(s string) bool {
	return c.prev != "" && strings.Contains(c.prev, s)
}

// say adds a statement picked from options.
func (c *composer) say(group string, options ...string) {
	s, k := c.pick(group, options)
	c.parts = append(c.parts, reply.Part{Text: s, Key: k})
}

// must adds an essential statement picked from options: it survives
// "shorter replies" and the length limit (identity on first contact, an
// exercise step).
func (c *composer) must(group string, options ...string) {
	s, k := c.pick(group, options)
	c.parts = append(c.parts, reply.Part{Text: s, Key: k, Essential: true})
}

// ask sets the closing question, replacing any earlier one.
func (c *composer) ask(group string, options ...string) {
	s, k := c.pick(group, options)
	c.q = reply.Part{Text: s, Key: k}
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

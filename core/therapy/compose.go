package therapy

import (
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// composer assembles a reply from keyed template groups: statements, then
// at most one question. It never picks a template used in the last reply
// (by key or by sentence), so Haven does not say the same sentence twice in
// a row.
type composer struct {
	seed uint32
	// recent are the template keys of the last reply; prev is its text.
	recent []string
	prev   string
	parts  []part
	keys   []string
	q      string
	qKey   string
}

// part is one statement. essential parts survive "shorter replies" and
// length trimming (identity on first contact, an exercise step).
type part struct {
	text      string
	essential bool
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
	c.parts = append(c.parts, part{text: s})
	c.keys = append(c.keys, k)
}

// must adds an essential statement picked from options.
func (c *composer) must(group string, options ...string) {
	s, k := c.pick(group, options)
	c.parts = append(c.parts, part{text: s, essential: true})
	c.keys = append(c.keys, k)
}

// ask sets the closing question, replacing any earlier one.
func (c *composer) ask(group string, options ...string) {
	c.q, c.qKey = c.pick(group, options)
}

// hasQuestion reports whether a statement already asks something.
func (c *composer) hasQuestion() bool {
	for _, p := range c.parts {
		if strings.Contains(p.text, "?") {
			return true
		}
	}
	return false
}

// text joins the reply: the statements, then the question (or the safety
// question, which always wins), at most one question in all. shorter keeps
// the essential statements and one other; maxRunes trims the least
// essential statements first.
func (c *composer) text(safetyQ string, shorter bool, maxRunes int) (string, []string) {
	parts, keys := slices.Clone(c.parts), slices.Clone(c.keys)
	q, qk := c.q, c.qKey
	if safetyQ != "" {
		q, qk = safetyQ, "safety-q"
		// The safety question is the one question: drop statements that ask.
		for i := len(parts) - 1; i >= 0; i-- {
			if strings.Contains(parts[i].text, "?") {
				parts, keys = slices.Delete(parts, i, i+1), slices.Delete(keys, i, i+1)
			}
		}
	} else if q != "" && c.hasQuestion() {
		q = ""
	}
	if shorter {
		kept := false
		for i := 0; i < len(parts); {
			if !parts[i].essential && kept {
				parts, keys = slices.Delete(parts, i, i+1), slices.Delete(keys, i, i+1)
				continue
			}
			kept = kept || !parts[i].essential
			i++
		}
	}
	join := func() string {
		s := make([]string, 0, len(parts)+1)
		for _, p := range parts {
			s = append(s, p.text)
		}
		if q != "" {
			s = append(s, q)
		}
		return capitalize(strings.Join(s, " "))
	}
	out := join()
	for utf8.RuneCountInString(out) > maxRunes {
		i := slices.IndexFunc(parts, func(p part) bool { return !p.essential })
		if i < 0 {
			break
		}
		parts, keys = slices.Delete(parts, i, i+1), slices.Delete(keys, i, i+1)
		out = join()
	}
	if q != "" {
		keys = append(keys, qk)
	}
	return out, keys
}

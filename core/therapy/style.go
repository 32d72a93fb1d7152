package therapy

import "github.com/havenbot/haven/internal/textmatch"

// The canonical session rules. Rules from memory are free text; readStyle
// understands both.
const (
	RuleJustListen = "just listen"
	RuleShorter    = "shorter replies"
)

// style is how the procedural rules shape a reply.
type style struct {
	// justListen: no advice, no exercise offers, no psychoeducation the
	// person did not ask for.
	justListen bool
	// shorter: two short sentences at most.
	shorter bool
}

var (
	justListenRE = textmatch.MustCompile(`(?i)\b(just (listen|hear me( out)?|be here)|only listen|listen,? (don'?t|not) (advise|fix|solve)|no (advice|tips|suggestions|solutions|exercises)|(don'?t|do not) (give|offer|want|need) (me )?(any )?(advice|tips|suggestions|solutions|exercises)|without (any )?advice|(don'?t|do not) (try to )?(fix|solve) (it|this|anything|me)|not looking for (advice|solutions|tips)|stop (giving|offering) (me )?(advice|tips|suggestions|exercises))\b`)
	shorterRE    = textmatch.MustCompile(`(?i)\b(short(er)? (replies|answers|messages|responses)|keep (it|them|replies|answers|messages) (short|brief)|(be )?(more )?(brief|concise)|brief(er)? (replies|answers|messages)|less text|fewer words|(too|so) long|tl;?dr|write less)\b`)
	adviceOKRE   = textmatch.MustCompile(`(?i)\b((you can|feel free to|please) (give|offer|suggest) (me )?(some )?(advice|tips|suggestions|ideas)( again| now)?|i('?d| would) (like|love|appreciate) (some )?(advice|tips|suggestions|ideas)|(give|tell) me (some )?(advice|tips|ideas))\b`)
	longerOKRE   = textmatch.MustCompile(`(?i)\b((you can|feel free to) (write|say) more|longer (replies|answers|messages)|more detail)\b`)
)

// readStyle interprets the memory rules and the session rules together.
func readStyle(rules []string, s State) style {
	var st style
	for _, r := range append(append([]string(nil), rules...), s.Rules...) {
		if justListenRE.MatchString(r) {
			st.justListen = true
		}
		if shorterRE.MatchString(r) {
			st.shorter = true
		}
	}
	return st
}

// ruleChange is a procedural rule the message sets or lifts.
type ruleChange struct {
	set, lift []string
}

func (c ruleChange) any() bool { return len(c.set)+len(c.lift) > 0 }

// readRuleChange finds rules set or lifted in the message ("can you just
// listen", "shorter replies please", "you can give advice again").
func readRuleChange(text string) ruleChange {
	var c ruleChange
	switch {
	case adviceOKRE.MatchString(text):
		c.lift = append(c.lift, RuleJustListen)
	case justListenRE.MatchString(text):
		c.set = append(c.set, RuleJustListen)
	}
	switch {
	case longerOKRE.MatchString(text):
		c.lift = append(c.lift, RuleShorter)
	case shorterRE.MatchString(text):
		c.set = append(c.set, RuleShorter)
	}
	return c
}

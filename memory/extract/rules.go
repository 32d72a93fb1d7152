package extract

import (
	"strings"

	"github.com/havenbot/haven/internal/textmatch"

	"github.com/havenbot/haven/memory"
)

// styleRule is a pattern for one procedural rule.
type styleRule struct {
	re        *textmatch.Regexp
	key, text string
}

var styleRuleList = []styleRule{
	{textmatch.MustCompile(`(?i)\b(just listen|only listen|(don't|do not|stop|no|without)( giving| give)?( me)?( any)? advice|i don't want (any )?advice|no solutions)\b`), "advice", "just listen, no advice"},
	{textmatch.MustCompile(`(?i)\b(give me (some )?advice|i (do )?want (your |some )?advice|tell me what (to|you would) do|you can give advice)\b`), "advice", "offer advice when it helps"},
	{textmatch.MustCompile(`(?i)\b(shorter (replies|answers|messages|responses)|keep (it|them|your (replies|answers|messages)) (short|brief)|less text|(your )?(replies|answers|messages) are too long)\b`), "length", "shorter replies"},
	{textmatch.MustCompile(`(?i)\b(longer (replies|answers|messages)|more detail(ed)?( replies| answers)?)\b`), "length", "longer, more detailed replies"},
	{textmatch.MustCompile(`(?i)\b((stop|don't|do not|quit) ask(ing)?( me)?( so many)? questions|fewer questions|less questions|too many questions)\b`), "questions", "fewer questions"},
	{textmatch.MustCompile(`(?i)\b(be (more )?(direct|blunt|straightforward)|don't sugar ?coat)\b`), "tone", "be direct"},
	{textmatch.MustCompile(`(?i)\b(be (more )?(gentle|gentler|soft|softer|kind|kinder)( with me)?)\b`), "tone", "be gentle"},
}

// styleRules returns the procedural rules a sentence asks for.
func styleRules(sent string) []memory.Rule {
	var out []memory.Rule
	seen := map[string]bool{}
	for _, r := range styleRuleList {
		if seen[r.key] || !r.re.MatchString(sent) {
			continue
		}
		seen[r.key] = true
		out = append(out, memory.Rule{Key: r.key, Text: r.text, Evidence: memory.Quote(sent)})
	}
	return out
}

// RuleKeys are the keys procedural rules may have, besides "custom:...".
var RuleKeys = []string{"address", "advice", "length", "questions", "tone"}

var unsafeRules = []*textmatch.Regexp{
	textmatch.MustCompile(`(?i)\b(never|don't|dont|do not|stop|no more|quit|please don't|you can't|you shouldn't|shouldn't)\b.{0,40}\b(mention(ing)?|suggest(ing)?|giv(e|ing)|send(ing)?|tell(ing)?|talk(ing)? about|bring(ing)? up|shar(e|ing)|recommend(ing)?|list(ing)?|show(ing)?|push(ing)?|post(ing)?)\b.{0,40}\b(hotlines?|helplines?|help ?lines?|crisis (lines?|numbers?|resources?|services?|teams?)|emergency( services| numbers?)?|samaritans|lifeline|988|911|999|112|resources|professional help|therapy|(a )?therapists?|(a )?doctors?|the police|an ambulance)\b`),
	textmatch.MustCompile(`(?i)\bno (more )?(hotlines?|helplines?|crisis (lines?|numbers?|resources?))\b`),
	textmatch.MustCompile(`(?i)\b(never|don't|dont|do not|stop|quit)\b.{0,30}\b(check(ing)? (on|in on) (me|my safety)|ask(ing)?( me)? (about|if|whether) .{0,25}(safe|suicid|kill|hurt|harm|die|dying))`),
	textmatch.MustCompile(`(?i)\bignore (it|me|that)?\s*(when|if) i (talk|say|write|mention)\b.{0,30}\b(suicid|kill(ing)? myself|self[- ]?harm|hurt(ing)? myself|dying|die|end(ing)? (it|my life))`),
	textmatch.MustCompile(`(?i)\b(don't|do not|never)\b.{0,20}\b(take (it|me) seriously|worry) (when|if) i (talk|say|mention)\b.{0,30}\b(suicid|kill|die|dying|self[- ]?harm|hurt(ing)? myself)`),
}

// UnsafeRule reports whether text asks Haven to weaken its safety
// behaviour ("never mention hotlines", "don't ask if I'm safe"). Such a
// request is refused with a kind explanation and never stored.
func UnsafeRule(text string) bool {
	for _, re := range unsafeRules {
		if re.MatchString(text) {
			return true
		}
	}
	return false
}

// ValidRuleKey reports whether key is a known rule key or "custom:" plus a
// short name.
func ValidRuleKey(key string) bool {
	for _, k := range RuleKeys {
		if k == key {
			return true
		}
	}
	rest, ok := strings.CutPrefix(key, "custom:")
	return ok && rest != "" && len(rest) <= 40
}

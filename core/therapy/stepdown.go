package therapy

import (
	"strings"

	"github.com/havenbot/haven/internal/textmatch"
)

// This file holds the two ways a turn steps down from safety checking: a
// clear answer to the safety question, and a plain goodbye.

// stepDown answers a clear answer to the safety question (no intent, no
// plan, safe now): thanks, the resources named once more when the session
// gave them, and an ordinary open question instead of another safety
// check.
func (p *plan) stepDown() {
	p.mode = ModeSupportive
	p.c.say("answered", "Thank you for answering that honestly.", "Thank you for telling me; I'm glad you answered.", "Thanks for letting me know.")
	if p.req.SessionMaxRisk >= 2 {
		p.c.say("answered-res", "If that changes, the lines I shared are there any time, day or night.",
			"If things ever feel unsafe, the numbers I gave you are there any time.")
	} else {
		p.c.say("answered-door", "If it ever does get that heavy, you can tell me.", "If that ever changes, you can always tell me.")
	}
	p.c.ask("answered-q", "What's been weighing on you most?", "Would you like to tell me more about what's been going on?", "What would help most right now?")
	p.brief = "They clearly said they are safe and have no intent or plan. Thank them, do not ask about safety again, and invite them to say more about what is going on."
}

// farewellFillerRE is what a plain goodbye may say besides the goodbye
// itself: "ok", "thanks", "sorry", "anyway", "talk soon".
var farewellFillerRE = textmatch.MustCompile(`(?i)^\s*(ok(ay)?|alright|all right|right|well|so|anyway|cool|great|sorry|thanks|thank you|thx|ty|cheers|lol|haha|ah|oh|oops|hey|hi|sure|yeah|yes|now|for now|x+|:\)|take care|have a (good|nice) (one|day|night|evening))(\s+(ok(ay)?|alright|anyway|so|thanks|thank you|now|for now|then|haven|x+|again|so much|a lot))*\s*$`)

// farewellGoodbyeRE is a goodbye clause with nothing heavier in it: a
// leaving for now, not for good.
var farewellGoodbyeRE = textmatch.MustCompile(`(?i)^\s*((ok(ay)?|alright|right|well|so|anyway|sorry|thanks|yeah)[\s,]+)*((i )?(really |just |kinda |kind of )?(need|have|got|gotta|should|must) (to )?go( now| for now| soon| then)?|gotta (go|run)|got to (go|run)|i'?ll go now|(i'?m )?(heading|signing) off( now)?|bye+( bye)?( for now| then| now)?|good ?bye( for now| then)?|see (you|ya)( later| soon| tomorrow)?|talk (to you )?(later|tomorrow|soon)|ttyl|good ?night|night|cya|later)( x+| haven| then| for now)*\s*$`)

// farewellWeightRE is anything that makes a goodbye more than a goodbye:
// finality, thanks for everything, a burden, not being around.
var farewellWeightRE = textmatch.MustCompile(`(?i)\b(forever|for good|for ever|last time|everything|everyone|every ?body|the world|won'?t (be|see|talk)|not be (here|around|back)|never|remember me|final|sorry for|it'?s time|time for me|goodbye world|no more|burden|end|tired of)\b`)

// PlainFarewell reports whether text is only a goodbye for now ("ok I need
// to go now, bye", "thanks, talk later!"): every clause a short goodbye or
// a word like "ok" or "thanks", and nothing about finality, everyone or
// everything. Core answers it with a goodbye even when the crisis gate read
// "I need to go now" as a possible warning sign in a session with no risk
// before it.
func PlainFarewell(text string) bool {
	text = clip(text, maxReadBytes)
	if !isGoodbye(text) || farewellWeightRE.MatchString(text) {
		return false
	}
	goodbye := false
	for _, c := range strings.FieldsFunc(text, func(r rune) bool { return strings.ContainsRune(".!?,;:\n", r) }) {
		switch {
		case strings.TrimSpace(c) == "":
		case farewellGoodbyeRE.MatchString(c):
			goodbye = true
		case farewellFillerRE.MatchString(c):
		default:
			return false
		}
	}
	return goodbye
}

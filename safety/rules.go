package safety

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// ruleKind says how a match is read.
type ruleKind int

const (
	// kindRisk: a first-person risk statement at the rule's level.
	kindRisk ruleKind = iota
	// kindThird: someone else is at risk (third_party flag, no level).
	kindThird
	// kindHarmOthers: the person speaks of hurting someone else.
	kindHarmOthers
	// kindAbuse: the person is being hurt.
	kindAbuse
)

// rule is one pattern of the floor.
type rule struct {
	id    string
	level Level
	kind  ruleKind
	src   string
	// conf is the confidence of a clean match.
	conf float64
	// weak marks phrases that are also common hyperbole ("kill me", "want
	// to die"): laughter in the clause lowers them to level 1.
	weak bool
	// noNegate marks patterns whose negation is part of the meaning (such
	// as "dont want to live").
	noNegate bool
	// selfInjury sets the self_injury flag.
	selfInjury bool
	// attempt marks wording of an attempt already made or under way (an
	// overdose told as drugs and doses): a match at level 3 sets the
	// attempt flag, as every attempt.* rule's does.
	attempt bool
	// needsContext marks phrases that are risk only when the message (or
	// the window) also talks about death or suicide ("I have a plan", "I'm
	// going to do it"); without it the level is capped at 1.
	needsContext bool
	// ownWordsNotContext, with needsContext, keeps the match's own words
	// from being its context: a bare "attempt" is suicide talk to the
	// message-wide cues, so only the rest of the message (or the window)
	// can lend it risk.
	ownWordsNotContext bool
	// silentAlone, with needsContext, drops the match to level 0 instead
	// of 1 when there is no context: wording whose risk is all in what it
	// points back to ("I keep thinking about it").
	silentAlone bool
	// notFollowedBy lists next words that cancel a match ("end it" + "with").
	notFollowedBy []string
	// notPrecededBy lists words that, just before a match, give it another
	// sense ("ever done with my life" is a participle, "in my last post"
	// points back at an earlier post).
	notPrecededBy []string
	// needsTalk is a stricter needsContext for wording that is ordinary
	// outside talk of suicide ("tying up loose ends", "bought a rifle"): the
	// message or the window must speak of death, dying or suicide itself,
	// not only of distress; without it the match does not count (level 0).
	needsTalk bool
	// needsOwnContext is for wording that ends most ordinary chats (a bare
	// "bye"): it counts only when the same message speaks of distress,
	// death or suicide, or earlier ones spoke of death or suicide; earlier
	// distress alone does not lend it context (venting about work and then
	// saying bye is not a farewell).
	needsOwnContext bool
	// accident marks wording that an accidental context ("on the stairs",
	// "at the gym") turns into an ordinary mishap, as for self-injury.
	accident bool
	// routine marks a drug taken in an amount: a routine dose in the
	// clause ("like a good girl", "with breakfast", "my evening meds")
	// explains it when the message speaks of no death or distress.
	routine bool
	// timeless marks wishes about the past that speak of now ("I should
	// have died years ago"): past-tense markers do not lower them.
	timeless bool
	// frame marks means and places that have everyday uses (a climbing
	// rope, a gun range, a roof being repaired): a leisure, sport, work or
	// repair frame in the clause, with no talk of dying there, reads the
	// match as that use (level 0).
	frame bool
	// excusable marks an absence said with finality ("I won't be around
	// after tonight") that an ordinary reason in the message explains (a
	// trip, a shift, a dying phone battery): level 0.
	excusable bool
	// subject marks a noun of risk ("self-harm", "suicidal thoughts")
	// that may name a subject of work or study ("ask a patient about
	// suicidal thoughts"): see topicNoun.
	subject bool
	// whole marks patterns that span sentences ("I'm on the bridge. I'm
	// not going back"): they are searched in the whole message, not one
	// sentence at a time.
	whole bool
	re    *regexp.Regexp
	fre   filteredRe
}

// wakeQualified are the words that, right after "wake up", say when or how
// one wakes ("late", "before noon", "with a headache"): hoping not to
// wake up late takes the waking for granted, so it is no wish to die.
// "Tomorrow", "in the morning" and "before" an event ("before the results
// come out") are not among them.
var wakeQualified = []string{"late", "early", "before noon", "before midday", "before lunch", "before my alarm", "before the alarm", "in time", "on time", "at", "with", "hungover", "sick", "tired", "too", "feeling", "until", "till", "til", "during", "when"}

// Pattern macros, expanded before compiling. Every pattern works on the
// canonical form (see normalize.go): lowercase, no apostrophes, "im", "ive",
// "ill", "id", "dont", "cant", "want to", "going to".
var baseMacros = []string{
	// up to three filler words
	"{gap}", `(?:[a-z0-9]+ ){0,3}`,
	"{gap1}", `(?:[a-z0-9]+ )?`,
	"{gap5}", `(?:[a-z0-9]+ ){0,5}`,
	"{adv}", `(?:(?:really|just|so|honestly|seriously|actually|literally|truly|genuinely|sometimes|often|always|still|kinda|kind of|sort of|almost|pretty|very|fucking|fuckin|fkn|lowkey|low key|totally|definitely|probably|constantly|again|badly|desperately|even|simply|only|finally|all|now|also|ever|already|more and more|lately|recently|every day|everyday|secretly) ){0,3}`,
	// reflexive self-killing phrases (first person by construction)
	"{selfkill}", `(?:kill(?:ing|ed)? myself|end(?:ing|ed)? (?:my (?:own |fucking |fuckin |fking |damn |stupid |miserable |pathetic |worthless |sad |shitty )?life|my existence|my suffering(?: for good)?)|tak(?:e|ing) my (?:own |fucking )?life|took my (?:own )?life|put(?:ting)? an end to (?:my life|it all|everything|myself)|commit(?:ting)? suicide|hang(?:ing)? myself|hung myself|shoot(?:ing)? myself|drown(?:ing)? myself|poison(?:ing)? myself|gas(?:sing)? myself|slit(?:ting)? my (?:wrists?|throat)|put(?:ting)? a bullet (?:in|through) my (?:head|brain|skull)|blow(?:ing)? my brains out|throw(?:ing)? myself (?:off|in front of|under)|jump(?:ing)? (?:off|from) (?:a|the|my) (?:bridge|building|roof|rooftop|cliff|balcony|tower|ledge|overpass)|jump(?:ing)? in front of (?:a|the) (?:train|bus|truck|car)|end(?:ing)? it all|end(?:ing)? everything|end(?:ing)? things for good|end(?:ing)? it (?:now|tonight|today|soon|for good|once and for all)|overdos(?:e|ing) on (?:my )?(?:pills|meds|medication|sleeping pills|tablets))`,
	"{i}", `(?:i|im|ive|ill|id)`,
	"{want}", `(?:want(?:ed)? to|wish i could|wish to|need to|have to|would like to|feel like|felt like|urge to|urges to|tempted to|thinking (?:about|of)|think (?:about|of)|thought (?:about|of)|thoughts (?:about|of)|considering|considered|contemplating|contemplated|fantasi[sz]ing about|dreaming (?:about|of)|cant stop thinking about|keep thinking about|could|should|might|may|longing to|close to)`,
	"{intend}", `(?:going to|about to|ill|i will|will|decided to|have decided to|ive decided to|made up my mind to|ready to|planning to|planning on|plan to|plan on|intend to|am going to|im going to|im about to|finally going to|gonna|set on|determined to)`,
	"{tried}", `(?:tried to|attempted to|attempting to|trying to|tried|try to)`,
	"{soon}", `(?:tonight|today|tomorrow|this (?:weekend|week|evening|afternoon|morning)|right now|soon|in (?:a|an|one|two|three|few|\d+) (?:hours?|days?|minutes?)|on (?:the )?\d+(?:st|nd|rd|th)|on (?:my )?birthday|on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|this (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|next week|after (?:everyone|they|my \w+) (?:leaves?|left|goes?|are asleep|falls? asleep)|when (?:everyone|they|my \w+) (?:leaves?|goes?|are asleep|falls asleep))`,
	"{means}", `(?:pills|tablets|meds|medication|sleeping pills|painkillers|tylenol|paracetamol|acetaminophen|ibuprofen|rope|noose|belt|gun|pistol|rifle|shotgun|bullets?|knife|blade|razor|razors|bleach|poison|charcoal|helium|exit bag|car exhaust)`,
	"{saved}", `(?:saved|saving|stockpiled|stockpiling|hoarded|hoarding|collected|collecting|bought|buying|got|gotten|have|ordered|stashed|hid|hidden|picked up|purchased)`,
	// people and pets who are named as the reason to stay
	"{loved}", `(?:kids?|children|child|son|daughter|babies|baby|mom|mum|mother|dad|father|parents|family|husband|wife|partner|boyfriend|girlfriend|dogs?|cats?|pets?|fur baby|fur babies|fur kids?|sister|brother|siblings|grandma|grandmother|grandpa|grandfather|friends?|best friend)`,
	"{other}", `(?:he|she|they|hes|shes|theyre|him|her|them|my (?:friend|best friend|bf|gf|boyfriend|girlfriend|brother|sister|mom|mum|mother|dad|father|son|daughter|kid|child|wife|husband|partner|roommate|flatmate|cousin|uncle|aunt|niece|nephew|student|coworker|colleague|classmate|client|patient|grandma|grandpa|grandmother|grandfather|ex|fiance|fiancee)|a friend|someone i know|someone|somebody|a classmate|a coworker|my friends)`,
}

// macros expands the base macros and the concept classes (rules_concepts.go).
var macros = strings.NewReplacer(append(append([]string(nil), baseMacros...), conceptMacros()...)...)

// ruleTable lists the floor's rules. Order does not matter: every rule is
// tried and the highest level wins, then modifiers apply.
var ruleTable = []rule{
	// ---- level 3: intent, plan, preparation, attempt, goodbye ----
	{id: "intent.selfkill", level: 3, conf: 0.9, frame: true, src: `{intend} {adv}{selfkill}`},
	{id: "intent.suicide", level: 3, conf: 0.9, src: `{i} {adv}{intend} {adv}(?:commit suicide|do it|go through with it)(?: {soon})`},
	// Suicide as what one will do: "I'll try suicide this week".
	{id: "intent.try_suicide", level: 3, conf: 0.8, src: `{intend} {adv}(?:try|attempt|commit|do) {adv}suicide(?: {soon}| \.|$| this time| again| finally| soon| and| but)`},
	{id: "intent.soon", level: 3, conf: 0.9, frame: true, src: `{selfkill} {gap}{soon}`},
	// A bare "I have a plan" is read by intent.plan_bare (in context only).
	// "I have a plan" on its own; a plan for something or to do something
	// ordinary is read by the rules that name what it is for.
	{id: "intent.plan_own", level: 3, conf: 0.8, notFollowedBy: []string{"too", "for", "to", "of", "with", "on", "about", "at", "in", "b", "c", "which", "we", "is", "was"}, src: `(?:ive|i have|ive got|i got|ive made|i made|i have got) (?:a|my) plan`},
	{id: "intent.plan", level: 3, conf: 0.85, src: `(?:i have|ive got|ive made|i made|i have made|got|made|have|wrote|written|make|making|working out) (?:a|my) (?:plan|suicide plan)(?: to (?:kill myself|end it|die|end my life)| for (?:it|tonight|when))|(?:i have|ive got|ive made|i made|i have made|got|made|have|wrote|written|make|making|working out) (?:a|my) suicide plan`},
	{id: "intent.plan2", level: 3, conf: 0.85, src: `(?:plan|planned|planning|plans) (?:to|on|for) (?:kill(?:ing)? myself|end(?:ing)? my life|suicide|commit(?:ting)? suicide|end(?:ing)? it)`},
	// "I planned on dying today"; not "plan to die on this hill" or "planning to die my hair".
	{id: "intent.plan_die", level: 3, conf: 0.8, notFollowedBy: []string{"on", "of", "in", "my", "your", "her", "his", "the", "a", "laughing", "trying", "for", "with", "at", "from", "alone", "old", "happy", "peacefully"}, src: `(?:i (?:plan|planned|am planning|was planning)|im planning|ive planned|i have planned) (?:to|on) (?:die|dying)`},
	{id: "intent.date", level: 3, conf: 0.85, frame: true, notFollowedBy: []string{"for", "of", "to", "with"}, src: `(?:set|picked|chosen|chose|decided on|have) (?:a|the) (?:date|day|time)`},
	// A note or letter is preparation when it is "my note" or a goodbye,
	// suicide, last or final one; a plain letter needs talk of dying.
	{id: "prep.note", level: 3, conf: 0.9, frame: true, notFollowedBy: []string{"of", "for"}, src: `(?:wrote|written|writing|write|left|leaving|finished|drafted|drafting) (?:(?:my|a|the|some) (?:first |own )?(?:suicide|goodbye|last|final) (?:note|notes|letter|letters)|my (?:first |own )?(?:note|letter))`},
	{id: "prep.note_plain", level: 3, conf: 0.75, frame: true, notFollowedBy: []string{"for", "about", "on", "in"}, src: `(?:wrote|written|writing|write|left|leaving|finished|drafted|drafting) (?:a|the|some|my) (?:note|notes|letter|letters)|(?:wrote|written|left|finished) letters|(?:finished|finishing|done) writing (?:(?:a|the|some|my|all my|all the|all) )?(?:notes?|letters?)`},
	{id: "prep.note_for", level: 3, conf: 0.75, frame: true, src: `(?:wrote|written|writing|left|leaving|finished|drafted|typed|typed up|wrote up|written up|recorded) (?:(?:a|the|some|my) )?(?:note|notes|letter|letters) for (?:my |each of my |all my )?(?:{loved}|everyone|everybody|them|each of them)`},
	{id: "prep.suicidenote", level: 3, conf: 0.9, src: `(?:my|a) (?:suicide|goodbye) (?:note|letter|message)`},
	{id: "prep.giveaway", level: 3, conf: 0.85, src: `(?:gave|giving|give|given) (?:away )?(?:all )?(?:of )?my (?:stuff|things|belongings|possessions|pets?|cat|dog|games|clothes|money)(?: away)?`},
	{id: "prep.means", level: 3, conf: 0.8, src: `(?:{i} )?{adv}{saved} (?:up )?(?:enough |a bunch of |a lot of |all (?:of )?(?:my )?|some |the |a |\d+ )?{means} (?:to|for|so i can|that i (?:will|am going to)) (?:kill myself|end it|do it|die|end my life|overdose)`},
	{id: "prep.stockpile", level: 3, conf: 0.85, src: `(?:stockpil|hoard|stash)(?:ed|ing) (?:up )?(?:my |all |some |enough )?{means}|(?:saving|saved) (?:up )?(?:all )?(?:my |the |these |some )?(?:pills|meds|tablets|medication|sleeping pills|painkillers) (?:to|so|until|for (?:when|the day|the night|tonight|later|if|it|this|that|the end|an overdose|one day|someday|a reason))`},
	{id: "prep.means_ready", level: 3, conf: 0.85, frame: true, src: `(?:the |my |a )?(?:rope|noose|belt|gun|pistol|rifle|shotgun|bullets?|knife|blade|razor|razors|helium|charcoal|exit bag) (?:is|are) (?:ready|here|in my hand|next to me|in front of me|tied|set up|loaded|up|hung|in place)`},
	// Pills at hand are also how people take their medicine: in context only.
	{id: "prep.pills_at_hand", level: 3, conf: 0.8, frame: true, needsContext: true, src: `(?:the |my |a |all the |all my )?(?:pills|tablets|meds|medication|sleeping pills|painkillers|bottle of pills) (?:is|are) (?:ready|here|in my hand|next to me|in front of me|lined up|counted out)`},
	{id: "prep.holding", level: 3, conf: 0.85, src: `(?:holding|have|got) (?:a|the|my) {means} (?:in my hand|right now|to my (?:head|wrist|throat|neck))`},
	{id: "prep.tied", level: 3, conf: 0.85, src: `(?:tied|tying|made|making|bought|have|got) (?:a|the) noose`},
	{id: "prep.tied_rope", level: 3, conf: 0.75, frame: true, needsContext: true, src: `(?:tied|tying|made|making|bought|have|got) (?:a|the) rope`},
	// Standing on a bridge, a ledge or the tracks now; the edge of a height
	// is read by the concept rules (concept.height_*).
	{id: "prep.ledge", level: 3, conf: 0.85, frame: true, src: `(?:standing|sitting|im|i am) (?:on|at) (?:the|a|this) (?:railway |railroad |old |high |big |motorway |highway |train |local |nearest )?(?:bridge|roof|rooftop|tracks|train tracks|ledge|railing|edge)(?: \.|$| right now| now| again| alone| tonight| and| looking| thinking| in the| ready| with| over| above)`},
	{id: "attempt.tried", level: 3, conf: 0.85, src: `{tried} {adv}(?:to )?(?:{selfkill}|suicide|overdose)`},
	// "My attempt" at something named after it ("my attempts to make
	// conversation", "failed attempts at dating") is about that thing.
	{id: "attempt.noun", level: 3, conf: 0.85, notFollowedBy: []string{"to", "at", "of", "with", "for"}, src: `(?:(?:(?:my|a|last|another|previous|recent|failed) (?:(?:first|second|third|latest) )?(?:suicide )?attempts?|(?:first|second|third) suicide attempts?)(?: at (?:suicide|killing myself|ending (?:it|my life)|taking my (?:own )?life|my (?:own )?life)| to (?:kill myself|end (?:it|my life|it all)|take my (?:own )?life|die|overdose|hang myself|od))?|(?:first|second|third) attempts?(?: at (?:suicide|killing myself|ending (?:it|my life)|taking my (?:own )?life|my (?:own )?life)| to (?:kill myself|end (?:it|my life|it all)|take my (?:own )?life|die|overdose|hang myself|od)))`},
	// A counted attempt that is nobody's and names nothing ("third
	// attempt, and I passed") is how people tell of tests and tries: risk
	// only where the rest of the message or the window speaks of dying or
	// distress.
	{id: "attempt.bare", level: 3, conf: 0.8, needsContext: true, ownWordsNotContext: true, notFollowedBy: []string{"to", "at", "of", "with", "for"}, src: `(?:first|second|third) attempts?`},
	{id: "attempt.did", level: 3, conf: 0.85, notFollowedBy: []string{"to", "a", "an", "the", "this", "that", "it", "my", "many", "several"}, src: `{i} {adv}(?:attempted|overdosed|slit my wrists|took (?:a bunch of|all (?:of )?(?:my|the)|a handful of|too many|[1-9]\d+|[5-9]|an overdose of|so many|a lot of) {means})`},
	{id: "attempt.survived", level: 3, conf: 0.85, src: `(?:survived|woke up after|failed) (?:my|a|the|another) (?:attempt|overdose|suicide)`},
	{id: "goodbye.final", level: 3, conf: 0.85, excusable: true, notFollowedBy: []string{"in", "at", "of", "with", "before", "as", "for", "tonight", "today", "until", "till", "til"}, src: `(?:this is|its|consider this|here is|heres) (?:my )?(?:goodbye|farewell|my last (?:post|message|night|day|words|goodbye)|the end for me|the last time (?:youll|you will) hear from me)`},
	{id: "goodbye.bye", level: 3, conf: 0.8, src: `(?:goodbye|bye|farewell) (?:world|(?:(?:cruel|fucked up|fucking|fuckin|shitty|cold|dark|sad|this|you) ){1,2}world)`},
	// "Goodbye forever" to people or as last words (byeForeverSrc).
	{id: "goodbye.forever", level: 3, conf: 0.8, src: byeForeverSrc},
	// "bye everyone" is also how people leave a chat: without distress
	// around it, it is only a warning sign.
	{id: "goodbye.everyone", level: 3, conf: 0.8, needsContext: true, src: `(?:goodbye|bye|farewell) (?:everyone|everybody)`},
	{id: "goodbye.wont", level: 3, conf: 0.85, excusable: true, src: `(?:i )?(?:wont|will not|im not going to) (?:be (?:here|around|alive) (?:tomorrow|much longer|by (?:morning|tomorrow|the end of)|for long|anymore)|wake up tomorrow|see (?:the|another) (?:morning|sunrise|tomorrow|next day|new year))`},
	{id: "goodbye.read", level: 3, conf: 0.85, src: `by the time (?:you|anyone|someone) (?:read|reads|see|sees|find|finds) this`},
	{id: "goodbye.doneit", level: 3, conf: 0.8, src: `{i} {adv}(?:going to|gonna|will|about to) (?:do it|go through with it)(?: {soon}| finally| this time)`},
	{id: "intent.ready", level: 3, conf: 0.8, weak: true, src: `{i} {adv}ready to (?:die|end it)(?: now| tonight| today)?`},
	// "I'm ready to go" ends many an evening: risk only in context.
	{id: "intent.ready_go", level: 3, conf: 0.7, needsContext: true, src: `{i} {adv}ready to go(?: now| tonight| today| forever| for good)?(?: \.|$| and| i| so| but| now| im| this)`},
	{id: "intent.nothing_stop", level: 3, conf: 0.8, src: `(?:nothing|no one|nobody) (?:can|will|is going to) stop me`},

	// ---- level 2: wish to be dead, active thoughts, method, self-injury ----
	{id: "ideation.selfkill", level: 2, conf: 0.9, weak: true, frame: true, src: `{selfkill}`},
	{id: "ideation.want_selfkill", level: 2, conf: 0.9, frame: true, src: `{want} {adv}(?:{selfkill}|suicide|killing myself|dying|ending it)`},
	{id: "ideation.suicidal", level: 2, conf: 0.9, src: `(?:{i}|me|feel|feeling|felt|been|getting|get|got|am|so|very|really|extremely|super|more|actively|passively|mildly|pretty|quite|always|still|again|becoming|became) {adv}suicidal`},
	{id: "ideation.suicidal_thoughts", level: 2, conf: 0.85, src: `(?:my|having|have|had|with|these|the|constant|intrusive|recurring|strong|bad|dark) {adv}suicid(?:al|e) (?:thoughts|ideation|feelings|urges|tendencies|thinking|mood|episodes?|crisis|plans?|intent|intention|intentions|impulses)`},
	{id: "ideation.suicide_option", level: 2, conf: 0.85, src: `suicide (?:is|seems|feels|sounds) (?:like )?(?:the|my|an|a) (?:only|best|last|real|easy|easiest|good|viable|reasonable|logical|final) ?(?:option|way out|answer|choice|solution|escape|thing left)?`},
	{id: "ideation.consider_suicide", level: 2, conf: 0.85, src: `(?:considering|contemplating|thinking about|thinking of|think about|thought about|thoughts of|seriously considering|fantasi[sz]ing about|romantici[sz]ing|google|googled|googling|research|researched|researching|looking up|looked up) {adv}(?:suicide|killing myself|ending it|ending my life|taking my life|how to (?:die|kill myself|end it))`},
	{id: "ideation.want_die", level: 2, conf: 0.85, weak: true, src: `(?:{i} )?{adv}(?:want to|want|wanted to|wish i could|wish to|would like to|need to|deserve to|ready to|just want to|longing to|long to|going to|hope to|hoping to|prefer to|should) {adv}(?:die|meet my maker|be with god|go home to god|(?:be )?(?:6|six) (?:feet|ft) under|be dead|not be alive|not exist|not be here|stop existing|cease to exist|stop living(?: \.|$| anymore| already| now| tonight| for good| forever| honestly| tbh| altogether| completely)|disappear forever|fall asleep forever|sleep forever|never wake up|not wake up|go to sleep forever|just die|flatline|croak|kick the bucket|bleed out|bleed to death)`},
	{id: "ideation.wish_dead", level: 2, conf: 0.85, src: `(?:wish|wished|hope|hoping|pray|praying|wishing) (?:that )?(?:i|im|id) {adv}(?:was|were|would be|would|could|will|be|die|had|could just|would just|never|dont|didnt|wont)? ?{adv}(?:dead|die|died|flatline|flatlined|croak|kick the bucket|not alive|never born|never been born|not born|not exist|not here|gone|stop existing|cease to exist|hit by a (?:car|bus|truck|train)|get hit by|get cancer|never existed|in a coma|fall asleep and not|not wake|drop dead|killed)`},
	// Waking up, wished against; "hope I wake up fine" after surgery is not.
	// Hoping not to wake up, whatever follows, unless it names a time to
	// be up by, a person not to wake or how one would wake: "hoping i
	// dont wake up in the morning" is a wish to die, "hope i dont wake up
	// late" or "the baby" is not.
	{id: "ideation.wish_not_wake", level: 2, conf: 0.85, notFollowedBy: append([]string{"the", "to", "everyone", "anyone", "him", "her", "them", "my", "our", "your", "his", "their", "if", "for"}, wakeQualified...), src: `(?:wish|wished|hope|hoping|pray|praying|wishing) (?:that )?(?:i|im|id) {adv}(?:never|dont|didnt|wont|wouldnt) {adv}wake up`},
	{id: "ideation.wish_dead_wake", level: 2, conf: 0.85, notFollowedBy: append([]string{"fine", "ok", "okay", "refreshed", "rested", "happy", "better", "on", "in"}, wakeQualified...), src: `(?:wish|wished|hope|hoping|pray|praying|wishing) (?:that )?(?:i|im|id) {adv}(?:was|were|would be|would|could|will|be|die|had|could just|would just|never|dont|didnt|wont)? ?{adv}wake up`},
	{id: "ideation.not_wake", level: 2, conf: 0.85, noNegate: true, notFollowedBy: wakeQualified, src: `(?:hope|hoping|wish|wishing|pray|praying|want) (?:that )?(?:i )?(?:dont|do not|never|wont|will not|didnt) (?:wake up|wake|get up|survive|pull through|make it (?:through|to) (?:the )?(?:night|morning|tomorrow|surgery|operation))`},
	{id: "ideation.sleep_forever", level: 2, conf: 0.8, src: `(?:go to sleep|fall asleep|sleep|stay asleep) (?:and )?(?:stay asleep )?(?:like )?(?:forever|permanently|for good|never wake up|not wake up)`},
	{id: "ideation.dont_want_live", level: 2, conf: 0.85, noNegate: true, src: `(?:dont|do not|no longer|not|never|didnt|doesnt) {adv}(?:want|wanna|wish|care|feel like i want|see a reason|see the point|have (?:a|any) (?:reason|will|desire)) (?:to )?(?:live|be alive|exist|continue living|keep living|go on living|stay alive|be here anymore|be on this earth|be in this world|wake up anymore|be alive anymore|carry on living|live anymore|exist anymore|living|existing|being alive)`},
	{id: "ideation.no_reason_live", level: 2, conf: 0.8, noNegate: true, src: `(?:no|nothing|not any|lost (?:my|the|all)|dont have (?:a|any)|theres no|there is no|no more) (?:reason|will|desire|point|motivation|purpose)s? (?:to|for|in) (?:live|living|be alive|being alive|stay alive|staying alive|keep living|keep going|going on|go on|exist|existing)`},
	{id: "ideation.life_not_worth", level: 2, conf: 0.8, noNegate: true, src: `(?:life|my life|living|existence|being alive|it|its) (?:isnt|aint|is not|isn t|just isnt|doesnt feel|no longer feels?|not|is {adv}not|is never|never feels|never seems) {adv}(?:really )?worth (?:living|it anymore|continuing|the pain|the struggle|fighting for)`},
	// Worth living, doubted: "I don't think my life is worth living",
	// "wondering whether it's worth it anymore" (not "my life is worth
	// living" alone).
	{id: "ideation.life_worth_doubt", level: 2, conf: 0.8, noNegate: true, src: `(?:(?:dont|do not|didnt|cant|no longer|never) (?:really )?(?:think|feel|believe|feel like|see how|see why)|(?:ask|asking|asked) myself|(?:wonder|wondering|question|questioning|not sure|unsure|dont know|idk|doubt) (?:if|whether)|doubt|(?:convince|tell|show|remind|persuade) me|(?:give me|need) (?:a reason|proof|one reason)) (?:that |why )?(?:\w+ ){0,3}(?:life|my life|living|existence|being alive|it|its) (?:is|feels|seems|will be|would be|is (?:even|really|still)) {adv}worth (?:living|it anymore|continuing|the pain|the struggle|fighting for)`},
	{id: "ideation.better_dead", level: 2, conf: 0.85, src: `(?:be|im|id be|would be|am|were|was) {adv}better off dead`},
	{id: "ideation.death_relief", level: 2, conf: 0.8, src: `(?:death|dying|suicide|not existing|being dead) (?:would be|will be|is|seems|feels like|sounds like|would feel like|is the only|seems like) (?:a |the |my )?(?:fucking |fkn |such a |real |huge |big |sweet |total )?(?:relief|release|escape|mercy|blessing|peace|only way out|only option|answer|best option|better option|way out|gift|sweet|welcome|a relief|better than (?:this|living|life)|(?:kinder|easier|gentler|more peaceful) than (?:this|living|life|being alive|going on))`},
	{id: "ideation.welcome_death", level: 2, conf: 0.8, src: `(?:welcome|long for|longing for|yearn for|crave|craving|embrace|waiting for|praying for|ready for|begging for|look forward to) {adv}death`},
	// "I'm not staying alive": the negation is the wish.
	{id: "ideation.not_staying_alive", level: 2, conf: 0.8, weak: true, noNegate: true, frame: true, src: `(?:im|i am|i will|ill|i|decided im|decided i am)? ?(?:not|never|no longer) (?:staying|going to stay|gonna stay|planning (?:on|to) stay(?:ing)?|going to be|gonna be|planning on being) alive`},
	{id: "ideation.rather_dead", level: 2, conf: 0.75, weak: true, src: `(?:id|i would|i|^|\. ) ?{adv}rather (?:be dead|die|not be alive|not exist|not be here)(?: (?:than|then) (?:live|living|go on|keep living|be alive|this|continue))?`},
	{id: "ideation.think_dying", level: 2, conf: 0.8, src: `(?:thinking|thoughts|think|thought|obsessing|fixated|fantasi[sz]ing|dreaming|daydreaming|daydream|fantasi[sz]e) (?:about|of) (?:my own death|dying|being dead|my death|not existing|not being here|not being alive|ending it|ending things|ending my life|taking my life|how (?:i would|to) die)`},
	{id: "ideation.kill_me_wish", level: 2, conf: 0.75, src: `(?:wish|hope|pray|praying|want|hoping) (?:someone|somebody|something|god|a car|a bus|the universe|it) (?:would|will|could|to) (?:just )?(?:kill me|end me|end my life|take my life|take me|hit me|shoot me|murder me|put me out of my misery)`},
	{id: "ideation.method", level: 2, conf: 0.85, src: `(?:how (?:many|much) {means} (?:would|will|does it take|do you need|to (?:die|kill|overdose|end it|not wake up)|is (?:lethal|fatal|deadly|too many|an overdose)|until)|how (?:much|many) (?:of )?(?:my )?\w+ (?:would|will|does it take to) (?:kill|overdose)|lethal dose|painless (?:way|ways|method|methods) to (?:die|go|end it|kill)|(?:easiest|quickest|fastest|best|surest|least painful|most painless) (?:way|ways|method|methods) to (?:die|kill myself|end it|end my life|commit suicide|overdose)|how (?:to|do i|can i|would i|could i|should i) (?:kill myself|end my life|commit suicide|die painlessly|overdose|hang myself|tie a noose|slit my wrists)|how long does it take to (?:die|bleed out|suffocate|drown)|enough {means} to (?:die|kill|overdose|end it|do it))`},
	{id: "ideation.overdose", level: 2, conf: 0.8, frame: true, src: `{want} {adv}(?:overdose|take (?:all (?:of )?(?:my|the)|a bunch of|a handful of|all the|every one of (?:my|the)|the whole (?:bottle|pack|box) of) {means}|swallow (?:all (?:of )?(?:my|the)|a bunch of|a handful of|all the) {means}|jump(?: off (?:a|the|my) (?:bridge|building|roof|rooftop|cliff|balcony|ledge|tower|overpass)| in front of (?:a|the) (?:train|bus|car|truck)| from (?:a|the) (?:bridge|building|roof|rooftop|cliff|balcony|ledge|tower|window))?(?: \.|$)|hang(?: myself)?(?: \.|$)|drown(?: myself)?(?: \.|$)|cut my (?:wrists|throat)|slit my (?:wrists|throat)|shoot myself)`},
	{id: "ideation.end_it", level: 2, conf: 0.75, src: `(?:want to|wanted to|going to|gonna|just want to|ready to|about to|thinking (?:about|of)|think about|might|should|will|could|cant wait to|need to|urge to) {adv}(?:end it|end things|end everything|end this|end it all|be done with (?:it all|life|everything|living|this life)|check out|not be here|call it quits on life)(?: \.|$| all| for good| now| tonight| already| forever| soon)`},
	{id: "ideation.no_point_living", level: 2, conf: 0.75, src: `(?:whats (?:even )?the|what is (?:even )?the|there is no|theres no|no|dont see (?:the|any)|cant see (?:the|any)|lost (?:the|all)) point (?:in|of|to) (?:living|being alive|life|existing|going on|staying alive|keep living|continuing)`},
	{id: "ideation.tired_living", level: 2, conf: 0.75, notPrecededBy: []string{"ever", "have", "ive", "has", "had", "what", "youve", "weve", "theyve"}, src: `(?:tired|sick|exhausted|done|finished) (?:of|with) (?:living|being alive|existing|life itself|this life|my life|being here|life)`},
	{id: "ideation.dead_inside_wish", level: 2, conf: 0.8, notFollowedBy: []string{"of"}, src: `(?:wanting|want|wish|wishing|wanted) (?:to )?(?:die|death|to be dead|to not exist|to not be alive)`},
	{id: "ideation.should_die", level: 2, conf: 0.8, src: `(?:i|im|i really|i just) (?:should|deserve to|need to|have to|must) (?:die|be dead|not exist|not be alive|kill myself)`},
	{id: "ideation.passive_gone", level: 2, conf: 0.75, src: `(?:everyone|everybody|people|they|my family|the world) (?:would|will) be (?:better off|happier|better) (?:if i (?:was|were|died|was dead|were dead|killed myself|wasnt here|werent here|was gone|were gone|didnt exist|never existed)|when im (?:dead|gone))`},
	{id: "ideation.gone_miss", level: 2, conf: 0.75, src: `(?:dont think|doubt|wonder if) (?:anyone|anybody) (?:would|will) (?:miss me|notice|care if i)|(?:if|when) i (?:die|died|was gone|disappeared)(?: right now| today| tomorrow| rn)? (?:no one|nobody|noone) (?:would|will)|(?:no one|nobody|noone) (?:would|will) (?:notice or care|care or notice)|(?:no one|nobody|noone) (?:would|will|is going to|gonna) (?:miss me|notice if i (?:died|was gone|disappeared|vanished|killed myself)|care if i (?:die|died|was gone|killed myself|disappeared)|even notice)`},
	{id: "ideation.cant_kill", level: 2, conf: 0.8, src: `(?:too (?:scared|afraid|cowardly|weak|much of a coward) to|(?:dont|do not) have the (?:guts|courage|balls) to|(?:i )?(?:cant|couldnt) even) {adv}(?:kill myself|die|end it|commit suicide|do it|go through with it)`},
	{id: "ideation.affirm", level: 2, conf: 0.8, src: `(?:i )?(?:have|keep|get|got|had|been having|am having|im having|keep having) (?:these )?(?:thoughts|ideas|urges) (?:of|about) (?:suicide|killing myself|ending (?:my life|it)|dying|death|not being here|ending things)`},
	{id: "ideation.death_wish", level: 2, conf: 0.8, notPrecededBy: []string{"plants", "plant", "houseplants", "cactus", "succulents", "basil", "tomatoes", "phone", "laptop", "car", "printer", "cat", "dog", "fish", "squirrels", "pigeons", "deer", "hamster"}, src: `(?:have|has|had|my) (?:a )?death wish`},
	{id: "ideation.want_gone", level: 2, conf: 0.7, weak: true, src: `{i} {adv}(?:want|wanna|wish) {adv}(?:to )?(?:be gone|be dead|stop breathing|not wake up|disappear and never come back|go to sleep and never wake up|just not wake up)`},

	// self-injury (level 2, flag)
	{id: "selfharm.cut", level: 2, conf: 0.85, selfInjury: true, src: `(?:{i} )?{adv}(?:cut|cutting|cuts|burn|burned|burnt|burning|scratch|scratching|scratched|hurt|hurting|harm|harming|harmed|hit|hitting|punch|punching|bang|banging) (?:myself|my (?:arms?|wrists?|thighs?|legs?|skin|stomach|hips?|body))(?: again| last night| yesterday| today| tonight| every night| to feel| because| when| so|$| \.| deep| with|(?: until| till| til)(?: \w+){0,3} (?:open|raw|bleeds?|bleeding|blood|bled))`},
	{id: "selfharm.want", level: 2, conf: 0.85, selfInjury: true, src: `(?:want to|wanted to|urge to|urges to|need to|tempted to|going to|gonna|itching to|craving|crave|thinking (?:about|of)|started|start|keep|cant stop) {adv}(?:cut|cutting|burn|burning|hurt|hurting|harm|harming|scratch|scratching) (?:myself|my (?:arms?|wrists?|thighs?|legs?|skin|body))`},
	{id: "selfharm.noun", level: 2, conf: 0.85, selfInjury: true, subject: true, src: `(?:{i} )?{adv}(?:self harm|self harming|self harmed|self injure|self injuring|self injured|self mutilate|self mutilating|nssi)(?: again| every| daily| for| since| because| to| when|$| \.| and| but| last| yesterday| today| tonight| this| earlier| recently| lately| a lot| badly| twice| more| after| before| so| in the| at| on my)`},
	{id: "selfharm.sh", level: 2, conf: 0.75, selfInjury: true, src: `(?:relapsed on|relapse on|relapsing on|clean from|my|do|did|started|start|stop|stopped|urge to|urges to|want to|to|i|been doing|struggle with|struggling with) sh(?: again| \.|$| and| but| scars| urges| cuts| for| since| every| daily)`},
	// A relapse is self-injury when the message says into what: people
	// relapse into drinking, drugs and depression too. A bare relapse after
	// talk of self-harm is read by the window and concept.relapse_blade.
	{id: "selfharm.relapse", level: 2, conf: 0.85, selfInjury: true, src: `(?:relapsed|relapse|relapsing|clean from|(?:days|weeks|months|years) clean from|broke my (?:clean )?streak (?:of|on|from|with)|self harm relapse|sh relapse|cutting relapse)(?: on| into| with| from| of)? (?:self harm|self harming|sh|cutting|burning|self injury|hurting myself|harming myself|the blade|blades|razors)|(?:self harm|sh|cutting) relapse`},
	{id: "selfharm.fresh", level: 2, conf: 0.8, selfInjury: true, src: `(?:fresh|new|deep|open|bleeding|infected) (?:cuts|wounds|scars|burns)(?: on my| from)`},
	{id: "selfharm.blade", level: 2, conf: 0.8, selfInjury: true, src: `(?:took|take|grabbed|grab|picked up|used|use) (?:a|the|my) (?:blade|razor|razors|knife|lighter|sharpener blade) (?:to|on|and) (?:my (?:arms?|wrists?|thighs?|legs?|skin)|myself|cut|cutting)`},

	// ---- level 1: warning signs without ideation ----
	{id: "warn.cant_go_on", level: 1, conf: 0.7, src: `(?:cant|couldnt|cannot|dont know how to|dont want to|no longer|unable to) {adv}(?:go on|keep going|carry on|take it|take this|do this|handle this|handle it|cope|live like this|keep living like this|continue like this|hold on)(?: anymore| any longer| much longer| like this)|(?:not sure|dont know|no idea) how {adv}(?:much )?longer {i} (?:can|could) {adv}(?:keep (?:this |it )?(?:up|going)|go on|carry on|take (?:it|this)|hold on|last)|how {adv}(?:much )?longer (?:can {i}|{i} can) {adv}(?:keep (?:this |it )?(?:up|going)|go on|carry on|take (?:it|this)|hold on|last)`},
	{id: "warn.pointless", level: 1, conf: 0.6, src: `(?:my life|life|everything|it all|living|existing) (?:is|feels|seems) {adv}(?:pointless|meaningless|hopeless|not worth it)|(?:whats|what is) (?:even )?the point (?:of (?:anything|living|life|trying|going on|any of this)|anymore)|(?:theres|there is) no point (?:in )?(?:anything|trying|going on|anymore)`},
	{id: "warn.hopeless", level: 1, conf: 0.65, src: `(?:{i}|feel|feeling|felt|so|completely|totally|utterly) {adv}(?:hopeless|worthless|helpless|trapped|empty inside|numb|like a burden|a burden|like a failure|defeated|broken beyond repair)`},
	{id: "warn.burden", level: 1, conf: 0.7, src: `(?:{i} (?:am|m)?|just|such) {adv}(?:a|such a) burden|burden (?:to|on) (?:everyone|everybody|my family|others|people|them|my friends)|better off without me`},
	{id: "warn.no_way_out", level: 1, conf: 0.7, src: `(?:no way out|(?:dont|cant|cannot) see (?:a|any) way out|no escape|nowhere to turn|no hope|no future|nothing to live for|nothing left (?:for me|to live for|to lose)|no light at the end|never (?:going to|gonna) get better|nothing (?:is )?(?:ever )?(?:going to|will|is going to) (?:ever )?get better|(?:things|it|life) (?:are|is|will)? ?(?:never|not ever) (?:going to )?get(?:ting)? better|will never get better|wont ever get better|give up on (?:life|everything|myself|living)|gave up on (?:life|everything|myself|living)|given up on (?:life|everything|myself|living)|lost all hope|lost the will|losing the will|lost my will|(?:cant|dont|cannot) see (?:any |the )?light(?: at the end)?)`},
	{id: "warn.disappear", level: 1, conf: 0.65, weak: true, src: `{want} {adv}(?:disappear|vanish|run away from (?:it all|everything|life)|escape (?:it all|everything|this life|life)|not feel anything|stop feeling(?: anything| everything| at all)?(?: \.|$)|the pain to (?:stop|end)|it (?:all )?to (?:stop|end)|everything to (?:stop|end)|sleep for (?:ever|a (?:year|decade|very long time))|give up|be nothing|fade away)`},
	{id: "warn.kill_me", level: 1, conf: 0.55, weak: true, src: `(?:someone|somebody|just|please|pls|god|lord) (?:please |pls |just ){0,3}(?:kill me|end me|shoot me)`},
	{id: "warn.dark", level: 1, conf: 0.6, src: `(?:dark|intrusive|scary|morbid|bad) thoughts (?:about|of) (?:death|dying|myself|not being here|hurting myself)|(?:thinking|think|thoughts) about death`},
	{id: "warn.pain_stop", level: 1, conf: 0.6, src: `(?:make|want|need) (?:the|this|all the|all this) pain (?:to )?(?:stop|end|go away)`},
	{id: "warn.rather_die", level: 1, conf: 0.5, src: `rather die (?:than|then)`},
	{id: "warn.no_one_care", level: 1, conf: 0.55, src: `(?:no one|nobody|noone) (?:would|will|even) (?:care|notice|miss me)`},

	// ---- third parties ----
	{id: "third.wants_die", kind: kindThird, conf: 0.8, src: `{other} {adv}(?:said|says|told me|texted|messaged|posted|wrote|keeps saying|talks about|talked about|talking about|mentioned|threatened|threatens|is threatening|has been|is|was|wants|wanted|want|tried|has tried|attempted|is going to|plans to|might|may|could) {gap}(?:to )?(?:kill (?:himself|herself|themselves|themself)|end (?:his|her|their) (?:own )?life|take (?:his|her|their) (?:own )?life|commit suicide|suicide|suicidal|self harm|cutting (?:himself|herself|themselves)|hurt (?:himself|herself|themselves|themself)|die|be dead|not be alive|overdose|overdosed)`},
	{id: "third.reflexive", kind: kindThird, conf: 0.8, src: `(?:kill|killing|hurt|hurting|cut|cutting|harm|harming|hang|hanging|shoot|shooting) (?:himself|herself|themselves|themself)`},
	{id: "third.help", kind: kindThird, conf: 0.75, src: `(?:help|support|talk to|worried about|scared for|afraid for|concerned about|what do i do about|how do i help) {gap}(?:{other}|friend|brother|sister|son|daughter|partner) {gap}(?:who is|whos|that is|thats|is|being|who might be|might be|who)? ?{adv}(?:suicidal|self harming|cutting|wants to die|talking about suicide|in crisis)`},
	{id: "third.suicidal_noun", kind: kindThird, conf: 0.75, src: `(?:suicidal|self harming|depressed and suicidal) (?:friend|friends|brother|sister|son|daughter|partner|husband|wife|boyfriend|girlfriend|mom|mum|dad|parent|child|kid|student|students|teen|teenager|person|people|patient|client|loved one|family member|coworker|colleague|roommate)`},
	{id: "third.suicidal_other", kind: kindThird, conf: 0.75, src: `{other} (?:is|was|has been|seems|seemed|sounds|might be|may be|could be|feels|felt|got|gets) {adv}(?:suicidal|self harming)`},

	// ---- harm to others, abuse ----
	{id: "harm.others", kind: kindHarmOthers, conf: 0.7, notFollowedBy: []string{"if"}, src: `(?:want to|going to|will|plan to|planning to|thinking about|think about|thought about|thoughts (?:of|about)|imagine|imagining|urge to|urges to|fantasi[sz]e about|fantasi[sz]ing about) {adv}(?:kill|killing|murder|murdering|hurt|hurting|stab|stabbing|shoot|shooting|strangle|strangling|poison|poisoning) (?:him|her|them|my (?:\w+)|someone|somebody|people|everyone|everybody|that \w+|my \w+)`},
	{id: "abuse.hurt", kind: kindAbuse, conf: 0.7, src: `(?:he|she|they|my (?:\w+)) (?:hits|hit|beats|beat|chokes|choked|strangles|strangled|rapes|raped|abuses|abused|hurts|threatens|threatened|assaulted|molested|touches|touched) me|(?:im|i am|i was|being|been) (?:being )?(?:abused|raped|molested|beaten|assaulted|hit|threatened|trafficked)|(?:afraid|scared|terrified|frightened|worried) (?:that )?(?:he|she|they|my \w+) (?:will|is going to|are going to|gonna|might|could) (?:kill|hurt|hit|beat|harm|attack) me|not safe at home|(?:he|she|they) (?:will|is going to|said (?:he|she|they) would) kill me`},
}

// moreRules hold the families of indirect wording people use: ingestion in
// progress, method seeking, passive wishes, "do it"/"end it" in context,
// reasons to live, goodbyes.
var moreRules = []rule{
	// attempts in progress and ingestion
	// A large amount taken: an overdose or a lethal dose said outright, or a
	// container or heap of a drug.
	{id: "attempt.ingest_large", routine: true, level: 3, conf: 0.85, src: `(?:took|taken|taking|swallowed|swallowing|drank|downed|ingested|chugged|popped) (?:a |an |the )?(?:total of |about |around |over |like |at least )?(?:too many|way too many|an overdose|a fatal dose|a lethal dose|(?:handful|bottle|bottles|whole bottle|whole pack|box|boxes|packet|packets|entire bottle|entire pack|all (?:of )?(?:my|the|his|her|\w+s)|too much|way too much|a bunch|a lot|so many)(?: of)? (?:my |the |his |her |\w+s )?(?:\w+ )?{drug})`},
	{id: "attempt.ingest_dose", routine: true, level: 3, conf: 0.7, needsContext: true, notFollowedBy: countNouns, src: `(?:took|taken|taking|swallowed|drank|downed|ingested|chugged|popped|ive taken|just took) (?:a |an |the )?(?:total of |about |around |over |like |at least |some )?\d+ ?(?:mg|g|grams|pills|tablets|caps|capsules|of|x)?`},
	{id: "attempt.ingest_drug", routine: true, level: 3, conf: 0.7, needsContext: true, src: `(?:took|taken|swallowed|drank|downed|ingested|chugged) (?:some |a lot of |a bunch of |all (?:of )?(?:my |the )?|windshield |the )?(?:\d+ ?(?:mg|g)? )?(?:of )?(?:my )?(?:pills|tablets|meds|medication|sleeping pills|painkillers|tylenol|paracetamol|acetaminophen|ibuprofen|naproxen|aspirin|benadryl|diphenhydramine|sertraline|quetiapine|olanzapine|venlafaxine|trazodone|lithium|insulin|xanax|oxy|oxycodone|morphine|fentanyl|heroin|bleach|antifreeze|poison|rat poison|washer fluid|wiper fluid|antidepressants|anti depressants)`},
	{id: "attempt.overdosing_now", level: 3, conf: 0.85, src: `(?:{i} )?(?:overdosing|overdosed|am overdosing|just overdosed)(?: right now| now| tonight| again| on)?`},
	{id: "attempt.hope_works", level: 3, conf: 0.8, needsContext: true, src: `(?:hope|hoping|pray|praying) (?:that )?(?:this|it|they|these) (?:works?|will work|does the (?:trick|job)|will do the (?:trick|job)|is the end|kills? me|is enough)`},
	{id: "attempt.commit_bare", level: 2, conf: 0.75, src: `(?:{want}|{intend}|{tried}|almost|nearly|about|feel like|feeling like|thinking of|close to|urge to) {adv}commit(?:ting|ted)?(?: suicide)?(?: \.|$| today| tonight| soon| tomorrow| again| for| but| and| because| im| i| this| now| already| yet)`},
	{id: "attempt.going_through", level: 3, conf: 0.75, needsContext: true, src: `(?:going through with it|went through with it|go through with it (?:tonight|today|this time|soon|now)|backed out (?:at the last|last)|(?:chickened|pulled) out (?:at the last|last minute))`},
	{id: "attempt.count", level: 3, conf: 0.8, src: `(?:two|three|four|five|several|multiple|many|\d+|few|an|one|the|that) (?:suicide )?attempts?(?: this (?:year|month|week)| last| before| already| in)`, notFollowedBy: []string{"to", "at"}},
	{id: "attempt.in_an", level: 3, conf: 0.8, src: `in an attempt(?: to (?:die|end it|end my life|kill myself|commit))?(?: \.|$| then| and| but| last| yesterday| today)`},

	// plans, dates, finality in context
	{id: "intent.plan_bare", level: 3, conf: 0.7, needsContext: true, src: `(?:ive|i have|ive got|i have got|ive made|i made) (?:a|my|the) (?:plan|date|day)(?: \.|$| and| but| now| already| ready| set| for (?:it|tonight|when|how|the end|this weekend)| to (?:do it|end it|die|go|finally|make it stop|end (?:this|everything|things)))`},
	{id: "intent.date_dead", level: 3, conf: 0.8, src: `(?:supposed|going|meant|planning|planned) to be (?:dead|gone) (?:by|in|before|on|after)`},
	{id: "intent.do_it", level: 2, conf: 0.7, needsContext: true, src: `(?:{intend}|{want}|courage to|guts to|strength to|could just|should just|why not just|just going to|finally) {adv}(?:do it|doing it|end it|ending it|go through with it|let go)`, notFollowedBy: []string{"with", "for", "again", "right", "better", "properly", "myself", "as", "like", "instead", "together", "differently"}},
	{id: "intent.do_it_soon", level: 3, conf: 0.75, needsContext: true, src: `(?:do it|doing it|end it|ending it) (?:tonight|today|tomorrow|this weekend|this week|next week|this month|(?:on |this |next )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|soon|on (?:the )?\d+|on (?:christmas|new years|my birthday)|on (?:the|my|his|her|their|our) (?:\w+ )?anniversary|(?:before|after|when|once) [a-z0-9]+)`},
	{id: "intent.method_plan", level: 3, conf: 0.8, src: `(?:planning|planned|plan|going|decided|ready|about) (?:for (?:about |a |the |weeks|months|days|\w+ )*(?:now )?)?(?:to|on) (?:jump(?:ing)? (?:off|from|in front)|hang(?:ing)? myself|shoot(?:ing)? myself|overdos(?:e|ing)|drown(?:ing)? myself|slit(?:ting)?|take all|swallow(?: \.|$| (?:all|every\w*|the|them|those|these|a|an|some|\d+|my (?:\w+ )?(?:{drug}|stash|supply))))`},
	{id: "goodbye.sign_off", level: 3, conf: 0.75, needsContext: true, excusable: true, notPrecededBy: []string{"in", "on", "to", "since", "from", "under", "after", "of", "about"}, notFollowedBy: []string{"tonight", "today", "until", "till", "til"}, src: `(?:this is me signing off|signing off for good|(?:my|this is my|this is the) (?:last|final|finale) (?:post|message|goodbye|words|entry)|see you (?:all )?on the other side|(?:goodbye|bye|farewell) (?:friends|all|guys|reddit|everyone|my friends|cruel|fucked up world)|sorry (?:everyone|guys|mom|dad|for everything) (?:goodbye|bye|i love you))`},
	// A bare "bye" ends most chats: it counts only inside a message that
	// itself speaks of distress (a long post that ends in "Goodbye.").
	{id: "goodbye.alone", level: 2, conf: 0.6, needsOwnContext: true, src: `^(?:goodbye|bye|farewell)(?: \.|$)|(?:\. |^)(?:goodbye|farewell)(?: \.|$)`},

	// method seeking, means
	{id: "method.seek", level: 2, conf: 0.8, notFollowedBy: []string{"about"}, src: `(?:painless|pain free|quick|quickest|fastest|easiest|peaceful|surest|best|effective|reliable) (?:suicide|way to go|way out|method|methods|death|exit|way to die|ways to die|way to end it)|(?:what|which) (?:pills|meds|drugs|medication|poison) (?:can|could|will|would) (?:cause death|kill|do the job|end it|make me die)|(?:can|could|would|will|does) (?:chugging|taking|drinking|overdosing on|eating|mixing) \w+(?: \w+)? (?:kill (?:you|me|someone|a person)|be fatal|be lethal)|how painful (?:would it be|is it|it would be) to die|(?:exit|leave) (?:permanently|this world permanently)|make an exit|how (?:do|can|would) (?:i|you|someone|one) (?:make it look like|make it appear|fake) an accident|suicide without (?:making it|it) (?:look|appear)|price of cyanide|cyanide price|buy cyanide|(?:where|how) (?:to|can i|do i) (?:get|buy) (?:a gun|cyanide|poison|a noose|helium)`},
	{id: "method.wish_means", level: 2, conf: 0.75, src: `(?:wish|if only) (?:i had|i could get|i owned) (?:a|the|my) (?:gun|rope|pills|bullet)|pull the trigger|bleed out|open (?:my|the) (?:veins|arteries|artery|brachial|wrists)|(?:slit|cut|slice|open) (?:my )?(?:wrists|veins|throat|brachial)(?: open)?|(?:noose|belt) (?:around|on) my neck|head (?:down )?on (?:the )?(?:train )?tracks|in front of (?:a|the) train`},
	{id: "method.think", level: 2, conf: 0.8, src: `(?:thinking|think|thought|thoughts|dreaming|fantasi[sz]ing|urges?|tempted) (?:about|of|to) (?:hurling|throwing|hanging|shooting|drowning|stabbing|killing|poisoning|injecting|overdosing|jumping|gassing|suffocating|starving|cutting|slitting|burning) (?:myself|my (?:wrists|throat|arms))`},
	{id: "method.means_have", level: 2, conf: 0.7, needsContext: true, src: `(?:ive|i have|got|have|all i have (?:is|are)|now all i have are) (?:about |around |over |like )?(?:\d+|a bottle of|a bunch of|enough|these|the|my) ?(?:or so )?(?:\d+ ?mg )?(?:pills|tablets|meds|paracetamol|tylenol|ibuprofen|sleeping pills|rope|gun|razor|razors|blades)`},
	{id: "prep.with_me", level: 3, conf: 0.8, src: `(?:ive|i have|got) (?:a|the|my) (?:rope|noose|gun|knife|blade|razor) (?:with me|next to me|in (?:my|the) (?:room|bag|car|pocket|hand|drawer)|ready|set up|tied)`},
	// Pills are carried for ordinary reasons ("my pills are in my bag"):
	// only pills made ready are preparation.
	{id: "prep.pills_ready", level: 3, conf: 0.8, src: `(?:ive|i have|got) (?:a|the|my|all (?:my|the)) (?:pills|tablets|meds|sleeping pills|painkillers) (?:next to me|in my hand|ready|lined up|counted out|set out|in front of me)`},

	// passive wishes and indirect ideation
	{id: "passive.reason_live", level: 2, conf: 0.7, noNegate: true, src: `(?:need|needs|find|finding|give me|looking for|struggling to find|cant find|cant think of|dont have|dont have any|dont have much|lost|losing|lost my|what is my|whats my|was my|he was my|she was my|only|no) (?:a |any |more |much |one |the |my )?reasons? (?:to|for) (?:live|living|keep living|be alive|stay alive|stay(?: \.|$| anymore| any longer| on this earth| in this world)|keep going(?: \.|$| anymore)|exist|not die|go on(?: \.|$| anymore| living))`},
	{id: "passive.only_here", level: 2, conf: 0.7, notFollowedBy: []string{"sane", "awake", "busy", "motivated", "entertained", "warm", "fed", "grounded", "calm", "productive", "positive", "company", "healthy", "fit", "occupied"}, src: `(?:im only (?:alive|staying alive|still here|still alive)|the only (?:thing|reason|things) (?:keeping me|that keeps me|im still|i am still|i stay|stopping me|holding me)|only (?:staying alive|alive|sticking around|still here) (?:for|because|so)|only (?:staying|here|sticking around|hanging on|holding on) (?:for (?:my |the )?{loved}|because of (?:my |the )?{loved}|so (?:i dont|i wont|that i dont|that i wont|as not to|my))|if (?:it wasnt|it werent|i didnt have|not) for (?:my |her |him |them )?\w+ id (?:already )?be (?:gone|dead)|(?:id|i would) (?:already )?be (?:gone|dead) (?:if|by now|already)|whats (?:keeping|stopping) me|what stops me is)`},
	{id: "passive.leave_world", level: 2, conf: 0.75, src: `(?:want|wanna|wish|ready|going|time) to (?:leave|exit|depart) (?:this|the) (?:earth|world|planet|life)|(?:world|everyone|everybody|they) (?:would be|will be|is|could) (?:a )?(?:better|happier) (?:place )?(?:off )?without me|(?:world|they|everyone) (?:can|could) (?:use|do with) one less|one less (?:of me|person like me)`},
	{id: "passive.easier_gone", level: 2, conf: 0.75, src: `(?:easier|better|simpler|best) (?:for everyone )?(?:if i (?:(?:was|were) (?:just |simply )?(?:gone|dead|not (?:here|around|alive)|never born|out of the picture)|(?:wasnt|werent) (?:\w+ )?(?:here|around|alive|born|in the picture|in (?:their|your|his|her|the) (?:lives|life|way))|(?:just |simply )?(?:died|disappeared|vanished|didnt exist|never existed|left for good|ended it|killed myself|went away forever|didnt wake up|never woke up|was gone|were gone|wasnt here|werent here|wasnt around)|didnt (?:exist|wake up|live|make it|survive|be here|be around))|to (?:just )?(?:be gone|not be here|not exist|disappear|die|end it)|when im gone)`},
	{id: "passive.take_me", level: 2, conf: 0.7, weak: true, src: `(?:and|just|please|someone|somebody) end me|(?:god|lord|universe|death) (?:please |just )?(?:take me|come get me|come for me|end me)|pray(?:ing)? (?:to god )?(?:for god )?(?:to )?(?:just )?take me|(?:when|why) (?:will|wont) (?:you|god|death) (?:just )?take me|let me die|kill me (?:already|now please|please)|end me already`},
	{id: "passive.never_wake", level: 2, conf: 0.75, notFollowedBy: wakeQualified, src: `(?:wake up dead|permanent (?:slumber|sleep)|eternal (?:sleep|rest|slumber)|sleep (?:forever|and never wake(?: up)?)|close my eyes (?:one last time|forever|and never)|never (?:have to )?wake up(?: again)?|drift off (?:forever|and never)|hope i (?:dont|never) (?:make it|survive|wake(?: up)?)|into (?:oblivion|nothingness|the void forever))`},
	{id: "passive.life_end", level: 2, conf: 0.7, src: `(?:want|wait|waiting|wish|hoping|ready) (?:for )?(?:my )?life to (?:end|stop|be over)|(?:want|wish|need) (?:it|it all|everything|all of it|all of this|this all|my life) to (?:end|be over|stop)|want (?:it|this|everything) (?:all )?over(?: with)?`, notFollowedBy: []string{"with", "so", "soon", "quickly"}},
	{id: "passive.no_point_me", level: 2, conf: 0.7, src: `no point (?:of|in) me (?:being|living|existing|staying|sticking around|hanging around|being here|going on)|why (?:am i|should i) (?:even )?(?:still )?(?:alive|existing|living|here)|why (?:the fuck |tf )?am i (?:still )?(?:existing|alive)|(?:better|best) (?:to|if i) (?:just )?die|(?:dont|do not) (?:know if i (?:can|want to)|think i can|think i want to) (?:keep )?(?:live|living|go on|stay alive|keep going)|(?:cant|dont want to) (?:continue|keep) (?:to )?(?:live|living)|(?:seeing|imagining|picture|picturing) myself (?:dying|dead|die)`},
	{id: "passive.gone", level: 2, conf: 0.65, needsContext: true, src: `(?:want|wish|need|ready) to (?:be gone|go away forever|not be here anymore|not be around|rest forever|rest in peace)|(?:i need to|its time to|time for me to) go(?: \.|$| now| forever)`},
	{id: "passive.dying_ok", level: 2, conf: 0.65, src: `(?:wouldnt|would not|dont|do not|wouldnt even) (?:mind|care) (?:if i|dying|being dead|to die)(?: died| was dead| were dead| didnt wake| got hit| passed| died in)?`},
	{id: "passive.suicidal_word", level: 2, conf: 0.75, subject: true, src: `suicidal(?: \.|$| and| but| again| thoughts| ideation| feelings| urges| lately| today| tonight| right now| now| all the time| because| since| when| for| as| so| or| with)`, notFollowedBy: []string{"friend", "person", "people", "patients", "patient", "teen", "teens", "individuals", "behavior", "behaviour", "risk"}},
	{id: "passive.suicide_thought", level: 2, conf: 0.75, src: `(?:suicide|suicidal) (?:thoughts|ideation|urges|feelings) (?:have|has|are|keep|came|come|hit|hits|is|plague|plagued|return|returned|creep|crept|consume)`},
	{id: "passive.die_soon", level: 2, conf: 0.65, needsContext: true, src: `(?:im|i am) (?:going to|gonna) die (?:soon|tonight|today|anyway|anyways|one day by my own)`},

	// "Better off if I ..." finished by an ordinary act ("moved away",
	// "left the group chat", "stopped asking them for help") is a
	// burden felt, not a wish to be gone.
	{id: "passive.more", level: 2, conf: 0.7, notFollowedBy: betterOffActs, src: `(?:want to|wish to|wish i could|wish i can|wanna) (?:no longer|not) (?:be here|exist|be alive|live|wake up)|die in my sleep|(?:cant|dont want to) be (?:here|on this earth|in this world|alive) (?:anymore|any longer)|(?:suicide|killing myself|dying|death|ending it) (?:has been|is|keeps|was|been) (?:on|in|crossing) my mind|debating (?:suicide|killing myself|ending it)|(?:all|the only thing) i (?:ever )?(?:think|thought) (?:about|of) is (?:dying|death|suicide|killing myself|ending it)|(?:everyone|everybody|people|they|my family|the world) (?:would|will) be (?:better off|happier|better) (?:if i|when i|once i)|(?:wish i can|wish i could) (?:just )?die|(?:dont know|idk|not sure) how to (?:just )?die|how to (?:just )?die|(?:courage|guts|nerve|strength) to (?:jump|do it|end it|go through with it|kill myself|pull the trigger)|(?:reason|reasons) (?:not to|why i shouldnt|i shouldnt) (?:do it|kill myself|die|end it|end my life|jump)|why i shouldnt (?:do it|kill myself|die|end it)`},
	{id: "passive.way_out", level: 2, conf: 0.65, needsContext: true, src: `(?:need|want|looking for|find|found|only) (?:a |the )?way out|i (?:just )?want out|(?:lose|losing|lost) (?:my|the) (?:battle|fight)|the way out (?:for me )?is|(?:leave|exit) this existence`},
	// "it" is whatever was said before: suicide when the message or the
	// window speaks of death or distress, an argument or an exam otherwise.
	{id: "passive.thinking_about_it", level: 2, conf: 0.65, needsContext: true, silentAlone: true, src: `(?:been|am|im|keep) (?:really )?thinking about it`},
	{id: "intent.die_plan", level: 3, conf: 0.8, src: `(?:intend to|decided to|ready to|planning to|plan to|going to) (?:\w+ ){0,3}(?:and )?(?:die|suffocate|drown)(?: \.|$| tonight| today| now)|(?:place|spot|date|day|method|bridge|building) (?:all )?(?:picked out|chosen|selected|set)`},
	{id: "attempt.tried_means", level: 3, conf: 0.8, src: `{tried} (?:to )?(?:swallow|take|down|drink) (?:a bunch of|all (?:of )?(?:my|the)?|a handful of|too many|\d+|my|the|some)? ?{means}`},
	// A bare verb followed by an object ("tried to drown my sorrows",
	// "tried to hang the picture") is not an attempt.
	{id: "attempt.tried_method", level: 3, conf: 0.8, src: `{tried} (?:to )?(?:hang myself|drown myself|suffocate myself|poison myself|strangle myself|slit my (?:wrists?|throat)|jump off (?:a|the|my) \w+)`},
	// A bare verb followed by an object ("tried to drown my sorrows",
	// "tried to hang the picture", "try to hang on") is not an attempt.
	{id: "attempt.tried_method_bare", level: 3, conf: 0.8, notFollowedBy: []string{"my", "the", "a", "an", "out", "up", "his", "her", "their", "our", "your", "some", "sorrows", "them", "him", "it", "this", "that", "on", "in", "onto", "around", "tight", "with", "together", "there", "loose", "off"}, src: `{tried} (?:to )?(?:hang|drown|suffocate|poison|strangle|overdose)`},

	{id: "more.suicide_verb", level: 2, conf: 0.8, src: `(?:{want}|{intend}|{tried}|how (?:can|do|should|would|could) i|can i|cant|could|should i|want) {adv}suicide(?: \.|$| in| at| but| and| tonight| today| soon| now| because| without| by)`},
	{id: "more.wish_means", level: 2, conf: 0.75, timeless: true, src: `(?:wish|if only) i (?:had|owned|could get) (?:the )?means|(?:wish|wishing) (?:that )?i (?:had|would have|couldve|could have) (?:jumped|done it|died|gone through with it|succeeded|finished it|pulled the trigger)|(?:should|shouldve|should have) (?:died|die|been dead|been gone|never been born)(?: \.|$| a| when| years| back| then| already| long)`},
	{id: "more.god_kill", level: 2, conf: 0.7, src: `(?:begging|asking|praying|pray|beg) (?:to )?(?:god|the universe|lord) (?:to )?(?:please |just )?(?:kill me|take me|end me|end my life|let me die)|(?:end me|kill me) (?:end me|kill me)`},
	{id: "more.stomach", level: 3, conf: 0.8, src: `(?:pumped (?:my )?stomach|stomach (?:was |got )?pumped|(?:had|got) my stomach pumped|(?:from|after) (?:an|my) (?:attempt|overdose))`},
	{id: "more.follow_through", level: 2, conf: 0.7, needsContext: true, src: `(?:go through with it|act on (?:it|them|these thoughts|my thoughts)|(?:take|taking|taken|took) matters into my own hands|put an end to (?:it|this|all)|its time to (?:go|end it))`},
	// "Follow through" with something named is that thing ("follow
	// through with our bet"); bare or with "it" it is the act, in context.
	{id: "more.follow_through_bare", level: 2, conf: 0.7, needsContext: true, notFollowedBy: []string{"with", "on"}, src: `follow through(?: (?:with|on) (?:it|this|my plan|the plan))?`},
	// "Only a matter of time" is risk when the message or the window
	// speaks of dying; of a life falling apart it is despair.
	{id: "more.matter_of_time", level: 2, conf: 0.65, needsTalk: true, src: `matter of (?:time|when)`},
	{id: "more.alive_for", level: 2, conf: 0.65, src: `(?:im|i am) (?:only |just )?(?:alive|living|staying alive|still here|still alive) (?:for|because of) (?:my|the|her|him|them)|(?:struggling|struggle|hard|fighting|trying) (?:really hard )?to (?:keep (?:on )?living|stay alive|want to live|want to be alive)`},
	{id: "more.end_suicide", level: 2, conf: 0.75, src: `(?:my (?:life|story)|i) (?:will|would|is going to|am going to|im going to|might) (?:probably |likely |eventually |definitely )?end (?:with|in|by) suicide|(?:im|i will|ill) (?:probably |likely |eventually )?(?:die|end up dying) (?:by|from|of) suicide|is suicide (?:justified|the (?:only )?answer|an option|my (?:only )?option|worth it|the right choice)`},
	{id: "more.have_to_die", level: 2, conf: 0.75, src: `dont want to die but (?:i )?(?:feel like |think |know )?(?:i )?(?:have|need|should|must|want) to|why (?:should|do|must) i (?:have to )?(?:keep )?(?:live|living|go on|stay alive|be alive)|(?:dont know|idk|not sure) if i (?:can|want to)(?: or (?:want to|can))? (?:keep )?(?:live|living|go on|live with myself)|(?:dont think|do not think) (?:its|it is|life is|my life is|living is) worth (?:living|it|going on|continuing)`},
	{id: "more.last_days", level: 3, conf: 0.7, needsContext: true, src: `(?:enjoying |spending |these are |this is )?my last (?:days|day|night|hours|week|christmas|birthday)(?: \.|$| on| alive| here| in)|(?:found|have found|i have) a (?:solution|way) to (?:end|kill) (?:myself|it|my life)`},
	// A number of a drug, or of a dose unit, and whether it would do it;
	// not any number ("does 3pm work", "can 2 people work on this").
	{id: "more.method_amount", level: 2, conf: 0.75, notFollowedBy: []string{"for"}, src: `(?:will|would|does|can|could|is) \d+ ?(?:(?:mg|g|grams|pills|tablets|caps|capsules) (?:of )?(?:my |the |these )?(?:\w+ )?|(?:of )?(?:my |the |these )?{drug} |of (?:these|them|those|mine) )(?:do anything|be enough|kill|work|do it|be fatal|be lethal|do the job)|is \d+ (?:stories|storeys|floors|meters|metres|feet|ft|m) (?:high )?(?:enough|high enough|to die|fatal)`},
	{id: "more.method_height", level: 2, conf: 0.75, src: `how (?:high|far) (?:do i|does it|would i|do you) (?:need to|have to)? ?(?:jump|fall)|how many (?:stories|storeys|floors) (?:to|would|does it take)`},
	{id: "more.reason_had", level: 2, conf: 0.65, src: `(?:thought i had|used to have|i had|he was|she was|they were|you were) (?:a|my|the only) reason to (?:live|keep living|stay|keep going)`},
	{id: "more.its_not_worth", level: 2, conf: 0.65, needsContext: true, src: `(?:its|it is|nothing is|nothing|anything is|any of this is) (?:just |really |simply )?(?:not )?worth (?:it|anything) (?:anymore|any longer)`},

	// self-injury, more
	{id: "selfharm.been", level: 2, conf: 0.8, selfInjury: true, src: `(?:{i}|been|started|start|keep|kept|went back to|back to|stop|quit|struggling with|struggle with|addicted to|rather|would rather) {adv}(?:cutting|burning|self harming|harming myself|hurting myself|self harm|self harm myself)(?: again| myself| my| for| since| every| daily| \.|$| and| but)`},
	{id: "selfharm.last_time", level: 2, conf: 0.7, selfInjury: true, src: `(?:since|last time) i (?:hurt|cut|burned|harmed) myself`},
}

// countNouns are what a number taken counts when it is not a drug
// ("it took 10 minutes", "I'm taking 3 classes").
var countNouns = []string{"minutes", "mins", "min", "hours", "hrs", "hour", "days", "weeks", "months", "years", "seconds", "secs",
	"times", "steps", "classes", "courses", "credits", "units", "exams", "tests", "subjects", "dollars", "bucks", "pounds", "euros",
	"percent", "people", "photos", "pictures", "shots", "laps", "miles", "km", "kilometers", "lessons", "questions", "tries", "attempts"}

// compiledRules is every rule table with its pattern compiled.
var compiledRules = compileRules(allRules())

// allRules lists every rule table of the floor.
func allRules() []rule {
	return append(append(append(append([]rule(nil), ruleTable...), moreRules...), recallRules...), conceptRules...)
}

// compilePattern expands the macros, folds the literal letters of the
// pattern with the text's homoglyph fold (so that patterns and text share
// one skeleton space) and compiles it with word boundaries.
func compilePattern(src string) (*regexp.Regexp, error) {
	x := macros.Replace(src)
	x = foldPattern(x)
	x = canonPattern(x)
	return regexp.Compile(`(?:^|\b)(?:` + x + `)` + endBound)
}

// endBound ends every pattern. After a word character it is a word
// boundary; after a sentence mark (" ." is always followed by a space or
// the end of the canonical text) it takes the space, since there is no word
// boundary between "." and " " and a plain \b would make every pattern that
// ends in a sentence mark unable to match.
const endBound = `(?:\b|$| )`

// patternContractions are the normalizer's contractions, applied to the
// pattern sources too so a pattern may say "i have" and still match.
var patternContractions = []struct {
	re  *regexp.Regexp
	out string
}{
	{regexp.MustCompile(`\bi have\b`), "ive"},
	{regexp.MustCompile(`\bi am\b`), "im"},
	{regexp.MustCompile(`\bi will\b`), "ill"},
	{regexp.MustCompile(`\bi would\b`), "id"},
	{regexp.MustCompile(`\bdo not\b`), "dont"},
	{regexp.MustCompile(`\bdoes not\b`), "doesnt"},
	{regexp.MustCompile(`\bdid not\b`), "didnt"},
	{regexp.MustCompile(`\bcan not\b|\bcannot\b`), "cant"},
	{regexp.MustCompile(`\bwill not\b`), "wont"},
	{regexp.MustCompile(`\bwould not\b`), "wouldnt"},
	{regexp.MustCompile(`\bwanna\b`), "want to"},
	{regexp.MustCompile(`\bgonna\b`), "going to"},
}

// canonPattern rewrites a pattern source with the normalizer's
// contractions. "i have to" (obligation) is not contracted, as in the
// normalizer.
func canonPattern(x string) string {
	x = haveToRe.ReplaceAllString(x, "\x00")
	for _, c := range patternContractions {
		x = c.re.ReplaceAllString(x, c.out)
	}
	return strings.ReplaceAll(x, "\x00", "i have to")
}

var haveToRe = regexp.MustCompile(`\bi have to\b`)

// foldPattern applies foldRune to the literal letters of a pattern source,
// leaving escapes and regexp syntax alone. Patterns are written in lowercase
// ASCII, which the fold maps to itself: a test asserts this, so a pattern
// with a stray homoglyph or capital fails loudly instead of never matching.
func foldPattern(src string) string {
	var b strings.Builder
	rs := []rune(src)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if r == '\\' && i+1 < len(rs) {
			b.WriteRune(r)
			b.WriteRune(rs[i+1])
			i++
			continue
		}
		if r >= 'a' && r <= 'z' || r < 0x80 {
			b.WriteRune(r)
			continue
		}
		if s, ok := foldRune(r); ok {
			b.WriteString(s)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func compileRules(in []rule) []rule {
	out := make([]rule, len(in))
	for i, r := range in {
		re, err := compilePattern(r.src)
		if err != nil {
			panic(fmt.Sprintf("safety: rule %s: %v", r.id, err))
		}
		r.re = re
		r.fre = newFilteredRe(re)
		out[i] = r
	}
	return out
}

// defaultLexicon is built from the frozen normalizer vocabulary and the
// common words.
var defaultLexicon = newLexicon(normalizerWords)

// betterOffActs are the ordinary acts that may finish "everyone would be
// better off if I": moving away, leaving a group, stopping a habit of
// asking or organising, stepping back.
var betterOffActs = func() []string {
	acts := []string{"moved away", "moved out", "moved far away", "moved abroad", "moved back home",
		"left the group", "left the chat", "left the group chat", "left the team", "left the band", "left the club",
		"left the course", "left the company", "left my job", "left the server", "left our group",
		"stopped bothering", "stopped asking", "stopped texting", "stopped messaging", "stopped organising",
		"stopped organizing", "stopped causing", "stopped complaining", "stepped back from", "stepped down from",
		"quit the team", "quit the band", "quit my job", "dropped out of", "stayed home from", "shut up", "kept quiet",
		"kept my mouth shut", "wasnt in the group"}
	out := slices.Clone(acts)
	for _, a := range acts {
		out = append(out, "just "+a)
	}
	return out
}()

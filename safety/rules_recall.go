package safety

// recallRules are phrasing families added after studying which kinds of
// wording the floor missed: passive wishes said sideways ("better off if I
// was never born", "I wish my life would stop", "no reason to stick
// around"), reasons for living named as the only obstacle, method objects
// described as inviting, aborted and interrupted attempts, preparation
// stated as done ("loose ends tied up", "everything ready"), ingestion in
// progress, and the community shorthand SI. Each is written for the general
// phenomenon (C-SSRS screen items 1-6), never for one post.
var recallRules = []rule{
	// ---- wish to be dead (C-SSRS 1), said sideways ----
	{id: "wish.never_born", level: 2, conf: 0.8, timeless: true, src: `(?:better off|happier|easier|better|best) (?:for (?:everyone|everybody|them|all) )?(?:if|had) i (?:was|were|had)? ?(?:never (?:been )?born|not (?:been )?born|wasnt born|werent born|hadnt been born|never existed|didnt exist|wasnt (?:here|around|alive)|werent (?:here|around|alive))`},
	{id: "wish.wasnt_here", level: 2, conf: 0.8, timeless: true, src: `(?:wish|wished|wishing|hope|pray) (?:that )?(?:i|id) (?:just )?(?:wasnt|werent|was not|were not|hadnt|had not|never) (?:been )?(?:alive|born|in this world|on this earth|existed|exist|(?:here|around)(?: \.|$| anymore| any longer| on this earth| in this world))`},
	// A death wish through illness (C-SSRS 1): welcoming one's own decline
	// or a fatal diagnosis.
	{id: "wish.illness", level: 2, conf: 0.7, src: `(?:happy|glad|relieved|hope|hoping|pray|praying|wish|wishing|cant wait (?:for|until)|looking forward to) (?:that )?(?:my (?:health|body|heart|liver|kidneys|lungs) (?:is |keeps |will |would |starts )?(?:\w+ )?(?:declining|deteriorating|failing|giving out|give out|fail|shutting down|getting worse|kills? me)|(?:i|im) (?:get|got|have|catch|develop|am|dying of|die of|die from) (?:\w+ )?(?:cancer|terminal|a terminal (?:illness|disease)|a heart attack|a stroke|an aneurysm)|(?:its|it is|this is|its finally) (?:cancer|terminal))`},
	{id: "wish.life_stop", level: 2, conf: 0.75, src: `(?:wish|want|hope|pray|praying|hoping|wishing|need) (?:that )?(?:my life|my existence|(?:my|the|this|their) (?:old |stupid |useless )?(?:heart|ticker)|my heartbeat|my breathing) (?:would|could|will|to) (?:just )?(?:end|stop|be over|give out|stop beating|cease|quit|fail|pack in|pack up)`},
	// Welcoming one's own heart stopping: "I'd welcome it if the heart gave
	// out", "wouldn't mind if the comedown stopped my heart".
	{id: "wish.heart_welcome", level: 2, conf: 0.7, src: `(?:welcome it|wouldnt mind|would not mind|be glad|be happy|be relieved|not be sorry|be grateful) if (?:(?:my|the|this) (?:old )?(?:heart|ticker) (?:\w+ )?(?:gave out|stopped|quit|failed|packed in|packed up)|(?:\w+ ){1,3}(?:stopped|took) my heart)`},
	// Asking God to take one: "please take me in my sleep", "I pray every
	// night that God takes me", "pray God should not let me wake up".
	{id: "wish.god_take", level: 2, conf: 0.7, src: `(?:(?:god|lord|jesus|allah|universe|whatever is up there|whatevers up there)(?: if (?:youre|you are) (?:there|listening|real|out there)| if you exist| if theres one| if there is one)?(?: \.)? (?:please |just |to |would |will |should |could )*(?:take|takes|took) me(?: \.|$| in my sleep| tonight| now| soon| before| already| too| instead| first| quickly| early)|(?:god|lord|jesus|allah) (?:should|would|will|to) (?:not|never) let me wake up|let (?:this|today|tonight) be the last (?:time|night|day) i (?:open my eyes|wake up|see the (?:morning|sun)))`},
	// Envy of the dead: "I envy the patients who don't make it".
	{id: "wish.envy_dead", level: 2, conf: 0.7, src: `(?:envy|envious of|jealous of|jealous that|jealous because) (?:\w+ ){0,3}(?:the dead|dead people|the deceased|the ones (?:who|that|we) (?:\w+ ){0,3}(?:die|died|dont make it|didnt make it|zip into|bury|buried|lose|lost)|(?:people|patients|those|them|the ones) (?:who|that) (?:die|died|dont make it|didnt make it|pass away|passed away|get to die|got to die)|(?:him|her|them) (?:in (?:the|that|his|her) )?(?:grave|coffin))`},
	// Worth more, or easier, dead: "I'm worth more dead than alive".
	{id: "wish.worth_dead", level: 2, conf: 0.7, weak: true, src: `(?:(?:im|i am|id be|i would be|ill be) (?:\w+ )?worth more (?:to (?:\w+ ){1,2})?dead|(?:itd be|it would be|its|it is|would be|be) (?:so |much |a lot |way )?easier (?:for everyone )?(?:to be dead|if i (?:was|were) dead|if i died|if i was gone|if i were gone|to just die|to die))`},
	// Wishing it had been oneself who died: "wish it was me they buried".
	{id: "wish.was_me", level: 2, conf: 0.7, src: `(?:wish|wished|wishing) (?:it|that) (?:was|were|had been) me (?:\w+ ){0,3}(?:buried|in (?:that|the) (?:grave|coffin|ground|box|urn)|who died|that died|who was killed|dead)`},
	// "go to sleep, don't wake up": an instruction to oneself.
	{id: "wish.sleep_no_wake", level: 2, conf: 0.7, notFollowedBy: append([]string{"the", "him", "her", "them", "your", "my", "anyone", "everyone"}, wakeQualified...), src: `(?:^|\. )(?:just )?(?:go to sleep|fall asleep|sleep)(?: \.)? (?:and )?(?:dont|never|not) wake up`},
	{id: "wish.give_life", level: 2, conf: 0.7, src: `(?:wish i could|want to|would|id|if i could|could i) (?:just )?(?:give|donate|trade|hand|swap) (?:away )?my (?:life|remaining years|years|lifespan|time on earth|place) (?:to|with|for) (?:someone|somebody|anyone|a person|people|a kid|a child|someone else|others)`},
	{id: "wish.last_day", level: 2, conf: 0.7, src: `(?:is|will be|would be|was) my (?:last|final) (?:day|night) (?:on (?:this )?earth|alive|breathing)|(?:is|will be|would be) my (?:last|final) breath|(?:hope|pray|praying|hoping|wish) (?:that )?(?:today|tonight|it|this) (?:is|will be|would be) my (?:last|final)(?: day| night)?(?: \.|$| ever)`},
	{id: "wish.peace_forever", level: 2, conf: 0.7, weak: true, src: `(?:want|need|wish|ready) (?:to )?(?:be at|find|rest in|for eternal|for permanent) (?:eternal |permanent |final )?(?:peace|rest) (?:forever|for good|for ever|permanently)|(?:eternal|permanent|final) (?:peace|rest|nothingness)(?: \.|$| of death| in death)|sweet (?:release|nothingness) of death|nothingness of death`},
	{id: "wish.dont_deserve_life", level: 2, conf: 0.65, noNegate: true, src: `(?:dont|do not|didnt|never) deserve (?:to live|life|to be alive|to exist|to be here|to keep living|to breathe)|(?:not|un)deserving of (?:life|living|being alive|existing)|(?:unworthy|unworthiness|not worthy) (?:of life|of living|to live|to be here|to be alive|to exist)`},
	{id: "wish.up_to_me", level: 2, conf: 0.7, src: `if (?:it|this|that) (?:was|were) (?:up to me|my choice|my decision)(?: \.)? (?:i )?(?:wouldnt|would not|would never|wouldnt want to|would not want to|would already|would have already) (?:be (?:here|alive|around)|exist|live|wake up|want to be)`},
	{id: "wish.hate_missed", level: 2, conf: 0.7, src: `(?:hate|wish i didnt have|annoyed|angry|resent) (?:that )?(?:i have |there are |i still have )?(?:people|someone|somebody|anyone|family|friends) (?:who|that) (?:would|will|might|still) (?:miss me|be sad|grieve|care if i)`},
	{id: "wish.gone_unnoticed", level: 2, conf: 0.7, src: `(?:no one|nobody|noone|none of them) (?:will|would|is going to|gonna) (?:even )?(?:realize|realise|notice|know|care|find out) (?:that )?(?:im|i am|i was|i have|ive) (?:gone|dead|missing|not here)`},

	// ---- reasons for living as the only obstacle ----
	{id: "wish.no_reason_stay", level: 2, conf: 0.7, noNegate: true, src: `(?:no|not (?:a|one|any)|nothing|dont have (?:a|any)|theres no|there is no|there are no|lost (?:my|the|all))(?: good| real)? reasons? (?:for me )?(?:to|for) (?:stick around|sticking around|stay in this (?:world|life)|stay on this earth|be here|being here|wake up|get up in the morning|(?:continue|keep going|carry on|stay|go on)(?: \.|$| anymore| any longer| living| existing))`},
	{id: "wish.few_reasons_stay", level: 2, conf: 0.65, src: `(?:only|just|one|two|a few|few) (?:good |real )?reasons? (?:left )?(?:to|for) (?:stick around|sticking around|stay alive|staying alive|stay in this world|stay on this earth|keep living|live|living|not kill myself|not die)`},
	{id: "wish.if_not_for", level: 2, conf: 0.7, timeless: true, src: `(?:if (?:it wasnt for|it werent for|it was not for|not for|i didnt have|i did not have|i lost|i ever lost|anything happened to) (?:my |her |him |them |the )?(?:\w+ )?{loved}|without (?:my |her |him |the )?(?:\w+ )?{loved})(?: \.)? (?:id|i would|i will|ill|i wouldnt|i would not) (?:already |probably |definitely |honestly |have )*(?:be (?:gone|dead)|have (?:killed myself|ended it|done it|been gone)|kill myself|end it|not be (?:here|alive|around))`},
	{id: "wish.only_living_for", level: 2, conf: 0.65, src: `only (?:living|alive|breathing|existing|staying alive) (?:for|from|out of|because of) (?:obligation|duty|guilt|other people|others|my (?:kids?|children|son|daughter|mom|mum|dad|parents|family|pets?|dog|cat))`},

	// ---- thoughts with a method (C-SSRS 3): method objects as inviting ----
	{id: "method.inviting", level: 2, conf: 0.7, src: `(?:(?:the |that |this |my |a |an |one )?(?:rope|cord|curtain cord|belt|noose|pills|pill bottle|bottle of pills|bridge|tracks|train tracks|knife|blade|razor|gun|pistol|ledge|balcony|overpass|(?:fatal|lethal) dose|overdose)|the (?:idea|thought) of (?:dying|death|being dead|not waking up|overdosing|jumping|ending it|killing myself|not existing)|overdosing|dying|death|not existing|not waking up)(?: (?:in|on|at|under|by|from|next to|inside) (?:the |my |a |our |that )?\w+)? (?:looks|look|seems|seem|feels|feel|sounds|is|are|keeps?|has been|have been|been|seems to (?:look|be|sound|feel)|is starting to (?:look|sound|feel|seem)|starts to (?:look|sound|feel|seem)) (?:so |really |very |more and more |kind of |kinda |rather |quite |pretty |increasingly |more |strangely |oddly |weirdly )?(?:comforting|tempting|inviting|appealing|calling (?:me|my name|to me)|calling)`},
	{id: "method.si_shorthand", level: 2, conf: 0.7, src: `(?:for|with|having|have|had|experiencing|active|passive|my|bad|constant|intense|severe|daily|struggling with|struggle with|history of) si(?: \.|$| and| but| with| again| thoughts| urges| lately| today| tonight| plans?| for| since| is| has| ideation| intent)`},
	{id: "method.si_intent", level: 3, conf: 0.75, src: `si (?:with|and) (?:intent|a plan|plan|plans)`},

	// ---- short chat disclosures: how people say it in one line ----
	// Found by probing the floor with phrasings written for the purpose;
	// each family has near-miss negatives in recall_test.go.
	{id: "wish.not_wake", level: 2, conf: 0.75, src: `(?:dont|do not|never) want to wake up(?: (?:tomorrow|again|anymore|ever again|ever|in the morning|from (?:this|my) sleep))?(?: \.|$)`},
	{id: "wish.hate_alive", level: 2, conf: 0.7, src: `(?:hate|despise|cant stand) (?:being alive|that im (?:still )?alive|living|existing|my existence|waking up (?:every day|each day|in the morning))(?: \.|$| so| anymore| every)|hate waking up (?:\w+ ){0,3}and (?:realis|realiz)\w* (?:that )?im still (?:alive|here|breathing)`},
	{id: "wish.wouldnt_mind", level: 2, conf: 0.75, timeless: true, src: `if i (?:died|were to die|was dead|were dead|didnt wake up|did not wake up|got hit by a \w+|never woke up)(?: (?:tomorrow|today|tonight|in my sleep|now))?(?: \.)? (?:i )?(?:wouldnt|would not|dont|do not|wont|will not) (?:mind|care|be sad|be upset)`},
	{id: "wish.wouldnt_mind_dying", level: 2, conf: 0.75, timeless: true, src: `(?:wouldnt|would not) mind (?:dying|being dead|if i died|not waking up|not being alive)`},
	{id: "wish.no_future_alive", level: 2, conf: 0.7, excusable: true, src: `(?:cant|cannot|dont|do not) (?:see|imagine|picture) (?:myself )?(?:being alive|still (?:being )?(?:here|alive|around)|here|around|alive|making it|surviving) (?:past|to|until|till|next|in|by|much longer|for long|another|this)`},
	{id: "wish.death_only_way", level: 2, conf: 0.75, src: `(?:no way out|no escape|no other way|nothing left) (?:except|but|other than) (?:death|dying|suicide|to die|killing myself)|(?:only|last|best) (?:way out|option|escape|answer|solution) (?:is|would be|left is) (?:death|dying|suicide|to die|to kill myself|to end it)`},
	{id: "method.research", level: 2, conf: 0.75, src: `(?:googl\w*|search\w*|look\w* up|research\w*|reading up on|read about) (?:(?:ways|how|methods|the best way|the easiest way) (?:to|of) (?:die|dying|kill myself|killing myself|end (?:it|my life)|commit suicide|overdose)|how (?:long|much|many|high|deep)(?: \w+){0,4} (?:to|before) (?:die|you die|i die|dying|bleed out|suffocate|drown) (?:from|by|of|if) (?:\w+ )?(?:hanging|overdos\w*|drowning|bleeding|jumping|suffocat\w*|pills|gas|carbon monoxide|helium|exhaust|slitting|cutting))`},
	{id: "method.crash", level: 2, conf: 0.75, src: `(?:thinking (?:of|about)|think about|want to|wanted to|going to|gonna|urge to|tempted to|imagine|imagining|could just) (?:just )?(?:driv\w*|crash\w*|steer\w*|swerv\w*) (?:my car |the car )?(?:into|off|in front of) (?:a |the |an )?(?:tree|wall|bridge|cliff|river|lake|oncoming traffic|traffic|truck|lorry|pole|barrier|ravine)`},
	{id: "selfharm.hurting_myself", level: 2, conf: 0.8, selfInjury: true, accident: true, src: `(?:been|keep|kept|started|start|im|i am|i have been|ive been) (?:\w+ )?hurting myself(?: to cope| again| when| because| so| every| on purpose| lately| recently|$| \.)`},
	{id: "goodbye.not_around", level: 2, conf: 0.75, excusable: true, notFollowedBy: []string{"at", "in", "with", "on", "as", "for", "here at"}, src: `(?:dont|do not) think (?:that )?(?:ill|i will|im going to|i am going to|i can) (?:be (?:around|here|alive)|make it|hold on) (?:much longer|for long|long|tomorrow|another (?:day|week|night)|past \w+)`},
	{id: "intent.night", level: 3, conf: 0.7, needsContext: true, src: `(?:decided|know|feel like|think|sure) (?:that )?(?:tonight|today|this weekend|tomorrow) (?:is|will be) (?:the (?:night|day)|it)`},
	{id: "intent.planning_how", level: 3, conf: 0.7, needsContext: true, src: `(?:planning|planned|worked out|working out|figured out|figuring out|thought through) (?:how|when|where) (?:i (?:would|will|could|am going to|can)|id|ill|im going to|to) (?:do it|end it|go through with it|do this)`},
	// A means kept somewhere at hand: a question without context, means
	// with it ("I have a rope in my closet").
	{id: "prep.means_kept", level: 3, conf: 0.7, needsContext: true, src: `(?:ive|i have|ive got|i got|i keep|theres|there is) (?:a|the|my|some) (?:rope|noose|gun|pistol|rifle|razor|razor blades?|blades?|pills|sleeping pills) (?:in|under|at|hidden in) (?:my|the) (?:closet|wardrobe|garage|cupboard|drawer|desk|bag|car|room|bed|basement|attic|nightstand|bedside table)`},
	{id: "prep.bought_take_all", level: 3, conf: 0.8, src: `{saved} (?:\w+ ){0,3}{means}.{0,60}(?:take|swallow) (?:them all|all of them|every one|the lot)`},

	// ---- thoughts about how (C-SSRS 3): asking for a method or lethality ----
	// "What's the least painful way to die", "how many of my pills would it
	// take": seeking a method is thinking about how, whatever the framing.
	{id: "method.way_out", level: 2, conf: 0.75, src: `(?:painless|easy|easiest|quick|quickest|peaceful|quiet) (?:way|ways|exit|exits) out(?: \.|$| at| for me| tonight)`},
	{id: "method.seeking", level: 2, conf: 0.8, src: `(?:best|easiest|quickest|fastest|surest|most painless|least painful|painless|peaceful|most peaceful|gentlest|quiet|quietest) (?:way|ways|method|methods) (?:to|of) (?:die|dying|not exist|stop existing|not be here|disappear forever|kill(?:ing)? myself|end(?:ing)? my life|end(?:ing)? it all|commit(?:ting)? suicide|not wake up|go to sleep forever|end(?:ing)? (?:it|things|everything) (?:without (?:pain|hurting|feeling it)|painlessly|quickly|for good|forever|peacefully))`},
	{id: "method.lethality", level: 2, conf: 0.8, src: `how (?:many|much) (?:of )?(?:my |these |the |those |your )?(?:pills|tablets|meds|medication|sleeping pills|painkillers|tylenol|paracetamol|acetaminophen|ibuprofen|insulin|alcohol) (?:would it take|does it take|would (?:kill|be (?:fatal|lethal|enough))|is (?:fatal|lethal|enough) to|(?:do|would) (?:i|you|someone|a person) need to (?:die|overdose|not wake up)|to (?:die|kill|overdose|not wake up|end it))`},
	// An intent to jump with no object said ("I'm going to jump tonight").
	{id: "intent.jump", level: 3, conf: 0.7, needsContext: true, src: `(?:going to|gonna|will|about to|ready to|decided to|want to) jump(?: off)?(?: \.|$| {soon}| now)`},

	// ---- intent (C-SSRS 4): purpose clauses ----
	{id: "intent.so_i_can", level: 3, conf: 0.75, src: `so (?:that )?i (?:can|could|will be able to) (?:finally |just |then )?{selfkill}`},

	// ---- preparation (C-SSRS 6) ----
	// Means put aside, said as a state ("I have pills saved", "I've been
	// saving up my meds"): SAFETY.md's own example of preparation.
	{id: "prep.means_put_aside", level: 3, conf: 0.75, src: `(?:pills|tablets|meds|medication|sleeping pills|painkillers|tylenol|paracetamol) (?:saved|stashed|stockpiled|hoarded|put aside|set aside|saved up)(?: \.|$| and| but| for| to| so| now| already| up| just| in)|(?:saving|saved|stockpiling|hoarding) (?:up )?(?:my |the |all (?:my |the )?|some |these )?(?:pills|tablets|meds|medication|sleeping pills|painkillers)(?: \.|$| and| but| now| already| for weeks| for months| for a while)`},
	// Taking all of a means, with or without a time: an overdose stated as
	// intent. Needs talk of distress or death around it ("take them all"
	// alone is too short to read).
	{id: "intent.take_all", level: 3, conf: 0.75, needsContext: true, src: `(?:going to|gonna|will|ill|about to|want to|plan to|planning to|ready to|decided to) (?:just )?(?:take|swallow|down) (?:them all|all of them|all (?:my |the |of my |of the )?(?:pills|tablets|meds|medication|sleeping pills|painkillers)|the (?:whole|entire) (?:bottle|pack|packet|box))`},
	// Means in hand with near-term timing: "the pills ... tonight".
	{id: "intent.means_soon", level: 3, conf: 0.75, needsContext: true, src: `(?:pills|tablets|meds|sleeping pills|painkillers|rope|noose|gun|pistol|knife|blade|razor) .{0,60}(?:take|swallow|use) (?:them|it) (?:all )?{soon}`},
	{id: "prep.loose_ends", level: 3, conf: 0.75, needsTalk: true, src: `(?:tying|tied|tie|tidying|wrapping|wrapped|getting) (?:up )?(?:all )?(?:of )?(?:my |the )?loose ends(?: up)?|loose ends (?:are |all )?(?:tied|tied up|taken care of|sorted)`},
	{id: "prep.everything_ready", level: 3, conf: 0.7, needsTalk: true, src: `(?:ive|i have|i got|ive got) (?:everything|it all|all of it|all i need|what i need) (?:ready|prepared|set up|in place|planned out|lined up)(?: \.|$| but| and| now)`},
	{id: "prep.note_done", level: 3, conf: 0.75, needsTalk: true, src: `(?:my|the) (?:suicide|goodbye|last|final) (?:note|notes|letter|letters) (?:is |are |got |was |were )?(?:first |already |all )?(?:written|drafted|done|finished|ready|sealed)`},
	{id: "prep.notes_count", level: 3, conf: 0.8, src: `(?:wrote|written|writing|drafted|left) (?:about |around |over |like |almost )?(?:\d+|a few|few|several|many|some|two|three|four|five|all (?:my|the)) (?:suicide |goodbye |last |final )(?:notes|letters|messages)`},
	{id: "prep.my_plan", level: 3, conf: 0.8, src: `my suicide (?:plan|plans|date|method)|(?:^|\. )suicide (?:plan|plans|date|method)(?: is| are| was| for| on| set| all| \.|$)`},
	{id: "prep.acquired", level: 3, conf: 0.7, needsTalk: true, src: `(?:^|{i} )(?:just |finally |already |now )?(?:bought|found|got|ordered|purchased|picked up|got hold of|getting) (?:a |the |some |myself a |myself some |a cheap |a new )?(?:pistol|handgun|gun|shotgun|rifle|rope|noose|helium|charcoal|exit bag|box of (?:shells|bullets|ammo))`},
	{id: "prep.means_enough", level: 3, conf: 0.75, src: `(?:ive|have|got|keep|kept|stockpiled|collected) (?:so much|so many|enough|a lot of|plenty of|all (?:these|the|my)|a stash of|a supply of|a drawer full of|a cupboard full of) (?:\w+ )?{means} (?:\w+ ){0,5}(?:to|that i could|i could|i can|that could|that would|that will) (?:\w+ )?(?:overdose|kill myself|kill me|die|end it|end my life|do it|overdose myself)`},

	// ---- method with near-term intent ----
	{id: "intent.method_verb", level: 3, conf: 0.75, src: `(?:{intend}|{i} {adv}(?:going to|about to)) {adv}(?:lie|lay|put|place) my (?:head|body|neck) (?:down )?(?:on|across) (?:the |a )?(?:train )?(?:tracks|rails|railway|road)|(?:{intend}) {adv}(?:step|walk|jump|throw myself) (?:out )?(?:in front of|into) (?:a |the )?(?:train|traffic|bus|truck|sea|ocean|river|lake)|(?:{intend}) {adv}(?:drive|crash|steer) (?:my car |the car )?(?:off|into) (?:a |the )?(?:cliff|bridge|wall|tree|river|lake|oncoming)`},

	// ---- behaviour (C-SSRS 6): aborted, interrupted and in-progress attempts ----
	{id: "attempt.almost", level: 3, conf: 0.75, weak: true, accident: true, src: `(?:almost|nearly|came close to|came so close to|was about to|was going to) {adv}(?:{selfkill}|overdosed|jumped|jumping|hung myself|went through with it|going through with it|ended it|pulled the trigger|threw myself)`},
	{id: "attempt.try_and", level: 3, conf: 0.8, src: `(?:tried|try|trying|attempted) (?:and|to) (?:overdose|die|end my life|kill myself|hang myself|cut my (?:throat|carotid|neck|wrists? open)|slit my (?:wrists?|throat)|stab myself|drown myself|suffocate myself)(?: \.|$| but| and| yesterday| last| today| this| again| with| on| by| when| after| before| twice| once| \d+| a| my)`},
	{id: "attempt.next", level: 3, conf: 0.8, src: `my next (?:suicide )?attempt|(?:next|another) attempt (?:will|is going to|would) be`},
	{id: "attempt.as_many", level: 3, conf: 0.8, src: `(?:taking|took|take|swallowing|swallowed|swallow|downing|downed|popping|popped) (?:as many (?:\w+ )?(?:pills|tablets|meds|capsules) as i (?:can|could)(?: find| get| swallow)?|every (?:single )?(?:pill|tablet|capsule) (?:i can find|i could find|in the house|in this house|in my house|in the bottle|in the cabinet))`},
	{id: "attempt.waiting", level: 3, conf: 0.75, needsTalk: true, src: `waiting to (?:bleed out|stop breathing|fall asleep forever|drift off forever)`},
	{id: "wish.waiting_die", level: 2, conf: 0.65, src: `(?:{i}|me) {adv}(?:just |only |simply )?(?:waiting|waiting around|wait) (?:to die|for (?:death|my death|the end|my time to (?:come|go)|it all to end))`},

	// ---- warning signs (level 1) ----
	{id: "warn.rope_end", level: 1, conf: 0.6, src: `(?:at|reached|reaching|near|nearing|come to) the end of my (?:rope|tether|line)|(?:raise|raising|raised|wave|waving) (?:the |a )?white flag|(?:my life|life for me) is (?:over|ruined|finished)(?: \.|$| now| already| at)|i (?:dont|do not) belong (?:here|anywhere|in this world|on this earth|in this life)`},
	{id: "warn.dark_quiet", level: 1, conf: 0.6, src: `(?:want|need|wish) (?:it all|everything|the world|this|it|things) to (?:just )?(?:go|fade|turn) (?:dark|black|quiet|silent|away forever)|(?:want|need|wish) (?:this|it all|everything|all of this) to (?:just )?(?:stop|end)(?: \.|$| now| already| forever| for good)`},
	{id: "warn.peace", level: 1, conf: 0.55, src: `(?:just |really |only )?(?:want|need|wish|long|crave) (?:to be at|to find|for|some) (?:peace|rest)(?: \.|$| so bad| so badly| already| finally| at last)`},
}

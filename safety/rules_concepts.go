package safety

import "strings"

// Concept rules. Instead of one pattern per way of saying a thing, these
// rules name the parts of a disclosure as word classes (a verb of harm, the
// self as its object, a lethal means, a height, a vehicle, a goal of dying,
// a quantity of a drug, a length of time) and compose them: "a harm verb
// applied to the self, wanted or intended", "a means named together with the
// goal of dying", "a drug taken in an amount no prescription gives". A new
// wording of a known concept is caught because its parts are, not because
// the sentence was seen. The classes are open lists of English words with
// their inflections; the compositions follow the C-SSRS screen (SAFETY.md).
// None of them was written from a dataset row.

// verbForms lists verbs with their inflections ("base forms...").
func verbForms(lists ...[]string) string {
	var out []string
	for _, l := range lists {
		for _, v := range l {
			out = append(out, strings.Fields(v)...)
		}
	}
	return alt(out...)
}

// alt joins alternatives into one non-capturing group.
func alt(xs ...string) string { return "(?:" + strings.Join(xs, "|") + ")" }

// Verbs of a lethal act on oneself.
var lethalVerbs = []string{
	"kill kills killing killed", "hang hangs hanging hung hanged", "shoot shoots shooting shot",
	"drown drowns drowning drowned", "poison poisons poisoning poisoned", "gas gasses gassing gassed",
	"suffocate suffocates suffocating suffocated", "strangle strangles strangling strangled",
	"smother smothers smothering smothered", "asphyxiate asphyxiates asphyxiating asphyxiated",
	"electrocute electrocutes electrocuting electrocuted", "immolate immolates immolating immolated",
	"stab stabs stabbing stabbed", "overdose overdoses overdosing overdosed", "impale impales impaling impaled",
	"behead beheading", "torch torching torched",
}

// Verbs of injury (self-harm when their object is the self).
var injureVerbs = []string{
	"cut cuts cutting", "slit slits slitting", "scrape scrapes scraping scraped", "slice slices slicing sliced", "carve carves carving carved",
	"burn burns burning burned burnt", "scratch scratches scratching scratched", "hit hits hitting",
	"punch punches punching punched", "bang bangs banging banged", "beat beats beating beaten",
	"bite bites biting", "wound wounds wounding wounded", "mutilate mutilates mutilating mutilated",
	"hurt hurts hurting", "harm harms harming harmed", "injure injures injuring injured",
	"starve starves starving starved", "choke chokes choking choked", "bruise bruises bruising bruised",
	"scald scalds scalding scalded", "gouge gouging gouged", "pierce piercing pierced", "lacerate lacerating lacerated",
}

// conceptClasses are the word classes of the concept rules, as macros.
var conceptClasses = [][2]string{
	{"{lethalv}", verbForms(lethalVerbs)},
	{"{injurev}", verbForms(injureVerbs)},
	// the self as the object of an act
	{"{selfobj}", `(?:myself|my (?:own )?(?:\w+ )?(?:body|wrists?|forearms?|arms?|throat|neck|skin|veins?|thighs?|legs?|stomach|belly|chest|head|brains?|face|hands?|heart|flesh|hips?|ankles?|carotid|jugular|temple|fingers?|knuckles))`},
	// the places people injure on purpose
	{"{harmsite}", `(?:myself|my (?:own )?(?:\w+ )?(?:wrists?|forearms?|arms?|thighs?|legs?|skin|stomach|belly|hips?|body|flesh|ankles?|chest|veins?))`},
	// a vital part, where an injury verb is a lethal act
	{"{vital}", `(?:my (?:own )?(?:wrists?|throat|neck|veins?|carotid|jugular|arteries|artery|brains?|heart|temple))`},
	// places one falls from
	{"{height}", `(?:bridge|overpass|flyover|roof|rooftop|building|skyscraper|tower|balcony|cliff|cliffs|ledge|parking garage|parking structure|car park|multi storey|top floor|\d+(?:st|nd|rd|th) floor|window|dam|railing|high rise|highrise|apartment block|parking deck|multistory|multi story|stairwell|hotel balcony|quarry|gorge|viaduct|ravine|canyon|clifftop|cliff top|cliff edge)`},
	// what runs one over
	{"{vehicle}", `(?:train|trains|bus|buses|truck|trucks|lorry|lorries|semi|car|cars|traffic|oncoming traffic|subway|tram|metro|van|tube)`},
	// poisons one drinks
	{"{poison}", `(?:pesticide|pesticides|bleach|antifreeze|rat poison|poison|cyanide|drain cleaner|weed ?killer|paraquat|arsenic|lye|methanol|windshield (?:washer )?fluid|washer fluid|insecticide|herbicide)`},
	// verbs of taking a drug
	{"{ingestv}", `(?:took|taken|taking|swallowed|swallowing|downed|downing|necked|necking|popped|popping|chugged|chugging|injected|injecting|shot up|shooting up|emptied)`},
	// drugs and their generic nouns
	{"{drug}", `(?:pills?|tablets?|meds|medication|medications|medicine|capsules?|caps|sleeping pills|sleeping tablets|painkillers|pain killers|antidepressants|anti depressants|benzos|opioids|opiates|tylenol(?: pm)?|paracetamol|acetaminophen|ibuprofen|advil|aspirin|naproxen|benadryl|diphenhydramine|sertraline|zoloft|prozac|fluoxetine|citalopram|escitalopram|lexapro|venlafaxine|effexor|bupropion|wellbutrin|amitriptyline|nortriptyline|trazodone|mirtazapine|quetiapine|seroquel|olanzapine|zyprexa|risperidone|lithium|lamotrigine|lamictal|xanax|alprazolam|valium|diazepam|klonopin|clonazepam|ativan|lorazepam|ambien|zolpidem|oxy|oxys|oxycodone|oxycontin|percocet|percs|vicodin|hydrocodone|morphine|codeine|tramadol|fentanyl|heroin|methadone|gabapentin|pregabalin|lyrica|insulin|propranolol|metoprolol|digoxin|warfarin|adderall|melatonin|nyquil|unisom|doxylamine|sleep aids?|antihistamines|muscle relaxers|zopiclone|temazepam|co ?codamol|panadol|nurofen|hydroxyzine|promethazine|buspirone|clonidine|amlodipine|beta blockers)`},
	// weapons and tools of a lethal act
	{"{weapon}", `(?:gun|guns|firearm|handgun|pistol|revolver|rifle|shotgun|glock|9 ?mm|\d\d cal(?:iber)?|bullets?|ammo|noose|rope|belt|cord|cable|extension cord|razor|razors|razor blades?|blades?|knife|knives|box cutter|scalpel|helium|nitrogen|carbon monoxide|charcoal|exhaust|garage door (?:shut|closed|down)|exit bag|suicide bag|plastic bag|lethal injection)`},
	// a length of time: "two months", "about six weeks", "the last year"
	{"{duration}", `(?:(?:about|around|nearly|almost|over|like|maybe|at least|more than|the (?:past|last)) )?(?:(?:a few|a couple of|couple of|some|several|many|two|three|four|five|six|seven|eight|nine|ten|\d+) (?:days|weeks|months|years)|(?:a|one|the) (?:week|month|year|fortnight)|weeks|months|years|ages|a while|a long time|the last \w+)`},
	// what an overdose does, said as it starts: "feeling weird", "everything
	// is fuzzy", "my heart is racing"
	{"{odfeel}", `(?:(?:feel|feels|feeling|felt|getting|going|gone|starting to feel|started feeling|everything(?:s| is)|my head(?:s| is)?|head(?:s| is)|my vision(?:s| is)?|vision(?:s| is)|my heart(?:s| is)?|heart(?:s| is)|room(?:s| is)) (?:\w+ )?(?:fuzzy|drowsy|blurry|numb|spinning|heavy|woozy|sleepy|weird|strange|funny|dizzy|faint|floaty|racing|pounding|wobbly|spacey|spacy)|(?:im|i am) (?:\w+ )?(?:fuzzy|drowsy|woozy|dizzy|faint|floaty|spacey|spacy)|cant keep my eyes open|throwing up|been sick|being sick)`},
	// a word shaped like a drug's name, for drugs {drug} does not list
	// ("prazosin", "mirtazapine", "tapentadol")
	{"{drugname}", `[a-z]{3,}(?:azepam|olam|pam|zine|pine|tine|done|sin|fen|dol|mol|xetine|pril|zole|lol|pram|barb|barbital|oxone|codone|morphone)`},
	// a desire or the thought of an act
	{"{desire}", `(?:want to|wanted to|wanting to|wish i could|wish to|would like to|(?:id|i would) love to|feel like|felt like|urge to|urges to|tempted to|itching to|need to|longing to|considering|considered|contemplating|thinking (?:about|of)|think (?:about|of)|thought (?:about|of)|thoughts (?:about|of)|fantasi[sz]ing about|fantasi[sz]e about|dreaming (?:about|of)|daydreaming about|imagining|imagine|picturing|cant stop thinking about|keep thinking about|obsessing over|obsessed with|could just|should just|should|i think i should|might just)`},
}

// conceptMacros returns the concept classes with the base macros expanded
// inside them, ready to append to the macro replacer.
func conceptMacros() []string {
	base := strings.NewReplacer(baseMacros...)
	// Each class or composition may use the ones defined before it.
	var defined []string
	for _, c := range append(append([][2]string(nil), conceptClasses...), conceptCompositions...) {
		v := base.Replace(c[1])
		if len(defined) > 0 {
			v = strings.NewReplacer(defined...).Replace(v)
		}
		defined = append(defined, c[0], v)
	}
	return defined
}

// conceptCompositions are larger concepts built from the classes.
var conceptCompositions = [][2]string{
	// a lethal act on the self
	{"{selfact}", `(?:{lethalv} {selfobj}(?: alive| to death| dead| in the (?:head|heart|chest|throat))?|(?:slit|slits|slitting|slice|slices|slicing|sliced|cut|cuts|cutting|open|opens|opening|opened|carve|carving|carved) (?:open )?{vital}(?: open)?|set(?:s|ting)? (?:myself|me) (?:on fire|alight|ablaze)|(?:blow|blows|blowing|blew|blown) (?:my (?:own )?(?:brains?|head|face) (?:out|off)|my (?:\w+ )?brains out)|put(?:s|ting)? (?:a|the) (?:bullet|gun|knife|blade|razor|barrel|pistol) (?:in|into|through|to|against) (?:my|me)|(?:drink|drinks|drinking|drank) myself to death|(?:drink|drinks|drinking|drank|swallow|swallowing|swallowed|eat|eating|ate|ingest|ingesting|inject|injecting) (?:some |the |a bottle of |a cup of |a glass of |a can of |the whole bottle of |a whole bottle of |the bottle of )?{poison}|(?:eat|eats|eating|ate|suck|sucking|swallow|swallowing) (?:a |my |the )?(?:bullet|barrel|shotgun|gun|glock|pistol)|(?:jump|jumps|jumping|jumped|leap|leaping|leapt|fall|falling|dive|diving|throw myself|throwing myself|threw myself|hurl myself|hurling myself|hurled myself|fling myself) (?:off|of|from|out of|down from) (?:a |an |the |my |this |that |some |our )?(?:\w+ ){0,2}{height}|(?:jump|jumps|jumping|jumped|leap|leaping|leapt|step|stepping|stepped|walk|walking|walked|run|running|ran|throw myself|throwing myself|threw myself|hurl myself|fling myself|lie down|lay down|lying down) (?:out )?(?:in front of|into|under|onto) (?:a |an |the |some |oncoming |the next |a moving |a speeding |a passing )?(?:\w+ )?{vehicle}|(?:walk|walking|walked|wade|wading) (?:out )?into (?:the )?(?:sea|ocean|river|lake|water|waves)|(?:fill|filling|filled) my pockets with (?:rocks|stones)|(?:step|stepping|stepped|jump|jumping|jumped|walk|walking|throw myself|throwing myself) in front(?: of (?:it|one|them))?(?: \.|$)|swim(?:ming)? (?:out )?(?:\w+ ){0,3}(?:until|till|til) i (?:cant|cannot|can no longer) (?:swim )?(?:back|anymore)|(?:crash|crashing|crashed|wreck|wrecking|wrecked) my car(?: on purpose| \.|$| on the way| into| off| tonight)|(?:step|stepping|stepped|jump|jumping|fall|falling|walk|walking) off (?:the )?(?:platform|kerb|curb)(?: \w+){0,4} (?:when|as|in front of|before) (?:the )?(?:next |a |an )?(?:\w+ )?{vehicle}|(?:walk|walking|walked|step|stepping|stepped|go|going|wander|wandering|jump|jumping|jumped) (?:out )?(?:onto|on to|in front of|down onto) (?:the )?(?:train |railway |railroad |subway |tube |metro )?(?:tracks|rails)|(?:lie|lay|lying|laying|put|putting) (?:down |my head |my neck |my body |myself )?(?:down )?(?:on|across) (?:the |a )?(?:train )?(?:tracks|rails|railway|railroad|road|highway)|(?:drive|drives|driving|drove|crash|crashes|crashing|crashed|steer|steering|swerve|swerving) (?:my car |the car |myself |off )?(?:into|off|in front of) (?:a |the |an |some )?(?:\w+ )?(?:tree|wall|bridge|cliff|river|lake|truck|lorry|pole|barrier|ravine|traffic|oncoming traffic|concrete|pillar|overpass|reservoir|sea|ocean|quarry|canal|harbou?r|dam|water|pier|jetty|quay|embankment))`},
	// an act of self-injury
	{"{selfinjury}", `(?:{injurev} (?:into )?{harmsite}|(?:cut|cutting|burn|burning|carve|carving) into my (?:\w+ )?(?:skin|flesh|arms?|thighs?|legs?|body|wrists?))`},
	// the goal of dying, said as a purpose or an evaluation of a means
	{"{goal}", `(?:(?:to|and|so i can|so i could|so that i) (?:finally |just |then )?(?:die|be dead|end (?:it|this|everything|things|my life|it all)|stop (?:everything|it all|breathing)|not wake up|never wake up|be done with (?:it|everything|life)|check out|go to sleep forever|stop breathing|not survive|not come back|kill myself)|(?:would|will|does|do|is|can|could|might|should) (?:it |that |this |they |these |those |\d+ (?:\w+ )?|a (?:\w+ ){1,2}|the (?:\w+ ){1,2})?(?:(?:kill|end) me|stop my heart|be (?:enough|painless|quick|quicker|fast|instant|fatal|lethal|deadly|certain|the end)|do the (?:job|trick)|work|hurt)(?: \.|$| if| for| to| fast| quick| painless| \w+est)|(?:kill|end) me (?:fastest|quickest|quicker|faster|for sure|painlessly|instantly)|so (?:that )?i (?:dont|do not|wont|will not|never) (?:wake up|survive|come back)|how long (?:before|until|till|til|would it take (?:before|until|till)?) (?:its over|it is over|i die|im dead|im gone|i stop breathing)|enough to (?:die|kill|not wake up|do it|end it|be fatal|od|overdose)|(?:to|and) (?:be|make) (?:sure|certain)|make sure (?:i|you|it|that i) (?:dont|do not|wont|die|works|is fatal)|(?:dont|do not|wont|not) survive|least painful|most painless)`},
	// a confession that a question was about oneself
	{"{confess}", `(?:(?:because|cause|cuz|coz|bc|since|asking because|asking cause|im asking because|i ask because)(?: (?:i think|honestly|tbh|lately|right now))? (?:i do|i am|im|i have|ive|i want to|ill|im going to|i plan to|thats me|its me|that is me|it is me|i feel that way|i feel like that|i might|i feel like it is|i think it is|it is for me|i think i am|i think i understand(?: now| why)?|i understand (?:now|why)|i get it now|i finally get it)|asking for (?:myself|me)|i (?:think i )?(?:understand|get it)(?: now| why)|(?:and|but) i do(?: \.|$| too| a lot| all the time| now)|thats (?:me|how i feel)(?: right now| rn| lately)?(?: \.|$))`},
}

// The concept rules.
var conceptRules = []rule{
	// ---- an act on the self, wanted, intended, or thought of (C-SSRS 2-4) ----
	{id: "concept.act_desire", level: 2, conf: 0.85, weak: true, frame: true, src: `{desire} {adv}(?:to )?{selfact}`},
	{id: "concept.act_intent", level: 3, conf: 0.85, frame: true, src: `{intend} {adv}(?:to )?{selfact}`},
	{id: "concept.act_plan_noun", level: 3, conf: 0.8, frame: true, src: `(?:my|the) (?:plan|idea|intention) (?:is|was) to {adv}(?:{selfact}|die|overdose|od|end (?:it|my life|everything)|jump|hang|kill myself)`},
	{id: "concept.plan_set", level: 3, conf: 0.75, needsContext: true, src: `(?:my|the) plan is (?:set|ready|made|final|in place|done|decided|happening)`},
	{id: "concept.injury_desire", level: 2, conf: 0.8, selfInjury: true, accident: true, src: `(?:{desire}|{intend}) {adv}(?:to )?{selfinjury}`},
	// A harm verb with the self as object, done for relief or punishment.
	{id: "concept.injury_purpose", level: 2, conf: 0.8, selfInjury: true, accident: true, src: `(?:{selfinjury}|{lethalv} (?:myself|{selfobj})) (?:\w+ ){0,4}(?:to punish (?:myself|me)|as (?:a )?punishment|because i deserve(?: it)?|to feel (?:something|anything|better|real|alive|in control)|to cope|to numb|to make (?:it|the pain) stop|(?:until|till|til) (?:\w+ ){0,2}(?:bleed|bled|bleeds|bleeding|bruise|bruised|bruises|hurt|hurts|scar|scarred|broke|cracked|went numb)|on purpose)`},
	// Told as done: "I cut again last night", "burned my arm with a lighter".
	{id: "concept.injury_done", level: 2, conf: 0.8, selfInjury: true, accident: true, src: `(?:^|{i} |just |finally |again )(?:\w+ )?(?:cut|burned|burnt|carved|scratched|sliced|stabbed|punched|hit|bruised|starved) (?:(?:into )?{harmsite}|again|deeper|deep)(?: \.|$| open| raw| bloody| enough| again| deep| deeper| last| yesterday| today| tonight| this| till| until| to| so| on purpose| with| because| when| after| every| and| but| for the)`},
	{id: "concept.injury_into", level: 2, conf: 0.8, selfInjury: true, accident: true, src: `(?:{i} |^)(?:\w+ )?(?:carved|carving|burned|burnt|burning|scratched|scratching|etched|cut|cutting|wrote|writing) (?:\w+ ){1,2}(?:into|in|on|onto) {harmsite}(?: \.|$| last| yesterday| today| tonight| again| with| until| till| so| because)`},
	// The urge named without an object: "the urge to cut", "need to cut."
	{id: "concept.injury_thought", level: 2, conf: 0.75, selfInjury: true, src: `{desire} {adv}(?:cutting|burning|self harming|harming myself|hurting myself|bleeding)(?: \.|$| again| tonight| so| but| and| every| lately| all| when| because)`},
	{id: "concept.own_injury", level: 2, conf: 0.75, selfInjury: true, src: `my (?:self harm|self harming|nssi|sh|cutting|self injury|self injuring) (?:is|has|came|got|urges|habit|addiction|relapse|relapsed|scars|cuts|wounds)(?: back| worse| bad| again| \.|$| \w+)`},
	{id: "concept.relapse_blade", level: 2, conf: 0.75, selfInjury: true, whole: true, src: `relaps\w*(?: \w+){0,6} (?:\. )?(?:\w+ ){0,4}(?:blade|blades|razor|razors|cut|cutting|cuts|sh|self harm|scars|burn|burning|bleeding|bled|lighter)`},
	{id: "concept.head_wall", level: 2, conf: 0.75, selfInjury: true, src: `(?:hitting|banging|bashing|slamming|smashing|hit|banged|bashed|slammed|smashed) my head (?:against|into|on) (?:the |a |my )?(?:wall|walls|floor|door|desk|mirror)(?: \w+){0,3} (?:on purpose|until|till|so hard|again|every|to feel|to stop|to punish)`},
	{id: "concept.pain_end_forever", level: 2, conf: 0.7, src: `(?:the pain|it|everything|this|the suffering|my suffering|my life|it all) to (?:end|stop|be over|go away)(?: \w+)? (?:permanently|forever|for good|for ever|once and for all)`},
	// A relapse into self-injury, or the urge back, told after the words
	// for it: "two years since I last cut and I relapsed last night",
	// "haven't cut since june but I really want to tonight". Timeless: a
	// milestone in the same message is what was broken.
	{id: "concept.injury_relapse", level: 2, conf: 0.75, selfInjury: true, timeless: true, src: `(?:cut|cutting|self harm\w*|sh|hurt myself|hurting myself|harm myself|harming myself|burn myself|burning myself)(?: \w+){0,12} (?:i|and|but|then) (?:i )?(?:just |finally |have |ve |kind of |kinda )?(?:relapsed|slipped|caved|gave in)(?: \.|$| last night| today| tonight| again| this morning| yesterday| and| but| so| after)`},
	{id: "concept.injury_urge_back", level: 2, conf: 0.7, selfInjury: true, timeless: true, src: `(?:cut|cutting|self harm\w*|sh|hurt myself|hurting myself|burn myself|burning myself)(?: \w+){0,10} (?:but|and|now) (?:i )?(?:really |so |just |badly |desperately )?(?:want|need|wanna) to(?: so bad| so badly| tonight| again| right now| rn| today)+(?: \.|$)`},
	{id: "concept.injury_urge", level: 2, conf: 0.75, selfInjury: true, src: `(?:urge|urges|need|want|wanting|craving|itching|tempted|dying) to (?:cut|burn|bleed|scratch|carve|hit myself|punch myself|self harm|sh|relapse)(?: \.|$| till| until| til| so| again| tonight| badly| bad| right now| rn| is| are| has| have| but| and| just| even)`},

	// ---- means named with the goal of dying (C-SSRS 3) ----
	// (Each order is its own rule, so that the prefilter asks for both a
	// means and a goal word before the pattern runs.)
	{id: "concept.means_goal", level: 2, conf: 0.8, frame: true, src: `(?:{weapon}|{drug}|{poison}|{height}|tracks|train tracks|railway|jump|jumping|fall|falling) (?:\w+ ){0,8}{goal}`},
	{id: "concept.goal_means", level: 2, conf: 0.8, frame: true, src: `{goal} (?:\w+ ){0,4}(?:with|from|using|off|by) (?:a |an |the |my |some )?(?:\w+ )?(?:{weapon}|{drug}|{poison}|{height})`},
	// Ending it by a means, said as what one is doing: "ending it with my
	// dad's gun", "I'm ending it tonight with her pills".
	{id: "concept.ending_by_means", level: 2, conf: 0.8, frame: true, src: `(?:ending|ended|end|finishing) (?:it|it all|things|everything|my life) (?:(?:tonight|today|now|soon|this week|for good) )?(?:with|using) (?:a |an |the |my |some |his |her |their |all (?:my |the |of my |of the |of her |of his )?)?(?:\w+ ){0,2}(?:{weapon}|{drug}|{poison})`},
	// An evaluative question about a means: "is the 8th floor enough",
	// "does carbon monoxide hurt".
	{id: "concept.means_question", level: 2, conf: 0.75, frame: true, src: `(?:is|would|will|does|do|can|could|should) (?:\w+ ){0,6}(?:{height}|{weapon}|{poison}|jumping|hanging|drowning|an overdose|overdosing)(?: (?:floor|storey|story|high|up|down))? (?:enough|fatal|lethal|deadly|painful|painless|survivable|instant|hurt|kill (?:you|me))(?: \.|$| to| if| for me| right)|(?:is|would|will) (?:\w+ ){0,3}{height}(?: \w+){0,4} (?:high|tall) enough(?: \.|$| to| for| if)`},
	// Going to a height to jump: "driving out to the quarry after work to
	// jump" (a means, a place and the act: C-SSRS 5).
	{id: "concept.height_to_jump", level: 3, conf: 0.8, frame: true, src: `(?:^|i |im |i am |ill |i will |i m )(?:\w+ )?(?:going|go|gonna|driving|drive|heading|head|walking|walk|taking|getting|went|drove|walked|cycling) (?:out |up |down |over |back )?(?:to|towards|up to|down to|out to|onto) (?:the |a |my |this |that |our )?(?:\w+ ){0,2}{height}(?: \w+){0,5} (?:to|and|then|so i can) (?:jump|leap|throw myself)(?: \.|$| off| from| tonight| today| tomorrow| and| so| before| after| when| for)`},
	// A test of a ligature told as done: "did a test run with the belt
	// last night, it held" (C-SSRS 6: preparation).
	{id: "concept.ligature_tested", whole: true, level: 3, conf: 0.8, frame: true, src: `(?:practi[sc]ed|practi[sc]ing|practice run|test run|trial run|dry run|tested|testing|tried (?:it|it out|it on|out))(?: \w+){0,6} (?:belt|rope|noose|cord|cable|scarf|ligature|dressing gown cord|tie)(?: \w+){0,6} (?:\. )?(?:and )?(?:it |that it |if it )?(?:held|holds|will hold|would hold|took my weight|held my weight|holds my weight)`},
	{id: "concept.hold_weight", level: 2, conf: 0.7, frame: true, src: `(?:rope|belt|cord|cable|beam|rail|hook|branch|noose|scarf|door ?frame|shower rod|pipe)(?: \w+){0,5} (?:would |will |could |can |to )?(?:hold|support|take) (?:me|my weight|my body)`},
	{id: "concept.od_question", level: 2, conf: 0.75, src: `(?:what happens|what would happen|what will happen|will i die|would i die|can you die|could i die|would you die|do you die|is it fatal) (?:\w+ ){0,3}(?:take|took|swallow|swallowed|drink|eat|od on|overdose on) (?:like |about |around )?(?:[1-9]\d+|a whole|all|the whole|a bottle of|a box of|a pack of|a handful of) (?:\w+ )?{drug}`},
	{id: "concept.cut_question", level: 2, conf: 0.75, src: `how (?:deep|hard|long|far) (?:\w+ ){0,4}(?:cut|slit|slice|bleed|hang|drown|suffocate|stab)(?: \w+){0,4} (?:to (?:hit|reach|sever|die|bleed out|kill|not survive|be fatal)|before (?:you|i|someone) (?:die|dies|pass out|bleed out))`},
	{id: "concept.means_preoccupied", level: 2, conf: 0.7, src: `(?:keep|cant stop|always|constantly|been) (?:thinking about|obsessing over|fixated on|picturing|staring at|looking at) (?:the|my|that|a|those|these|his|her|\w+s) (?:\w+ ){0,2}(?:gun|guns|pistol|rifle|shotgun|noose|rope|razor|razors|blade|blades|knife|knives|pills|sleeping pills|bridge|tracks|train tracks|cliff|ledge|balcony)(?: \.|$| in| on| at| under| again| and| every| all)`},
	{id: "concept.means_height", level: 2, conf: 0.75, frame: true, src: `how (?:high|far) (?:\w+ ){0,5}(?:would|do i|does it|need|needs|have to|has to|should|must) (?:\w+ ){0,4}(?:jump|fall|drop|die|be sure|survive|fatal|lethal)|(?:what|which|how many) (?:floor|floors|storey|storeys|story|stories|height|bridge) (?:\w+ ){0,5}(?:jump|fall|die|survive|sure|fatal|lethal|enough)`},
	{id: "concept.means_exhaust", level: 2, conf: 0.75, src: `(?:car|engine|motor|generator|grill|bbq) (?:running|on|idling|left on|lit)(?: \w+){0,3} (?:in|inside) (?:a |the |my )?(?:closed |shut |locked |sealed )?(?:garage|room|bathroom|tent|car)`},
	{id: "concept.means_exhaust_now", level: 3, conf: 0.8, src: `{i} (?:\w+ ){0,3}(?:sitting|sat|lying|laying|waiting) in (?:my|the) car (?:with )?(?:the )?engine (?:running|on) (?:in|inside) (?:the|my|a) (?:closed |shut )?garage`},
	// A means turned on oneself: "using it on myself", "a knife to my wrist".
	{id: "concept.means_use", level: 2, conf: 0.8, frame: true, src: `(?:use|using|used|turn|turning|point|pointing|hold|holding|held|press|pressing|put|putting|keep putting) (?:it|them|that|this|(?:a|the|my|his|her|\w+s) (?:\w+ )?{weapon}) (?:on|against|to|into) (?:myself|{selfobj})`},
	{id: "concept.means_use_soon", level: 2, conf: 0.8, frame: true, src: `{weapon} (?:\w+ ){0,8}(?:{desire}|{intend}) (?:using|use) (?:it|them)(?: on myself| tonight| today| soon| now| right now| \.|$)`},
	// Attention fixed on a means: "staring at the rope and thinking about it".
	{id: "concept.means_fixation", level: 2, conf: 0.75, frame: true, src: `(?:staring|stare|stared|looking|look|looked|glancing|gazing|eyeing) at (?:the|my|a|that|those|these|his|her|\w+s) (?:\w+ ){0,2}(?:{weapon}|{drug}|{height}|tracks|train tracks|railway)(?: \w+){0,6} (?:thinking about (?:it|them|using)|and thinking|tempt\w*|want\w* to|wondering|imagining|(?:it|that) would be (?:so )?(?:quick|easy|painless)|how (?:easy|quick)|so easy|calling)`},
	// Research about dying from a means said of oneself: "how much insulin
	// it takes to not wake up".
	{id: "concept.means_amount", level: 3, conf: 0.75, src: `(?:worked out|figured out|calculated|counted out|know|researched|looked up|found out) (?:exactly )?how (?:many|much) (?:of )?(?:my |the |these |those )?{drug} (?:i (?:need|would need|have to take|should take|will take)|to (?:take|die|od|overdose|not wake up))`},

	// ---- a death wish in violent slang (C-SSRS 1) ----
	{id: "concept.violent_wish", level: 2, conf: 0.75, weak: true, src: `(?:want|wish|hope|hoping|pray|praying|need|would love|wouldnt mind|(?:id|i would) love)(?: for)? (?:a|the|some|someone|somebody|something|god|a random|the next) (?:\w+ ){0,2}(?:to |would |will |could |might |to just |would just )?(?:(?:hit|hits|kill|kills|flatten|flattens|crush|crushes|shoot|shoots|stab|stabs|murder|murders|end|ends|smoke|merk|merks|obliterate|put a bullet in|puts a bullet in|run over|runs over) (?:me|my (?:head|brain|skull))|(?:take|takes|wipe|wipes|run|runs|knock|knocks) me (?:out|over))(?: out| over| down| \.|$| already| now| for good| in| with a| so| and| please| pls)`, notFollowedBy: []string{"up", "back", "with", "on"}},
	{id: "concept.violent_let", level: 2, conf: 0.75, weak: true, src: `(?:please |pls |god |just )?(?:let|lets) (?:a|the|some|this) (?:\w+ ){0,2}(?:hit|kill|flatten|crush|run over|take out|end) me(?: \.|$| tomorrow| today| tonight| already| please| pls| now| out| over)`},
	{id: "concept.violent_get", level: 2, conf: 0.75, weak: true, src: `(?:{desire}|hope|hoping|pray|praying|wish) {adv}(?:i |to )?(?:just )?(?:get|got|be) (?:hit|run over|flattened|killed|shot|stabbed|crushed|murdered|taken out|merked|mowed down|struck|obliterated|destroyed|splattered|squashed|mangled|wiped out|blown up)(?: by (?:a |the |some )?(?:\w+ )?(?:{vehicle}|bullet|lightning|someone|somebody|a stray bullet))?(?: \.|$| and| already| fr| for real| tonight| today| so| or| please| pls| by)`, notFollowedBy: []string{"up", "on", "with", "for", "in", "back"}},
	{id: "concept.go_down_with", level: 2, conf: 0.7, src: `(?:hope|hoping|wish|pray|praying|want)(?: that)? (?:the |this |my |a )?(?:\w+ ){0,2}(?:goes|go|going|crashes|crash|sinks|sink|blows up|explodes|burns) (?:down )?with me (?:in|on|inside) (?:it|her|board)`},

	// ---- a question about wanting to die, then "because I do" ----
	{id: "concept.question_confess", whole: true, level: 2, conf: 0.75, src: `(?:you|people|someone|somebody|anyone|anybody|a person|others|they|everyone|everybody) (?:\w+ ){0,6}(?:die|dying|to die|end it|end (?:your|their) (?:own )?(?:life|lives)|kill (?:yourself|themselves|themself)|killing (?:yourself|themselves)|suicide|suicidal|jump|jumping|overdose|overdosing|not wake up|not be alive|not exist)(?: \w+){0,8} \.? ?{confess}`},

	// ---- finality said sideways (C-SSRS 6: goodbye) ----
	{id: "concept.absence_after", level: 3, conf: 0.8, excusable: true, src: `(?:wont|will not|im not going to|not going to|i dont plan to|i wont) (?:be (?:a problem|a burden|an issue|anyones problem|in (?:your|anyones) way|around|here|alive|answering|replying|responding|waking up|home|coming back|coming in|coming home|going back)|have to (?:deal with|worry about|see) (?:me|this))(?: for (?:anyone|anybody|you|long|much longer))? (?:after (?:tonight|today|this|tomorrow|this weekend|the weekend|(?:this|next) \w+)|(?:by|in the) (?:morning|tomorrow)|(?:for|to see) (?:my|the|christmas|new year|next) ?\w*|tomorrow|ever again|anymore|much longer)`},
	// A future without oneself, with a time: "soon I won't be a burden",
	// "you won't have to put up with me much longer".
	{id: "concept.absence_general", level: 3, conf: 0.75, excusable: true, src: `(?:(?:soon|tomorrow|tonight|by (?:the weekend|tomorrow|morning|friday|saturday|sunday|monday)|after (?:tonight|today|this)) (?:\w+ ){0,2})?(?:i )?(?:wont|will not|im not going to|not going to|never going to|im not planning on|not planning on|im not planning to|dont plan on|dont plan to) (?:be (?:here|around|alive|a burden|a problem|anyones problem|in the way|breathing)|wake up|waking up|see (?:tomorrow|the morning|another day)|make it (?:to|through|past))(?: \w+){0,3} (?:by (?:the weekend|tomorrow|morning|then|\w+day)|soon|much longer|for much longer|tomorrow|tonight|anymore|to anyone|for anyone|after (?:tonight|today|this)|(?:my |the )?(?:next )?(?:birthday|christmas|new year|summer|weekend|week|month))|(?:soon|tomorrow|tonight|by (?:the weekend|tomorrow|morning)) (?:\w+ ){0,2}(?:i )?(?:wont|will not|im not going to|not going to) (?:be (?:here|around|alive|a burden|a problem|anyones problem))`},
	{id: "concept.put_up_with_me", level: 3, conf: 0.75, excusable: true, src: `(?:you|they|no one|nobody|everyone|my \w+) (?:wont|will not|will never|are not going to|arent going to) (?:have to|need to) (?:put up with|deal with|worry about|look after|take care of|carry) me(?: \w+){0,2} (?:much longer|for much longer|anymore|soon|after (?:tonight|today|this)|ever again)`},
	{id: "concept.not_coming_back", level: 2, conf: 0.7, excusable: true, whole: true, src: `(?:leaving|going|walking out|heading out|going out|leave|go)(?: \w+){0,3} (?:and )?(?:im |i am |ill )?(?:not|never|wont be) (?:coming|going to come|come) back(?: \.)? (?:ever|forever|for good|again|ever again)`},
	{id: "concept.away_forever", level: 2, conf: 0.7, excusable: true, src: `(?:im|i am|i will be|ill be) (?:going|leaving|gone|disappearing|going away) (?:away )?(?:forever|for good|permanently|for ever)(?: \.|$| tonight| today| soon| now| and)`},
	{id: "concept.before_i_go", level: 3, conf: 0.75, notFollowedBy: []string{"to", "home", "out", "back", "on", "away", "for", "into", "abroad", "overseas", "off", "in", "up", "at", "there", "over", "outside", "inside", "shopping", "camping", "and", "but"}, src: `(?:wanted|want|needed|need) (?:someone|somebody|you|anyone|people|my \w+) to know(?: \w+){0,3} before i (?:go|die|do it|end it|leave)`},
	// A time after one's own death named as such: "so he can get into my
	// stuff after im gone", "a list of who to ring for when i'm gone".
	{id: "concept.after_gone", level: 3, conf: 0.75, excusable: true, notFollowedBy: []string{"to", "on", "for", "from", "away", "out", "off", "abroad", "overseas", "back", "home", "travelling", "traveling"}, src: `(?:after|when|once|for when|for after|by the time) (?:im|i am|ive|i have) (?:gone|dead|no longer here|no longer around)`},
	// Things not needed where one is going, or after tonight: "I won't
	// need them where I am going", "won't be needing the app after
	// tonight".
	{id: "concept.wont_need_after", level: 3, conf: 0.75, excusable: true, src: `(?:wont|will not|dont|do not|wont be|will not be) (?:need|needing) (?:it|them|this|these|that|those|any of (?:it|this|them)|my \w+|the \w+|\w+)(?: \w+){0,2} (?:where im going|where i am going|where i go|after (?:tonight|today|this week|tomorrow|this weekend))`},
	// Everything settled with nothing left after: "nothing left to do
	// now", "my affairs in order" (loose ends: prep.loose_ends).
	{id: "concept.affairs_done", level: 3, conf: 0.7, excusable: true, needsContext: true, src: `(?:nothing (?:left )?to do now|(?:got|getting|put|putting) (?:all )?my affairs in order|everything(?:s| is) (?:sorted|in order|done|taken care of) for (?:when|after) )`},
	// A last message that says goodbye with it: "last message. its
	// nobody's fault", "this will be my last message. thank you for
	// everything", "final message ig. love u mom".
	{id: "concept.last_message_farewell", whole: true, level: 3, conf: 0.75, src: `(?:my |this is my |this will be my |this my |the )?(?:last|final) (?:message|msg|post|check in|text|words)(?: ever| \w+){0,3} (?:\. )?(?:\w+ ){0,3}(?:(?:its|it is|it was|this is) (?:nobodys|no ones|not (?:your|anyones|anybodys)) fault|(?:i )?love (?:you|u|ya)(?: all)?|(?:thank you|thanks|ty) for (?:everything|all of it|listening|being there|the chats|the talks)|(?:im )?sorry(?: for everything| for all of it)?(?: \.|$)|forgive me|(?:goodbye|bye|farewell) (?:everyone|all|for good|forever))`},
	// A last word left for someone through another: "if he asks, tell him
	// it's not his fault", "tell my boy his dad loved him".
	{id: "concept.relay_farewell", level: 3, conf: 0.75, src: `if (?:he|she|they|my \w+|\w+) (?:ever )?asks?(?: after (?:tonight|today|this)| why)?(?: \.)? (?:tell|let) (?:him|her|them|my \w+|\w+) (?:that |know )?(?:(?:it was|its|it is|it wasnt|it isnt|it was not|it is not|none of (?:it|this) (?:was|is)) (?:not )?(?:his|her|their|your|anyones|nobodys)? ?fault|(?:his|her|their) (?:dad|mum|mom|papa|mama|father|mother|brother|sister|\w+) (?:loved|love|loves|is sorry|was sorry) (?:him|her|them)?)`},
	{id: "concept.relay_going", level: 3, conf: 0.75, src: `(?:tell|let) (?:him|her|them|my \w+|\w+) (?:that |know )?(?:\w+ ){1,6}(?:loved|love|sorry|fault)(?: \w+){0,5} (?:\. )?(?:im|i am) (?:going (?:now|tonight)|gone|finished now|done now|ready to go)`},
	// It will be over by a time to come: "by the time she wakes up it'll be
	// over", "by the time you read this".
	{id: "concept.over_by_then", level: 3, conf: 0.75, src: `by the time (?:you|she|he|they|anyone|someone|my \w+|\w+) (?:reads? this|read this|wakes? up|gets? (?:home|back|here)|sees? this|finds? (?:this|me|out))(?: \.)? (?:it|this|everything|i)(?:ll| will| wil) (?:be (?:over|done|gone|finished)|have (?:done it|gone))`},
	{id: "concept.absence_ever", whole: true, level: 3, conf: 0.8, excusable: true, src: `(?:wont|will not|not going to|never going to) be (?:answering|replying|responding|texting|around|here)(?: \w+){0,2} \.? ?ever(?: again)?`},
	{id: "concept.found", level: 3, conf: 0.8, src: `(?:theyll|they will|someone will|somebody will|my \w+ will|theyre going to|youll|you will) (?:\w+ )?find (?:me|my body)(?: \w+){0,3} (?:in the morning|tomorrow|dead|hanging|when|after|before|on|in the)`},
	{id: "concept.found_time", level: 3, conf: 0.75, src: `(?:tomorrow|in the morning|tonight|by morning|when they wake up|when they get home)(?: morning)? (?:\w+ ){0,2}(?:someone|somebody|they|my \w+|people|you|the police|my family|theyll|youll) (?:will |is going to |are going to |gonna |ll )?(?:\w+ )?find (?:me|my body)(?: \.|$| dead| hanging| in)`},
	{id: "concept.absence_time_first", level: 3, conf: 0.8, excusable: true, src: `(?:after|from|by|past) (?:tonight|today|tomorrow|this weekend|the weekend|this week|friday|saturday|sunday|monday|the morning)(?: \w+){0,2} (?:i )?(?:wont|will not|im not going to|not going to|never going to|i dont plan to) (?:be (?:a problem|a burden|an issue|anyones problem|in (?:your|anyones) way|around|here|alive)|have to (?:deal with|worry about) (?:anything|anyone|this|it))`},
	{id: "concept.last_words", level: 3, conf: 0.8, excusable: true, src: `(?:last|final) (?:message|text|post|words|thing|letter|note) (?:(?:that )?(?:youll|you will|you are going to|anyone will|anybody will) (?:ever )?(?:get|hear|see|read|receive) from me|i (?:will )?(?:ever )?(?:send|write|post))`},
	{id: "concept.no_worry", level: 3, conf: 0.75, excusable: true, src: `(?:no one|nobody|noone|none of you|you|they|my family|everyone) (?:will|wont|is going to|has to|have to|needs to|need to|will have to|wont have to|will never have to|wont ever have to)(?: ever)? (?:have to )?(?:worry|deal) (?:about|with) me (?:after|anymore|again|ever again|much longer|soon|for long)`},
	{id: "concept.not_my_problem", level: 3, conf: 0.75, src: `(?:by|after) (?:tomorrow|tonight|the morning|this weekend|friday|monday|next week)(?: \w+){0,3} (?:none of this|nothing|it|this) (?:will|is going to) (?:be my problem|matter|hurt|be mine)|(?:none of this|nothing) (?:will|is going to) (?:be my problem|matter to me) (?:anymore|after (?:tonight|today|this|tomorrow)|by (?:tomorrow|morning)|soon)`},
	{id: "concept.world_without", level: 3, conf: 0.75, src: `(?:the world|everyone|everybody|my family|they|things|life) (?:will|is going to|gonna) be (?:a )?(?:lighter|better|happier|easier|quieter|calmer|better off) (?:place )?without me (?:soon|tomorrow|after tonight|after today|after this|by|in a|next)`},
	{id: "concept.last_night", level: 3, conf: 0.75, needsContext: true, src: `(?:tonight|today|this|it) (?:is|will be|was) my (?:last|final) (?:night|day|sunset|sunrise|time)(?: \.|$| alive| on| here| i)`},
	{id: "concept.not_through_night", level: 2, conf: 0.75, excusable: true, src: `(?:dont|do not) think (?:that )?(?:ill|i will|im going to|i can|i am going to) (?:make it|survive|last|get) (?:through|past|to|until|till) (?:tonight|the night|this night|morning|the morning|tomorrow|the weekend)(?: \.|$| alive| without| honestly| tbh| anymore)`},
	{id: "concept.caretaking_after", level: 3, conf: 0.8, src: `(?:look after|take care of|feed|walk|watch|care for|find a (?:new )?home for|rehome|give) (?:my|the) (?:\w+ )?(?:{loved}|plants|fish|bird|birds|hamster|rabbit|things|stuff) (?:\w+ ){0,3}(?:(?:when|after|once) (?:im|i am|ive) (?:gone|dead|not here|not around|no longer here)|(?:for me )?(?:i|im) (?:wont be able to|cant|will not be able to|wont be here to)(?: \w+)? (?:anymore|any longer|after (?:today|tonight|this)))`},
	{id: "concept.read_gone", level: 3, conf: 0.85, src: `(?:if|when|by the time|once) (?:you|anyone|someone|somebody|they|people) (?:\w+ )?(?:read|reads|reading|see|sees|seeing|find|finds|get|gets) (?:this|my message|these|it)(?: \w+){0,2} (?:im|i am|ill be|i will be|ive|i have|i will have) (?:already |probably |long |likely )?(?:gone|dead|not here|not alive|died|be gone)`},
	{id: "concept.goodbye_before", level: 3, conf: 0.8, src: `(?:say|said|saying|wanted to say|want to say|wanna say|needed to say|just wanted to say) (?:my |a |a last |one last |a final )?(?:goodbye|goodbyes|bye|farewell)(?: to(?: \w+){1,3})? before i (?:go|leave|die|do it|end it|am gone|m gone|pass)`, notFollowedBy: []string{"to", "home", "out", "back", "on", "away", "for", "into", "abroad", "overseas", "off", "in", "up", "at", "there", "over", "outside", "inside", "shopping", "camping"}},
	{id: "concept.said_goodbyes", level: 3, conf: 0.75, excusable: true, src: `(?:ive|i have|i|just|already) (?:already |finally |just )?(?:said|made|written|wrote) (?:all )?my (?:goodbyes|last goodbyes|final goodbyes|goodbye letters|goodbye messages)(?: \.|$| to everyone| to my| already| now| today| tonight| and| but)`},
	{id: "concept.goodbye_written", level: 3, conf: 0.8, excusable: true, src: `(?:wrote|written|writing|sent|send|sending|recorded|recording|left|leaving|drafted|scheduled) (?:\w+ ){0,2}(?:goodbye|farewell|final|last) (?:messages?|notes?|letters?|videos?|texts?|emails?|posts?)`},
	{id: "concept.sorry_goodbye", whole: true, level: 3, conf: 0.75, needsOwnContext: true, src: `(?:im sorry|sorry for everything|i love you all|i love you guys|thank you for everything|thanks for everything)(?: \w+){0,4} \.? ?(?:goodbye|bye|farewell|this is it|this is goodbye|its time)(?: forever| for good| \.|$)`},
	{id: "concept.tell_loved", level: 3, conf: 0.75, excusable: true, notFollowedBy: ordinaryFaults, src: `(?:^|please |pls |can you |could you |just |and |\. )(?:tell|let) (?:my )?(?:{loved}|everyone|them) (?:know )?(?:(?:that )?i love (?:her|him|them|you)|(?:that )?i loved|(?:that )?(?:he|she|they) (?:was|were) the best|(?:that )?(?:its|it is|it was|it wasnt) not (?:their|his|her|your) fault|(?:that )?it wasnt (?:their|his|her|your) fault|(?:that )?im sorry|(?:that )?i was sorry|goodbye|not to blame (?:herself|himself|themselves))`},
	// Letters written to the people one leaves, with what the letters are
	// for: "they'll understand", "it wasn't their fault".
	{id: "concept.letters_for", whole: true, level: 3, conf: 0.8, src: `(?:wrote|written|writing|left|leaving|finished|finishing|drafted) (?:\w+ ){0,3}(?:letters?|notes?|messages|cards?) (?:\w+ ){0,4}(?:\. )?(?:(?:theyll|they will|they would|theyre going to) (?:understand|be (?:ok|okay|fine|better|alright|happier) without me|know why)|(?:hell|shell|youll|he will|she will|you will|theyll|they will) (?:understand why|be (?:ok|okay|fine|better|alright|happier) without me)|explaining (?:everything|why i|what i|it all)|(?:for (?:my |her |him |them )?\w+ )?to (?:find|read) (?:after|when (?:im|i am) gone|later|once)|so (?:they|he|she) (?:know|knows|understand|understands|wont blame)|(?:it|its) (?:wasnt|was not|isnt|is not) (?:their|his|her|your) fault|(?:understand|understood) why i did it)`},
	{id: "concept.notes_done", level: 3, conf: 0.75, src: `(?:my|the) (?:notes?|letters?) (?:are|is) (?:all )?(?:written|done|finished|ready|sealed|signed)(?: \w+){0,4} (?:\. )?(?:(?:everyone|they|you|he|she) (?:will|ll|would)? ?(?:understand|know why|forgive)|its not (?:their|your) fault|goodbye|im sorry)`},
	{id: "concept.letters_family", whole: true, level: 3, conf: 0.75, src: `(?:wrote|written|writing|left|finished|drafted) (?:letters|notes|goodbye \w+|a letter to each|letters to each) (?:to|for) (?:(?:my |all my |each of my )(?:\w+ )?{loved}|everyone|everybody|each of them|my loved ones)(?: \.|$| and| but| explaining| they| so| already| tonight| today)(?: \w+){0,3} ?(?:\. )?(?:theyll|they will|they would|it wasnt|explaining|so they|i love|goodbye|im sorry|sorry)`},

	// ---- saved-up means (C-SSRS 6: preparation) ----
	{id: "concept.saved_over_time", level: 3, conf: 0.8, src: `(?:saving|saved|collecting|collected|hoarding|hoarded|stockpiling|stockpiled|stashing|stashed|keeping|kept|putting aside|put aside|setting aside|set aside|squirreling away|holding onto|holding on to|storing|stored|building up|hiding|hid|hidden|putting|dropping) (?:up )?(?:\w+ ){0,3}{drug}(?: \w+){0,5} (?:instead of taking (?:them|it)|rather than taking (?:them|it)|waiting for the right (?:night|day|time|moment)|for {duration}|since (?:\w+)|from (?:every|each|all my|my) (?:refill|refills|prescription|prescriptions|script|scripts)|every (?:refill|prescription|month|week)|for when (?:im|i am|i decide|its time|i need)|for (?:the day|tonight|the night|later|the end|one day|someday|that day|an emergency exit)|just in case|to (?:die|not wake up|od|overdose|end it|kill myself|take (?:them )?all))`},
	{id: "concept.saved_amount", level: 3, conf: 0.8, src: `(?:(?:weeks|months|a month|two months|three months|\d+ (?:weeks|months|days)|a \w+s) (?:worth )?of (?:my )?{drug} (?:\w+ ){0,3}(?:saved|put aside|set aside|stashed|stockpiled|hoarded|hidden|hid|kept|saved up))`},
	{id: "concept.saved_amount_2", level: 3, conf: 0.8, src: `(?:enough|a stash of|a stockpile of|a supply of|a drawer (?:full )?of|a box (?:full )?of|a bag (?:full )?of) (?:\w+ )?(?:{drug}|{weapon}) (?:\w+ ){0,3}(?:saved|stashed|hoarded|hidden|put aside|for tonight|for when|to (?:not wake up|die|od|overdose|end it|do it))`},
	{id: "concept.saved_amount_3", level: 3, conf: 0.8, src: `(?:ive|i have|im|i am|been) (?:been )?(?:hoarding|stockpiling|stashing|saving up|saving) (?:them|these|those) (?:for|since|so)`},
	{id: "concept.saved_after", level: 3, conf: 0.8, src: `{drug} (?:\w+ ){0,4}(?:saving|saved|hoarding|hoarded|collecting|collected|stashing|stashed|keeping|kept|stockpiling|stockpiled|hiding|hidden|putting aside|setting aside|putting|put|dropping)(?: up| aside)?(?: \w+){0,4} (?:waiting for the right (?:night|day|time|moment)|for {duration}|since (?:january|february|march|april|may|june|july|august|september|october|november|december|christmas|last \w+|\w+ (?:weeks|months) ago)|for (?:when|the day|tonight|this|it|later|the end))`},
	// Means gathered so as not to be noticed: "going to different pharmacies
	// so nobody notices how many I'm buying".
	{id: "concept.buy_unnoticed", level: 3, conf: 0.75, src: `(?:different|several|multiple|separate|two|three|four|a few|other|lots of) (?:pharmacies|chemists|drugstores|doctors|gps|surgeries)(?: \w+){0,8} (?:so (?:that )?(?:nobody|no one|noone|they dont|they wont|the pharmacist doesnt|nobody will|no one will) (?:\w+ )?(?:notices?|asks?|realises?|realizes?|questions?|suspects?|gets? suspicious|clocks?|twigs?|finds out)|(?:without|to avoid) (?:any )?(?:questions|suspicion|raising))`},
	{id: "concept.stash_refill", level: 3, conf: 0.75, src: `(?:every|each) (?:time i get (?:a|my) )?(?:refill|prescription|script)(?: \w+){0,3} (?:i )?(?:stash|hide|keep|save|put aside|set aside|hold back) (?:half|some|a few|most|the rest|\d+|them)`},
	// A device sold for dying, bought or arrived: "my exit bag came today".
	{id: "concept.exit_bag_got", level: 3, conf: 0.8, src: `(?:(?:my|the|an|a) (?:exit|suicide) (?:bag|hood|kit) (?:\w+ ){0,3}(?:arrived|came|is here|was delivered|got delivered|delivered|shipped|ships|is on its way|is in the post)|(?:ordered|bought|got|made|built|received|picked up) (?:\w+ ){0,2}(?:an |a |my |the )?(?:exit|suicide) (?:bag|hood|kit)|(?:exit|suicide) (?:bag|hood|kit) (?:shipping|delivery|order|tracking|parcel))`},
	// Cutting again, and bleeding: "cut again, it's bleeding a lot".
	{id: "concept.cut_again_bleeding", level: 2, conf: 0.75, selfInjury: true, whole: true, src: `(?:cut|cutting|sliced|slashed) (?:myself |my (?:arm|arms|wrist|wrists|leg|legs|thigh|thighs) )?again(?: \w+| \.){0,6} (?:bleeding|bleedin|blood|bleed|bled|stitches)`},
	// A poison drunk: "drank the weedkiller out in the shed".
	{id: "concept.poison_drunk", attempt: true, level: 3, conf: 0.8, src: `(?:drank|drunk|swallowed|downed|ingested|necked) (?:some |the |a (?:bottle|cup|glass|mug|can) of |the (?:whole )?bottle of |half (?:a|the) bottle of )?(?:\w+ )?{poison}`},
	// A count of a drug with nothing else, or a drug and its count, told as
	// what was taken: "40 of my amitriptyline", "ibuprofen 40, tramadol
	// 10", "paracetamol x2 boxes".
	{id: "concept.od_count_of_my", attempt: true, routine: true, level: 3, conf: 0.75, src: `(?:^|\. |and |plus )(?:about |like |around |maybe |over )?(?:[1-9]\d+|twenty|thirty|forty|fifty|sixty) (?:of )?(?:my|the|his|her|mums|moms|dads) (?:\w+ )?{drug}`},
	{id: "concept.od_drug_count", attempt: true, routine: true, level: 3, conf: 0.75, src: `(?:^|\. )(?:the )?{drug} (?:x ?\d+|[1-9]\d+)(?: (?:boxes|packs|packets|strips|tabs|tablets|pills))?(?: (?:\w+ ){0,3}(?:{drug}|vodka|whiskey|whisky|wine|beers?|cider|gin|rum|booze)(?: (?:x ?\d+|maybe \d+|\d+))?){1,4}`},
	// A week's or a month's supply at once: "took my whole week of meds at
	// once".
	{id: "concept.od_supply_at_once", attempt: true, routine: true, level: 3, conf: 0.8, src: `{ingestv} (?:my |the |a |all my |all the )?(?:whole |entire |full )?(?:weeks?|months?|fortnights?|days?|\d+ days?)(?: worth)? of (?:my |the )?(?:\w+ )?{drug}(?: \w+){0,3} (?:at once|in one go|all together|together|at the same time|in one)`},
	// Everything of one's own drug swallowed, with the time since: "swallowed
	// all my prazosin and the venlafaxine about an hour ago".
	{id: "concept.od_all_my_ago", attempt: true, level: 3, conf: 0.75, src: `(?:swallowed|took|taken|downed|necked|popped) (?:all|all of) (?:my|the) (?:{drug}|{drugname})(?: (?:and|plus|\+) (?:all )?(?:my |the )?(?:{drug}|{drugname}))?(?: \w+){0,3} (?:(?:about |around |like |maybe )?(?:an|a|one|two|half an|\d+|twenty|thirty|forty) (?:hours?|mins?|minutes) ago|{odfeel})`},
	// Patches or pens of a drug all used: "put 4 of the fentanyl patches
	// on", "used both the insulin pens".
	{id: "concept.od_patches_pens", attempt: true, level: 3, conf: 0.8, src: `(?:put|stuck|applied|slapped) (?:on )?(?:\d+|two|three|four|five|six|all|all of|all my|every one of|the whole box of) (?:of )?(?:my |the )?(?:fentanyl|morphine|buprenorphine|butrans|pain|opioid|nicotine) patches|(?:injected|inject|injecting|used|emptied|took) (?:all|both|all of|every one of) (?:my |the )?(?:insulin )?pens|(?:injected|inject|injecting|took|shot) (?:about |like |over |maybe )?(?:[2-9]\d\d|\d{4}|a hundred|hundreds of) units`},
	// A drug said taken and what it does: "Tablets taken. Whisky too.
	// Feeling drowsy now."
	{id: "concept.od_taken_feel", attempt: true, whole: true, level: 3, conf: 0.75, src: `(?:^|\. )(?:all (?:the |my )?)?(?:the |my )?{drug} (?:all )?(?:taken|swallowed|are in me|in me|down|gone)(?: \w+| \.){0,6} {odfeel}`},

	// Self-injury told by its tool or its place: "did the thing with the
	// razor again", "relapsed with the compass", "pressed my hand on the
	// hob ring", "put the hot iron on my arm".
	{id: "concept.injury_thing", level: 2, conf: 0.75, selfInjury: true, src: `(?:did|do|doing|done) (?:the|that|my) (?:thing|stuff) with (?:the|a|my) (?:razor|razors|blade|blades|compass|lighter|scissors|sharpener|knife|pencil sharpener)`},
	{id: "concept.injury_tool_relapse", level: 2, conf: 0.7, selfInjury: true, whole: true, src: `(?:(?:used|using|got out|took out|get out|went back to|back to|relapsed (?:with|on)) (?:the |a |my |new |old )?(?:razor|razors|blade|blades|compass|sharpener blade|scissors|stanley knife|box cutter))(?: \w+| \.){0,8} (?:relaps\w*|(?:days?|weeks?|months?|years?) clean|clean streak|streak|not deep|deeper|cuts|scars|sleeves|bled|bleeding|blood|hid|hide|needed (?:it|to)|won|on my (?:arm|arms|wrist|wrists|thigh|thighs|leg|legs|stomach|skin))|(?:relaps\w*|(?:days?|weeks?|months?|years?) clean|clean streak|streak|day 0)(?: \w+| \.){0,8} (?:used|with|got out|back to) (?:the |a |my |new |old )?(?:razor|razors|blade|blades|compass|sharpener blade|scissors|stanley knife|box cutter)|(?:the )?(?:razor|blade) won`},
	{id: "concept.burn_pressed", whole: true, level: 2, conf: 0.75, selfInjury: true, src: `(?:put|pressed|press|held|hold|holding|keep|kept) (?:the |a |my )?(?:hot |lit )?(?:iron|lighter|cigarette|match|hob|kettle|curling iron|straighteners) (?:on|against|to|into) my (?:arm|arms|wrist|wrists|hand|hands|skin|leg|legs|thigh|thighs|stomach)|(?:put|pressed|press|held|hold|holding|keep|kept) my (?:hand|arm|wrist|palm|fingers) (?:on|against|over|in) (?:the |a )?(?:hob|stove|hob ring|iron|flame|lighter|candle|hotplate|burner|fire)(?: \w+| \.){0,6} (?:longer|until|till|til|on purpose|again|each time|every time|deliberately|blister\w*)|(?:burn|burned|burnt) my (?:hand|arm|arms|wrist|skin|leg|thigh) with (?:a |the |my )?(?:lighter|cigarette|match|iron) (?:\w+ ){0,3}(?:because|cause|to feel|on purpose|again)`},
	// Hose and tape, with the car: the means of a car's exhaust.
	{id: "concept.exhaust_kit", whole: true, level: 3, conf: 0.75, src: `(?:hose|hosepipe|tubing|pipe)(?: and| \+| &)(?: \w+){0,3} tape(?: \w+| \.){0,10} (?:car|cars|exhaust|boot|trunk|garage|engine)|(?:car|exhaust|boot|trunk|garage)(?: \w+| \.){0,10} (?:hose|hosepipe|tubing)(?: and| \+| &)(?: \w+){0,3} tape`},
	{id: "concept.buy_keep", level: 3, conf: 0.75, src: `(?:buying|bought|getting|picking up|ordering) (?:\w+ ){0,4}{drug} (?:every|each) (?:week|day|month|time|few days)(?: \w+){0,3} (?:and )?(?:keeping|saving|stashing|hiding|hoarding|not taking)`},
	{id: "concept.not_taking_saving", level: 3, conf: 0.75, src: `(?:havent|have not|hadnt|not|stopped|quit) (?:been )?(?:taken|taking) (?:my |the |any of my )?{drug}(?: \w+){0,4} (?:im|i am|ive been|and im|and ive been|been) (?:saving|keeping|stashing|hoarding|collecting) (?:them|it|all|all of them)`},
	{id: "concept.skip_keep", level: 3, conf: 0.8, src: `(?:stopped|stop|quit|skipping|skipped|not|havent been|been not) (?:taking )?(?:my )?{drug} (?:\w+ ){0,3}(?:so (?:i|that i) (?:could|can) (?:save|keep|stash|collect|have) (?:them|it|enough)|and (?:keeping|saving|stashing|collecting|hoarding) (?:them|the \w+|it))`},
	// "I have a stash of razor blades in my desk for tonight".
	{id: "concept.means_ready_me", level: 3, conf: 0.75, frame: true, src: `(?:{weapon}|{drug}) (?:\w+ ){0,4}(?:and )?(?:im|i am|and im|and i am|i feel) (?:ready|prepared|set)(?: \.|$| now| to go| tonight| for it)`},
	{id: "concept.means_for_tonight", level: 3, conf: 0.75, frame: true, src: `(?:{weapon}|{drug}) (?:\w+ ){0,5}(?:for|ready for) (?:tonight|later tonight|the night|when (?:its|it is) time|when im ready|the end)(?: \.|$| and| but)`},

	// ---- an overdose already taken, told as drugs and doses (C-SSRS 6) ----
	// A count of units (not milligrams) beyond any prescription.
	// A count of ten or more swallowed, or taken and followed by what an
	// overdose does, with nothing named: "swallowed 20 of the blue ones",
	// "took about 30 of them, everything is fuzzy".
	{id: "concept.od_count_unnamed", attempt: true, level: 3, conf: 0.75, src: `(?:swallowed|downed|necked) (?:like |about |around |over |almost |nearly |maybe |at least |all )?(?:[1-9]\d+|ten|twelve|fifteen|twenty|thirty|forty|fifty|a hundred) (?:of )?(?:them|those|these|the \w+(?: \w+)? ones)`},
	{id: "concept.od_count_unnamed_took", attempt: true, level: 3, conf: 0.7, src: `(?:took|taken|popped) (?:like |about |around |over |almost |nearly |maybe |at least |all )?(?:[1-9]\d+|ten|twelve|fifteen|twenty|thirty|forty|fifty|a hundred) of (?:them|those|these|the \w+(?: \w+)? ones)(?: (?:\w+|\.)){0,6} {odfeel}`},
	// All of something taken, and what an overdose does coming on: "took
	// all of them, feeling weird now", "took the lot. feel dizzy". Taking
	// them somewhere ("to the vet") is not this.
	{id: "concept.od_all_feel", attempt: true, whole: true, level: 3, conf: 0.7, src: `(?:took|taken|popped|swallowed|downed|necked) (?:them all|all of them|the (?:whole )?lot|every (?:single |last )?one(?: of them)?|the whole (?:bottle|box|pack|packet|strip|tub)(?: of them)?)(?: (?:\.|now|already|and|so|just|earlier|lol|ok|i think|\w+ (?:mins?|minutes|hours?) ago|an hour ago|a while ago)){0,3}(?: (?:and |now |so )?(?:i |im |i am |ive been |its |)(?:\w+ )?)?{odfeel}`},
	{id: "concept.od_count", attempt: true, routine: true, level: 3, conf: 0.8, src: `(?:took|taken|swallowed|downed|popped|ate|eaten|chugged|necked) (?:like |about |around |over |almost |nearly |maybe |at least |all |the )?(?:[1-9]\d+|[5-9]|ten|twelve|fifteen|twenty|thirty|forty|fifty|a hundred|dozens) (?:(?:pills|tablets|capsules|caps|tabs) )?(?:of )?(?:(?:my|the|his|her|these|those|\w+s) ){0,2}{drug}`},
	{id: "concept.od_whole", attempt: true, routine: true, level: 3, conf: 0.8, src: `(?:took|taken|swallowed|downed|popped|ate|chugged|necked|emptied) (?:my |the |a |an |his |her |\w+s )?(?:(?:whole|entire|full|all (?:of )?(?:my|the|his|her)|every one of (?:my|the)|half (?:a|the|my)) (?:\w+ )?(?:{drug}|(?:bottle|bottles|pack|packs|packet|packets|box|boxes|strip|strips|blister|blisters|prescription|script|supply|stash) (?:of (?:my |the |his |her )?(?:\w+ )?{drug}|of (?:them|it)(?: \.|$| and| with)|\.|$|and|with))|(?:two|three|four|five|\d+) (?:\w+ )?(?:bottles|packs|packets|boxes|strips|blisters|blister packs)(?: of (?:my |the |his |her )?(?:\w+ ){0,2}{drug}| of (?:them|it)|(?: \.|$| and| with))|everything in (?:the|my) (?:medicine )?(?:cabinet|drawer|cupboard))`},
	{id: "concept.od_all_them", attempt: true, routine: true, whole: true, level: 3, conf: 0.75, src: `(?:took|taken|swallowed|downed|popped) (?:the|my|those|these) {drug}(?: \w+){0,2} \.? ?(?:all of them|every (?:single )?one|the whole (?:bottle|pack|box)|all \d+)`},
	{id: "concept.od_list", attempt: true, routine: true, level: 3, conf: 0.75, src: `(?:took|taken|swallowed|downed|popped|drank|had) (?:\w+ ){0,2}{drug}(?: \w+){0,3} (?:and|with|plus|on top of) (?:\w+ ){0,3}(?:{drug}|vodka|whiskey|whisky|wine|beers?|alcohol|liquor|rum|gin|tequila|a bottle)(?: \w+){0,4} (?:to (?:make it stop|die|end it|not wake up|sleep forever)|an hour ago|hours ago|minutes ago|\d+ (?:min|mins|minutes|hours?) ago|just now|and im|im scared|feeling|i feel|cant)`},
	{id: "concept.od_purpose", attempt: true, routine: true, level: 3, conf: 0.8, src: `(?:took|taken|swallowed|downed|popped|drank) (?:\w+ ){0,5}{drug}(?: \w+){0,4} (?:to (?:make it (?:all )?stop|die|end it|not wake up|sleep forever|end my life|kill myself|make the pain stop)|so i (?:dont|wont|could|can) (?:wake up|die|feel))`},

	// An amount told by what it was, not how many: a month's supply, the
	// rest of them, every last one, the whole stash, in one go.
	{id: "concept.od_supply", attempt: true, routine: true, level: 3, conf: 0.8, src: `{ingestv} (?:\w+ )?(?:(?:a|the|my|this|last|whole|entire|full) )?(?:(?:\w+ )?(?:months?|weeks?|fortnights?) (?:worth|supply|supplies)|(?:\d+|two|three|four|five|six|several) (?:\w+ )?(?:months?|weeks?) (?:worth )?of (?:my |the )?(?:\w+ )?(?:{drug}|prescription|script)|rest of (?:my |the |his |her |those |these )?(?:\w+ )?(?:{drug}|prescription|script|stash|supply)|every (?:last |single )?(?:one|pill|tablet|capsule) (?:i had|i have|left|in the \w+|of (?:my|the|them|those))|(?:whole|entire) (?:\w+ ){0,2}(?:stash|supply|prescription|script|jar|tub|pen|lot of (?:them|it|my \w+|the \w+)))`},
	{id: "concept.od_one_go", attempt: true, routine: true, level: 3, conf: 0.8, src: `{ingestv} (?:\w+ ){0,6}(?:{drug}|them|those|these|everything|it all|all of (?:them|it))(?: \w+){0,3} (?:in one go|all at once|in one sitting|on purpose|intentionally|deliberately)(?: \.|$| and| so| to| because| with| tonight| last| this| an| about)`},
	// "Took everything. The tramadol, the ..."
	{id: "concept.od_everything", attempt: true, routine: true, whole: true, level: 3, conf: 0.75, src: `(?:took|taken|swallowed|downed|popped|necked|injected|shot up|did) (?:everything|it all|all of it|all of them|them all|the lot|the whole lot)(?: i had| i have| i could find| left| in the \w+)?(?: \.)? (?:\w+ ){0,3}{drug}`},
	// Under way: "swallowing the rest of the pills now", "another handful".
	// An overdose told as a tally, without a verb: "20 amitriptyline, 10
	// tramadol and most of a bottle of wine", "30 ibuprofen + 2 beers", "a
	// whole pack of paracetamol and a lot of cider".
	{id: "concept.od_tally", attempt: true, routine: true, level: 3, conf: 0.75, src: `(?:^|\. |log |had |ive had |so |ok )(?:about |like |around |maybe )?(?:[1-9]\d+|a (?:whole |full )?(?:pack|box|bottle|strip|packet|sheet) of|the (?:whole |full )?(?:pack|box|bottle|strip|packet) of|(?:two|three|four|five|[2-9]) (?:strips|packs|boxes|packets|sheets) of|whole (?:pack|box|bottle|strip) of) (?:my |the |her |his )?(?:\w+ )?{drug}(?: \w+){0,6} (?:(?:[1-9]\d*|a|an|the|some|most of a|half a|a bottle of|a lot of|whatever was left of (?:my|the)) (?:\w+ )?(?:{drug}|vodka|whiskey|whisky|wine|beers?|cider|alcohol|liquor|rum|gin|tequila|booze))`},
	{id: "concept.od_handful", attempt: true, routine: true, level: 3, conf: 0.8, src: `{ingestv} (?:a |another |two |three |more )?handfuls?(?: of (?:my |the |those |these |them|it)?(?:\w+ )?{drug}?| \.|$| and| more| now| with| too)`},
	{id: "concept.od_under_way", attempt: true, routine: true, level: 3, conf: 0.8, src: `(?:swallowing|taking|downing|popping|necking|injecting) (?:the rest of|every one of|all the rest of) (?:my |the |those |these |them)?(?:\w+ )?{drug}?(?: \.|$| now| right now| as we| as i| while| and| with| one by)`},

	// ---- somewhere high and not going back (C-SSRS 6: at the means) ----
	{id: "concept.height_edge", level: 3, conf: 0.8, frame: true, src: `(?:standing|sitting|sat|stood|perched|leaning|hanging|balancing|crouching|im|i am) (?:\w+ ){0,2}(?:on|over|off|at) (?:the |a |my )?(?:edge|ledge|railing|rail|side|parapet|wall|rim) of (?:the |a |my |this |that )?(?:\w+ ){0,2}{height}|(?:standing|sitting|sat|stood|perched|balancing|climbed|climbing) (?:up )?(?:on|onto|over) (?:the |a |my )?(?:\w+ )?(?:balcony|bridge|roof) (?:railing|rail|ledge|edge|parapet|wall)`},
	{id: "concept.height_no_return", whole: true, level: 3, conf: 0.8, frame: true, src: `(?:im|i am|on|at|up on|standing on|sitting on|top of|up at) (?:the |a |my |this )?(?:top (?:floor )?of (?:the |a |my )?)?(?:\w+ ){0,2}{height}(?: \w+){0,8} (?:\. )?(?:(?:i )?(?:dont|do not|wont|will not|not going to|never going to|cant|im not going to|im not) (?:want to |plan to )?(?:go|come|climb|get|walk|going|coming) (?:back(?: down| home| up)?|down|home)|(?:i )?(?:want to|going to|about to|ready to|have to|need to|will) jump|(?:im|i am) not (?:coming|going) back|(?:its|it is) (?:time|so high|high enough|far enough)|(?:im|i am) not (?:scared|afraid) (?:anymore|of falling|of the fall))`},

	// ---- plans told as worked out (C-SSRS 5) ----
	{id: "concept.plan_when_how", level: 3, conf: 0.75, needsContext: true, src: `(?:i )?know (?:exactly )?(?:how and when|when and how|when and where|how and where|where and when|how when and where)(?: \w+){0,3}`},
	{id: "concept.plan_when_how_do", level: 3, conf: 0.8, src: `(?:i )?know (?:exactly )?(?:how and when|when and how|when and where|how and where|where and when) (?:im going to|i will|ill|i am going to|im gonna|to) (?:do it|end it|die|go|kill myself)`},
	{id: "concept.picked_date", level: 3, conf: 0.75, needsContext: true, src: `(?:ive|i have|i|just) (?:already |finally )?(?:picked|chosen|chose|set|decided on|got) (?:a|the|my) (?:date|day|night|time|place|spot)(?: \.|$| its| it is| for it| already| now)`},
	// A plan told as its parts: a place or means chosen, and a time.
	{id: "concept.plan_parts", level: 3, conf: 0.75, frame: true, src: `(?:picked|chosen|chose|decided on|settled on|scouted|figured out|worked out|planned out|sorted out|got it all figured out|planned) (?:out )?(?:\w+ ){0,5}(?:{height}|{weapon}|{drug}|spot|place|method|way)(?: \w+){0,3} (?:and|with) (?:\w+ ){0,2}(?:night|day|date|time|hour|when)`},
	{id: "concept.plan_parts_time", level: 3, conf: 0.75, frame: true, src: `(?:picked|chosen|chose|decided on|settled on|set|got) (?:\w+ ){0,3}(?:night|day|date|time) (?:and|with) (?:\w+ ){0,2}(?:{height}|{weapon}|{drug}|spot|place|method|way)`},
	{id: "concept.plan_means_day", level: 3, conf: 0.75, frame: true, src: `(?:decided on|settled on|picked|chosen|chose|going with|going to use|gonna use) (?:\w+ ){0,2}(?:{weapon}|{drug}|{height}|hanging|jumping|overdose|an overdose)(?: \w+){0,3} (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tonight|tomorrow|this weekend|next week|(?:\w+ )?night|when (?:everyone|they|my \w+))`},
	{id: "concept.means_know_when", level: 3, conf: 0.75, whole: true, src: `(?:{weapon}|{drug}|{height})(?: \w+){0,6} (?:and |\. )?(?:i )?know (?:exactly )?(?:when|how|where)(?: \.|$| and| im| ill| i will| to)`},
	{id: "concept.others_away", level: 3, conf: 0.75, src: `(?:do it|doing it|end it|ending it|go through with it|kill myself|take (?:them|the pills|my pills))(?: \w+){0,2} (?:when|while|after|once) (?:everyone|they|theyre|my \w+|nobody|no one|the house)(?: is| are| s| re| has| have)? (?:\w+ )?(?:at church|at work|at school|asleep|out|gone|away|not home|not looking|sleeping|in bed|empty)|(?:when|while|after|once) (?:everyone|they|theyre|my \w+|nobody|no one)(?: is| are| s| re)? (?:\w+ )?(?:at church|at work|at school|asleep|out|gone|away|not home|sleeping|in bed)(?: \w+){0,2} (?:im going to|ill|i will|im gonna|im) (?:do it|end it|go through with it|kill myself|take (?:them|the pills|my pills))`},
	{id: "concept.plan_date_way", level: 3, conf: 0.75, src: `(?:date|day|time|night|place|spot|location)(?: \w+){0,4} and (?:the|a|my) (?:way|method|means)(?: \.|$| to| i| ready| sorted| figured| all)`},
	{id: "concept.leave_then_end", level: 3, conf: 0.8, src: `(?:when|once|after|as soon as) (?:my |the )?(?:\w+ ){0,2}(?:leave|leaves|left|go|goes|are asleep|is asleep|fall asleep|falls asleep|go to sleep|goes to sleep|are gone|is gone)(?: \w+){0,3} (?:im going to|ill|i will|i am going to|im gonna|im) (?:end it|end (?:my life|everything)|do it|kill myself|go through with it|take (?:them|the pills|my pills|it all)|{selfact})`},

	// ---- what comes after dying, imagined with relief ----
	{id: "concept.brink", level: 2, conf: 0.75, src: `(?:im|i am|i was|ive been|i feel|feel|feeling|been|getting|so|now im) (?:\w+ )?(?:on|at) the (?:edge|brink|verge) of (?:suicide|killing myself|ending it|ending (?:it all|my life|everything)|taking my (?:own )?life|giving up on life)`},
	{id: "concept.own_funeral", level: 2, conf: 0.7, src: `(?:imagining|imagine|picturing|picture|planning|plan|thinking about|dreaming about|fantasi[sz]ing about) my (?:own )?(?:funeral|death|grave|obituary|wake|memorial)(?: \w+){0,6} (?:relief|peace|peaceful|happy|comfort|comforting|better|calm|nice|good)`},
	{id: "concept.never_feel_again", level: 2, conf: 0.7, src: `(?:make it so|going to make sure|want to make sure|so that|so) i (?:never|dont|wont|will never|do not) (?:have to )?(?:feel (?:anything|any pain|pain|this|again)|hurt|suffer|wake up|exist)(?: (?:ever )?again| anymore| ever)`},
	{id: "concept.do_to_myself", level: 2, conf: 0.7, src: `(?:scared|afraid|terrified|worried|frightened) (?:of )?(?:what|that) i (?:might|could|will|would|am going to|may) do (?:to myself|something)(?: \w+){0,2}(?: tonight| today| now| right now| \.|$)`},
	{id: "concept.swallow_these", level: 2, conf: 0.7, frame: true, src: `(?:swallow|take|down|neck|pop) (?:all (?:of )?(?:these|those|them|my \w+)|them all|every (?:single )?one(?: of them)?|the (?:whole|entire) (?:bottle|pack|box|lot))(?: \.|$| right now| now| tonight| so| and| at)`, notFollowedBy: []string{"at"}},
	{id: "concept.no_point_me", level: 2, conf: 0.75, src: `(?:whats|what is) (?:even |really )?the point (?:of|in) me (?:being (?:alive|here|around)|living|existing|staying (?:alive|around)|continuing)`},
	{id: "concept.gone_permanently", level: 2, conf: 0.7, src: `(?:want|wish|need|ready) to (?:disappear|vanish|be gone|stop being (?:a burden|here)|stop)(?: \w+){0,3} (?:permanently|forever|for good|for ever)|(?:stopped|stop) being a burden(?: \w+){0,2} (?:permanently|forever|for good)`},
	{id: "concept.way_to_go", level: 2, conf: 0.75, src: `(?:least painful|painless|easiest|quickest|fastest|surest|best|most peaceful|quietest|gentlest) (?:way|ways|method) (?:to go|to check out|to leave|to exit|out|to do it|to end it)(?: \.|$| for me| forever| for good| without)`},
	// Sincerity cancels hyperbole: "someone just end me, I mean it".
	{id: "concept.sincere_end_me", whole: true, level: 2, conf: 0.7, src: `(?:end me|kill me|want to die|wanna die)(?: \w+){0,3} (?:\. )?(?:i mean it|im serious|i am serious|not joking|im not joking|not kidding|im not kidding|for real this time|dead serious)`},

	// ---- written for the fifth chat batch (chat-tune.jsonl, -t5-), by concept ----
	// Death, the void or a means at the head found inviting: "the void looks
	// comfy", "a gun to my head sounds peaceful" (C-SSRS 1-3).
	{id: "concept.death_inviting", level: 2, conf: 0.7, src: `(?:the void|oblivion|nothingness|death|being dead|not existing|eternal sleep|never waking up|not waking up|(?:a |the )?(?:gun|pistol|barrel|bullet|knife|blade|rope|noose) (?:to|in|against|on|around) my (?:head|temple|mouth|throat|wrists?|neck)) (?:is |are |keeps |has been )?(?:looks?|looking|seems?|seeming|feels?|feeling|sounds?|sounding|getting|starting to (?:look|sound|feel)) (?:so |real |really |very |kinda |kind of |pretty |more and more |weirdly |oddly |honestly |super )?(?:comfy|cozy|cosy|peaceful|nice|tempting|inviting|appealing|comforting|calm|like (?:a )?(?:relief|peace|home|an escape|the answer)|better than (?:this|living|life))`},
	// An act put after an ordinary step in time: "going to wait till my
	// shift ends, then drive into the reservoir" (C-SSRS 4-5).
	{id: "concept.act_intent_later", level: 3, conf: 0.75, frame: true, src: `{intend} (?:\w+ ){1,8}(?:then|and then) {adv}(?:to )?{selfact}`},
	// "It" done when no one can see or stop it: "so I can do it before
	// anyone wakes up" (a plan with its time and its concealment).
	{id: "intent.do_it_unseen", level: 3, conf: 0.7, src: `(?:do it|doing it|end it|ending it|go through with it) (?:\w+ ){0,3}(?:before|while|when|once) (?:anyone|anybody|everyone|everybody|they|theyre|nobody|no one|noone|my (?:\w+ )?(?:family|parents|mum|mom|dad|wife|husband|partner|roommate|flatmate|kids?)) (?:is |are |can |\w+ )?(?:wakes? up|wake|asleep|sleeping|falls? asleep|stop me|finds? out|notices?)`},
	// A last occasion said together with a plan: "new year's eve is my last
	// one, I've planned it out".
	{id: "intent.last_planned", level: 3, conf: 0.75, whole: true, src: `(?:is|be|will be|its) my last (?:one|christmas|birthday|new year|new years|new years eve|summer|night|day|week|weekend)(?: \.)? (?:ive |i have |i |and ive |and i |its |all )?(?:planned|decided|made up my mind|worked it out|figured it out|sorted it out|picked the)|(?:planned|decided|made up my mind) (?:\w+ ){0,6}(?:is|be|will be) my last (?:one|christmas|birthday|new year|new years|new years eve|summer|night|day|week|weekend)(?: \.|$)`},
	// The world going on without oneself: "the sun's coming up tomorrow
	// without me in it" (finality said sideways).
	{id: "concept.world_without_me", level: 3, conf: 0.7, excusable: true, src: `(?:the (?:sun|world|earth|morning|sunrise|day)s?|tomorrow|everything) (?:\w+ ){0,2}(?:will |is going to |going to |would |is |s )?(?:come up|comes up|coming up|rise|rises|rising|go on|goes on|going on|carry on|carries on|carrying on|keep turning|keeps turning|start|starts|begin|begins) (?:\w+ ){0,2}without me(?: in it| here| around| there| \.|$| and| but| soon| anyway)`},
	// Affairs put in order before going: "nothing left to sort out before
	// I go" (C-SSRS 6: preparation).
	{id: "prep.affairs", level: 3, conf: 0.75, excusable: true, notFollowedBy: []string{"on", "to", "away", "home", "back", "out", "abroad", "for", "in", "into", "travelling", "traveling", "off", "shopping", "there", "up"}, src: `(?:nothing (?:left |else )?to (?:sort out|sort|take care of|arrange|organi[sz]e|settle)|(?:everything|all|it all|my affairs)(?: is| s| are)? (?:sorted|arranged|taken care of|in order|settled)|(?:put|got|getting|putting|have) (?:all )?my affairs in order) (?:\w+ ){0,3}(?:before i (?:go|leave|die|do it|am gone|m gone)|for when im gone|for after im gone)`},
	// No self left in the future: "there won't be a me to text back".
	{id: "goodbye.no_me", level: 3, conf: 0.75, excusable: true, src: `there (?:wont|will not|isnt going to|is not going to|wont even) be (?:a |any )?me(?: to| \.|$| after| by| tomorrow| anymore| left| around)`},
	// Future commitments cancelled because they will not be needed.
	{id: "prep.cancel_future", level: 3, conf: 0.7, excusable: true, src: `(?:cancel\w*|gave away|given away|giving away|sold|returned|deleted|emptied|closed) (?:all|every)(?: of)? (?:my )?(?:\w+ ){0,6}(?:since|because|as|cause|cuz|coz) i (?:wont|will not|am not going to|im not going to|wont be) (?:need|needing|have any use for) (?:them|it|any of (?:them|it))(?: anymore| after (?:tonight|today|this|that|tomorrow)| where im going| \.|$)`},
	// Means kept and waiting: "a rope in my closet, waiting" (preparation).
	{id: "prep.means_waiting", level: 3, conf: 0.7, frame: true, src: `(?:rope|noose|gun|pistol|rifle|shotgun|pills|blade|razor|razors|knife|helium|charcoal|exit bag) (?:\w+ ){0,10}(?:waiting|ready)(?: for (?:me|the (?:right )?(?:day|night|time|moment)|when i(?:m ready)?))?(?: \.|$)`},
	// A hoard of a drug judged big enough: "my stash of amitriptyline is
	// finally big enough", "stopped taking my lithium, there's a pile big
	// enough now" (preparation).
	{id: "prep.hoard_enough", level: 3, conf: 0.75, whole: true, src: `(?:pile|stash|stack|heap|hoard|supply|stockpile|jar|bag) of (?:my )?(?:\w+ )?{drug} (?:is |s |are )?(?:finally |now |almost |nearly |just about )?(?:big enough|large enough|enough)(?: \.|$| now)|(?:stopped|quit|skipping|skipped|been skipping|not|havent been|have not been) (?:taking )?my (?:\w+ )?{drug}(?: \w+){0,6} (?:\. )?(?:\w+ ){0,4}(?:pile|stash|stack|heap|hoard|supply|stockpile)(?: \w+){0,3} (?:big |large )?enough`},
	// At a height and going over, or letting go (C-SSRS 6 in progress).
	{id: "prep.height_over", level: 3, conf: 0.75, whole: true, frame: true, src: `{height} (?:\w+ ){0,8}(?:\. )?(?:\w+ ){0,6}(?:\. )?(?:im |i am |and im )?(?:climbing|climbed|going|stepping|leaning|swinging|hanging) (?:my legs |myself )?over(?: the (?:railing|edge|barrier|fence|wall|side|parapet|rail|top))?(?: \.|$| now| tonight)`},
	{id: "prep.height_let_go", level: 3, conf: 0.75, frame: true, src: `{height}(?: \w+){0,4} (?:and |im |and im )?(?:{desire}|{intend}) {adv}(?:letting go|let go|falling|stepping off|step off|going over|climbing over|jumping|jump)(?: \.|$| off| now| tonight| and| again)`},
	// Not eating as punishment (self-injury).
	{id: "selfharm.starve", level: 2, conf: 0.75, selfInjury: true, src: `(?:havent|have not|didnt|did not|stopped|not been|refuse to|refusing to|wont|will not) (?:eaten|eating|eat)(?: \w+){0,5} (?:to punish (?:myself|me)|because i (?:deserve|dont deserve)|(?:i|and i) (?:deserve (?:it|to (?:suffer|starve|hurt|be hurt|feel (?:bad|pain)))|dont deserve (?:to eat|food))|as (?:a )?punishment)`},
	// Never heard from again: "tomorrow you won't hear from me".
	{id: "goodbye.wont_hear", level: 3, conf: 0.75, excusable: true, notFollowedBy: []string{"on", "at", "for", "until", "till", "while", "during", "via", "over", "in", "about", "much", "as", "because", "since"}, src: `(?:you|anyone|anybody|nobody|no one|noone|you guys|yall|they) (?:wont|will not|will never|are not going to|arent going to|never) (?:hear from|see|talk to|speak to) me (?:again|tomorrow|after (?:tonight|today|this)|anymore)|(?:nobody|no one|noone) (?:will|is going to) (?:ever )?(?:see|hear from) me (?:again|anymore)|(?:tomorrow|after (?:tonight|today)) (?:you|anyone|nobody|no one) (?:wont|will not|will never|arent going to) (?:hear from|see) me`},
	// "Die" written as its homophone ("i want to dye, not joking"), with
	// nothing dyed after it.
	{id: "concept.want_dye", level: 2, conf: 0.7, weak: true, src: `(?:{want}|{intend}|ready to) {adv}(?:to )?dye(?: \.|$| tonight| today| right now| now| soon| already| fr| tbh| ngl| not| for real| so bad| so badly)`},
	// ---- written for the sixth chat batch (chat-tune.jsonl, -t6-), by concept ----
	// A lethality question with the drug named loosely: "how many of my
	// blood pressure tablets it would take to stop everything".
	{id: "concept.lethality_loose", level: 2, conf: 0.75, src: `how (?:many|much) (?:of )?(?:my |these |the |those )?(?:\w+ ){0,2}{drug} (?:\w+ ){0,4}{goal}`},
	// A drug put aside, then "enough" (preparation).
	{id: "prep.put_aside_enough", level: 3, conf: 0.75, whole: true, src: `(?:putting aside|put aside|setting aside|set aside|saving|saved|stockpiling|hoarding|collecting|keeping back|hiding) (?:all )?(?:of )?(?:my |the |some |his |her )?(?:\w+ )?{drug}(?: \w+){0,6} (?:\. )?(?:\w+ ){0,4}enough(?: now| \.|$)`},
	// Sleep with everything finished: "fall asleep and for it all to be finished".
	{id: "concept.sleep_and_end", level: 2, conf: 0.7, src: `(?:sleep|asleep) (?:\w+ ){0,2}and (?:for )?(?:it all|everything|all of it|it|this|my life) to (?:end|stop|be over|be finished|be done)(?: \.|$| forever| for good)`},
	// Looking up the highest place near oneself (method seeking).
	{id: "method.height_search", level: 2, conf: 0.7, src: `(?:looked up|looking up|look up|googled|googling|searched|searching|checked|checking|found|finding) (?:out )?(?:which|what|the) (?:\w+ ){0,2}{height} (?:is |s )?(?:the )?(?:highest|tallest)(?: \w+){0,2} (?:near me|nearby|around here|near here|in (?:my|our|this) (?:town|city|area))`},
	// A clarification that names dying: "like stop living", "i mean die".
	{id: "concept.clarify_dying", level: 2, conf: 0.7, weak: true, src: `(?:^|\. )(?:like|i mean|as in|meaning) (?:just )?(?:stop living|stop existing|not exist|not be alive|not be here|never wake up|not wake up|die|be dead)(?: \.|$| dead| forever)`},
	// A rope tied to a fixture and tested (preparation).
	{id: "prep.rope_tested", level: 3, conf: 0.75, frame: true, src: `(?:tied|tying|tie|attached|fixed|hung|hanging) (?:a |the |my )?(?:rope|belt|cord|cable|scarf|noose|sheet) (?:to|around|over|from) (?:a |the |my )?(?:banister|bannister|beam|rafter|door|doorframe|door frame|hook|ceiling fan|pipe|shower rod|curtain rod|railing|stairs|loft hatch)(?: \w+){0,6} (?:hold|take my weight)(?: \.|$| me| my weight)`},
	// Already taken, the drug not named; needs context ("don't try to find me").
	{id: "attempt.taken_them", level: 3, conf: 0.7, needsContext: true, src: `(?:ive|i have|i|just) (?:just )?already (?:taken|took|swallowed|downed) (?:them all|all of them|them|the lot|everything)(?: \.|$)`},
	// Means and a plan said together (C-SSRS 5).
	{id: "prep.means_and_plan", level: 3, conf: 0.75, src: `(?:(?:stash|supply|stockpile|bottle|box|pack|bag) of (?:\w+ ){0,3})?(?:{drug}|{weapon}) (?:\w+ ){0,2}and (?:a|my|the) plan(?: \.|$| now)|(?:a|my|the) plan and (?:the |my |enough |a |some )?(?:\w+ )?(?:{drug}|{weapon})(?: \.|$)`},
	// An illness wished to win (C-SSRS 1).
	{id: "wish.illness_wins", level: 2, conf: 0.7, src: `(?:hope|hopes|hoping|wish|wishing|pray|praying) (?:that )?(?:the |my |this )?(?:cancer|tumou?r|illness|disease|virus|infection|heart attack|stroke) (?:\w+ ){0,2}(?:wins|takes me|kills me|gets me|finishes me|finishes me off)`},
	// Making it stop forever (C-SSRS 1-2).
	{id: "concept.make_it_stop_forever", level: 2, conf: 0.7, src: `(?:make|making) (?:it|the pain|everything|it all) (?:stop|end|go away) (?:forever|for good|permanently|once and for all)`},
	// Better off once I'm gone (a wish said as others' relief).
	{id: "ideation.better_once_gone", level: 2, conf: 0.7, src: `(?:would|will|d|ll) be (?:better off|happier|better|fine|okay|ok)(?: \w+){0,6} (?:once|when|after) im (?:dead|gone)(?: \.|$)`},
	// The last day of being a burden (finality).
	{id: "goodbye.last_burden", level: 3, conf: 0.75, src: `(?:the )?last (?:day|night|time|week) (?:ill|i will|im going to) (?:ever )?be (?:a burden|a problem|in (?:your|anyones) way|here|alive|around)`},
	// Strips and packs of a drug swallowed (an overdose told as a count of packs).
	{id: "attempt.ingest_packs", routine: true, level: 3, conf: 0.75, src: `(?:took|taken|swallowed|downed|ingested|popped) (?:\w+ ){0,8}(?:a |the |two |three |\d+ )?(?:strips?|blister packs?|sheets?|packs?|packets?|boxes?|tubs?) of (?:my |the |his |her )?(?:\w+ ){0,2}{drug}`},
	// ---- written for the seventh chat batch (chat-tune.jsonl, -t7-), by concept ----
	// One's own body found or buried, pictured (C-SSRS 1).
	{id: "wish.picture_found", level: 2, conf: 0.7, src: `(?:picturing|imagining|imagine|picture|see|seeing|thinking about|think about|dream about|dreaming about) (?:my )?(?:own )?(?:body|corpse) (?:being )?(?:found|discovered|buried|pulled out|in a coffin|in the ground)|(?:picturing|imagining|imagine|picture) (?:people|everyone|my family|them|my \w+) (?:at my funeral|finding (?:me|my body))`},
	// The last one ever sent (finality).
	{id: "goodbye.last_ever", level: 3, conf: 0.75, excusable: true, src: `(?:the )?last (?:\w+ ){0,2}(?:ill|i will|youll|you will) ever (?:send|post|write|get|receive|hear|see|make|say)`},
	// A whole bottle of drink with the drug, intended (C-SSRS 4).
	{id: "intent.drink_with_drug", level: 3, conf: 0.75, src: `{intend} (?:\w+ ){0,3}(?:drink|down|take|swallow|mix) (?:the whole|a whole|the entire|a full|all (?:the|my)|a bottle of|the bottle of) (?:\w+ ){0,2}(?:vodka|whiskey|whisky|wine|alcohol|booze|gin|rum|tequila) (?:\w+ ){0,2}(?:with|and|plus) (?:all )?(?:my |the |some )?(?:\w+ )?{drug}`},
	// A lethal dose looked into (method seeking).
	{id: "method.dose_lethal", level: 2, conf: 0.75, src: `(?:what|which) (?:dose|amount|quantity|number) (?:of )?(?:my )?(?:\w+ )?{drug} (?:is|would be|would|will) (?:be )?(?:lethal|fatal|deadly|enough to (?:die|kill))`},
	// The night one goes, said with a time (C-SSRS 4).
	{id: "intent.night_i_go", level: 3, conf: 0.75, needsContext: true, src: `(?:tonights|tonight is|today is|tomorrow is|this is) the (?:night|day) (?:i go|i die|i do it|im going|i leave|i end it|im gone)(?: \.|$| for good| forever)`},
	// Dead by a named day (C-SSRS 4).
	{id: "intent.dead_by", level: 3, conf: 0.75, weak: true, src: `(?:ill|i will|im going to|i am going to) (?:probably |definitely |surely )?be dead (?:by|before|within) (?:\w+ ){0,2}(?:sunday|monday|tuesday|wednesday|thursday|friday|saturday|tomorrow|tonight|morning|the weekend|next week|christmas|the end of)`},
	// Being found (a body): "don't be mad when they find me".
	{id: "goodbye.found", level: 3, conf: 0.7, noNegate: true, src: `(?:when|after|once|if) (?:they|you|someone|somebody|anyone|my (?:\w+ )?(?:mom|mum|dad|parents|family|wife|husband|partner|roommate|flatmate|kids?|sister|brother)) (?:finds?|found) me(?: \.|$| tomorrow| in the morning| like this)`},
	// Thinking about a height and weighing its drop (C-SSRS 3).
	{id: "method.height_drop", level: 2, conf: 0.7, whole: true, frame: true, src: `(?:{desire}|keep thinking about) (?:the|that|this) (?:\w+ ){0,2}{height}(?: \w+){0,8} (?:\. )?the (?:drop|fall) (?:is|would be|must be|looks)`},
	// No plan to be alive (C-SSRS 4).
	{id: "intent.no_plan_alive", level: 3, conf: 0.75, noNegate: true, src: `(?:dont|do not|no) plan(?:s)? (?:on|to) (?:being|be) (?:alive|here|around)(?: much longer| for long| long| past| after| by| \.|$)`},
	// Sleep or the sea, and never coming back (C-SSRS 1-2).
	{id: "wish.never_come_back", level: 2, conf: 0.7, src: `(?:go to sleep|fall asleep|sleep|lie down|drift off|swim out|walk into the (?:sea|ocean|woods|snow|water)) (?:\w+ ){0,4}and (?:never|not) (?:come back|wake up|return|be found)(?: \.|$| again)`},
	// Things left arranged for "when I'm gone" (preparation).
	{id: "prep.when_gone", level: 3, conf: 0.7, excusable: true, src: `(?:giving|gave|give|given|leave|leaving|left|look after|take care of|water|feed|rehome|rehoming) (?:\w+ ){0,10}(?:when|after|once) im (?:gone|dead)(?: \.|$)`},
	// A poison's speed on a person (method seeking).
	{id: "method.poison_speed", level: 2, conf: 0.75, src: `(?:how long|how fast|how quickly)(?: \w+){0,4} {poison}(?: \w+){0,3} (?:work|kill|take effect|act) on (?:a person|someone|somebody|me|a human|humans|people|you|your body)`},
	// Others relieved if I were gone for good (C-SSRS 1).
	{id: "ideation.relieved_gone", level: 2, conf: 0.7, src: `(?:be|feel) (?:so |really |very |much |all )?(?:relieved|happier|better off|glad|free)(?: \w+){0,2} (?:if|when|once) i (?:disappeared (?:permanently|forever|for good)|died|was dead|were dead|killed myself|was gone (?:permanently|forever|for good)|were gone (?:permanently|forever|for good))(?: \.|$)`},
	// Making sure not to wake (C-SSRS 4).
	{id: "intent.make_sure_not_wake", level: 3, conf: 0.8, src: `{intend} {adv}make sure (?:that )?i (?:dont|do not|never|wont) (?:wake up|survive|come back)(?: \.|$| tomorrow| again| this time| tonight)`},
	// A drug taken hypothetically, would I die (C-SSRS 3).
	{id: "concept.if_took_die", level: 2, conf: 0.75, src: `if i (?:took|take|swallowed|swallow|drank|drink) (?:\w+ ){0,2}(?:all|every|the whole|a whole|\d+) (?:of )?(?:my |the )?(?:\w+ )?{drug} (?:would|will|could|can) i (?:die|not wake up|overdose)`},
	// Gone soon anyway (resignation with finality).
	{id: "goodbye.gone_anyway", level: 2, conf: 0.7, excusable: true, src: `(?:ill|i will|im going to|going to) be gone (?:soon|tomorrow|tonight|by \w+)(?: \w+)? (?:anyway|anyways)`},
	// Being buried, looked forward to (C-SSRS 1).
	{id: "wish.buried", level: 2, conf: 0.7, weak: true, src: `(?:{want}|cant wait to|hope to|wish i was|wish i were|ready to|longing to) {adv}(?:be )?(?:(?:6|six) (?:feet|ft) under|in (?:the ground|my grave|a coffin|a casket)|pushing up daisies)`},
	// ---- written for the eighth chat batch (chat-tune.jsonl, -t8-), by concept ----
	// Dying said as leaving a game or an app (C-SSRS 1).
	{id: "wish.log_off_life", level: 2, conf: 0.7, src: `(?:log off|logging off|log out|logging out|sign off|signing off|uninstall|uninstalling|delete|deleting|unsubscribe|unsubscribing|rage quit) (?:from )?(?:life|existence|this world|living|being alive)(?: \.|$| permanently| for good| forever| tonight| soon)|(?:uninstall|delete|unsubscribe|log off|logging off|log out) (?:myself|me)(?: \.|$| permanently| for good| forever| from (?:life|existence|this world))|game over for me(?: \.|$| tonight| soon| now| today| fr)`},
	// A god asked to take one home (C-SSRS 1).
	{id: "wish.take_me_home", level: 2, conf: 0.7, src: `(?:god|lord|jesus) (?:please |just )?(?:let me|take me) (?:go )?home`},
	// Whether a lethal act hurts (C-SSRS 3).
	{id: "method.does_it_hurt", level: 2, conf: 0.75, src: `(?:does|would|will|do you think|do u think) (?:it )?(?:hurt|hurts) (?:to|if you|if i|when you) (?:get )?(?:hit by (?:a |the )?(?:\w+ )?{vehicle}|{selfact}|jump off \w+|hang yourself|hang myself|drown|overdose|bleed out|get shot|shoot yourself|cut your wrists)`},
	// More of a drug bought so there is enough (preparation).
	{id: "prep.bought_enough", level: 3, conf: 0.75, src: `{saved} (?:\w+ ){0,4}{drug} (?:so (?:that )?(?:id|i would|i|ill|i will) (?:have|got) enough|to (?:make sure i have|have) enough)(?: \.|$| now| this time)`},
	// A blade kept for when it is needed (self-injury).
	{id: "selfharm.blade_kept", level: 2, conf: 0.7, selfInjury: true, src: `(?:keep|kept|carry|carrying|hide|hiding) (?:a |the |my )?(?:blade|razor|razor blade|razors|sharpener blade) (?:\w+ ){0,5}(?:just in case|for emergencies|for when i need it|for bad days|for when it gets bad)`},
	// The last chance one will get (finality).
	{id: "goodbye.last_chance", level: 3, conf: 0.7, excusable: true, src: `(?:the )?last (?:chance|opportunity) (?:ill|i will) (?:ever )?(?:get|have)(?: \.|$)`},
	// Going to a height to see if one can (rehearsal, C-SSRS 6).
	{id: "prep.rehearsal", level: 3, conf: 0.75, src: `{height}(?: \w+){0,6} (?:to see if|to find out if|to see whether) i (?:can|could|would|have the (?:guts|courage|nerve) to) (?:do it|go through with it|jump|let go)`},
	// A ligature on the neck; an act interrupted with a means in hand (C-SSRS 6).
	{id: "attempt.ligature", level: 3, conf: 0.8, frame: true, src: `(?:cord|rope|belt|noose|cable|ligature|wire) (?:around|round|on) my neck`},
	{id: "attempt.got_as_far", level: 3, conf: 0.75, src: `(?:got as far as|made it as far as|got halfway to|stopped (?:myself )?(?:at|before)) (?:the )?(?:\w+ ){0,2}with (?:the|a|my) (?:razor|blade|knife|rope|pills|gun|cord|belt|noose)`},
	// A death disguised as an accident (C-SSRS 3).
	{id: "method.accident_disguise", level: 2, conf: 0.7, src: `(?:{desire}|ways to|how to|how (?:can|do|could) i) (?:\w+ ){0,3}make it (?:look|seem) like (?:an accident|i (?:fell|slipped|crashed))|(?:nobody|no one|noone) (?:will|would|wont|would ever|will ever) (?:know|tell|realise|realize|guess) (?:that )?it was (?:on purpose|deliberate|intentional|suicide)`},
	// Self-injury as the only thing that helps.
	{id: "selfharm.only_help", level: 2, conf: 0.75, selfInjury: true, src: `(?:cutting|self harm|self harming|sh|burning myself|hurting myself|hitting myself) (?:is|was|has been|seems) (?:the only (?:thing|way)|what) (?:that )?(?:helps|works|calms me|makes me feel|gets me through)`},
	// Drinking a poison, told as habit (self-poisoning).
	{id: "selfharm.poison_habit", level: 2, conf: 0.7, selfInjury: true, src: `{i} (?:\w+ )?(?:drink|drank|swallow|swallowed|eat|ate|inject|injected) (?:some |the |a bit of |a little )?{poison}`},
	// "Ending it" said at a clause end: with no object, it is the writer's
	// life (a relationship or a job is ended "with" someone or named).
	{id: "intent.ending_it_bare", level: 2, conf: 0.65, src: `ending it(?: all)?(?: \.|$| tonight| now| today| for good)`},
	// "End it" with no object and a date: intent with timing ("I've decided
	// to end it on Sunday", "that's when I'll end it"). "Do it" with a date
	// still needs context (a tattoo, asking someone out).
	{id: "intent.end_it_dated", level: 3, conf: 0.75, src: `(?:end it|ending it)(?: all)? (?:tonight|today|tomorrow|this weekend|this week|next week|this month|(?:on |this |next )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|on (?:the )?\d+(?:st|nd|rd|th)?|on (?:christmas|new years(?: eve)?|my birthday)|on (?:my|his|her|their|our) (?:\w+ )?anniversary)|(?:thats when|thats the day|then) (?:i|ill|im going to|im gonna|i will|i am going to) end it(?: all)?(?: \.|$)`},
	// Logging off, signing off or checking out "for good" with nothing
	// named to leave (a server, a game, an app is named): the chat
	// euphemism for dying.
	{id: "goodbye.log_off_for_good", level: 3, conf: 0.7, excusable: true, notFollowedBy: []string{"from", "on", "of", "with"}, src: `(?:log|logs|logging|logged|sign|signing|signed|clock|clocking|clocked|check|checking|checked) (?:off|out)(?: \.)?(?: tonight| now| today| soon| after this| this weekend)?(?: \.)? for good(?: this time)?`},
	// "Goodnight forever", and being done "for good" with nothing to be
	// done with: last words.
	{id: "goodbye.done_for_good", level: 3, conf: 0.7, src: `(?:good ?night|nite) (?:forever|for good)|(?:^|\. |i |im |i am )(?:so )?done(?: here)? for good(?: \.|$| now| tonight)`},
	// Things given away that "won't be needed", with no reason given:
	// preparation.
	{id: "prep.gave_wont_need", level: 3, conf: 0.7, whole: true, src: `(?:^|\. |i |ive |i have |just )(?:gave|given|handed|rehomed)(?: \w+| \.){1,16} (?:wont|will not|i wont|i will not|ill not) (?:be )?need(?:ing)? (?:it|them|any of it|those|these|him|her)(?: anymore| any more)?(?: \.|$)`},
	// The last time anyone hears from the writer: last words.
	{id: "goodbye.last_heard", level: 3, conf: 0.7, src: `(?:the )?last (?:time|message) (?:anyone|anybody|you|youll|you will|they|people|everyone|the world) (?:\w+ ){0,2}(?:hear|hears|heard) from me`},
	// A car running in a closed garage with the writer in it: an attempt
	// under way (carbon monoxide).
	{id: "attempt.car_garage", level: 3, conf: 0.75, src: `(?:im|i am|sitting|sat|i started|started)(?: \w+){0,10} (?:closed |shut )?garage(?: \w+){0,8} (?:engine|car|it|motor)(?:s| is)? (?:running|on|going)|(?:im|i am|sitting|sat|i started|started)(?: \w+){0,10} (?:car|engine)(?:s| is)? (?:running|on|going)(?: \w+){0,8} (?:closed |shut )?garage|(?:car|engine|motor)(?:s| is)? (?:running|on|going) (?:in|inside) (?:the |my |our )?(?:closed |shut )?garage(?: \w+){0,4}(?: \.)? (?:im|i am|with the door|door)`},
	// A car's exhaust in a closed garage thought of as a way to die.
	{id: "method.car_garage", level: 2, conf: 0.7, src: `(?:car|exhaust|engine)(?: \w+){0,8} (?:closed |shut )?garage(?: \w+){0,10} (?:think|thinking|thought|wonder|wondering|how long|painless|quick|quiet|easy|peaceful|work|would|go|over|finish)|(?:think|thinking|thought|wonder|wondering|how long|painless|would|easy)(?: \w+){0,8} (?:car|exhaust|engine)(?: \w+){0,6} (?:closed |shut )?garage|garage thing|(?:closed|shut) garage(?: \w+){0,6} (?:car|engine|exhaust)`},
	// An overdose told in a few words: the pills and "the lot"; all of a
	// supply or a whole bottle swallowed; the pills saved up, swallowed.
	{id: "attempt.taken_the_lot", level: 3, conf: 0.75, whole: true, src: `(?:took|taken|swallowed|downed|ate|did|done)(?: \w+| \.){0,4} (?:pills|tablets|meds)(?: \.)? (?:all of them|the lot|all of it|every one|every last one)|(?:swallowed|took|taken|downed|ate|necked) (?:all|the whole|the entire|a whole|my whole|my entire)(?: of)? (?:my |the |\w+s )?(?:\w+ )?(?:sleepers|supply|stash|prescription|months supply|month of \w+|strips of \w+)|(?:swallowed|downed|necked) (?:the|a|my) (?:whole |entire )?bottle(?: \.|$| of (?:pills|tablets|meds))|(?:swallowed|took|taken|downed) (?:the|all the|all my|my) (?:pills|tablets|meds) (?:i|ive|i have|i had|id|i was) (?:been )?(?:saving|saved|stockpiling|stockpiled|collecting|collected|hoarding|hoarded)`},
	// The pills named first, then taken all at once ("relapsed on pills
	// last night and took all of them"); not a course finished as
	// prescribed ("antibiotics, took all of them like the doctor said").
	// Swallowing all of something is an overdose however little is named:
	// "swallowed them all", "downed the whole lot".
	{id: "attempt.swallowed_all", level: 3, conf: 0.75, src: `(?:swallowed|downed|necked) (?:them all|all of them|the (?:whole )?lot|every (?:single )?one(?: of them)?|the whole (?:bottle|box|pack|packet|strip|tub)(?: of them)?)`, notFollowedBy: []string{"of", "to", "at", "for", "in", "on", "like"}},
	{id: "attempt.took_them_all", level: 3, conf: 0.7, src: `(?:pills|tablets|meds|sleepers|painkillers)(?: \w+| \.){0,8} (?:took|taken|swallowed|downed|necked) (?:all of them|them all|every one of them|every last one)`, notFollowedBy: []string{"like", "as", "over", "during", "across", "through", "throughout", "on", "every", "each", "before", "after", "in", "for"}},
	// Hurting oneself until it marks: pulling or picking at hair, skin or
	// scabs, punching, biting, scratching, pinching or digging nails in
	// until it bleeds, bruises or splits; or holding a burn to "feel
	// something" (self-injury).
	{id: "selfharm.until_marks", level: 2, conf: 0.7, selfInjury: true, src: `(?:pull|pulling|pulled|rip|ripping|ripped|tear|tearing|tore|pick|picking|picked) (?:out )?(?:at )?my (?:hair|skin|scabs|nails|lips)(?: out)? (?:until|till|til) (?:i|it) (?:bleed|bleeds|bled|bleeding|scar)|(?:punch|punched|punching|hit|hitting|bang|banged|banging|bite|biting|bit|scratch|scratched|scratching|pinch|pinched|pinching|dig|digging|dug|claw|clawed|clawing)(?: (?:my|the|into|in|at|myself|own|fists?|head|hand|hands|arms?|legs?|thighs?|wrists?|skin|knuckles|face|chest|stomach|wall|walls|door|tiles|mirror|bathroom|kitchen)){1,5} (?:until|till|til) (?:it |they |my \w+ |i |the \w+ )?(?:bleed|bleeds|bled|bleeding|blood|bruise|bruises|bruised|split|splits|broke|break|scar|scars|swell|swelled|swollen)|(?:dig|digging|dug) my nails (?:in|into)(?: my \w+)? (?:until|till|til) (?:it |they |i )?(?:bleed|bleeds|bled|bruise|bruises|bruised)|(?:held|hold|holding|pressed|press|pressing|put|putting) (?:my (?:\w+ )?(?:hand|arm|leg|wrist|thigh|skin)|the lighter|a lighter|the iron|a hot \w+)(?: \w+){0,6} (?:to feel something|to feel anything|so i could feel|until it burned|till it burned|until it blistered|till it blistered)`},
	// "Catch the bus" is filter slang for suicide only when the message
	// says which bus: the one that does not come back, not the number 42,
	// the permanent kind, "as they say". Catching the bus home is most of
	// what the words mean; the short scorer reads the rest.
	{id: "slang.catch_the_bus", level: 3, conf: 0.75, whole: true, src: `(?:catch|catching|caught|take|taking) the bus(?: \w+){0,3}(?: \.)?(?: \w+)? (?:the one (?:that |you |which |people )?(?:doesnt|dont|does not|never|wont|do not|cant) (?:come|coming) back|not the (?:\d+|one into town|number \d+|real one|normal one|one to \w+)|the (?:ctb|permanent|other|final|last) (?:kind|one|bus)|for good|permanently|as (?:they|the young ones|people|the kids) (?:say|call it)|the permanent one|and i dont mean the)`},
	// Suicide looking tempting, or like the answer (C-SSRS 2).
	{id: "wish.suicide_appeals", level: 2, conf: 0.7, src: `(?:suicide|dying|death|being dead|ending it|ending things|killing myself|ending my life) (?:is|looks|seems|sounds|feels|is looking|is starting to look|keeps looking|is sounding|is feeling) (?:\w+ ){0,2}(?:tempting|appealing|inviting|attractive|more reasonable|reasonable|sensible|more sensible|peaceful|restful|like (?:a )?(?:relief|rest|peace|freedom|bliss|mercy)|like (?:a|the|my) (?:good |only |best |real |sensible )?(?:option|answer|way out|solution|choice))|(?:being dead|not being alive|not existing|not waking up|ending it all|killing myself|ending my life|suicide) (?:is|looks|seems|sounds|feels|is looking|is starting to look|keeps looking|is sounding|is feeling) (?:\w+ ){0,2}(?:good|nice|better|easier|lovely)|(?:my (?:own )?)?death (?:as|is|would be) (?:the|a|my) (?:only |best |real )?(?:solution|answer|way out|fix)`},
	// Absent tomorrow "or ever", a goodbye "meant this time", the last
	// talk with Haven, a long life signed off, the last winter to be
	// seen: last words (3).
	{id: "goodbye.finality_chat", level: 3, conf: 0.7, whole: true, src: `(?:wont|will not|not going to|not gonna) be (?:\w+ ){0,3}(?:tomorrow|tonight|monday|tuesday|wednesday|thursday|friday|saturday|sunday|next week|this weekend)(?: \.)? or (?:ever|ever again|any day after|any other day|after that)(?: \.|$)|(?:goodbye|bye)(?: \.)? i mean it(?: this time)?(?: \.|$)|(?:this is |its )?the last time (?:i ?ll|i will|im going to|im gonna|i am going to) (?:talk|speak|write|message|text) (?:to you|with you|to anyone|here)|(?:its been|it has been|been) a (?:long|good|hard|rough) (?:\d+ |\w+ )?(?:years?|life|ride|run)(?: \.)? (?:signing off|logging off|goodbye|bye|thats it|im done)(?: \.|$)|(?:this is |its |probably |pretty sure (?:this is |its )?)?(?:the |my )?last (?:winter|summer|spring|autumn|christmas|birthday|new year|year) (?:ill|i will|im going to|im gonna) (?:see|have|spend|celebrate)(?: \.|$)`},
	// Others better off without the writer, and the writer thinking of
	// making that happen (C-SSRS 2: active thought).
	{id: "concept.make_it_happen", level: 2, conf: 0.7, whole: true, src: `(?:better off without me|better off dead|(?:if|when|once) (?:i was|i were|im|i am) (?:gone|dead|not here|buried)|(?:my|the) life insurance|(?:the|my|their) inheritance|(?:keeps|keep|would keep) (?:going|spinning|turning) without me)(?: \w+| \.){0,14} (?:make (?:that|it) happen|making (?:that|it) happen|see(?:ing)? to (?:it|that)|fix(?:ing)? that|choosing that|give them that|do them (?:that|the) favou?r)`},
	// Hoping to be hit, or glad if it happened: an accident wished for
	// (C-SSRS 1).
	{id: "wish.accident", level: 2, conf: 0.7, src: `if (?:a|the|some) (?:bus|car|truck|lorry|train|plane|tree)(?: \w+){0,4} (?:hit|hits|took|takes|ran|runs|crashed|killed|flattened|fell on)(?: \w+){0,14} (?:id|i would|i wouldnt|i would not|i think id) (?:\w+ )?(?:be )?(?:\w+ )?(?:relieved|happy|glad|grateful|thankful|sorry about it|mind)|(?:id|i would|i wouldnt|i would not) (?:\w+ )?(?:be )?(?:fine|ok|okay|happy|relieved|glad|mind) if (?:my|the|a) (?:flight|plane|bus|car|train)(?: \w+){0,4} (?:went down|crashed|hit me|took me out|didnt stop)|(?:hope|hoping|wish|pray|praying) (?:that )?(?:a|the|some) (?:bus|car|truck|lorry|train)(?: \w+){0,3} (?:hits|flattens|takes|runs over|kills|runs me over|takes me out)(?: me)?`},
	// Telling people a move or a trip that is not true, to cover giving
	// things away (preparation).
	{id: "prep.cover_story", level: 3, conf: 0.7, whole: true, src: `told (?:\w+ ){0,4}(?:im|i was|i am|i was going|im going) (?:moving|going away|going abroad|travelling|traveling|leaving|emigrating)(?: \w+){0,5}(?: \.)? (?:im not|i am not|i m not|its not true|i lied|it isnt|it is not|there wont be)`},
	// Wishing to stop being alive (C-SSRS 1).
	{id: "wish.stop_being_alive", level: 2, conf: 0.7, src: `(?:wish|wishing|wished|want|wanting|wanna|hope|hoping)(?: i could| to| i would| id)? (?:just )?(?:stop|quit) (?:being alive|existing|living|breathing)(?: \.|$| like| for good| already| forever| permanently| tonight| now)`},
	// "sh" as self-harm in chat: "sh'd again", "sh again last night".
	{id: "selfharm.sh_again", level: 2, conf: 0.7, selfInjury: true, src: `(?:^|\. |i |just |ive |i have )(?:sh|shd|shed) (?:again|last night|today|tonight|earlier|this morning)`},
	// "This is it for me", "this is the end of me": last words.
	{id: "goodbye.end_of_me", level: 3, conf: 0.7, src: `(?:^|\. |and )this is (?:it for me|the end of me|the end for me|my end)(?: \.|$| and its ok| thanks| thank you| bye| goodbye| sorry)`},
	// Working out ways to die, as a plan is drafted (C-SSRS 3: method).
	{id: "method.drafting", level: 2, conf: 0.7, src: `(?:planning|planned|plan|drafting|drafted|mapping|mapped|working|worked|figuring|figured) (?:out )?(?:ways|the ways|a way|how|the logistics|logistics) (?:to|of) (?:end it|ending it|kill myself|killing myself|my (?:own )?death|die|dying|do it)`},
	// "Rope" as a verb of hanging oneself (filter slang).
	{id: "slang.rope", level: 3, conf: 0.75, src: `(?:gonna|going to|want to|wanna|will|ill|about to|bout to|might|finally|just) rope(?: myself)?(?: \.|$| tonight| today| tomorrow| soon| now| later| this weekend)`},
	// Wishing to be in the ground, in a coffin, in a grave (C-SSRS 1).
	{id: "wish.in_the_ground", level: 2, conf: 0.7, src: `(?:want to|wanna|wish i (?:was|were|could be)|rather be|d rather be|id rather be|just want to be|ready to be|cant wait to be|should be|belong) (?:in the ground|six feet under|in a coffin|in a box|in my grave|in the grave|rotting in the ground|under the ground|under the dirt|in the dirt)|(?:want to|wanna|just want to|ready to) (?:rot|lie|be) (?:in the ground|in the dirt|in a grave|six feet under|roadkill|worm food|in a body bag)`},
	// Envying the dead, wanting their place (C-SSRS 1).
	{id: "wish.envy_dead", level: 2, conf: 0.7, src: `(?:swap|trade|switch) places with (?:\w+ ){0,3}(?:in (?:a|the) (?:coffin|casket|grave|box|morgue)|(?:dead|deceased) (?:person|people|guy|man|woman))|(?:envy|jealous of|envious of) (?:\w+ ){0,4}(?:in (?:a|the) (?:coffin|casket|grave|box)|the dead|dead people)`},
	// Praying to be taken (C-SSRS 1).
	{id: "wish.be_taken", level: 2, conf: 0.7, src: `(?:pray|praying|prayed|hope|hoping|wish|wishing|ask|asking|beg|begging) (?:that )?(?:the lord|god|jesus|allah|the good lord|the universe) (?:would |will |to )?(?:just )?(?:take|takes|took) me(?: \.|$| home| in my sleep| tonight| soon| now| away| already)`},
	// Sorry to have woken up or to be alive still (C-SSRS 1).
	{id: "wish.sorry_alive", level: 2, conf: 0.7, src: `(?:disappointed|gutted|upset|annoyed|sad|angry|pissed|mad|devastated) (?:that )?(?:i )?(?:(?:still )?woke up(?: \.|$| at all| again \.| again$)|im still (?:here|alive|breathing)|i am still (?:here|alive|breathing)|(?:im|i am) alive|i survived|i didnt die)`},
	// The last night or day on earth (farewell).
	{id: "goodbye.last_on_earth", level: 3, conf: 0.7, src: `(?:my |this is my |its my )?last (?:night|day|week|hours?|moments?) on (?:earth|this earth|this planet)(?: \.|$)`},
	// Means bought with its purpose hidden from the seller or spread over
	// shops so that nobody asks (preparation).
	{id: "prep.concealed_means", level: 3, conf: 0.75, src: `{means}(?: \w+){0,8} (?:told (?:the|him|her|them|everyone|my) (?:\w+ )?(?:it was|its|it is|they were|theyre|that it was) for|so (?:they|nobody|no one|the pharmacist|the chemist|the cashier) (?:wouldnt|wont|didnt|would not|will not) (?:ask|notice|suspect|question|get suspicious)|from (?:different|separate|two|three|several|four|five) (?:chemists|pharmacies|shops|stores|places))|(?:from|at) (?:different|separate|several) (?:chemists|pharmacies|shops|stores)(?: \w+){0,6} (?:so (?:they|nobody|no one) (?:wouldnt|wont|didnt)|{means})`},
	// Praying not to see the morning (C-SSRS 1).
	{id: "wish.not_see_morning", level: 2, conf: 0.75, src: `(?:hope|hoping|wish|wishing|pray|praying) (?:not|never) to (?:see|wake up to|make it to|live to see) (?:the |another )?(?:morning|sunrise|tomorrow|next day|daylight)`},
	// Last wishes written (preparation).
	{id: "prep.last_wishes", level: 3, conf: 0.75, src: `(?:wrote|written|writing|typed|recorded|drafted|left) (?:down )?(?:my|a list of my) (?:last|final|dying) (?:wishes|words|requests)`},
	// Going to a lonely place with a means (C-SSRS 5).
	{id: "intent.place_with_means", level: 3, conf: 0.75, frame: true, src: `(?:going|heading|walking|driving) (?:out )?(?:to|into) (?:the )?(?:woods|forest|bridge|cliffs?|river|lake|sea|tracks|roof|garage) (?:\w+ ){0,2}with (?:a|the|my) (?:rope|gun|pills|knife|razor|blade|belt|cord|noose|bottle of pills)`},
	// Life insurance checked for suicide (preparation).
	{id: "prep.insurance", level: 3, conf: 0.75, src: `(?:life insurance|insurance policy|policy) (?:\w+ ){0,4}(?:covers?|pays? out (?:for|on)|exclud\w*) (?:\w+ ){0,2}suicide`},
	// ---- written for the ninth chat batch (chat-tune.jsonl, -t9-), by concept ----
	// An act after a time and an ordinary step: "at 2am I'm leaving the
	// house and walking into the sea" (C-SSRS 4-5).
	{id: "concept.act_at_time", level: 3, conf: 0.75, frame: true, src: `(?:at \d+(?: am| pm)?|tonight|tomorrow|at midnight)(?: \w+){0,2} (?:im|i am|ill|i will) (?:\w+ ){1,6}(?:and|then|and then) {selfact}`},
	// Voices that command an act (command hallucinations, C-SSRS 2).
	{id: "ideation.voices_command", level: 2, conf: 0.75, src: `(?:the |these |my )?voices? (?:in my head )?(?:tell|tells|telling|told|keep telling|are telling|keeps telling) me to (?:jump|kill myself|die|end it|hurt myself|cut|do it|hang myself|drown)`},
	// Means kept for the night it happens (preparation).
	{id: "prep.means_in_case", level: 3, conf: 0.75, src: `(?:pills|tablets|meds|rope|gun|pistol|knife|blade|razor|noose|bottle of \w+) (?:\w+ ){0,6}(?:in case|for when|for the day|for the night) (?:tonight is the night|i need (?:them|it)|i decide|its time|i cant take it)`},
	// Waiting at a station to step off (C-SSRS 5-6).
	{id: "prep.station", level: 3, conf: 0.75, src: `(?:train station|station|platform)(?: \w+){0,10} (?:so i can|to|and) (?:step|jump|walk) (?:off|in front|out in front)`},
	{id: "intent.in_front", level: 3, conf: 0.75, src: `(?:im|i am|ill|i will) (?:going|getting|stepping|jumping|walking) in front of (?:it|one|the (?:\w+ )?{vehicle}|a (?:\w+ )?{vehicle})`},
	// A weapon held to the head or in the mouth (C-SSRS 6, aborted).
	{id: "attempt.weapon_held", level: 3, conf: 0.8, frame: true, src: `(?:put|held|had|pressed|hold|holding|pressing) (?:the|a|my|dads|his) (?:gun|barrel|pistol|knife|blade) (?:in|to|against|into) my (?:mouth|head|temple|throat|wrist|wrists|chest|neck)`},
	// Skin covered in cuts or burns (self-injury).
	{id: "selfharm.covered", level: 2, conf: 0.7, selfInjury: true, accident: true, src: `(?:my )?(?:arms?|legs?|thighs?|wrists?|stomach|body|hips) (?:are|is) (?:covered in|full of) (?:fresh |new |deep )?(?:cuts|burns)`},
	// The final week alive (C-SSRS 4).
	{id: "intent.final_alive", level: 3, conf: 0.8, src: `my (?:final|last) (?:week|day|days|night|hours|month|year|weekend|christmas|birthday) (?:alive|on earth|on this earth|of my life)`},
	// Stocking up a drug for it (preparation).
	{id: "prep.stock_up", level: 3, conf: 0.75, src: `{drug} (?:\w+ ){0,4}(?:so i can |to )?stock ?up(?: on them)? for (?:it|(?:the|that) (?:day|night)|when i(?:m ready)?)|stock(?:ing)? up on (?:my |the )?(?:\w+ )?{drug} for (?:it|(?:the|that) (?:day|night)|when i(?:m ready)?)`},
	// In the car, in the garage, engine on (C-SSRS 6 in progress).
	{id: "attempt.garage_engine", level: 3, conf: 0.8, src: `(?:sitting|sat|lying|waiting) in (?:my|the) car in (?:the|my|a) (?:closed |shut )?garage with (?:the )?engine (?:running|on)`},
}

// ordinaryFaults finish an apology with an everyday fault ("tell my sister
// I'm sorry I ate her leftovers", "sorry for being late"): an apology, not
// a farewell. "Sorry for everything", "sorry I wasn't enough" and "sorry I
// took them" are none of these.
var ordinaryFaults = []string{"i ate", "for eating", "i broke", "for breaking", "i forgot", "for forgetting",
	"i missed", "for missing", "i lost", "for losing", "i borrowed", "for borrowing", "i spilled", "i spilt",
	"for spilling", "i dented", "i scratched", "i was late", "for being late", "im late", "i cancelled",
	"for cancelling", "i overslept", "i snapped", "for snapping", "i shouted", "for shouting", "i yelled",
	"for yelling", "about dinner", "about earlier", "about last night", "for last night",
	"for earlier", "for the noise", "i used her", "i used his", "i wore her", "i wore his",
	"i finished the", "i skipped", "for skipping", "i cant make it", "i cant come", "i wont make it"}

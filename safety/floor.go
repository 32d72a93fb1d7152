package safety

import (
	"regexp"
	"slices"
	"strings"
)

// Floor is the deterministic crisis assessor: normalization, rules and
// modifiers, joined by a learned scorer that may only raise (see
// learned.go); no I/O. It is safe for concurrent use and takes microseconds
// per message.
type Floor struct {
	rules []rule
	lex   *lexicon
	// scorer is the learned post scorer (nil = rules only), short the
	// short-message scorer (nil = none) and th their thresholds.
	scorer Scorer
	short  Scorer
	th     Thresholds
}

// NewFloor returns the floor: the built-in rules and the embedded learned
// scorers, for posts and for short messages (see learned.go and MODEL.md).
func NewFloor() *Floor {
	return NewFloorWith(FloorOptions{Scorer: EmbeddedModel(), Short: EmbeddedShortModel()})
}

var (
	negators  = map[string]bool{"never": true, "not": true, "dont": true, "wont": true, "wouldnt": true, "didnt": true, "nor": true, "neither": true, "no": true, "doesnt": true, "isnt": true, "arent": true, "shouldnt": true}
	firstPers = map[string]bool{"i": true, "im": true, "ive": true, "ill": true, "id": true, "me": true, "my": true, "myself": true}
	laughToks = map[string]bool{"lol": true, "lmao": true, "lmfao": true, "haha": true, "hahaha": true, "rofl": true, "jk": true, "xd": true, "hehe": true, "lolol": true, "kidding": true, "joking": true}
)

var (
	// byeForeverSrc is "goodbye forever" said to people or as last words;
	// said to a thing or a place ("goodbye forever, ward 7", "bye forever
	// old car") it is not a farewell to life.
	byeForeverSrc = `(?:goodbye|bye|farewell) (?:forever|for good)(?: \.|$| (?:everyone|everybody|all|yall|you all|guys|friends|world|mom|mum|mommy|mummy|dad|daddy|mama|papa|my (?:\w+ )?(?:friends?|family|loves?|babies|baby|kids|children|sons?|daughters?|wife|husband|partner|girlfriend|boyfriend|mom|mum|dad|sister|brother|everything)|i (?:love|am|m|guess|cant|have|tried|m sorry)|im (?:sorry|done|tired|going|out|gone)|love you|sorry|thank you|thanks|xx*|forgive))`
	// milestoneSrc is a recovery milestone ("two years clean from self
	// harm", "400 days since I last cut", "a year free of it"): the act it
	// names is in the past and the person is past it.
	milestoneSrc = `(?:(?:\w+ ){1,2}(?:days?|weeks?|months?|years?) (?:today )?(?:without|free of|free from|clean of|clean from) (?:self harm|self harming|cutting|sh|hurting myself)|anniversary of my (?:last )?(?:suicide )?(?:attempt|overdose)|(?:years?|months?)(?: today| now| ago today)? (?:after|since) my (?:last )?(?:suicide )?(?:attempt|overdose)|my (?:suicide )?attempt (?:in (?:19|20)\d\d|(?:\w+ ){1,2}(?:years?|months?) (?:ago|back))|(?:havent|have not|hasnt|has not) (?:had |been having |had any |felt )?(?:a |any |one |the )?(?:\w+ )?(?:thoughts?|urges?|thought) (?:about|of|to)(?: \w+){1,3} (?:since|in (?:months|weeks|years|ages|a while|a long time|over)|for (?:months|weeks|years|ages|a while|a long time|over))|(?:\d+|a|one|two|three|four|five|six|seven|eight|nine|ten|twelve|eighteen|a hundred|a few|many) (?:whole )?(?:days?|weeks?|months?|years?) (?:clean|free|sober|harm free|cut free|sh free)(?: from| of| since)?|(?:clean|free) (?:from|of) (?:self harm|self harming|cutting|sh|self injury|hurting myself)(?: for| since)|(?:days?|weeks?|months?|years?)(?: today| now| ago today)? since (?:i (?:last )?(?:cut|hurt myself|harmed myself|self harmed|relapsed|tried|attempted|burned myself)|my (?:last )?(?:relapse|attempt|overdose|cut))|since i (?:stopped|quit|gave up) (?:self harming|cutting|hurting myself|harming myself|sh|burning myself)|(?:havent|have not|hasnt|has not) (?:self harmed|cut|hurt myself|harmed myself|burned myself) (?:since|in|for) )`
	// pastRe marks a clause as about the past.
	pastRe = newFilteredRe(regexp.MustCompile(`\b(?:used to|when i was (?:a |younger|little|in|\d+)|years ago|(?:a|one|two|three|few|\d+) (?:years?|months?) ago|in the past|back then|back in (?:high school|school|college|the day|\d+)|as a (?:kid|teen|teenager|child)|in my (?:teens|twenties|past)|at age \d+|at (?:1\d|2\d|[4-9])(?: years old| yo)?(?: \.| i | and | my | when | after | before |$)|i once|once upon|previously|formerly|in (?:high school|middle school|college)|(?:was|were) (?:suicidal|self harming)|went through a (?:phase|period|time)|(?:a|one|two|three|few|\d+) decades? ago|(?:a decade|decades|(?:a|one|two|three|four|five|few|many|\d+) years?) since (?:my|i)|since my (?:suicide )?attempt|(?:about|after|surviving|survived) (?:my|a) (?:suicide )?attempt)\b`))
	// milestoneRe is a recovery milestone: past and recovered in itself
	// when the message tells of no relapse (relapseRe) and no distress.
	milestoneRe = newFilteredRe(regexp.MustCompile(`\b` + milestoneSrc + `\b`))
	// pastYearRe dates a statement to a year; it reads as past only when
	// the message also says the person is past it now.
	pastYearRe = newFilteredRe(regexp.MustCompile(`\b(?:in|back in) (?:19|20)\d\d\b`))
	// thenRe dates what a sentence tells to a time gone by, anywhere
	// before the match in its sentence ("a year ago today I was in
	// hospital after an attempt", "back when I wanted to die"); like
	// pastYearRe it reads as past only when the message also says the
	// person is past it now.
	thenRe = newFilteredRe(regexp.MustCompile(`\b(?:(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|eighteen|twenty|thirty|a few|a couple of|several|many|\d+) (?:weeks?|months?|years?|yrs?|decades?) ago|last (?:year|winter|spring|summer|autumn|fall)|this time last year|(?:on )?this (?:day|date|night) (?:\w+ ){0,2}(?:years?|yrs?) ago|(?:the )?(?:spring|summer|autumn|fall|winter|year) before last|back when|(?:i )?remember (?:when|wanting|being|feeling|how)|(?:when|while) i was (?:at|in|young|a student|still)|in (?:\d+th|ninth|tenth|eleventh|twelfth|\d+rd|\d+nd) grade|in my (?:first|second|third|final|last) year|i was once)\b`))
	// nowRe starts what a person tells of their life now, after telling
	// of a time gone by: "Now I'm a peer mentor", "today I graduated",
	// "these days".
	nowRe = regexp.MustCompile(`(?:^|\. |\band |\bso )(?:(?:and|but|yet) )?(?:now|today|tonight|these days|nowadays|since then|this (?:year|winter|spring|summer|autumn|fall|week)|\w+ years? later|(?:a|one|two|three|\d+) (?:months?|years?) later)\b`)
	// stillHurtingRe is a present that is not past it: the same again,
	// still, worse, back, or a hard time.
	stillHurtingRe = regexp.MustCompile(`\b(?:again|still (?:want|feel|think|have|cant|hate|wish)|same (?:way|thing|place|feeling|thoughts?)|worse|back (?:to|again)|(?:cant|can not|cannot) (?:cope|go on|do this|take)|miss (?:it|that|them)|hard(?:er)?|struggl\w*|sad|alone|lonely|empty|tired|scared|afraid|anxious|hopeless|pointless|numb|relaps\w*|urges?|tempt\w*|thinking about it|(?:feel|feeling|felt) (?:the )?same|dont know (?:what|how|why|if)|need (?:some )?help|help me|no (?:drive|point|reason|hope|future|energy|motivation|one)|nothing|lost|falling apart|giv(?:e|ing) up)\b`)
	// aliveNowRe is life now told as good or ordinary: glad, better, a job,
	// a garden, a wedding, the kids, a run, a cup of tea.
	aliveNowRe = regexp.MustCompile(`\b(?:glad|grateful|thankful|happy|happier|proud|excited|better|good|great|well|fine|okay|ok|love|loving|enjoy\w*|celebrat\w*|thriving|alive|still here|here|safe|stable|healthy|hopeful|promot\w*|graduat\w*|married|engaged|mentor|volunteer\w*|teach\w*|learning|studying|training|working|job|degree|garden\w*|bab(?:y|ies)|kids?|daughters?|sons?|grand\w+|wedding|pancakes|cakes?|tea|soup|dinner|lasagne|friends?|dogs?|cats?|prom|ski\w*|run|ran|10k|marathon|choir|school|uni|college|bike|shift|speak\w*|spoke|talk\w*|told|story|recover\w*|therapy|not like that|anymore)\b`)
	// routineDoseRe is a dose taken as part of a routine ("took all my
	// meds this morning like a good girl", "remembered my evening pills").
	routineDoseRe = newFilteredRe(regexp.MustCompile(`\b(?:like a good (?:boy|girl|patient|kid)|as prescribed|on time|with (?:breakfast|lunch|dinner|food|my (?:coffee|tea|breakfast|dinner))|remembered (?:to take )?(?:all )?(?:my|to)|didnt forget|(?:morning|evening|night|nightly|daily|bedtime) (?:meds|pills|dose|doses|tablets|medication|medications)|proud of myself|for once|every (?:day|morning|night|evening)|(?:vitamins|supplements))\b`))
	// stepBackRe is a reply that steps back from an earlier disclosure:
	// safe now, help sought or on its way, not going to act.
	stepBackRe = newFilteredRe(regexp.MustCompile(`\b(?:(?:im|i am|ill be|i will be|feel|feeling) (?:\w+ )?(?:safe|ok|okay|fine|better|calmer|alright)|not going to (?:do|act|hurt)|(?:wont|will not|dont|do not) (?:do|act on) (?:it|anything)|call(?:ed|ing)? (?:the|a|my|them|her|him|\d+|samaritans|someone)|(?:talk|talked|talking) to (?:my|a|the|someone|somebody|her|him|them)|(?:text|texted|texting|tell|told|telling) (?:my|a|the|someone|somebody|her|him|them) (?:\w+ )?(?:about|how i|what|everything|i need|im not)|therapist|counsel+or|doctor|gp|psychiatrist|nurse|hotline|crisis line|helpline|(?:get|got|getting|ask for|asked for) help|appointment|hospital|a and e|(?:flushed|threw|gave|handed|locked) (?:\w+ ){0,2}(?:away|out|to)|(?:it|urge|urges|feeling) (?:has )?passed|going to (?:bed|sleep)|(?:the )?urges? (?:is|are) gone|less heavy|lighter now|good now|(?:gonna|going to|off to|heading to|about to) (?:watch|hang|play|eat|cook|get|see|visit|grandmas|school|work|class|the gym|bed)|(?:cya|see you|see ya|talk) (?:after|tomorrow|later|soon|next)|(?:can|could) you (?:pause|set|remind|add|log|turn))\b`))
	// followTimeRe is a time said as a reply: a day, an hour, "after
	// everyone's asleep", "before my birthday", "in an hour or so".
	followTimeRe = regexp.MustCompile(`(?:^|\b)(?:(?:on |this |next |by )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?|tonight|tomorrow|midnight|(?:at |around |by )?\d{1,2} ?(?:am|pm)|\d{1,2} \d\d|(?:this|next) (?:week|weekend|month)|(?:new years|christmas)(?: eve| day)?|(?:in|within) (?:an|a|one|two|a few|\d+) (?:hour|hours|minutes|days)|(?:before|after|once|when) (?:\w+ ){0,4}(?:asleep|leave|leaves|left|gone|goes|birthday|school|work|shift|wedding|exams?|results|home|alone|hits|done)|when the clock|the day after|soon)(?:\b|$)`)
	// followResolveRe is a decision said as a reply.
	followResolveRe = regexp.MustCompile(`(?:^|\b)(?:decision made|(?:its|it is|thats|that is) (?:settled|decided|happening|final)|(?:im|i am) (?:sure|certain) (?:now|this time)|(?:im|i am) (?:not|never) changing my mind|(?:im|i am) (?:finally )?ready|(?:im|i am) doing it|i mean it|for real this time|no more waiting|(?:its|it is) (?:over|the end)|is finish(?:ed)?|i decide it|decided(?: \.|$))`)
	// followFarewellRe is a farewell said as a reply.
	followFarewellRe = regexp.MustCompile(`(?:^|\b)(?:sorry (?:everyone|everybody|mum|mom|dad|for everything|guys)|(?:last|final) message|see you on the other side|(?:thank you|thanks) for (?:everything|all of it|trying|talking to me all|being (?:there|kind|kinder|nicer|my friend))|(?:please )?(?:make sure|ask) (?:someone|somebody|\w+) (?:feeds|looks after|takes|walks)|(?:dont|do not) think badly of me|take care(?: of yourself| of them| of my \w+)?(?: \.|$)|(?:tell|give) (?:my|her|him|them) (?:\w+ )?(?:i love|im sorry|i said)|(?:goodbye|bye)(?: \.|$| now| for good| forever| everyone| all))`)
	// relapseRe says a run of recovery has ended.
	relapseRe = newFilteredRe(regexp.MustCompile(`\b(?:relaps\w*|slipped up|slipped again|broke my (?:streak|clean streak|\w+ (?:days?|weeks?|months?|years?) clean)|lost my (?:streak|clean streak)|reset (?:my|the) (?:streak|counter|clock|day count)|back to (?:cutting|self harming|hurting myself|using)|(?:was|had been) (?:\w+ ){0,2}(?:days?|weeks?|months?|years?) (?:clean|free|sober)|threw (?:it|that|them) (?:all )?away|(?:i )?broke it|ruined it|(?:new|fresh) (?:ones|cuts|burns|marks)|(?:cut|hurt myself|harmed myself|self harmed|burned myself|used) again|feel(?:ing)? (?:that way|like that|like this|suicidal|like dying) again|(?:thoughts|urges|feelings) (?:are |came |have come )?back)\b`))
	// absenceDeniedRe denies an ordinary reason for an absence: "leaving
	// tonight for good, and not on a trip".
	absenceDeniedRe = regexp.MustCompile(`\b(?:not|no|isnt|wasnt|aint|its not) (?:on |for |going on |going to )?(?:a |an |my |the |some )?(?:trip|holiday|holidays|vacation|break|work trip|business trip|shift|festival|retreat|sleepover)\b`)
	// recoveryRe marks a text that says the person is past it now.
	recoveryRe = newFilteredRe(regexp.MustCompile(`\b(?:(?:in a|at a) (?:much )?(?:better|good|great|happier|healthier) place|(?:im|feeling|doing|things are|life is|its) (?:so |much |a lot |way )?(?:better|good|great|okay|ok|fine|well|happy) now|(?:im|i am) (?:doing )?(?:much |so |a lot )?better now|recovered|in recovery|(?:years?|months?) clean|(?:been |stayed |staying )?clean (?:for|since) |(?:havent|have not|hasnt) (?:cut|self harmed|hurt myself|relapsed) (?:in|for|since) |(?:so |really )?glad (?:im|i am|i was) (?:still )?(?:alive|here)|glad i (?:didnt|failed|survived|stayed)|(?:dont|do not|no longer) (?:feel|think) (?:that way|like that)|not anymore|no longer (?:suicidal|want to die|feel that way)|got (?:help|better|through it)|(?:made|make) it through|(?:survived|overcame|beat) (?:it|that|depression|my darkest \w+)|(?:now|today|these days) (?:im|i am|i feel|life is|things are|its) (?:\w+ ){0,2}(?:well|better|good|great|happy|okay|ok|fine|stable|healthy|engaged|married)|doing (?:really |so |very |pretty )?well(?: now| these days)|(?:im|feeling|doing|things are|life is|its) (?:\w+ ){0,3}(?:better|good|great|okay|ok|fine|well|happy|happier)(?: now| these days| today)|now (?:im|i am) (?:training|studying|working|married|engaged|a mom|a dad|a mum|a nurse|a teacher|in school|in college|happy|sober|clean|in therapy|on meds)|(?:therapy|treatment|medication|meds|help) (?:really )?(?:helped|saved me|works)|(?:\w+ )?(?:years?|months?) clean|(?:im|i am|were|we are) (?:getting married|engaged|having a baby|expecting)|(?:today|this year|this week|yesterday|now|since then) (?:i |ive |im )?(?:just )?(?:graduated|ran (?:my|a|the) |walked my|got (?:a|the|my) (?:new )?(?:job|offer|degree|place|promotion|licence|license|diploma)|got married|got engaged|moved into|held (?:my|her|him|the baby)|took (?:my|the) (?:kids|children|daughter|son|grandkids)|started (?:uni|college|school|my new job|a new job|work|my apprenticeship)|joined (?:a|the) |finished (?:my|the|a) (?:degree|course|marathon|training|first)|became (?:a|an) |passed (?:my|the) |in (?:med|nursing|law|grad) school|went to my (?:\w+ )?(?:christening|wedding|graduation)))\b`))
	// reportRe marks reported speech of someone else in a clause.
	reportRe = newFilteredRe(regexp.MustCompile(`\b(?:he|she|they|my (?:(?:best|little|big|older|younger|old|new|ex|step|duo|online|school|work|close|other|twin|baby|half|dear|late|good|only|oldest|youngest|eldest|teenage|grown|gaming|study) )?\w+|friend|someone|somebody|coworker|colleague|(?:a|this) (?:guy|girl|kid|boy|student|teammate)(?: in (?:my|the) \w+(?: \w+)?)?) (?:just |always |then |also |literally |suddenly )?(?:said|says|told me|texted|texted me|texts|messaged|messaged me|posted|wrote|writes|keeps saying|kept saying|keeps posting|keeps writing|keeps typing|keeps joking|tells me|told us|told everyone|admitted|confessed|yelled|screamed|shouted)\b|\bwhat (?:does|do|did) (?:\w+ ){1,3}mean\b|\b(?:asking|asked|ask) (?:me )?what (?:\w+ ){1,3}means\b`))
	// fictionRe marks a clause about a story or a character.
	fictionRe = newFilteredRe(regexp.MustCompile(`\b(?:my|a|the|his|her|our) (?:character|protagonist|novel|fanfic|fic|fiction|screenplay|poem|song|lyrics|book|movie|film|show|game|villain|hero|heroine|mc|narrator|short story|play|campaign)\b|\bin (?:the|a|my) (?:story|novel|book|movie|film|game|show|song|video ?game|videogame|\w+ game|campaign|play)\b|\bin (?:minecraft|fortnite|call of duty|gta|skyrim|the sims|roblox|dark souls|elden ring|zelda|dnd|d and d)\b|\blyrics?\b|\bquote\b`))
	// accidentRe marks an accidental injury ("cut myself cooking").
	accidentRe = newFilteredRe(regexp.MustCompile(`\b(?:by accident|accidentally|accidental|eczema|psoriasis|dermatitis|hives|rash|itchy|an itch|the itch|mosquito bites?|bug bites|chicken ?pox|allergic reaction|shaving|cooking|chopping|cutting (?:onions|vegetables|veggies|bread|paper)|on (?:a|the) (?:paper|glass|fence|nail|knife|can|counter|table)|while (?:cooking|shaving|working|gardening|running|playing|climbing|skiing|biking|riding)|at the gym|playing (?:football|soccer|basketball|sports|rugby|hockey)|fell|tripped|slipped|sprained|stubbed|on the (?:stairs|ice|ladder|road)|(?:my|a|the) (?:bike|skateboard|scooter|motorbike|ladder)|(?:driving|skating|skiing|snowboarding|surfing|hiking))\b`))
	// leisureRe marks a clause about a sport, a hobby, work or a repair,
	// where ropes, guns, knives, bridges and roofs have their everyday use.
	leisureRe = newFilteredRe(regexp.MustCompile(`\b(?:graduation|basic training|deployment|before (?:i )?deploy\w*|retiring|retirement|bridal party|wedding|ceremony|time capsule|future self|parental leave|maternity leave|resignation|quitting my job|quit my job|the council|pharmacy|pharmacist|prescription|refill|dosette|pill organi[sz]er|doses?|(?:she|he|they) takes?|(?:pills|meds|medication|tablets|medicine) (?:are |is )?(?:\w+ )?for (?:my )?(?:grandma|grandpa|nan|granny|mom|mum|dad|son|daughter|kids?|baby|dog|cat|patient|patients)|birthday|christmas|anniversary|valentines?|thank you note|wedding|recommendation|complaint|landlord|teacher|professor|climb\w*|boulder\w*|belay\w*|harness|carabiners?|crag|abseil\w*|rappel\w*|bungee|skydiv\w*|parachut\w*|base jump\w*|cliff jump\w*|cliff diving|diving board|hunting|hunt|deer|duck season|gun range|shooting range|the range|target practice|skeet|clay pigeons?|airsoft|paintball|nerf|cosplay|prop|props|costume|kitchen|chef|cooking|recipe|sharpen\w*|whittl\w*|pumpkin|camping|fishing|tire swing|rope swing|swing|hammock|tow rope|towing|sailing|boat|knots?|scouts?|gym|workout|camera|photos?|photograph\w*|pictures|selfie|video|filming|hoops|basketball|gutters?|repair\w*|shingles|antenna|tent|laundry|clothesline|jump rope|skipping rope|tug of war|stunt|parkour|trampoline|zipline|zip line|rollercoaster|roller coaster|resignation|cover letter|application|santa|pen pals?|penpals?|parade|fireworks|festival|concert|marathon|tour|sightseeing|` +
		// what people write letters for, besides a goodbye
		`leavers|leaving (?:high )?school|real mail|snail mail|stationery|calligraphy|fountain pen|(?:to|for) (?:all )?(?:my|our|the) teachers|moving (?:to|abroad|away)|legally binding|solicitor|executor|a tradition|(?:past|younger|future) (?:me|self))\b`))
	// researchRe marks a question asked for study or out of curiosity.
	researchRe = newFilteredRe(regexp.MustCompile(`\b(?:(?:for|asking for|its for) (?:a|my|our|the|this) (?:[a-z]+ ){0,2}(?:project|class|essay|paper|assignment|homework|report|presentation|thesis|dissertation|lecture|exam|course|coursework|module|article|novel|story|book|script|screenplay|briefing|podcast|seminar)|(?:writing|doing|working on) (?:a|my|our|the) (?:[a-z]+ ){0,2}(?:paper|essay|thesis|dissertation|report|article|briefing|project|assignment|coursework|presentation)|(?:studying|revising|prepping|cramming) for (?:a|my|our|the) (?:[a-z]+ ){0,4}(?:exam|exams|test|quiz|boards|finals)|(?:im|i am|as) (?:a|an) (?:[a-z]+ ){0,2}(?:nurse|teacher|therapist|counsellor|counselor|paramedic|researcher|social worker|youth worker|gp|doctor|psychologist|psychiatrist|chaplain|pastor|lecturer|tutor|teaching assistant|ta|moderator|mod|first aider|pharmacist|support worker|case worker|caseworker|police officer|firefighter|nursing student|med student|medical student|psych student|psychology student)|i volunteer (?:on|at|for|with)|for (?:health|psych|psychology|nursing|sociology|biology|pharmacology|stats|law|medical|med) (?:class|school|exam|module|coursework)|doing (?:some )?research|for research|out of (?:pure )?curiosity|just curious|purely hypothetical|hypothetically)\b`))
	// frameCancelRe is finality that an everyday frame does not explain
	// ("on the bridge taking photos for the last time").
	frameCancelRe = newFilteredRe(regexp.MustCompile(`\b(?:last time|one last|for the last|goodbye|farewell|(?:never|not) (?:come|coming|go|going|get|getting) (?:back|down|home)|no (?:going|turning) back|final|forever|for good|(?:when|after|once|if) (?:im|i am|ive|i have|i) (?:not here|not around|gone|dead|passed|died)|without me)\b`))
	// absenceExcuseRe is an ordinary reason to be away or silent.
	absenceExcuseRe = newFilteredRe(regexp.MustCompile(`\b(?:(?:at|for|to|from) work|work (?:trip|tomorrow|tonight|late|early|all)|working (?:late|tomorrow|tonight|all)|(?:night|late|early|double|my|a|the) shifts?|vacation|holiday|holidays|trip|flight|flying|camping|detox|out of town|abroad|battery|batterys|charger|signal|wifi|no internet|offline|sleepover|sleeping over|staying (?:at|with)|new job|last day|surgery|festival|retreat|conference|deploy\w*|rehab|exams?|visiting|away (?:for|until|till|this|next)|(?:phone|laptop) (?:is|will|dies|died|dying|about|on)|appointment|dentist|doctors|check ?up|interview|wedding|concert|retire\w*|students|coworkers|colleagues|the team|last (?:day|week|year) (?:at|of|teaching|working|here)|moving (?:to|away|out|house|abroad|in with|into|in to)|working a double|on call|working (?:christmas|nights|the holidays)|farewell party|graduat\w*|my (?:teens|twenties|thirties|forties|fifties|sixties|20s|30s|40s|50s)|see you (?:after|when|next|soon|on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|the \d+|the weekend|\d+)|in|at|tomorrow|later)|` +
		// travel to family or to a place people go for a rest
		`(?:off|heading|going|driving|flying|travel+ing|on my way|on our way) (?:back )?(?:up |down |over )?to (?:my|our) (?:\w+ )?(?:(?:nans|nanas|nannas|grans|grandmas|grandads|grandpas|grandparents|mums|moms|mams|dads|parents|folks|sisters|brothers|aunts|aunties|uncles|cousins|sons|daughters|friends|mates|in ?laws)(?: \.|$| for| in| this| next| tomorrow| tonight| until| till| over| house| place| flat)|(?:\w+ )?(?:house|place|flat|village|hometown|home town))|(?:off|heading|going|driving|flying) (?:to|for) (?:the )?airport|on the road (?:to|for|all|until|till)|` +
		// a hospital visit for a procedure, a kind of leave
		`(?:hospital|clinic) (?:for|to have|to get) (?:my |a |an |the |some )?(?:\w+ )?(?:operation|op|procedure|scan|hip|knee|shoulder|back|eyes?|cataracts?|tests?|treatment|infusion|chemo|biopsy|check ?up|baby|induction|mri|x ray|bloods|physio|surgery|replacement|stitches|cast)|(?:annual|sick|mental health|personal|study|parental|maternity|paternity|compassionate|bereavement) (?:leave|day))\b`))
	// workGoodbyeRe is a goodbye to the people of a workplace, a school or
	// a club ("goodbye letters to my year 6 class", "a farewell note for my
	// team"), or a leaving scoped to a platform ("logging off for good. From
	// Slack, anyway"): ordinary, unless loved ones are in it too
	// (lovedOnesRe).
	workGoodbyeRe = newFilteredRe(regexp.MustCompile(`\b(?:(?:letters?|notes?|cards?|messages?|speech|email|emails) (?:to|for) (?:all |each of )?(?:my|our|the) (?:\w+ )?(?:team|class|clients|customers|regulars|staff|pupils|patients|colleagues|coworkers|workmates|crew|department|office|students|kids at school|squad|guild|club|choir|congregation|volunteers)|(?:from|off) (?:this |the |that |all |my )?(?:game|games|slack|discord|twitter|instagram|insta|tiktok|facebook|reddit|social media|socials|server|app|apps|platform|site|group chat|steam|xbox|playstation|league|ranked|whatsapp|snapchat)|uninstall\w*)\b`))
	// lovedOnesRe names family, a partner or friends.
	lovedOnesRe = regexp.MustCompile(`\b(?:mum|mom|mam|dad|parents|family|sister|sisters|brother|brothers|wife|husband|partner|kids|children|son|daughter|friends|best friend|boyfriend|girlfriend|fiance|fiancee|everyone|everybody|loved ones|grandkids|grandchildren)\b`)
	// noReturnRe says there is no coming back from where the writer goes
	// ("driving to the coast and I'm not driving back"), or that it is
	// beyond this life: it denies an ordinary reason for an absence, but
	// for a move (movingRe), which has no way back by nature.
	noReturnRe = regexp.MustCompile(`\b(?:not|never|wont|will not|dont|do not|im not|i am not) (?:be )?(?:coming|come|driving|drive|walking|walk|going|go|getting|get|flying|fly|swimming|swim|making it) (?:back|home|out)\b|\bone way\b|\bno (?:return|way back|coming back)\b|\b(?:grave|graves|heaven|cemetery|afterlife)\b|\b(?:for when|after|once) (?:im|i am|ive|i have) (?:gone|dead|died|not here)\b|\bwhere (?:im|i am) going\b|\bnot (?:from|off|just) (?:\w+ ){0,2}\w+ \. (?:from|off)\b|\b(?:from|off) (?:life|everything|existence|this world|it all|the world)\b`)
	// movingRe is a move of home or country.
	movingRe = regexp.MustCompile(`\b(?:moving|move|moved|emigrat\w*|relocat\w*)\b`)
	// conditionalRe marks hypothetical or conditional framing ("if i fail
	// ill kill myself").
	conditionalRe = newFilteredRe(regexp.MustCompile(`\b(?:if|unless|when|whenever|once)\b`))
	// idiomRe are figures of speech that use risk words.
	idiomRe = newFilteredRe(regexp.MustCompile(`\b(?:(?:is|are|was|were|its|thats|this|that|these|those|\w+s) (?:\w+ )?(?:killing|gonna kill|going to kill|will kill|would kill) me|killing (?:it|time|the game|the process|the lights|a process|processes|zombies|monsters)|kill (?:the|a|this|that) (?:process|task|job|thread|lights?|engine|app|program|session|server|mood|vibe|bug|bugs|weeds|spiders?|time)|(?:dying|died|die|dead) (?:of|from) (?:laughter|laughing|embarrassment|cringe|boredom|shame|cuteness|curiosity|thirst|hunger|the heat)|dying to (?:know|see|meet|try|go|get|hear|eat|watch|read|play|visit)|to die for|(?:give|lay down|risk) my life for (?:my|our|the|a|you|him|her|them|this|that)\b|(?:would|id|d) die for (?:my|our|you|him|her|them)\b|die on (?:this|that|the|a) hill|(?:killing|killed|kill) (?:ourselves|myself|themselves) laughing|(?:my|the) (?:phone|battery|laptop|plant|plants|car|tv|computer|game|character|avatar|sims?) (?:is |was |keeps )?(?:dying|died|dead|dies)|die (?:hard|down|out|off)|(?:scared|bored|worried|tickled|frozen|loved) to death|sick to death|death (?:metal|note|star|stranding|row)|im dead lol|i (?:literally )?died (?:lol|laughing)|dead (?:tired|serious|wrong|last|end|line|lift|lifts|weight)|deadline|kill (?:for|it) (?:a|an|some)|could kill for|(?:rather|sooner) die than (?:go to|going to|sit through|sitting through|wear|wearing|text|call|present|do another|do that|doing another|attend|eat|watch|work|listen to|hear|read|sing|dance|admit|apologi[sz]e|ask|say|pay|buy|lose|use|drive|fly|clean|cook|miss|share|play|let|give|tell|go back to (?:work|school|the office|that job|uni|class))|(?:killing|kill|killed) myself (?:trying to|to (?:get|finish|make|keep|meet|pay|hit|please|impress|catch up)|over (?:this|that|the|my|a) (?:project|job|work|essay|exam|exams|assignment|report|deadline|thesis|course))|carv(?:e|ed|es|ing) (?:out|a niche|a path|a name|a place|a space|a career|a living|my own|our own)|(?:my|the) (?:feet|legs|back|head|knees) (?:are|is) killing me|shoot(?:ing|s)? (?:myself|yourself|ourselves|themselves) in the (?:foot|feet))\b`))
	// affirmRe / denyRe read short answers to a safety question.
	affirmRe = newFilteredRe(regexp.MustCompile(canonPattern(`^(?:yes|yeah|yea|yep|ya|yup|y|i am|im|i do|i have|ive|sometimes|maybe|kind of|kinda|sort of|a little|a bit|i think so|probably|honestly yes|honestly yeah|every day|all the time|often|constantly|a lot|more than i want to admit|i guess|i dont know|idk|not sure|im not sure)(?: \.| .{0,40})?$`)))
	// notSafeRe and safeRe read the answer to "are you safe right now?" or
	// "is someone with you?", where "no" means danger.
	notSafeRe = newFilteredRe(regexp.MustCompile(canonPattern(`^(?:no|nope|nah|no no|not really|not at all|not right now|not now|no im not|no i am not|im not|i am not|im not safe|i am not safe|i dont feel safe|i do not feel safe|not safe|i dont know|i do not know|idk|dunno|not sure|im not sure|i dont think so|no one|nobody|noone|no ones here|no one is here|nobody is here|im alone|i am alone|all alone|alone)(?: \.)?(?: .{0,60})?$`)))
	safeRe    = newFilteredRe(regexp.MustCompile(canonPattern(`^(?:yes|yeah|yea|yep|yup|ya|i am|im safe|i am safe|yes im safe|yes i am|yes i am safe|im ok|im okay|i am ok|i am okay|im fine|i am fine|yes im ok|yes im okay|yes im fine|im with (?:my |a )?\w+|my \w+ is (?:here|with me)|someone is (?:here|with me)|theres someone here)(?: \.)?(?: (?:thanks|thank you|for now|right now|at the moment|now)\b[a-z .]{0,40})?$`)))
	denyRe    = newFilteredRe(regexp.MustCompile(canonPattern(`^(?:no|nope|nah|no no|not at all|no way|definitely not|absolutely not|of course not|god no|hell no|no im not|no i am not|im not|i am not|no i dont|no i wouldnt|no i would never|no never|never|i would never do that|no i would never do that|i wouldnt do that|im safe|i am safe|im not suicidal|no im safe|no im fine|im fine|im okay|im ok|i would never|no thats not it|no its not like that|no not like that|not like that|nothing like that)(?: \.)?(?: (?:im|i am|i was|i just|just|i only|i meant|i mean|thanks|thank you|honestly|really|dont worry|promise|i promise|i swear|its fine|it was|that was|its just|i was just|was)\b[a-z0-9 .]{0,80})?$`)))
)

// match is one rule hit after modifiers.
type match struct {
	rule  *rule
	level Level
	conf  float64
	note  string
	// mod names the modifier that changed the rule's level ("past",
	// "no_context", ...), "" for none.
	mod string
	// attempt says the match reads an attempt made or under way.
	attempt bool
}

// Assess assesses one message with its recent history: the English rules,
// then the learned scorer where the rules leave it room (see RulesVerdict),
// then the other languages (lang.go), which may only add to them.
func (f *Floor) Assess(in Input) Assessment {
	return f.withLanguages(in, f.assessEnglish(in))
}

// assessEnglish is the English floor: the rules, then the learned scorer.
func (f *Floor) assessEnglish(in Input) Assessment {
	return f.learnedRaise(f.assessRules(in, f.scorer != nil || f.short != nil))
}

// AssessRules is the verdict of the English rules alone on one message,
// with what the learned scorer may read and do (see RulesVerdict). Assess
// is AssessRules followed by the scorer and the other languages; threshold
// tools call it to score a message once and try many thresholds.
func (f *Floor) AssessRules(in Input) RulesVerdict {
	return f.assessRules(in, true)
}

// assessRules is AssessRules; without view it leaves out what only the
// scorer needs.
func (f *Floor) assessRules(in Input, view bool) RulesVerdict {
	canon := normalize(in.Text, f.lex)
	// The rules read typos corrected, and so does the learned scorer: the
	// clauses a rule set aside are positions in this text.
	text := f.lex.fixTypos(canon)
	var hist []string
	histTalk := false
	if len(in.History) > 0 {
		h := in.History
		if len(h) > windowTurns {
			h = h[len(h)-windowTurns:]
		}
		for _, m := range h {
			c := f.lex.fixTypos(normalize(m, f.lex))
			hist = append(hist, c)
			histTalk = histTalk || suicideTalkRe.MatchString(c)
		}
	}
	cur := f.scan(text, histTalk)

	a := Assessment{Path: []string{"floor"}}
	best := cur.best()

	// The answer to "are you safe?": "no" (or "I don't know") is danger,
	// a clear "yes" lets this turn stand on its own words.
	if in.AskedIfSafe {
		notSafe := notSafeRe.MatchString(text)
		switch {
		case notSafe && best.level < 3 && disownRe.MatchString(text) && !unsafeWordsRe.MatchString(text):
			// "no i dont have a plan, i'd never do it": the "no" answers
			// the earlier question about intent, not "are you safe?". Not
			// an emergency, and not a clear yes either: the crisis path
			// stays for this turn.
			best = match{level: 2, conf: 0.6, note: "a denial of intent in answer to a safety question"}
			cur.path = append(cur.path, "denial_after_safety_question")
		case notSafe:
			a.Level, a.Confidence = LevelImminent, 0.85
			a.Reason = "not safe, in answer to a safety question"
			a.Path = append(a.Path, "unsafe_after_question")
			a.Flags = cur.flags
			return RulesVerdict{Assessment: a.Finish()}
		case safeRe.MatchString(text) && best.level < 2:
			a.Level, a.Confidence = best.level, 0.7
			a.Reason = "safe, in answer to a safety question"
			a.Path = append(a.Path, "safe_after_question")
			a.Path = append(a.Path, cur.path...)
			a.Flags = cur.flags
			return RulesVerdict{Assessment: a.Finish()}
		case best.level < 2:
			// "ok", "whatever", a change of subject: no clear yes to
			// "are you safe?" keeps the crisis path for this turn.
			best = match{level: 2, conf: 0.6, note: "no clear answer to a safety question"}
			cur.path = append(cur.path, "unclear_after_safety_question")
		}
	}

	// Denial or affirmation after a direct question about thoughts or intent.
	if in.AskedSafetyQuestion {
		switch {
		case best.level < 2 && denyRe.MatchString(text):
			a.Level = 0
			a.Confidence = 0.75
			a.Reason = "clear denial after a safety question"
			a.Path = append(a.Path, "denial_after_question")
			a.Flags = cur.flags
			return RulesVerdict{Assessment: a.Finish()}
		case best.level < 2 && affirmRe.MatchString(text) && !denyRe.MatchString(text):
			best = match{level: 2, conf: 0.75, note: "affirmed after a safety question"}
			cur.path = append(cur.path, "affirm_after_question")
		}
	}

	a.Level = best.level
	a.Confidence = best.conf
	a.Reason = best.note
	a.Flags = cur.flags
	a.Path = append(a.Path, cur.path...)

	// Window: risk spread over the last few messages.
	// A message that finishes the last one so that the two say nothing of
	// risk leaves that one out of the window and of the conversation view.
	clarified := false
	if len(in.History) > 0 && !(in.AskedSafetyQuestion && denyRe.MatchString(text)) {
		var w match
		w, clarified = f.window(hist, text, cur, in.Answered, isCommand(in.Text))
		if w.level > a.Level {
			a.Level = w.level
			a.Confidence = w.conf
			a.Reason = w.note
			a.Path = append(a.Path, "window")
			a.Flags.Attempt = a.Flags.Attempt || w.attempt
		}
	}

	if a.Level == 0 && a.Reason == "" {
		a.Reason = "no risk signal"
		if a.Flags.ThirdParty {
			a.Reason = "someone else may be at risk"
		}
		if a.Confidence == 0 {
			a.Confidence = 0.8
		}
	}
	if !view {
		return RulesVerdict{Assessment: a.Finish()}
	}
	var conv *RulesVerdict
	if !clarified {
		conv = f.conversationView(in, a, hist, text)
	}
	// A reply of a word or three in a conversation ("because I do", "ya")
	// means what the earlier messages make it mean, which the window
	// reads; the scorers, reading it alone, do not raise it either (they
	// may read it with the conversation).
	if len(in.History) > 0 && a.Level < LevelIdeation && wordCount(text) < bareReplyWords {
		return RulesVerdict{Assessment: a.Finish(), Conversation: conv}
	}
	v := f.modelView(a.Finish(), text, cur)
	v.Conversation = conv
	return v
}

// conversationView is the rules' view of the conversation read as one
// message, the earlier messages and this one joined, for the short scorer
// ("been saving my oxycodone for this" ... "done. took the lot."). It is
// nil where the conversation may not be read so: no earlier message, a
// verdict of 2 or more already, a safety question asked or answered, a
// command, more words than the short scorer reads, or a view the short
// scorer may not read. Where the rules read the joined conversation at 2
// or more though the window did not, the short scorer reads all of it
// ("when I go nobody should have to clean up after me" ... "bills paid,
// cat rehomed. done"). hist and text are the canonical earlier messages
// and this one. Whether a message of it steps back is asked only of a
// conversation that scores high enough (see Scored): it is the costly
// part.
func (f *Floor) conversationView(in Input, a Assessment, hist []string, text string) *RulesVerdict {
	if len(hist) == 0 || a.Level >= LevelIdeation || in.Answered || in.AskedSafetyQuestion || isCommand(in.Text) {
		return nil
	}
	words := wordCount(text)
	for _, h := range hist {
		words += wordCount(h)
	}
	if words > ShortWords {
		return nil
	}
	parts := append(slices.Clone(hist), text)
	joined := strings.Join(parts, " . ")
	v := f.assessRules(Input{Text: joined}, true)
	if v.Level >= LevelIdeation && !slices.Contains(v.Path, "window") {
		v = RulesVerdict{Assessment: v.Assessment, ModelText: Normalize(joined), Short: true, Words: words}
	}
	if !v.Short {
		return nil
	}
	v.conversationParts = parts
	return &v
}

// stepsBack reports a message of parts (canonical) that steps back from
// what came before ("they're in the bin", "I'm safe now", a change of
// subject), whose earlier words the window has already weighed.
func stepsBack(parts []string) bool {
	for _, p := range parts {
		if steppedBack(p, findHits(p), false) {
			return true
		}
	}
	return false
}

// scanResult is what the rules found in one canonical text.
type scanResult struct {
	matches []match
	flags   Flags
	path    []string
	// context signals for the window
	suicideTalk, timing, prep bool
	// loweredPrep: a preparation rule matched but lacked context here;
	// loweredIntent: so did an intent or farewell rule ("i'm going to end
	// it this week", "i'm doing it tonight").
	loweredPrep, loweredIntent bool
	// decided are the clauses [start, end) whose match a modifier
	// deliberately kept below crisis (negation, third party, idiom, past,
	// fiction...): the learned scorer does not read them.
	decided [][2]int
	// hits are the prefilter hits of the scanned text.
	hits hits
}

func (s scanResult) best() match {
	var b match
	for _, m := range s.matches {
		if m.level > b.level || (m.level == b.level && m.conf > b.conf) {
			b = m
		}
	}
	return b
}

var (
	suicideTalkRe = newFilteredRe(regexp.MustCompile(`\b(?:suicid\w*|kill me|end me|died|kill(?:ing)? (?:myself|themselves|himself|herself|yourself|yourselves)|end(?:ing)? (?:(?:my|their|his|her) (?:own )?life|it all)|die|dying|dead|death|not wake up|overdose|hang myself|attempt)\b`))
	// aftermathRe are words around an ingestion or attempt in progress.
	aftermathRe = newFilteredRe(regexp.MustCompile(`\b(?:(?:will|would|am) i (?:be ok|be okay|be fine|survive|die)|regret (?:it|what)|poison control|hospital|impulsive|woozy|dizzy|throw up|threw up|vomit|passed out|whats (?:going )?to (?:happen|come)|what to expect|just waiting|waiting now|psych ward|psychiatric ward|hospitali[sz]ed|emergency room|ambulance|icu|hour hold|stomach pumped|(?:dont|do not) (?:try to |bother (?:trying to )?)?(?:find|look for|save|stop) me)\b`))
	timingRe    = newFilteredRe(regexp.MustCompile(`\b(?:tonights?|today|the night|its time|tomorrow|this weekend|this week|next week|(?:on|this|next) (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|right now|in (?:a few|two|three) (?:hours|days)|after (?:everyone|they) (?:leave|leaves|go|goes|are asleep))\b`))
	// timingNumRe is timing said with a number (its own pattern, so that
	// it runs only on texts with a digit).
	timingNumRe = newFilteredRe(regexp.MustCompile(`\b(?:in \d+ (?:hours|days)|on the \d+(?:st|nd|rd|th))\b`))
	prepRe      = newFilteredRe(regexp.MustCompile(`\b(?:do it|go through with it|(?:saved|saving|stockpiled|collected|bought|got) (?:up )?(?:enough |all (?:my )?|the |some )?(?:pills|tablets|meds|rope|gun|knife|blades|razors)|(?:wrote|written|writing) (?:my|a|the) (?:note|letter|letters|will)|(?:the|my) (?:notes?|letters?) (?:are|is) (?:all )?(?:written|done|finished|ready|sealed)|(?:have|got|made|set) (?:a|the) (?:plan|date)|said (?:my )?goodbyes?|gave (?:away )?my (?:stuff|things))\b`))
)

// actInContextRe is a plan, a large ingestion or standing somewhere high,
// in the broad words that are ordinary on their own ("I made a plan", "took
// a handful", "sitting on the roof") and so are not rules by themselves:
// in a message that already speaks of ideation they are preparation or an
// attempt, and the message is level 3.
var actInContextRe = newFilteredRe(regexp.MustCompile(`\b(?:(?:i have|ive got|ive made|i made|made|have|making|working out|wrote|written) (?:a|my) plan|(?:took|taken|taking|swallowed|downed|ingested|popped) (?:a |an |the )?(?:total of |about |around |over |like |at least )?(?:handful|bottle|bottles|whole bottle|whole pack|box|boxes|packet|packets|entire bottle|entire pack|too (?:much|many)|way too (?:much|many)|so many)|(?:standing|sitting|im|i am) (?:on|at) (?:the|a) (?:edge|ledge|bridge|roof|rooftop|tracks|railing))\b`))

// windowTurns is how many earlier messages the window reads.
const windowTurns = 4

// scan runs every rule over canon and applies the modifiers. histTalk says
// whether earlier messages talked about death or suicide.
func (f *Floor) scan(canon string, histTalk bool) scanResult {
	context := false
	var res scanResult
	if canon == "" {
		return res
	}
	clauses := clauseBounds(canon)
	// Prefilter hits for the whole text and for each sentence, in one pass.
	all, sentHits := sentenceHits(canon, clauses)
	res.hits = all
	// The message-wide cues never span a sentence mark: each runs only on
	// the sentences whose own prefilter hits pass, not on the whole text.
	inSentence := func(re filteredRe) bool { return matchSentences(re, canon, clauses, sentHits, all) }
	// intentSpans are the matches of intent or farewell rules lowered for
	// want of context.
	var intentSpans [][2]int
	// recovered says the text tells that the person is past it now; it is
	// asked only of a match dated to the past, which few messages have.
	recoveredKnown, recoveredVal := false, false
	recovered := func() bool {
		if !recoveredKnown {
			recoveredKnown, recoveredVal = true, f.pastItNow(canon, all)
		}
		return recoveredVal
	}
	// owned says the message owns a question or statement about someone
	// else (see ownClaimRe); read only when a match would be lowered for
	// it, which few messages need.
	ownedKnown, ownedVal := false, false
	owned := func() bool {
		if !ownedKnown {
			ownedKnown, ownedVal = true, ownClaimRe.matchHits(canon, all)
		}
		return ownedVal
	}
	res.suicideTalk = inSentence(suicideTalkRe)
	// excused says an ordinary reason explains an absence ("off to my
	// nan's", "night shift"), unless the message denies it ("and not on a
	// trip").
	excused := func() bool {
		return (inSentence(absenceExcuseRe) || (inSentence(workGoodbyeRe) && !lovedOnesRe.MatchString(canon))) &&
			!absenceDeniedRe.MatchString(canon) && (!noReturnRe.MatchString(canon) || movingRe.MatchString(canon))
	}
	fams := distressFamilies(canon, all)
	talk := histTalk || res.suicideTalk
	distressed := fams > 0 || strings.Contains(canon, "depress")
	ownContext := res.suicideTalk || distressed || inSentence(aftermathRe) || (inSentence(heightHereRe) && !inSentence(sightseeingRe))
	context = histTalk || context || ownContext
	for i := range f.rules {
		r := &f.rules[i]
		if !r.fre.ok(all) {
			continue
		}
		// Patterns never cross a sentence mark, so each sentence that passes
		// the prefilter is searched on its own.
		var locs [][]int
		if r.whole {
			locs = r.re.FindAllStringIndex(canon, -1)
		}
		for ci, cs := range clauses {
			if r.whole {
				break
			}
			if !r.fre.ok(sentHits[ci]) {
				continue
			}
			ce := len(canon)
			if ci+1 < len(clauses) {
				ce = clauses[ci+1] - 3
			}
			for _, l := range r.re.FindAllStringIndex(canon[cs:ce], -1) {
				locs = append(locs, []int{l[0] + cs, l[1] + cs})
			}
		}
		for _, loc := range locs {
			cs, ce := clauseOf(canon, clauses, loc[0])
			clause := canon[cs:ce]
			prefix := canon[cs:loc[0]]
			// pastNear: a past marker near the match, or a past frame
			// (pastFramed); read once, by the first modifier that asks.
			pastKnown, pastVal := false, false
			pastNear := func() bool {
				if !pastKnown {
					pastKnown, pastVal = true, pastRe.matchHits(near(canon, loc, cs, ce), all) || pastFramed(canon, loc, ce)
				}
				return pastVal
			}
			if r.kind == kindHarmOthers && len(r.notFollowedBy) > 0 && followedBy(canon[loc[1]:], r.notFollowedBy) {
				continue // "I'll kill him if he eats my leftovers": a conditional, not a threat
			}
			switch r.kind {
			case kindThird:
				if owned() {
					// "can a bot tell if someone is suicidal? can you tell
					// that I am?": the writer's own.
					res.path = appendOnce(res.path, "rule:"+r.id+"/owned")
					continue
				}
				res.flags.ThirdParty = true
				res.path = appendOnce(res.path, "rule:"+r.id)
				res.decided = append(res.decided, decidedSpan(canon, cs, ce, loc[0]))
				continue
			case kindHarmOthers:
				if !negatedBefore(prefix) {
					res.flags.HarmToOthers = true
					res.path = appendOnce(res.path, "rule:"+r.id)
				}
				continue
			case kindAbuse:
				if !negatedBefore(prefix) {
					res.flags.AbuseOrDanger = true
					res.path = appendOnce(res.path, "rule:"+r.id)
				}
				continue
			}
			if (len(r.notFollowedBy) > 0 && followedBy(canon[loc[1]:], r.notFollowedBy)) ||
				(len(r.notPrecededBy) > 0 && precededBy(prefix, r.notPrecededBy)) || endsItWithSomeone(canon[loc[0]:loc[1]], canon[loc[1]:]) {
				// "end it with him", "in my last post": a deliberate reading
				// the scorer must not undo either.
				res.decided = append(res.decided, decidedSpan(canon, cs, ce, loc[0]))
				continue
			}
			m := match{rule: r, level: r.level, conf: r.conf, note: ruleNote(r)}
			mod := ""
			if r.needsContext && r.ownWordsNotContext && context && !histTalk && !distressed && !inSentence(aftermathRe) &&
				!suicideTalkRe.matchHits(canon[:loc[0]]+" . "+canon[loc[1]:], all) {
				m.level, mod = min(m.level, 1), "no_context"
			}
			if r.needsContext && !context {
				m.level, mod = min(m.level, 1), "no_context"
				if r.silentAlone {
					m.level = 0
				}
			}
			if r.needsTalk && !talk {
				m.level, mod = 0, "no_talk"
			}
			if r.needsOwnContext && !ownContext && !histTalk {
				m.level, mod = 0, "no_own_context"
			}
			switch {
			case benignSaying(prefix, canon[loc[0]:loc[1]], canon[loc[1]:min(len(canon), loc[1]+40)]):
				m.level, mod = 0, "saying"
			case idiomRe.MatchString(canon[loc[0]:min(len(canon), loc[1]+24)]) && r.weak:
				m.level, mod = 0, "idiom"
			case !r.noNegate && !startsWithSubject(canon[loc[0]:loc[1]]) && negatedBefore(prefix):
				m.level, mod = 0, "negated"
				if strings.HasSuffix(strings.TrimSpace(prefix), "dont") || strings.HasSuffix(strings.TrimSpace(prefix), "dont really") {
					// "I don't want to kill myself, but..." is ambivalence.
					m.level = min(m.level+1, r.level)
				}
			case r.excusable && excused():
				m.level, mod = 0, "ordinary_absence"
			case mentionFrameRe.matchHits(clause, all) && !owned():
				// "do you call the police if I mention suicide?": the word
				// named as a word, in a question about what happens.
				m.level, mod = 0, "mention"
			case (aboutOthers(prefix, canon[loc[0]:loc[1]], all) || researchRe.matchHits(canon, all)) && owned():
				// "do you call the police if someone says they want to die?
				// because I do": the question is the writer's own, neither
				// someone else's nor a study's; the rule's level stands.
			case !distressed && researchRe.matchHits(canon[sentStart(clauses, loc[0]):ce], all) && (isMethodRule(r.id) || topicQuestion(canon[sentStart(clauses, loc[0]):loc[1]])),
				// A general question with its frame in another sentence:
				// "what's the difference between self-harm and suicidal
				// behaviour? for my nursing exam".
				!distressed && researchRe.matchHits(canon, all) && topicQuestion(canon[sentStart(clauses, loc[0]):ce]) && !forMeRe.MatchString(canon),
				// A question of definition, alone, with no word of the
				// writer's own: "what's the difference between self-harm
				// and a suicide attempt, clinically?"
				!distressed && len(clauses) == 1 && !hasFirstPerson(canon) && definitionRe.MatchString(canon):
				m.level, mod = 0, "research"
			case r.subject && !distressed && topicNoun(canon[sentStart(clauses, loc[0]):ce], canon):
				// "how do I ask a patient about suicidal thoughts", "data
				// linking chronic pain to suicidal ideation": the words as
				// a subject of work or study, no one's own.
				m.level, mod = 0, "research"
			case r.frame && !distressed && !hasFirstPerson(canon[loc[0]:loc[1]]) && leisureRe.matchHits(clause, all) && !suicideTalkRe.matchHits(clause, all) && !frameCancelRe.matchHits(clause, all):
				m.level, mod = 0, "everyday_use"
			case r.routine && !res.suicideTalk && !distressed && routineDoseRe.matchHits(clause, all):
				m.level, mod = 0, "routine_dose"
			case thingSubject(prefix, canon[loc[0]:loc[1]]):
				m.level, mod = 0, "not_self"
			case aboutOthers(prefix, canon[loc[0]:loc[1]], all) || signsFrameRe.MatchString(canon[sentStart(clauses, loc[0]):loc[1]]) ||
				termAsked(canon[sentStart(clauses, loc[0]):loc[0]], canon[loc[1]:max(ce, loc[1])]):
				m.level, mod = 0, "third_party"
				res.flags.ThirdParty = true
			case fictionRe.matchHits(clause, all) && !strings.Contains(prefix, " i ") && !strings.HasPrefix(prefix, "i "):
				m.level, mod = min(m.level, 1), "fiction"
			case (r.selfInjury || r.accident || nearMiss(prefix)) && accidentRe.matchHits(clause, all):
				m.level, mod = 0, "accident"
			case !r.timeless && (pastNear() || pastYearRe.matchHits(near(canon, loc, cs, ce), all) || thenBefore(canon[cs:loc[0]], all)) && recovered(),
				// A milestone ("two years clean") is past and recovered in
				// itself, unless the message tells of a relapse or distress.
				!r.timeless && !distressed && milestoneRe.matchHits(near(canon, loc, cs, ce), all) && !inSentence(relapseRe):
				m.level, mod = 0, "past_recovered"
			case !r.timeless && pastNear():
				if m.level == 3 {
					m.level = 2
				} else if r.id != "ideation.selfkill" && !r.selfInjury {
					m.level = max(1, m.level-1)
				}
				mod = "past"
			case (r.weak || causativeBefore(prefix)) && hasLaugh(clause):
				m.level, mod = min(m.level, 1), "laughter"
			case m.level == 3 && conditionalRe.matchHits(prefix, all) && !strings.Contains(r.id, "attempt") && !strings.HasPrefix(r.id, "prep"):
				m.level, mod = 2, "conditional"
				if hasLaugh(clause) {
					// "if I have to sit through one more meeting I'll kill
					// myself lol": unclear sarcasm, one direct question.
					m.level, mod = 1, "conditional_laughter"
				}
			}
			if strings.HasPrefix(r.id, "prep.") && (mod == "no_talk" || mod == "no_context") {
				res.loweredPrep = true
			}
			if (strings.HasPrefix(r.id, "intent.") || strings.HasPrefix(r.id, "goodbye.")) && mod == "no_context" {
				res.loweredIntent = true
				intentSpans = append(intentSpans, [2]int{loc[0], loc[1]})
			}
			if (r.attempt || strings.HasPrefix(r.id, "attempt.")) && m.level >= LevelImminent && !hypothetical(prefix) {
				res.flags.Attempt = true
			}
			if r.selfInjury && m.level >= 2 {
				res.flags.SelfInjury = true
			}
			if decidedModifier(mod) {
				res.decided = append(res.decided, decidedSpan(canon, cs, ce, loc[0]))
			}
			if mod != "" {
				m.conf *= 0.9
				m.note += " (" + mod + ")"
				m.mod = mod
				res.path = appendOnce(res.path, "rule:"+r.id+"/"+mod)
			} else {
				res.path = appendOnce(res.path, "rule:"+r.id)
			}
			res.matches = append(res.matches, m)
		}
	}
	res.timing = inSentence(timingRe) || inSentence(timingNumRe)
	// A preparation said in a negation ("i don't have a plan", "i'd never
	// do it") is not one.
	res.prep = inSentence(prepRe) && unnegated(prepRe, canon)
	// Combinations within one message.
	b := res.best()
	if b.level >= 2 && (res.timing || res.prep || inSentence(actInContextRe)) && b.level < 3 && !pastOnly(res) {
		res.matches = append(res.matches, match{level: 3, conf: 0.8, note: "ideation with timing or preparation"})
		res.path = append(res.path, "combine:ideation+timing_or_prep")
	}
	// The shape of a plan told without a word of dying ("tomorrow after the
	// school run i'm driving out to the cliffs and i'm not driving back",
	// "friday after payday. worked it all out"): a finality or a worked-out
	// decision, with a time, a means or a place to die, or with each
	// other. Not when a rule set something aside here (a negation, a third
	// party, a story), nor for an ordinary absence (a move, a trip).
	if b.level < 3 && len(res.decided) == 0 && !res.flags.ThirdParty && (planShape(canon, all, res.timing) || decidedShape(canon, all, res.timing)) &&
		!excused() && !fictionRe.matchHits(canon, all) {
		res.matches = append(res.matches, match{level: 3, conf: 0.7, note: "a plan told by its shape: a time, a place or a means, and no way back"})
		res.path = append(res.path, "combine:plan_shape")
	}
	// An intent or a farewell the rules lowered for want of talk of dying
	// ("going to do it tonite") is that talk's context for a means or a
	// preparation in the same message ("ive got the tablets out"), and
	// the other way round.
	if b.level < 3 && res.loweredIntent && (res.loweredPrep || meansOutside(canon, all, intentSpans)) {
		res.matches = append(res.matches, match{level: 3, conf: 0.75, note: "intent with a means or a preparation"})
		res.path = append(res.path, "combine:intent+means")
	}
	if b.level <= 1 {
		warnRules := 0
		for _, m := range res.matches {
			if m.level == 1 && m.rule != nil && strings.HasPrefix(m.rule.id, "warn.") {
				warnRules++
			}
		}
		if n := max(fams, warnRules); n >= 3 || (n >= 2 && (res.suicideTalk || inSentence(coreDistress))) {
			res.matches = append(res.matches, match{level: 2, conf: 0.6, note: "several warning signs together"})
			res.path = append(res.path, "combine:warning_density")
			b = res.best()
		}
	}
	// A goodbye reported from someone else ("my best friend just texted
	// me 'I'm sorry for everything, goodbye'") is theirs: the third party
	// the rules read is the one at risk.
	if b.level < 3 && farewellDensity(canon, all) && !excused() && !(res.flags.ThirdParty && inSentence(reportRe)) {
		res.matches = append(res.matches, match{level: 3, conf: 0.75, note: "goodbye or finality"})
		res.path = append(res.path, "combine:farewell_markers")
		b = res.best()
	}
	if b.level < 3 && affairsInOrder(canon, all) && !excused() && !lifeEventRe.MatchString(canon) {
		res.matches = append(res.matches, match{level: 3, conf: 0.75, note: "affairs put in order"})
		res.path = append(res.path, "combine:affairs_in_order")
		res.prep = true
		b = res.best()
	}
	if b.level == 1 && res.prep && res.suicideTalk {
		res.matches = append(res.matches, match{level: 2, conf: 0.7, note: "warning signs with preparation"})
		res.path = append(res.path, "combine:warning+prep")
	}
	return res
}

// Farewell markers. A goodbye alone ends many chats; a goodbye said with
// what people say when they do not expect to talk again (an apology for
// everything, thanks for trying, "it's too late", love to all) is finality.
var (
	farewellStrong = []filteredRe{
		newFilteredRe(regexp.MustCompile(`\bforgive me\b`)),
		newFilteredRe(regexp.MustCompile(`\b(?:im )?sorry (?:mom|mum|dad|mama|papa|mother|father|everyone|guys|all of you|to everyone)\b`)),
		newFilteredRe(regexp.MustCompile(`\bsorry for (?:everything|all of this|all the pain|being (?:a burden|like this|who i am))\b`)),
		newFilteredRe(regexp.MustCompile(`\b(?:i )?love you (?:all|guys)\b`)),
		newFilteredRe(regexp.MustCompile(`\b(?:thank you|thanks) for (?:trying|all you did|always being there|being there for me|trying to help)\b`)),
		newFilteredRe(regexp.MustCompile(`\b(?:this is goodbye|` + byeForeverSrc + `|(?:goodbye|bye|farewell) for real|(?:its been|it was|it has been) (?:nice|good|great|an honou?r|a pleasure) knowing (?:you|everyone|yall))\b`)),
		newFilteredRe(regexp.MustCompile(`\b(?:take care of (?:my|each other|yourselves|mom|mum|dad)|dont blame (?:yourself|yourselves)|(?:it|its|it is|it was) not your fault|it wasnt your fault|see you on the other side)\b`)),
		newFilteredRe(regexp.MustCompile(`\b(?:(?:told|tell|asked|ask) (?:\w+ ){1,2}to )?remember me(?: \.|$| ok| okay| please| when)`)),
		// An apology for not lasting.
		newFilteredRe(regexp.MustCompile(`\b(?:couldnt|could not) (?:hold on|keep fighting)(?: \.|$| any ?longer| anymore)`)),
		newFilteredRe(regexp.MustCompile(`\b(?:sorry|forgive me) (?:that )?i (?:wasnt|was not|couldnt be|could not be|was never) (?:stronger|strong enough)\b`)),
		// An apology for what is left behind, a plea not to grieve, a
		// goodbye said to be meant.
		newFilteredRe(regexp.MustCompile(`\b(?:(?:sorry|apologies) for (?:any|all the|the) (?:bother|trouble|mess|pain|hurt)(?: (?:ive|i have|im|i am|ill|i will) (?:caused|leaving|leave|cause))?|sorry for the mess (?:im|i am|ill|i will) (?:leaving|leave))\b`)),
		newFilteredRe(regexp.MustCompile(`\b(?:please )?(?:dont|do not) (?:be sad|cry|grieve|mourn|miss me)(?: for me| over me| about me)?(?: \.|$)`)),
		newFilteredRe(regexp.MustCompile(`\b(?:i )?(?:just )?(?:cant|can not|cannot) stay(?: \.|$| any ?longer| anymore)`)),
		newFilteredRe(regexp.MustCompile(`\b(?:goodbye|bye) \. (?:for good|properly)(?: this time)?(?: \.|$)|\bi mean it properly this time\b`)),
	}
	farewellWeak = []filteredRe{
		newFilteredRe(regexp.MustCompile(`\b(?:goodbye|farewell)\b`)),
		newFilteredRe(regexp.MustCompile(`\b(?:im|i am) (?:so )?sorry(?: \.|$| for everything| for all)`)),
		newFilteredRe(regexp.MustCompile(`\b(?:thank you|thanks) for everything\b`)),
		newFilteredRe(regexp.MustCompile(`\bi love you(?: \.|$| so much)`)),
		newFilteredRe(regexp.MustCompile(`\b(?:its|it is) too late\b`)),
		newFilteredRe(regexp.MustCompile(`\b(?:ill|i will) miss (?:you|yall|everyone|you all|you guys)(?: \.|$| all| so much)`)),
		// Things given to someone, beside a strong marker.
		newFilteredRe(regexp.MustCompile(`\b(?:gave|giving|given) (?:\w+ ){0,3}my (?:\w+ )?(?:stuff|things|belongings|possessions|games|clothes|xbox|playstation|console|guitar|jewel\w*|books|records|bike|cat|dog|pets?)\b`)),
		// An apology for failing, beside a strong marker.
		newFilteredRe(regexp.MustCompile(`\b(?:im|i am) (?:so )?sorry (?:that )?i (?:couldnt|could not|wasnt|was not|cant)\b`)),
		newFilteredRe(regexp.MustCompile(`\blast time (?:ill|i will|youll|you will) (?:log on|log in|be on here|post|write|talk to you|message|text|hear from me|see me)\b`)),
	}
)

// Putting one's affairs in order (C-SSRS preparatory behaviour): the acts
// of settling a life, each ordinary alone (a will, bills paid, a contract
// cancelled, a pet rehomed, things given away, accounts deleted, papers
// left out), and what makes them a preparation: they are done, or done
// for when the person is gone.
var (
	settleActs = []filteredRe{
		newFilteredRe(regexp.MustCompile(`\b(?:(?:made|make|making|wrote|written|writing|updated|updating|signed|sorted|redid|redone|finished|drew up|drawn up|changed|did) (?:\w+ ){0,2}(?:my|a|the) will|(?:my|the) will (?:is |s )?(?:done|sorted|signed|updated|made|written))\b`)),
		newFilteredRe(regexp.MustCompile(`\b(?:(?:found|find|finding|arranged|sorted) (?:a |new )?homes? for|(?:rehomed|re homed|rehoming)|(?:gave|give|giving|left|leaving|arranged for) (?:the |my |both my |our )?(?:dog|dogs|cat|cats|pets?|bird|birds|rabbit|hamster|fish) (?:to|with|go to))\b`)),
		newFilteredRe(regexp.MustCompile(`\b(?:(?:gave|give|giving|given) (?:away )?(?:\w+ ){0,3}(?:my )?(?:things|stuff|belongings|possessions|clothes|records|guitar|books|games|switch|console|xbox|playstation|jewel\w*|ring|watch|medals|car|bike|coat|camera|laptop|pc|collection|savings|money|plants)|(?:gave|giving|given|give) (?:\w+ ){0,3}away|who gets (?:my|what))\b`)),
		newFilteredRe(regexp.MustCompile(`\b(?:(?:deleted|deleting|delete|wiped|closed|deactivated) (?:all )?(?:of )?(?:my )?(?:socials|social media|accounts?|instagram|facebook|twitter|tiktok|snapchat|discord|photos|messages|search history|browser history|data)|(?:wrote|written|writing|left|gave) (?:down )?(?:all )?my passwords|my passwords (?:for|to|are))\b`)),
		newFilteredRe(regexp.MustCompile(`\b(?:(?:signed|signing) (?:the |my )?(?:house|flat|car|home) over|(?:transferred|moved|put|sent) (?:all )?(?:of )?(?:my )?(?:money|savings) (?:in|into|to))\b`)),
		newFilteredRe(regexp.MustCompile(`\b(?:paid|paying|cleared|clearing|settled|settling) (?:off )?(?:all |every |each |the last of |off )?(?:my |the |of my )?(?:debts?|bills?|cards?|credit cards?|overdraft|loans?|rent|tab|everything i owe|what i owe)\b`)),
		newFilteredRe(regexp.MustCompile(`\b(?:cancel|cancels|cancelled|canceled|cancelling|canceling|ended|ending|closed|closing|terminated|stopped|quit) (?:\w+ ){0,2}(?:my |the |all my )?(?:gym|membership|memberships|subscriptions?|phone|contract|lease|sim|therapy|appointments?|prescriptions?|repeat prescription|bank accounts?|accounts?|insurance|paper|papers|milk|netflix|spotify|infusions|treatment|sessions)\b`)),
		newFilteredRe(regexp.MustCompile(`\b(?:(?:sorted|organised|organized|put|left|gathered) (?:out )?(?:\w+ ){0,2}(?:documents|papers|paperwork|deeds|finances|folder|envelope)|(?:left|gave) (?:the |my )?(?:keys|spare key) (?:with|to))\b`)),
	}
	// settledRe says the settling is done, or done for after the person.
	settledRe = newFilteredRe(regexp.MustCompile(`\b(?:(?:everything|all|it|its|things|affairs)(?: is| s| are|s)? (?:\w+ )?(?:in order|sorted|tidy|ready|done|set|taken care of|squared away|arranged|in place|settled)|(?:in order|sorted|tidy|squared away|settled) now|nothing (?:left|else) to (?:do|sort)|(?:the )?last (?:thing|bit|piece|item|one) (?:on my list|to do|i needed|of admin)|last bit of admin|(?:so|that) (?:no one|nobody|noone|they|my family|my \w+|\w+) (?:has|have|wont have|doesnt have|dont have|will not have|isnt|is not|arent) (?:to|stuck) (?:deal|worry|sort|clean|pay)|(?:wont|will not|dont|do not) need (?:it|them|any of (?:it|them)|those)|(?:almost|nearly) time|just in case|` + goneForSrc + `)\b`))
)

// affairsInOrder reports settling acts of two kinds, one of them a rare one
// (settleActs[:strongActs]: a will, a pet rehomed, things given away,
// passwords or a house or savings handed over, every account deleted),
// said done; or an act of any kind said done for when the person is gone.
// Bills paid and a subscription cancelled are a month's admin.
func affairsInOrder(canon string, h hits) bool {
	if !settledRe.matchHits(canon, h) {
		return false
	}
	strong, n := 0, 0
	for i, re := range settleActs {
		if re.matchHits(canon, h) {
			n++
			if i < strongActs {
				strong++
			}
		}
	}
	return (strong >= 1 && n >= 2) || (n >= 1 && finalSettledRe.MatchString(canon))
}

// finalSettledRe is settling said to be for after the person.
var finalSettledRe = regexp.MustCompile(`\b(?:(?:be |are |is )?(?:ok|okay|fine|better off) without me|` + goneForSrc + `)\b`)

// goneForSrc is settling said to be for after the person ("for when I go",
// "they'll understand later"): a cue of settledRe and of finalSettledRe.
const goneForSrc = `(?:before|when|after|for when) i (?:go|leave|am gone|m gone|im gone|do it|die)|(?:theyll|they will|hell|he will|shell|she will) (?:get it|understand|know|guess)(?: why)? (?:later|soon|eventually|after)|guess why|(?:wont|will not|doesnt|dont) (?:understand|know) why (?:yet|until)|(?:he|she|they) (?:doesnt|dont) know why yet`

// lifeEventRe is a happy reason to settle things: a baby, a wedding, a
// house bought, a new job, a pension.
var lifeEventRe = regexp.MustCompile(`\b(?:bab(?:y|ies)|pregnan\w*|wedding|newlyweds?|(?:got|getting|just) married|engaged|new (?:house|home|flat|job)|(?:bought|buying) (?:a|our|my) (?:house|home|flat)|mortgage|promot\w*|pension|inheritance|(?:\d+(?:st|nd|rd|th)|big) birthday|turned \d+|grandchild\w*|grandkids?)\b`)

// strongActs is how many of settleActs, from the first, are rare outside
// settling a life.
const strongActs = 5

// farewellDensity reports a strong farewell marker with at least one other.
func farewellDensity(canon string, h hits) bool {
	strong, weak := 0, 0
	for _, re := range farewellStrong {
		if re.matchHits(canon, h) {
			strong++
		}
	}
	if strong == 0 {
		return false
	}
	for _, re := range farewellWeak {
		if re.matchHits(canon, h) {
			weak++
		}
	}
	return strong+weak >= 2
}

// near returns the words around a match within its clause (eight before,
// five after): tense markers further away belong to other statements.
func near(canon string, loc []int, cs, ce int) string {
	start := loc[0]
	for n := 0; start > cs && n < 9; {
		start--
		if canon[start] == ' ' {
			n++
		}
	}
	end := loc[1]
	for n := 0; end < ce && n < 6; end++ {
		if canon[end] == ' ' {
			n++
		}
	}
	return canon[start:end]
}

// nearMiss reports "almost" or "nearly" just before a match: "I nearly
// killed myself on the stairs" is an accident when the clause says so.
func nearMiss(prefix string) bool {
	p := strings.TrimRight(prefix, " ")
	return strings.HasSuffix(p, "almost") || strings.HasSuffix(p, "nearly") || strings.HasSuffix(p, "almost just") || strings.HasSuffix(p, "nearly just")
}

// pastItNow reports a text that says the person is past it now: in so
// many words (recoveryRe), or by telling of life now after a time gone by
// (movedOn). h are the prefilter hits of canon.
func (f *Floor) pastItNow(canon string, h hits) bool {
	return recoveryRe.matchHits(canon, h) || f.movedOn(canon, h)
}

// movedOn reports a message that tells of a time gone by and then of life
// now ("a year ago I tried to end my life. today I'm planning my garden"):
// a stretch that starts with "now", "today", "these days" or "since then",
// after a time gone by (thenRe, pastRe), that tells of a life going on
// (aliveNowRe), in which no rule reads any risk and nothing says the
// trouble goes on (suicide talk, distress, stillHurtingRe). The past
// matches of such a message are past and recovered (see scan).
func (f *Floor) movedOn(canon string, all hits) bool {
	if !strings.Contains(canon, "now") && !strings.Contains(canon, "today") && !strings.Contains(canon, "tonight") &&
		!strings.Contains(canon, "these days") && !strings.Contains(canon, "since then") && !strings.Contains(canon, "this ") &&
		!strings.Contains(canon, "later") {
		return false // none of nowRe's words ("nowadays" contains "now")
	}
	for _, loc := range nowRe.FindAllStringIndex(canon, -1) {
		before, after := canon[:loc[0]], strings.TrimPrefix(canon[loc[1]:], " ")
		if !thenRe.matchHits(before, all) && !pastRe.matchHits(before, all) {
			continue
		}
		if end := strings.Index(after, " but "); end >= 0 {
			after = after[:end]
		}
		if !aliveNowRe.MatchString(after) || stillHurtingRe.MatchString(after) || suicideTalkRe.re.MatchString(after) ||
			distressFamilies(after, all) > 0 || f.scan(after, false).best().level > LevelNone {
			continue
		}
		return true
	}
	return false
}

// pastFramedBeforeRe ends a prefix that makes what follows a past self:
// "eighteen months since I last", "so long since I", "the version of me
// that", "past me who", "the night I", "how I got through the time I".
var pastFramedBeforeRe = regexp.MustCompile(`(?:\b(?:(?:\w+ )?(?:months?|years?|decades?)|so long|a long time|ages|forever) since (?:i )?(?:(?:last|ever|really|truly) )?|\b(?:past|old|younger|former|teenage|teen) (?:me|self) (?:(?:that|who|when) )?(?:i )?|\b(?:version|part) of me (?:(?:that|who|which) )?|\bthe (?:time|times|night|nights|year|years|period|days|months|winter|summer) (?:(?:when|that) )?(?:i )?(?:last )?|\b(?:got|get|getting|came|come|made it|pulled|pull) through (?:(?:the|those|that|my) )?(?:(?:time|times|years?|period|months?|days|phase|nights?) )?(?:(?:when|where|that) )?(?:i )?)$`)

// pastFramedTense holds the past-tense words a past frame must have:
// "since I last wanted to die", not "since I want to die".
var pastFramedTense = map[string]bool{"wanted": true, "tried": true, "felt": true, "thought": true, "was": true,
	"were": true, "had": true, "took": true, "cut": true, "attempted": true, "wished": true, "planned": true,
	"hurt": true, "harmed": true, "overdosed": true, "nearly": true, "almost": true}

// hasPastTense reports a word of pastFramedTense in s.
func hasPastTense(s string) bool {
	for w := range strings.FieldsSeq(s) {
		if pastFramedTense[w] {
			return true
		}
	}
	return false
}

// pastFramedAfterRe dates the sentence before it to a time long gone:
// "I wanted to die too. That was five years ago."
var pastFramedAfterRe = regexp.MustCompile(`^(?:and |but )?(?:that|this|it|all that|all of that) (?:was|were|is) (?:\w+ ){0,3}(?:(?:years?|months?|decades?) ago|a long time ago|ages ago|then|(?:back )?in (?:19|20)\d\d|when i was (?:young|younger|little|a kid|a child|a teen|a teenager|in school|\d+))\b`)

// pastFramedAfterStarts are the first words pastFramedAfterRe can match,
// checked before it runs.
var pastFramedAfterStarts = []string{"that", "this", "it", "all", "and", "but"}

// pastComesBackRe says a past state is back or goes on: "since I last felt
// like this ... it's back", "still".
var pastComesBackRe = regexp.MustCompile(`\b(?:again|(?:its|is|are|theyre|it is|they are|coming|came|come|comes) back|back (?:again|now|to)|returned|returning|still|this (?:bad|badly|much|strongly)|like this|so (?:bad|badly|much))\b`)

// goodAgainRe is life come back, not the trouble: "happy again".
var goodAgainRe = regexp.MustCompile(`\b(?:happy|myself|normal|living|smiling|laughing|alive|well|better|whole|dating|working|running|singing|painting|writing|eating|sleeping|hopeful|me) $`)

// comesBack reports pastComesBackRe in s, but for an "again" that follows
// life come back ("happy again").
func comesBack(s string) bool {
	for _, m := range pastComesBackRe.FindAllStringIndex(s, -1) {
		if s[m[0]:m[1]] != "again" || !goodAgainRe.MatchString(s[:m[0]]) {
			return true
		}
	}
	return false
}

// pastFramed reports a match (loc, in its sentence ending at ce) that tells
// of a past self by its frame rather than by a date: the frame just before
// it with the match in the past tense ("eighteen months since I last
// wanted to die", "the version of me that wanted to disappear"), or the
// next sentence dating it ("... I wanted to die. That was five years
// ago."). Nothing after it may say the state is back or goes on.
func pastFramed(canon string, loc []int, ce int) bool {
	framed := false
	if hasPastTense(canon[loc[0]:loc[1]]) || hasPastTense(lastWords(canon[:loc[0]], 2)) {
		framed = pastFramedBeforeRe.MatchString(lastWords(canon[:loc[0]], 8) + " ")
	}
	if !framed && ce < len(canon) {
		if next, ok := strings.CutPrefix(canon[ce:], " . "); ok && followedBy(next, pastFramedAfterStarts) {
			framed = pastFramedAfterRe.MatchString(next)
		}
	}
	return framed && !comesBack(canon[loc[1]:])
}

// thenBefore reports a time gone by (thenRe) told before a match in its
// sentence, with no return to now (nowRe) between them: in "a year ago I
// tried and today I bought a rope" the rope is today's. h are the
// prefilter hits of a text containing prefix.
func thenBefore(prefix string, h hits) bool {
	if !thenRe.ok(h) {
		return false
	}
	then := thenRe.re.FindAllStringIndex(prefix, -1)
	if then == nil {
		return false
	}
	now := nowRe.FindAllStringIndex(prefix, -1)
	return now == nil || now[len(now)-1][0] < then[len(then)-1][0]
}

// pastOnly reports whether every risk match was read as past.
func pastOnly(res scanResult) bool {
	for _, m := range res.matches {
		if m.level >= 2 && !strings.Contains(m.note, "(past") {
			return false
		}
	}
	return true
}

// Cues the window reads in the current message.
var (
	// resolveRe is a decision said without its object: "I've made up my
	// mind", "it's time". After despair or ideation it is intent.
	resolveRe = newFilteredRe(regexp.MustCompile(canonPattern(`(?:^|\b)(?:(?:ive|i have|i|ive finally|i finally|i just|ive just) (?:made up my mind|decided|made my decision|made the decision|made peace with (?:it|this|that|my decision|everything))(?: \.|$| its| im| i| and| now| already| tonight)|my mind is made up|(?:its|it is) decided|i know what i (?:have|need|got) to do(?: now)?(?: \.|$)|(?:theres|there is) no (?:going|turning) back|no turning back|(?:its|it is) time(?: \.|$| now)|im ready(?: \.|$| now)|tonights the night|(?:im|i am) at peace with (?:it|this|my decision)|nothing (?:can|will) change my mind|(?:so )?im doing it(?: tonight| today| now| this time)?(?: \.|$)|(?:this|tonight) is (?:it|the night)(?: \.|$)|(?:im|i am) not (?:scared|afraid) anymore|(?:going to|will|ill|decided to) make (?:it|things|life) (?:easy|easier|better|simpler) for (?:them|everyone|everybody|my family|you all|all of you|you guys)|(?:going to|will|ill|decided to) (?:fix|change|solve|sort) (?:that|this|it)(?: for them)? (?:tonight|today|now|soon)|(?:ive|i have|ive got|i got) a plan(?: too| as well)?(?: \.|$))` + endBound)))
	// ownClaimRe owns, within one message, a question or a statement put
	// about someone else or people in general: "... because I do", "I'm
	// one of them", "asking cos I've been wanting it", "not hypothetically".
	ownClaimRe = newFilteredRe(regexp.MustCompile(`(?:^|\. |\b(?:because|cause|cuz|coz|cos|bc|asking because|asking cause|asking cos|asking bc)\b )(?:i do|i am|im|i think i do|i think i am|i do too|i am too|me too|same here|its me|thats me|that is me|it is me|like me|mine do|i want it)(?: \.|$| all the time| a lot| too| sometimes| honestly| every day| lately| right now| constantly| btw| tbh| actually| and| though| myself)|\b(?:im|i am|i guess im|i think im|i guess i am|i think i am|i might be) (?:one of them|one of those people|that (?:someone|person|kid|one))\b|\b(?:add|count) me (?:to|in)\b|\bnot hypothetically\b|\b(?:and|but|honestly|tbh) (?:honestly |tbh |lowkey |so )?(?:i do too|i am too|im the same|me too|so do i|so am i|same here)\b|\basking (?:because|cause|cos|bc) (?:i|ive|im) (?:do|am|have|want|think|feel|keep|been)\b`))
	// confessRe is a short reply that owns an earlier general question
	// ("is it normal to want to die?" ... "because I do").
	confessRe = newFilteredRe(regexp.MustCompile(`^(?:(?:because|cause|cuz|coz|bc|yeah|yes|yep|and|honestly|tbh|ok|okay|well|so|thing is|the thing is)(?: \.)? )?(?:i do|i am|im|me too|same|same here|thats me|its me|asking for myself|asking for me|i think i do|i feel that way|i have|ive been|i think about it|i think about that|i do too|i want to too|i feel like that)(?: \.|$| all the time| a lot| too| sometimes| honestly| every day| lately| right now| constantly| more than| every time| btw| tbh| actually)|^(?:yes|yeah|yep|yup)(?: \.)? (?:every (?:single )?day|all the time|a lot|constantly|always|daily|every night|more than (?:i|you) know)`))
	// farewellRe is a goodbye with finality (not a plain "bye").
	farewellRe = newFilteredRe(regexp.MustCompile(`\b(?:goodbye|farewell|(?:thank you|thanks) for everything|(?:wont|will not) need (?:to|you|this) anymore|take care of yourself|this is it|its been nice knowing you|love you all|remember me|(?:saying|said|say) (?:bye|goodbye) to (?:my|him|her|them|everyone))\b`))
	// heightHereRe is the writer at a height now ("I'm on the bridge").
	heightHereRe = newFilteredRe(mustCompilePattern(`(?:(?:^|im |i am |standing |sitting |sat |up |out )(?:\w+ ){0,2}(?:on|at|in|atop|on top of)|^(?:at |on )?(?:the )?top of|(?:drove|driven|driving|walked|walking|went|going|came|got|climbed|climbing|made it) (?:out |up |over )?(?:to|onto|up)) (?:the |a |my |this )?(?:top (?:floor )?of (?:the |a |my )?)?(?:\w+ ){0,2}{height}`))
	// heightSeekRe asks after a height: "what's the tallest building".
	heightSeekRe = newFilteredRe(mustCompilePattern(`(?:tallest|highest) (?:\w+ )?{height}|how (?:high|tall) is (?:the |that |this )?(?:\w+ )?{height}`))
	// escalationRe says self-harm or ideation is growing: "deeper every time".
	escalationRe = newFilteredRe(regexp.MustCompile(`\b(?:getting worse|(?:worse|deeper|harder|stronger|more often) (?:every|each) (?:time|day|night)|(?:deeper|worse|stronger) than (?:before|last time|ever)|more and more often)\b`))
	// tiredRe is a bare statement of exhaustion, despair when a farewell follows it.
	tiredRe = newFilteredRe(regexp.MustCompile(`\b(?:im|i am|so|just) (?:so |really |just )?tired(?: \.|$| of (?:everything|it all|this|trying|fighting))`))
	// heightNextRe is what follows being at a height: its drop, no fear,
	// a jump, no way back.
	heightNextRe = newFilteredRe(regexp.MustCompile(`\b(?:(?:its|it is|so) (?:so |really |very )?(?:high|far down|a long way down)|not (?:scared|afraid)(?: anymore| of (?:falling|it|the fall))?|jump|jumping|let go|one step|(?:not|never) (?:going|coming|go|come|climbing|getting|walking) (?:back|down|home)|(?:doesnt|does not|dont) look (?:that |so |very )?(?:far|high|bad)|(?:its|it is) time)\b`))
	// genericPersonRe is a question put in general terms ("do people...",
	// "is it normal to..."), which a later "because I do" makes one's own.
	genericPersonRe = newFilteredRe(regexp.MustCompile(`\b(?:you|your|yourself|people|someone|somebody|anyone|anybody|a person|others|normal|weird|common|is it (?:bad|ok|okay|wrong|healthy|strange))\b`))
	// sightseeingRe is a height visited for its view.
	sightseeingRe = newFilteredRe(regexp.MustCompile(`\b(?:view|views|tour|beautiful|amazing|gorgeous|stunning|pretty|sightseeing|photos?|pictures|selfie|sunset|sunrise|hike|hiking|lighthouse|observation)\b`))
)

// warned reports a warning sign (a warn.* rule at level 1 or more, or
// several together) in a scan.
func warned(s scanResult) bool {
	for _, m := range s.matches {
		if m.level >= 1 && (m.rule == nil || strings.HasPrefix(m.rule.id, "warn.") || m.level >= 2) {
			return true
		}
	}
	return false
}

// mustCompilePattern compiles a pattern with the rules' macros.
func mustCompilePattern(src string) *regexp.Regexp {
	re, err := compilePattern(src)
	if err != nil {
		panic("safety: " + err.Error())
	}
	return re
}

// retractRe takes back a clear answer to a safety question ("actually...",
// "I lied").
var retractRe = newFilteredRe(regexp.MustCompile(`\b(?:actually|i lied|i was lying|lied to you|not true|wasnt true|take (?:it|that) back|changed my mind|i do want|i still want)\b`))

// window reads the current message together with the recent history (in
// canonical form) so that risk spread over several messages is seen. It
// combines what earlier messages said (ideation, despair, a general
// question about dying, being at a height) with what the current one adds
// (timing, preparation, a decision, a confession, a farewell).
//
// answered says the person clearly answered a safety question since the
// earlier messages (Input.Answered): then the window adds risk only to a
// message with a signal of its own. command says the message is a command
// to Haven ("/help"), which does not carry an earlier disclosure on.
func (f *Floor) window(history []string, canon string, cur scanResult, answered, command bool) (match, bool) {
	var best match
	raise := func(level Level, conf float64, note string) {
		if level > best.level {
			best = match{level: level, conf: conf, note: note}
		}
	}
	anyIdeation, anyTalk, anyTiming, anyPrep := false, cur.suicideTalk, cur.timing, cur.prep
	despair, generalTalk, atHeight := false, false, false
	// disclosed: an earlier message of the person's own at level 2 or 3;
	// ownIdeation: one of them a disclosure of ideation (not a preparation
	// read alone); steppedBackSince: a later earlier message stepped back.
	// imminentHist: one of them at level 3 (intent, a plan, an attempt),
	// which only a plain step back (safe, help, a denial) answers.
	disclosed, ownIdeation, steppedBackSince, imminentHist := false, false, false, false
	distressAny, meansAsked, afterlife, prepHist, meansHist, relapsedHist := false, false, false, false, false, false
	// intentHist: an earlier intent or farewell the rules lowered for want
	// of context; with a preparation or a time now, each is the other's.
	intentHist := false
	clarified := false
	for i, h := range history {
		hs := f.scan(h, false)
		if i == len(history)-1 && f.finishes(h, hs, canon, cur) {
			clarified = true
			continue
		}
		hb := hs.best()
		hh := hs.hits
		if hh == nil {
			hh = findHits(h)
		}
		// A message the learned scorers read as a wish to die ("wish i
		// could go to sleep and not wake up", which no rule matched) is
		// ideation that a time, a decision, a means or a farewell now
		// completes; it does not keep the conversation at level 2 by itself
		// (the scorers read "kill me" said of a marathon the same way).
		if hb.level >= 2 || f.raisedAlone(h, hs) {
			anyIdeation = true
		}
		switch {
		case hb.level >= 2 && !hs.flags.ThirdParty:
			disclosed, steppedBackSince = true, false
			imminentHist = imminentHist || hb.level >= 3
			ownIdeation = ownIdeation || hs.disclosure()
		case disclosed && hb.level < 2 && steppedBack(h, hh, imminentHist):
			steppedBackSince = true
		}
		anyTalk = anyTalk || hs.suicideTalk
		anyTiming = anyTiming || hs.timing
		anyPrep = anyPrep || hs.prep
		despair = despair || warned(hs) || coreDistress.matchHits(h, hh) || tiredRe.matchHits(h, hh)
		distressAny = distressAny || distressFamilies(h, hh) > 0
		meansAsked = meansAsked || (questionStartRe.MatchString(h) && meansRe.matchHits(h, hh))
		afterlife = afterlife || afterlifeRe.MatchString(h)
		prepHist = prepHist || hs.loweredPrep || hs.prep
		intentHist = intentHist || hs.loweredIntent
		meansHist = meansHist || meansRe.matchHits(h, hh)
		relapsedHist = relapsedHist || relapsedRe.MatchString(h)
		generalTalk = generalTalk || (hs.suicideTalk && hb.level < 2 && genericPersonRe.matchHits(h, hh))
		atHeight = atHeight || ((heightHereRe.matchHits(h, hh) || heightSeekRe.matchHits(h, hh)) && !sightseeingRe.matchHits(h, hh))
	}
	ch := cur.hits
	if ch == nil {
		ch = findHits(canon)
	}
	cb := cur.best()
	resolve := resolveRe.matchHits(canon, ch)
	prepNow := cur.prep || cur.loweredPrep
	// A step back since the disclosure ("i'm safe, my partner is home")
	// answers like a clear answer to the safety question.
	answered = answered || steppedBackSince
	if answered && cb.level < 1 && !cur.suicideTalk && !resolve && !prepNow && !retractRe.matchHits(canon, ch) {
		// After a clear answer, a message with nothing of its own ("today
		// I made her soup and cried") is not read as the earlier words'
		// timing.
		return best, clarified
	}
	switch {
	case (anyIdeation || cb.level >= 2) && (cur.timing || cur.prep) && (anyTiming || anyPrep):
		raise(3, 0.75, "ideation earlier, timing or preparation now")
	case anyIdeation && (cur.timing || cur.prep):
		raise(3, 0.75, "ideation earlier, timing or preparation now")
	case cb.level == 1 && anyIdeation:
		raise(2, 0.7, "warning signs after ideation earlier")
	case cb.level == 1 && anyTalk && (anyPrep || anyTiming):
		raise(2, 0.65, "warning signs with preparation over several messages")
	}
	switch {
	case anyIdeation && resolve:
		raise(3, 0.75, "a decision after ideation earlier")
	case despair && prepNow:
		raise(3, 0.7, "preparation after despair earlier")
	case despair && resolve && cur.timing:
		raise(3, 0.7, "a decision with timing after despair earlier")
	case despair && resolve:
		raise(2, 0.7, "a decision after despair earlier")
	case despair && farewellRe.matchHits(canon, ch):
		raise(2, 0.65, "a farewell after despair earlier")
	case distressAny && prepNow:
		raise(2, 0.65, "preparation after distress earlier")
	case meansAsked && cur.timing && !cur.suicideTalk:
		raise(2, 0.65, "a time after a question about a means")
	}
	if meansAsked && (prepNow || resolve) {
		raise(3, 0.7, "a decision after asking about a means")
	}
	if meansHist && goalFragRe.MatchString(canon) {
		raise(3, 0.7, "a means earlier, the goal of dying now")
	}
	if relapsedHist && selfHarmWordRe.MatchString(canon) {
		raise(2, 0.65, "self-injury words after a relapse")
	}
	if afterlife && findOutRe.MatchString(canon) {
		raise(3, 0.7, "finding out about death soon, after asking about it")
	}
	if anyIdeation && seriousRe.MatchString(canon) {
		raise(2, 0.7, "insisting after ideation earlier")
	}
	if meansAsked && haveMeansRe.MatchString(canon) {
		raise(2, 0.65, "having the means after asking about it")
	}
	if cur.timing && cb.level < 2 && prepHist && meansHist {
		raise(3, 0.7, "preparation with a means earlier, a time now")
	}
	// A decision said as a reply, and a time said as a short one, read
	// once for the rules below.
	short := wordCount(canon) <= followUpWords
	replyResolve := followResolveRe.MatchString(canon)
	replyTime := short && followTimeRe.MatchString(canon)
	decidedNow := resolve || replyResolve
	timeNow := cur.timing || replyTime
	if (intentHist && (prepNow || timeNow || decidedNow || meansRe.matchHits(canon, ch))) || (prepHist && (cur.loweredIntent || decidedNow)) {
		raise(3, 0.7, "intent and preparation or a time, over several messages")
	}
	if (intentHist || prepHist || imminentHist) && doneNowRe.MatchString(canon) && !steppedBack(canon, ch, true) {
		raise(3, 0.7, "done, after intent or preparation earlier")
		best.attempt = best.level >= LevelImminent
	}
	// "took the lot" after pills were talked of: an overdose taken.
	if (meansHist || imminentHist) && tookAllRe.MatchString(canon) && !steppedBack(canon, ch, true) {
		raise(3, 0.7, "all of it taken, after a means earlier")
		best.attempt = best.level >= LevelImminent
	}
	// A short reply after ideation the rules read in the earlier
	// messages carries that disclosure on: a time ("sunday", "when the
	// clock hits midnight"), a decision ("decision made", "not changing my
	// mind"), a means at hand ("dad's gun is in the safe and i know the
	// code") or a farewell ("sorry everyone", "make sure someone feeds my
	// cat"). A reply that steps back (safe, help sought, a denial, a
	// retraction) is left to the rules above.
	if best.level < 3 && anyIdeation && cb.level < 2 && short &&
		(prepNow || !stepBackRe.matchHits(canon, ch)) && !retractRe.matchHits(canon, ch) && !absenceExcuseRe.matchHits(canon, ch) {
		replyFarewell := followFarewellRe.MatchString(canon)
		switch {
		case replyTime && habitualRe.MatchString(canon) && !replyResolve && !replyFarewell:
			// "every night when i'm alone": when the thoughts come, not
			// when it will be done.
			raise(2, 0.7, "when the thoughts come, after ideation earlier")
		case replyTime || replyResolve || replyFarewell:
			raise(3, 0.75, "a time, a decision or a farewell after ideation earlier")
		case meansRe.matchHits(canon, ch):
			raise(2, 0.7, "a means named after ideation earlier")
		}
	}
	if anyIdeation && escalationRe.matchHits(canon, ch) {
		raise(2, 0.7, "self-harm or ideation earlier, growing now")
	}
	if (generalTalk || anyIdeation) && confessRe.matchHits(canon, ch) {
		raise(2, 0.7, "owning an earlier question about dying")
	}
	if atHeight && !sightseeingRe.matchHits(canon, ch) && (heightNextRe.matchHits(canon, ch) || resolve) {
		raise(3, 0.75, "at a height, and what follows")
	}
	// The person's own ideation earlier in the window stays with the
	// conversation until they step back from it: "if ideation is present
	// or not denied, ask about plan, intent, means and timing" (SAFETY.md).
	// A message that carries on ("it hits hardest at 3am", "done.", "how
	// high does a fall have to be", "i lied") is read as the crisis going
	// on; one that steps back (safe, calmer, help sought, a denial, a
	// change of subject, thanks and goodnight) or whose own risk words the
	// rules set aside (a negation, a third party) is read on its own, and
	// so is every message after a step back.
	//
	// A message that steps back is never raised by the rules above either
	// (checked first, so that the step back is read once).
	if best.level >= 2 && cb.level < 2 && !prepNow && steppedBack(canon, ch, imminentHist) {
		return match{}, clarified
	}
	if best.level < 2 && ownIdeation && !steppedBackSince && !answered && !command && cb.level < 2 && len(cur.decided) == 0 && !steppedBack(canon, ch, imminentHist) &&
		!fictionRe.matchHits(canon, ch) && !continuesIdiom(history, canon) {
		raise(2, 0.6, "ideation earlier, not stepped back from")
	}
	return best, clarified
}

// finishes reports whether the current message, canon (scanned as cur),
// finishes last, the last earlier message (scanned as ls), so that the two
// no longer say what last said alone: "i won't be here tomorrow" then
// "night shift, then my cousin's wedding", "I want to die" then "of
// embarrassment". A conversation split over messages reads as it would in
// one: last, read alone at level 2 or more (the writer's own), is read
// joined with this one, and where the rules put the joined message below
// 2 by setting something aside (an idiom finished, an absence with its
// reason) the window does not carry last on. A message with risk of its
// own finishes nothing, and neither does a joined reading that only fails
// to match.
func (f *Floor) finishes(last string, ls scanResult, canon string, cur scanResult) bool {
	if canon == "" || cur.best().level >= LevelIdeation || cur.suicideTalk ||
		ls.best().level < LevelIdeation || ls.flags.ThirdParty {
		return false
	}
	js := f.scan(strings.TrimSuffix(last, " .")+" "+canon, false)
	return js.best().level < LevelIdeation && len(js.decided) > 0
}

// raisedAlone reports whether the learned scorers alone raise to level 2
// a message, canon, whose scan s the rules left below it. Without scorers
// it is false.
func (f *Floor) raisedAlone(canon string, s scanResult) bool {
	if f.scorer == nil && f.short == nil {
		return false
	}
	b := s.best()
	a := Assessment{Level: b.level, Confidence: b.conf, Flags: s.flags, Path: append([]string{"floor"}, s.path...)}
	v := f.modelView(a.Finish(), canon, s)
	if !v.MayRaise && !v.Short {
		return false
	}
	return v.Scored(f.scorer, f.short, f.th).Level >= LevelIdeation
}

// isCommand reports a message that is a command to Haven ("/help",
// "!memory").
func isCommand(text string) bool {
	t := strings.TrimSpace(text)
	return len(t) > 1 && (t[0] == '/' || t[0] == '!') && t[1] != ' '
}

// ordinaryBye reports a plain goodbye on the way to something ordinary.
func ordinaryBye(canon string) bool {
	return plainByeEndRe.MatchString(canon) && leavingRe.MatchString(canon) && !finalWordsRe.MatchString(canon)
}

// aboutOthers reports a match (span, after prefix in its clause) said of
// someone else: a report ("my friend said ...") or another subject.
func aboutOthers(prefix, span string, all hits) bool {
	// Words reported from someone else ("she said", "he posted") end
	// where the writer speaks again: "my mum said I'm a burden and I'm
	// going to end it all" is the writer's own.
	if reportRe.ok(all) {
		first, _, _ := strings.Cut(span, " ")
		if reportRe.re.MatchString(afterOwnSubject(prefix + " " + first)) {
			return true
		}
	}
	return (!hasFirstPerson(span) || attributedBefore(prefix)) && thirdPartySubject(prefix, span)
}

// termAskedBeforeRe and termAskedAfterRe frame a term whose meaning is
// asked: "what does kms mean", "he asked me what ctb stands for".
var (
	termAskedBeforeRe = regexp.MustCompile(`(?:\bwhat (?:does|do|did|would|is|could) |\b(?:asking|asked|ask|asks|wondering|wonder|wondered) (?:me |us |you )?what )(?:the (?:word|words|term|slang|acronym|abbreviation|phrase|emoji) )?$`)
	termAskedAfterRe  = regexp.MustCompile(`^ ?(?:even )?(?:mean|means|meant|stand for|stands for|stood for)\b`)
)

// termAsked reports a match asked about as a term, between before (its
// sentence up to it) and after (the rest of its sentence): "what does kms
// mean", "asking what ctb stands for". "What does it mean that I want to
// kill myself" asks about the writer, not a term.
func termAsked(before, after string) bool {
	return termAskedAfterRe.MatchString(after) && termAskedBeforeRe.MatchString(lastWords(before, 8)+" ")
}

// afterOwnSubject is prefix after its last first-person subject ("i",
// "im", "ive", "ill", "id"), or all of it without one. An "I" straight
// after a verb of saying is the other person's, quoted ("she keeps saying
// i want to die"), and is passed over.
func afterOwnSubject(prefix string) string {
	toks := strings.Fields(prefix)
	for k := len(toks) - 1; k >= 0; k-- {
		if startsWithSubject(toks[k]) && (k == 0 || !quotingVerb(toks[:k])) {
			return strings.Join(toks[k+1:], " ")
		}
	}
	return prefix
}

// quotingVerb reports whether toks end in a verb of saying, so that what
// follows is quoted: "said", "keeps saying", "told me", "wrote that".
func quotingVerb(toks []string) bool {
	n := len(toks)
	last := toks[n-1]
	switch last {
	case "me", "us", "him", "her", "them", "everyone", "that":
		if n > 1 {
			last = toks[n-2]
		}
	}
	switch last {
	case "said", "says", "saying", "say", "posted", "posts", "posting", "wrote", "writes", "writing", "texted", "texts", "texting",
		"messaged", "typed", "typing", "joking", "jokes", "joked", "confessed", "admitted", "told", "tells", "telling", "screamed", "yelled":
		return true
	}
	return false
}

// disclosure reports a match at level 2 or more by a rule that reads the
// person's own wish to die, thoughts of suicide, intent, self-injury, an
// attempt or a farewell, as against a preparation read without them
// ("i've made my plan", "giving away all my stuff"), which a next message
// often explains.
func (s scanResult) disclosure() bool {
	for _, m := range s.matches {
		if m.level < 2 || m.rule == nil {
			continue
		}
		if m.mod == "past" {
			// "i wanted to die after the breakup last fall": a disclosure of
			// then, not of now.
			continue
		}
		if !strings.HasPrefix(m.rule.id, "prep.") && !strings.HasPrefix(m.rule.id, "third.") && !strings.HasPrefix(m.rule.id, "warn.") {
			return true
		}
	}
	return false
}

// continuesIdiom reports a message that finishes the previous one as a
// figure of speech: "i want to die" then "of embarrassment".
func continuesIdiom(history []string, canon string) bool {
	if len(history) == 0 {
		return false
	}
	joined := history[len(history)-1] + " " + canon
	return idiomRe.MatchString(joined)
}

// steppedBack reports a message that steps back from a disclosure made
// earlier: safe or calmer now, help sought, the means handed over, a
// denial or a retraction of the words, a change of subject or a practical
// question about something else, or thanks and an ordinary goodbye. With
// plainOnly (after an intent, a plan or an attempt) a change of subject
// or a question does not count: "can you cancel tomorrow's check in"
// after an overdose is not moving on.
//
// A farewell, a decision or a preparation in the same message outweighs
// any of these ("told my sister i love her", "i'm calm now, it's decided").
func steppedBack(canon string, h hits, plainOnly bool) bool {
	back := (safeWordRe.MatchString(canon) && !notSafeWordRe.MatchString(canon)) ||
		stepBackRe.matchHits(canon, h) || calmerRe.matchHits(canon, h) ||
		disownRe.matchHits(canon, h) || helpSoughtRe.matchHits(canon, h) || meansAwayRe.matchHits(canon, h) ||
		recoveryRe.matchHits(canon, h) || denyRe.matchHits(canon, h) || helpedRe.matchHits(canon, h) ||
		(!plainOnly && (changeSubjectRe.matchHits(canon, h) || (plansWithRe.matchHits(canon, h) && !finalWordsRe.MatchString(canon)) ||
			(ordinaryAskRe.matchHits(canon, h) && !riskNearRe.MatchString(canon) && !suicideTalkRe.matchHits(canon, h) && !meansRe.matchHits(canon, h))))
	if !back {
		return false
	}
	return !farewellRe.matchHits(canon, h) && !resolveRe.matchHits(canon, h) && !followResolveRe.MatchString(canon) &&
		(!followFarewellRe.MatchString(canon) || ordinaryBye(canon)) && !calmPicturingRe.MatchString(canon)
}

// matchSentences reports a match of re in one of the sentences of canon
// (starting at clauses, with their prefilter hits sentHits; all are the
// hits of canon). Only the sentences whose own hits pass the prefilter are
// searched, which is much cheaper than searching the whole text; re must
// not span a sentence mark.
func matchSentences(re filteredRe, canon string, clauses []int, sentHits []hits, all hits) bool {
	if !re.ok(all) {
		return false
	}
	if len(clauses) == 1 {
		return re.re.MatchString(canon)
	}
	for ci, cs := range clauses {
		if !re.ok(sentHits[ci]) {
			continue
		}
		ce := len(canon)
		if ci+1 < len(clauses) {
			ce = clauses[ci+1] - 3
		}
		if re.re.MatchString(canon[cs:ce]) {
			return true
		}
	}
	return false
}

// clauseBounds returns the start offsets of the sentences of canon.
func clauseBounds(canon string) []int {
	b := []int{0}
	for i := 0; i+2 < len(canon); i++ {
		if canon[i] == ' ' && canon[i+1] == '.' && canon[i+2] == ' ' {
			b = append(b, i+3)
		}
	}
	return b
}

// clauseOf returns the sentence [start, end) containing offset off; a
// sentence also ends at "but" (what follows "but" often turns it around).
func clauseOf(canon string, bounds []int, off int) (int, int) {
	start, end := 0, len(canon)
	for _, b := range bounds {
		if b <= off {
			start = b
		} else {
			end = b - 3
			break
		}
	}
	if k := strings.LastIndex(canon[start:off], " but "); k >= 0 {
		start += k + 5
	}
	return start, end
}

// notAfraidRe ends a prefix that affirms what follows: "i'm not scared to
// do it", "no longer afraid of".
var notAfraidRe = regexp.MustCompile(`\b(?:not|never|no longer) (?:\w+ )?(?:scared|afraid|frightened|hesitant|waiting) (?:to|of) $`)

// Cues of a plan's shape (see planShape).
var (
	// planPlaceRe is a place or a means to die at or by.
	planPlaceRe = mustCompilePattern(`\b(?:{height}|lake|river|sea|ocean|canal|reservoir|woods|forest|tracks|railway|level crossing|railway crossing|the express|the train|trains|rope|pills|tablets|gun|the car|exhaust|garage)\b`)
	// finalityRe is no way back: "not coming back", "then i'm gone",
	// "so my kids aren't the ones who find me".
	finalityRe = newFilteredRe(regexp.MustCompile(`\b(?:not (?:coming|going|getting) back|not coming home|not (?:driving|walking|swimming|climbing) (?:back|out|home|down)|(?:then|and|after that) (?:im|i am|ill be) gone|gone for good|checking out for good|my exit|the (?:ones?|first|person) (?:who|to|that) finds? me|(?:whoever|nobody|no one|someone) (?:will |would |has to |needs to )?finds? me|never (?:coming|be|be coming) back|walk in and not walk out|i will join (?:him|her|them))\b`))
	// othersWayBackRe ends a prefix whose subject is someone or something
	// else: "the customer will never be coming back".
	othersWayBackRe = regexp.MustCompile(`\b(?:he|she|they|it|(?:the|a|an|this|that|his|her|their|our|your) \w+)(?: will| would| is| are| was| were| has| have)?(?: \w+)? $`)
	// finalityLaterRe takes the way back for later: "not coming back till
	// late".
	finalityLaterRe = regexp.MustCompile(`\b(?:back|home|out|down) (?:till|until|til|before|for|in time)\b`)
	// workedOutRe is a decision with its details: "worked it all out", "i
	// know where and when", "thats the plan".
	workedOutRe = newFilteredRe(regexp.MustCompile(`\b(?:worked it (?:all )?out|worked (?:it )?all out|worked out (?:where|when|how|(?:all )?the details|everything)|(?:got|have|ive got|i have) (?:a|the) (?:date|day|time|place|spot) (?:picked|chosen|set|sorted|planned|worked out)|(?:know|knew|decided|picked|chose|worked out) (?:exactly )?(?:where|when|how) and (?:how|when|where)|(?:decided|picked|chosen|chose|settled) on (?:the|a) (?:day|date|place|spot|tree|bridge|time|train|method)|its (?:all )?(?:decided|arranged|planned|settled)|(?:thats|that is) (?:the plan|my exit)|for real this time)\b`))
)

// planShape reports the shape of a plan in canon (h its prefilter hits):
// no way back, or a worked-out decision, together with a time (timing: the
// scan's timing cue), a place or a means, or each other.
func planShape(canon string, h hits, timing bool) bool {
	worked := workedOutRe.matchHits(canon, h)
	if !worked && !finalityRe.ok(h) {
		return false
	}
	final := false
	for _, loc := range finalityRe.re.FindAllStringIndex(canon, -1) {
		if !othersWayBackRe.MatchString(sentenceBefore(canon, loc[0])) {
			final = true
			break
		}
	}
	final = final && !finalityLaterRe.MatchString(canon)
	if !final && !worked {
		return false
	}
	when := timing || followTimeRe.MatchString(canon)
	where := planPlaceRe.MatchString(canon)
	return (final && (when || where || worked)) || (worked && (when || where))
}

// decidedShape reports a decision said without its object in a short
// message (canon, h its prefilter hits), with a time and a place or means
// to die or a time when no one will be there: "tonight. the lake. I've
// made up my mind", "sunday, when my roommate's at her parents, I'm doing
// it". The ellipsis is the signal: a plan for something ordinary names it.
func decidedShape(canon string, h hits, timing bool) bool {
	if wordCount(canon) > decidedShapeWords {
		return false
	}
	// The last decision ends the message, or nearly: "I'm doing it. deep
	// cleaning the whole house" names what is done.
	end := -1
	for _, re := range []filteredRe{resolveRe, thatsWhenRe} {
		if re.ok(h) {
			for _, loc := range re.re.FindAllStringIndex(canon, -1) {
				end = max(end, loc[1])
			}
		}
	}
	if end < 0 || wordCount(strings.Trim(canon[end:], " .")) > 3 {
		return false
	}
	if !(timing || followTimeRe.MatchString(canon)) || leisureRe.matchHits(canon, h) {
		return false
	}
	return planPlaceRe.MatchString(canon) || othersAwayRe.MatchString(canon)
}

// decidedShapeWords bounds the messages decidedShape reads.
const decidedShapeWords = 20

var (
	// thatsWhenRe names a time for something left unsaid: "that's when".
	thatsWhenRe = newFilteredRe(regexp.MustCompile(`(?:^|\. )(?:and )?(?:thats|that is|thatll be|that will be) (?:when|the (?:day|night|time|date))(?: \.|$)|\b(?:i have|ive got|ive|i got|got) everything (?:i need|ready|sorted)(?: \.|$)|\b(?:and )?(?:thats|that is) it(?: \.|$)`))
	// othersAwayRe is a time when no one will be there: "when my
	// roommate's at her parents", "after they leave", "when everyone's
	// asleep".
	othersAwayRe = regexp.MustCompile(`\b(?:when|while|after|once|whilst) (?:my \w+|everyone|everybody|they|he|she|the house|the kids|the family|mum|mom|dad|nobody|no one)(?: is| s| are| has| have| gets| get)? (?:\w+ )?(?:away|out|gone|asleep|at (?:her|his|their|work|school)|leaves?|left|goes|go|is gone|are gone|empty|not (?:home|around|here))\b`)
)

// meansOutside reports a means named in canon (h its prefilter hits)
// outside the spans: "i will take them tonight" names its pills inside
// the intent, "going to do it, ive got the tablets out" outside it.
func meansOutside(canon string, h hits, spans [][2]int) bool {
	if !meansRe.ok(h) {
		return false
	}
	for _, loc := range meansRe.re.FindAllStringIndex(canon, -1) {
		inside := false
		for _, sp := range spans {
			if loc[0] < sp[1] && loc[1] > sp[0] {
				inside = true
				break
			}
		}
		if !inside {
			return true
		}
	}
	return false
}

// ownDenialRe ends a prefix in which the writer denies what follows
// ("i'd never", "i dont have", "i wont"), as against a negation of
// something else ("a reason not to", "part of me doesn't want to").
var ownDenialRe = regexp.MustCompile(`(?:\b(?:i|id|ill|im|i would|i will|i am)(?: \w+)? |^)(?:never|wont|wouldnt|will not|would not|dont|do not|didnt|did not|havent|have not|not going to|not gonna)(?: \w+){0,2} $`)

// hedgeRe is a denial held loosely: "i probably won't", "maybe i won't".
var hedgeRe = regexp.MustCompile(`\b(?:probably|maybe|might|perhaps|think|hope|part of me|not sure|for now|yet)\b`)

// sentenceBefore is the part of canon's sentence before off: the text
// after the last sentence mark (" . ") before off, or from the start.
func sentenceBefore(canon string, off int) string {
	if i := strings.LastIndex(canon[:off], " . "); i >= 0 {
		return canon[i+3 : off]
	}
	return canon[:off]
}

// unnegated reports a match of re in canon that no denial of the
// writer's own just before it in its sentence takes back ("i'd never do
// it", "i dont have a plan"; not "a reason not to do it", "i probably
// won't do it").
func unnegated(re filteredRe, canon string) bool {
	for _, loc := range re.re.FindAllStringIndex(canon, -1) {
		prefix := sentenceBefore(canon, loc[0])
		if !negatedBefore(prefix) || notAfraidRe.MatchString(prefix) || !ownDenialRe.MatchString(prefix) || hedgeRe.MatchString(prefix) {
			return true
		}
	}
	return false
}

// hypothetical reports a prefix that makes what follows a supposition ("if
// i took 30 of my pills would i die"): the level stands, but nothing was
// taken, so it is no attempt. Not after a word of not knowing ("i dont
// know if i took too many").
func hypothetical(prefix string) bool {
	toks := strings.Fields(prefix)
	for k := len(toks) - 1; k >= 0 && k >= len(toks)-3; k-- {
		switch toks[k] {
		case "i", "just", "ever", "really", "somehow":
			continue
		case "if", "unless", "suppose", "supposing":
			return k == 0 || !unsureWords[toks[k-1]]
		}
		return false
	}
	return false
}

// unsureWords before "if" make it a question of fact, not a supposition.
var unsureWords = map[string]bool{"know": true, "sure": true, "remember": true, "wonder": true, "wondering": true,
	"idk": true, "unsure": true, "see": true, "check": true, "tell": true, "ask": true, "asking": true}

// clauseEnders are the objects after which "no more" ends a clause ("cant
// do this no more", "cant take it no more").
var clauseEnders = map[string]bool{"this": true, "it": true, "that": true, "on": true, "anything": true}

// negatedBefore reports a negator in the last three words before a match
// ("I would never kill myself", "not going to"). It stops at a subject or a
// conjunction (the negation belongs to another statement) and ignores
// negators that do not negate what follows ("not only", "dont know if",
// "not actively suicidal" still says passive ideation).
func negatedBefore(prefix string) bool {
	toks := strings.Fields(prefix)
	n := len(toks)
	for k := n - 1; k >= 0 && k >= n-3; k-- {
		t := toks[k]
		if stopWords[t] || (firstPers[t] && t != "me" && t != "my" && t != "myself") {
			return false
		}
		if negators[t] {
			if k+1 < n && negatorExceptions[toks[k+1]] {
				continue
			}
			if t == "no" && k+1 < n && toks[k+1] == "more" && k > 0 && clauseEnders[toks[k-1]] {
				// "cant do this no more want to die": "no more" after an
				// object ends the clause before, as "anymore" does ("no
				// more suicidal thoughts" is a negation).
				continue
			}
			return true
		}
		if t == "longer" && k > 0 && toks[k-1] == "no" {
			return true
		}
	}
	return false
}

var stopWords = map[string]bool{"and": true, "but": true, "so": true, "because": true, "that": true, "which": true, "who": true, "if": true, "or": true, "then": true}

var negatorExceptions = map[string]bool{"only": true, "sure": true, "know": true, "even": true, "care": true, "actively": true, "just": true, "really": false}

// startsWithSubject reports a match that begins with its own first-person
// subject, so that a negation before it belongs to an earlier statement.
func startsWithSubject(m string) bool {
	first, _, _ := strings.Cut(m, " ")
	switch first {
	case "i", "im", "ive", "ill", "id":
		return true
	}
	return false
}

// precededBy reports whether prefix ends with one of words.
func precededBy(prefix string, words []string) bool {
	last := lastWords(prefix, 1)
	for _, w := range words {
		if last == w {
			return true
		}
	}
	return false
}

// followedBy reports whether rest starts with one of words (an entry of
// several words matches them in order: "in time").
func followedBy(rest string, words []string) bool {
	rest = strings.TrimLeft(rest, " ")
	for _, w := range words {
		if strings.HasPrefix(rest, w) && (len(rest) == len(w) || rest[len(w)] == ' ') {
			return true
		}
	}
	return false
}

// coreDistress is the wording of wanting it all to stop (as opposed to
// sadness or stress): with another warning family it reads as a passive
// wish to be gone.
var coreDistress = newFilteredRe(regexp.MustCompile(`(?:^|\b)(?:cant (?:do|take|handle) (?:this|it|any of this) (?:anymore|any longer)|cant (?:keep going|go on)|cant anymore|im (?:so )?done(?: \.|$| with (?:everything|it all|life))|(?:so|just) done|want to be done|tired of (?:everything|it all|fighting|living|life|being alive|existing)|no point (?:in|of) (?:anything|any of this|life|living|trying|going on)|(?:whats|what is) (?:even )?the point)` + endBound))

// distressFams are groups of warning-sign wording; several different
// families in one message read as more than a passing bad mood.
var distressFams = []filteredRe{
	newFilteredRe(regexp.MustCompile(`(?:^|\b)(?:cant (?:do|take|handle) (?:this|it|any of this)(?: anymore| any longer)?|cant (?:keep going|go on|anymore)|im (?:so )?done(?: \.|$| with (?:everything|it all|life|this))|want to be done|so done|give up|giving up|gave up)` + endBound)),
	newFilteredRe(regexp.MustCompile(`\b(?:tired of (?:everything|it all|fighting|trying|being|living|life|this)|(?:so|really|just|very|extremely|tremendously) (?:tired|exhausted)|exhausted|worn out|drained|(?:life|everything|it) is (?:just )?(?:getting )?too much)\b`)),
	newFilteredRe(regexp.MustCompile(`\b(?:no point|pointless|whats the point|nothing matters|meaningless|no (?:\w+ )?future|no hope|hopeless|never get better|wont get better|lost everything|my life is over|its over for me|no options left|nothing left)\b`)),
	newFilteredRe(regexp.MustCompile(`\b(?:worthless|useless|a burden|burden to|failure|pathetic|waste of (?:space|air|life)|hate myself|hate (?:everything about |every (?:part|bit) of )?my life|disgusted (?:by|with) myself|piece of (?:shit|trash))\b`)),
	newFilteredRe(regexp.MustCompile(`\b(?:alone|lonely|no one cares|nobody cares|no one would (?:care|miss|notice)|no friends|no one to talk)\b`)),
	newFilteredRe(regexp.MustCompile(`\b(?:trapped|no way out|stuck|cant escape|need a way out|want out|escape)\b`)),
	newFilteredRe(regexp.MustCompile(`\b(?:numb|empty|feel nothing|dead inside|dont want to feel|want (?:the pain|it) to stop|so much pain|in so much pain|hurts so much)\b`)),
}

// distressFamilies counts the families with a match anywhere in canon.
func distressFamilies(canon string, h hits) int {
	n := 0
	for _, re := range distressFams {
		if re.matchHits(canon, h) {
			n++
		}
	}
	return n
}

// thirdHospitalRe is someone else in hospital after what the match says:
// "my mom is in the hospital after taking too many pills".
var thirdHospitalRe = regexp.MustCompile(`\b(?:my|our|his|her|their) (?:\w+ )?(?:mom|mum|mother|dad|father|parent|brother|sister|son|daughter|kid|child|friend|bestie|boyfriend|girlfriend|partner|husband|wife|cousin|uncle|aunt|niece|nephew|grandma|grandpa|nan|roommate|flatmate|classmate|coworker|colleague|neighbour|neighbor|student|client|patient)s? (?:is|was|has been|had been|ended up|went|got taken|got rushed|was rushed|was taken) (?:back )?(?:in|into|to) (?:the |a )?(?:hospital|icu|a e|er|emergency room|emergency|intensive care|psych ward|ward)(?: \w+){0,3} (?:after|for|because of|from) $`)

// thirdPartySubject reports whether the nearest subject before a match is
// someone other than the writer.
// thirdCopulaRe is a third-party subject, a few words about them, and a
// copula just before the match: "someone in my class is [suicidal]", "my
// friend from work has been [talking about ending it]".
var thirdCopulaRe = regexp.MustCompile(`\b(?:someone|somebody|a (?:friend|classmate|coworker|colleague|student|kid|boy|girl|guy)|(?:my|our) (?:friend|best friend|brother|sister|mom|mum|dad|son|daughter|partner|boyfriend|girlfriend|wife|husband|cousin|roommate|flatmate|student|classmate|coworker|colleague))(?: [a-z]+){0,4} (?:is|was|has been|has|had|seems|seemed|sounds|might be|may be|could be|feels|felt|keeps|kept) (?:really |so |very |quite |pretty |kind of |kinda |a bit |always |still |often )?$`)

// Sayings that share words with risk but mean something else:
//   - fear of dying in a panic ("I thought I was going to die"): fear, not
//     intent (but "I'm scared I'll kill myself" stays risk: it names the act);
//   - overdosing on something harmless ("overdosed on coffee");
//   - "I could sleep forever": tiredness.
var (
	fearBeforeRe     = regexp.MustCompile(`(?:thought|felt like|feel like|feels like|felt as if|scared|afraid|frightened|terrified|worried|panicked|panicking)(?: that)? (?:i (?:was|am|were|will|would)|im|ill|id)(?: \w+)? $`)
	soonAfterRe      = regexp.MustCompile(`^ ?(?:tonight|today|tomorrow|soon|this (?:week|weekend|evening)|now)\b`)
	dyingOnlyRe      = regexp.MustCompile(`\b(?:die|dying|death)\b`)
	drownFigureRe    = regexp.MustCompile(`^ ?(?:out\b|in (?:work|music|podcasts?|games?|video games|books?|homework|school|studying|study|tv|shows|netflix|youtube|reddit|distractions?|noise|sound|alcohol|booze|drinks?|drinking|wine|beer|tears|self pity|sorrow|sadness|debt|paperwork|projects?|tasks?|chores|coffee|caffeine|food|junk food|sugar|anime|fiction|novels|it all|everything|my (?:work|studies|job|music|books|games|hobbies|thoughts))\b)`)
	benignOverdoseRe = regexp.MustCompile(`^ ?(?:on )?(?:coffee|caffeine|sugar|chocolate|candy|sweets|netflix|anime|tv|memes|tiktok|love|work|carbs|pizza|cake|cookies|energy drinks?|red bull|tea|vitamin c|cuteness|nostalgia|drama)\b`)
	couldSleepRe     = regexp.MustCompile(`(?:^|\b)(?:i |we )?(?:just )?could (?:just )?$`)
	predictDieRe     = regexp.MustCompile(`^(?:im |i am |i |ill )?(?:literally )?(?:going to|gonna|will|ill|about to) (?:literally )?die$`)
	ifAfterRe        = regexp.MustCompile(`^ ?(?:if|unless|without) `)
	ifBeforeRe       = regexp.MustCompile(`(?:^|\b)(?:if|unless) `)
)

// lastWords returns the last n words of s.
func lastWords(s string, n int) string {
	s = strings.TrimRight(s, " ")
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == ' ' {
			n--
			if n == 0 {
				return s[i+1:]
			}
		}
	}
	return s
}

// sentStart returns the start of the sentence holding offset off.
func sentStart(bounds []int, off int) int {
	start := 0
	for _, b := range bounds {
		if b <= off {
			start = b
		}
	}
	return start
}

func benignSaying(prefix, match, after string) bool {
	switch {
	case fearBeforeRe.MatchString(prefix) && dyingOnlyRe.MatchString(match) && !strings.Contains(match, "kill") &&
		!soonAfterRe.MatchString(after) && !strings.Contains(match, "tonight"):
		return true
	case strings.Contains(match, "overdos") && benignOverdoseRe.MatchString(after):
		return true
	case strings.Contains(match, "drown") && strings.HasSuffix(match, "myself") && drownFigureRe.MatchString(after):
		// "I drown myself out with music", "drowning myself in work".
		return true
	case strings.HasPrefix(match, "sleep") && strings.Contains(match, "forever") && couldSleepRe.MatchString(prefix):
		return true
	case predictDieRe.MatchString(match) && (ifAfterRe.MatchString(after) || ifBeforeRe.MatchString(lastWords(prefix, 8))):
		// "I'm going to die if I don't get coffee": a prediction on a
		// condition, said of a craving or a chore.
		return true
	}
	return false
}

func thirdPartySubject(prefix string, span string) bool {
	if thirdCopulaRe.MatchString(prefix) || thirdHospitalRe.MatchString(prefix) {
		return true
	}
	toks := strings.Fields(prefix)
	for k := len(toks) - 1; k >= 0 && k >= len(toks)-6; k-- {
		t := toks[k]
		if t == "." && k < len(toks)-1 {
			// The subject of this sentence is not in the one before.
			return false
		}
		if kinNames[t] && (k == 0 || toks[k-1] == ".") {
			// "dad overdosed on his pain pills": a parent named as a
			// name, at the start of a sentence.
			return true
		}
		if (t == "my" || t == "our" || t == "the" || t == "another" || t == "this" || t == "that") &&
			(k+1 < len(toks) && personNoun(toks[k+1]) || k+2 < len(toks) && personAdjectives[toks[k+1]] && personNoun(toks[k+2])) {
			// "my mom took too many pills", "my little brother took too
			// many of his pills", "the student left a note": the subject
			// is someone else ("a teenager" is often the writer).
			return true
		}
		if t == "me" && k == len(toks)-1 && k > 0 && !firstPers[toks[k-1]] && toks[k-1] != "." && thingSentNext(span) {
			// "my best friend just texted me a goodbye message": the
			// writer as the indirect object of someone else's act, the
			// thing sent right after; the subject is further back.
			continue
		}
		if firstPers[t] {
			return false
		}
		if t == "people" && k >= len(toks)-2 {
			// "why do people self harm": people in general.
			return true
		}
		switch t {
		case "you", "youve", "youre", "your", "yourself", "youd", "youll":
			// The generic you ("to tell someone youve been feeling
			// suicidal") is often the writer.
			return false
		case "he", "she", "they", "hes", "shes", "theyre", "him", "her", "them", "his", "their",
			"someone", "somebody", "someones", "somebodys":
			return true
		}
	}
	return false
}

// personNouns name people (and pets) a person speaks about; "my" before
// one makes that person the subject.
var personNouns = map[string]bool{}

// kinNames are the words people use as a relative's name ("mum took
// too many", "grandpa fell").
var kinNames = map[string]bool{"mum": true, "mom": true, "mummy": true, "mommy": true, "mama": true, "dad": true,
	"daddy": true, "papa": true, "nan": true, "nana": true, "nanna": true, "granny": true, "grandma": true, "grandpa": true,
	"gran": true, "grandad": true, "granddad": true}

// personAdjectives may stand between "my" and a person: "my little brother".
var personAdjectives = map[string]bool{"little": true, "big": true, "older": true, "younger": true, "elder": true,
	"oldest": true, "youngest": true, "baby": true, "best": true, "twin": true, "step": true, "teenage": true,
	"adult": true, "new": true, "old": true, "former": true, "late": true, "closest": true, "dear": true}

func init() {
	for _, w := range strings.Fields(`mom mum mother dad father parent parents brother sister sibling siblings son daughter
		kid kids child children friend friends bestie bf gf boyfriend girlfriend partner husband wife fiance fiancee
		roommate flatmate cousin uncle aunt auntie niece nephew grandma grandpa grandmother grandfather nan nana granny
		grandparents coworker colleague classmate student students client patient neighbour neighbor boss teacher ex
		stepdad stepmom stepmother stepfather baby toddler teen teenager dog cat`) {
		personNouns[w] = true
	}
}

// endItRe ends a match that ends "it" or "things": "thinking about ending
// it", "I want to end things".
var endItRe = regexp.MustCompile(`\b(?:end|ending|ended|ends|finish|finishing) (?:it|things|this)$`)

// withSomeoneRe is a person, or a tie to one, right after: "with my
// girlfriend", "with him", "with the gym".
var withSomeoneRe = regexp.MustCompile(`^ with (?:(?:him|her|them)(?: \.|$| tonight| today| tomorrow| for| because| and| but| cos| bc| soon| already| finally| now| properly| once)|my (?:\w+ )?(?:boyfriend|girlfriend|bf|gf|partner|husband|wife|fiance|fiancee|ex|man|girl|guy|situationship|job|boss|friend|bestie|therapist|gym|landlord|band|team|club|course|degree|phone contract|lease)|(?:the|this|that|our) (?:job|course|degree|relationship|gym|band|team|club|subscription|contract|lease|situationship))\b`)

// endsItWithSomeone reports a match that ends "it" with someone ("ending it
// with my girlfriend"): a relationship or a tie ended, not a life.
func endsItWithSomeone(span, after string) bool {
	return strings.HasPrefix(after, " with ") && endItRe.MatchString(span) && withSomeoneRe.MatchString(after)
}

// personNoun reports a person noun, also in the possessive ("dads").
func personNoun(t string) bool {
	return personNouns[t] || (strings.HasSuffix(t, "s") && personNouns[t[:len(t)-1]])
}

// thingSentNext reports a match that starts with a determiner: the thing
// someone sent or gave ("texted me a goodbye message").
func thingSentNext(span string) bool {
	first, _, _ := strings.Cut(span, " ")
	switch first {
	case "a", "an", "the", "his", "her", "their":
		return first != span
	}
	return false
}

// hasFirstPerson reports a first-person word in a match: a match that
// names the writer ("my parents would be better off if I was never born")
// is about the writer whoever the sentence's subject is.
func hasFirstPerson(m string) bool {
	for _, t := range strings.Fields(m) {
		if firstPers[t] {
			return true
		}
	}
	return false
}

// isMethodRule reports the rules that read a question about a method or
// its lethality, which a study frame turns into a question about the topic.
func isMethodRule(id string) bool {
	return strings.HasPrefix(id, "ideation.method") || strings.HasPrefix(id, "method.") || strings.HasPrefix(id, "concept.means_") ||
		id == "concept.od_question" || id == "concept.cut_question" || id == "more.method_amount" || id == "more.method_height"
}

// attributedBefore reports a verb of belief or speech just before a match:
// in "they must think I'm suicidal" the words are someone else's reading.
func attributedBefore(prefix string) bool {
	toks := strings.Fields(prefix)
	if len(toks) == 0 {
		return false
	}
	switch toks[len(toks)-1] {
	case "think", "thinks", "thought", "assume", "assumes", "assumed", "believe", "believes", "say", "says", "said", "call", "calls", "called", "suspect", "suspects":
		return true
	}
	return false
}

// causativeBefore reports "makes me" or "made me" just before a match:
// "mondays make me want to die lol" is hyperbole about mondays.
func causativeBefore(prefix string) bool {
	p := strings.TrimRight(prefix, " ")
	return strings.HasSuffix(p, "makes me") || strings.HasSuffix(p, "make me") || strings.HasSuffix(p, "made me")
}

// thingSubject reports "it" as the subject of a match that is a bare
// predicate ("it's going to die", "it will die"): a phone or a plant, not
// the writer.
func thingSubject(prefix, m string) bool {
	first, _, _ := strings.Cut(m, " ")
	switch first {
	case "going", "gonna", "about", "die", "dying", "dead", "died", "will":
	default:
		return false
	}
	toks := strings.Fields(prefix)
	n := len(toks)
	if n == 0 {
		return false
	}
	switch toks[n-1] {
	case "it", "its", "itll":
		return true
	case "will", "would", "might", "could", "is", "was", "may":
		return n >= 2 && toks[n-2] == "it"
	}
	return false
}

func hasLaugh(clause string) bool {
	toks := strings.Fields(clause)
	for i, t := range toks {
		if (t == "joking" || t == "kidding") && i > 0 && negators[toks[i-1]] || (i > 1 && toks[i-1] == "even" && negators[toks[i-2]]) {
			// "not joking", "I'm not even kidding": the writer insists
			// they mean it, the opposite of a joke.
			continue
		}
		if laughToks[t] {
			return true
		}
		if len(t) >= 4 && (strings.HasPrefix(t, "haha") || strings.HasPrefix(t, "lmao") || strings.HasPrefix(t, "lol")) {
			return true
		}
	}
	return false
}

func appendOnce(p []string, s string) []string {
	for _, x := range p {
		if x == s {
			return p
		}
	}
	return append(p, s)
}

// ruleNote is the text-free reason for a rule's level.
func ruleNote(r *rule) string {
	fam, _, _ := strings.Cut(r.id, ".")
	switch fam {
	case "intent":
		return "intent or plan, first person"
	case "prep":
		return "preparation"
	case "attempt":
		return "attempt"
	case "goodbye":
		return "goodbye or finality"
	case "ideation":
		return "wish to be dead or suicidal thoughts, first person"
	case "selfharm":
		return "self-injury"
	case "warn":
		return "warning signs without ideation"
	}
	return r.id
}

// topicQuestionRe is a sentence that asks about a topic ("is self-harm more
// common in ...", "why do people ...").
var topicQuestionRe = regexp.MustCompile(`^(?:is|are|was|were|why|how|what|whats|does|do|did|which|when|who)\b`)

// topicQuestion reports a question about a topic, with no first-person word
// up to the match: with a research frame it is study, not disclosure.
func topicQuestion(s string) bool {
	s = strings.TrimPrefix(s, leadRe.FindString(s))
	return topicQuestionRe.MatchString(s) && !hasFirstPerson(s)
}

// signsFrameRe asks how to tell that someone else is suicidal: "what are
// the warning signs a teenager is suicidal", "how can I tell if my son is
// feeling suicidal".
var signsFrameRe = regexp.MustCompile(`\b(?:(?:warning )?signs?|red flags|how (?:do|can|would|could|should) (?:i|you|we|one|parents|teachers) (?:tell|know|spot|notice|recognise|recognize)|how to (?:tell|know|spot|notice|recognise|recognize)) (?:that |if |whether |when )?(?:(?:a|an|my|your|our|the|someone|somebody|people|kids|teens|teenagers|students|children|men|women|[a-z]+s) (?:[a-z]+ ){0,2})(?:is|are|might be|may be|could be|s|feels|feel|is feeling|are feeling|might feel|becomes|become) (?:\w+ )?suicidal\b`)

// leadRe is what may come before a question about a topic: an adverb
// ("clinically, what is ...") or the study it is for ("for my psych class:
// what is ...").
var leadRe = regexp.MustCompile(`^(?:(?:clinically|medically|technically|legally|statistically|genuinely|honestly|quick question|serious question|ok|okay|so|hi|hey|hello) )+|^for (?:a|my|our|the) (?:[a-z]+ ){0,3}(?:project|class|essay|paper|assignment|homework|report|presentation|thesis|dissertation|lecture|exam|course|coursework|module|article|briefing|training) `)

// mentionFrameRe names a word of risk as a word, in a question about what
// the bot or a service does when it is said: "do you call the police if I
// mention suicide?", "what happens if a user types self-harm". A statement
// in it ("if I said I want to die") is not a mention.
var mentionFrameRe = newFilteredRe(regexp.MustCompile(`\bif (?:i|someone|somebody|a user|a person|anyone|people|a kid|a child|a student|a client|a patient) (?:ever |just )?(?:mention|mentions|mentioned|say|says|said|type|types|typed|use|uses|bring up|brings up|talk about|talks about|write|writes|wrote|tell you about|tells you about) (?:the word |the words |words like |a word like |something like |anything about |stuff about |things like |the topic of )?(?:suicide|suicidal thoughts|suicidal|self harm|selfharm|sh|kms|ctb|unalive|cutting|overdosing|an overdose)\b|\bwhat happens (?:if|when) (?:i|someone|a user|you) (?:\w+ )?(?:mention|type|say|use) (?:the word |words like )?(?:suicide|suicidal|self harm|kms|ctb|unalive)\b`))

// definitionRe asks what a word means or how two things differ.
var definitionRe = regexp.MustCompile(`^(?:what(?: s| is|s)|whats) the (?:\w+ )?(?:difference|distinction) between\b|^how (?:is|are|do|does) (?:\w+ ){1,5}(?:defined|coded|classified|diagnosed|distinguished)\b|^what (?:is|does) (?:the )?(?:definition|clinical definition) of\b`)

// topicNounRe is self-harm or suicidal thinking named as a subject: after
// a word that makes it one (about, risk of, linking ... to, a client
// discloses, a character's, a list that says).
var topicNounRe = regexp.MustCompile(`\b(?:about|on|of|regarding|linking (?:\w+ ){1,4}to|to|between|discloses?|disclosing|disclosed|mentions?|mentioning|handle|handling|managing|manage|assessing|assess|screening for|screen for|rates? of|risk of|history of|signs of|says|said|characters|patients|clients|students|peoples|someones|their|his|her) (?:passive |active |chronic )?(?:(?:and|or|vs|versus) (?:passive |active )?)?(?:self harm\w*|self injur\w*|suicidal (?:ideation|thoughts?|behaviou?rs?|feelings)|suicidality)\b`)

// topicAnchorRe names the work or study a subject belongs to: a patient,
// a client, a character, data, an exam, a side effect, an app.
var topicAnchorRe = regexp.MustCompile(`\b(?:patients?|clients?|characters?|students?|pupils|young people|teens|teenagers|adolescents|users|data|research\w*|study|studies|sources|essay|exam|osce|lecture|module|side effects?|leaflet|logs?|apps?|professionals?|nurses?|colleagues?|trust|safeguarding|training|course|novel|book|story|script|screenplay|literature|statistics|stats|evidence|journal)\b`)

// ownNounRe owns self-harm or suicidal thinking: "my", "I have", "I'm
// having", "I keep", "help me stop", telling a therapist about it.
var ownNounRe = regexp.MustCompile(`\b(?:my|mine|myself|ive had|ive been|im having|im struggling|im feeling|i still|help me stop|i (?:\w+ )?(?:have|get|keep|struggle|deal|suffer|want|need|feel)|(?:talk|talking|tell|telling|told|mention|mentioning|bring up|bringing up|admit|admitting|open up|opening up) (?:to )?(?:a |the |new |this )?(?:therapist|counsel+or|doctor|gp|psychiatrist|psychologist|nurse|parents?|mum|mom|dad|partner))\b`)

// topicNoun reports self-harm or suicidal thinking named as a subject of
// work or study in sentence, a sentence of canon: a word that makes it a
// subject (topicNounRe) in the sentence, the work or study named in the
// message (topicAnchorRe), and no word owning it (ownNounRe).
func topicNoun(sentence, canon string) bool {
	return topicNounRe.MatchString(sentence) && topicAnchorRe.MatchString(canon) && !ownNounRe.MatchString(canon)
}

// forMeRe says a question is asked for the writer, not for a project.
var forMeRe = regexp.MustCompile(`\b(?:for me|for myself|asking for me|asking for myself|about me|not for (?:a|an|my|the|research|school|class|uni))\b`)

// questionStartRe is a message that opens as a question ("does it hurt to
// drown", "how high is the bridge").
var questionStartRe = regexp.MustCompile(`^(?:how|does|do|would|will|is|are|can|could|what|whats|which|should)\b`)

// Window cues of the seventh chat batch.
var (
	// afterlifeRe asks about what comes after death.
	afterlifeRe = regexp.MustCompile(`\b(?:hell|heaven|afterlife|after death|after (?:we|you) die|anything after|life after)\b`)
	// findOutRe is finding that out soon oneself.
	findOutRe = regexp.MustCompile(`\b(?:ill|i will|i might|i may|going to|im going to|about to) (?:\w+ )?find out (?:soon|tonight|tomorrow|for myself|myself)\b`)
	// seriousRe insists a statement is meant.
	seriousRe = regexp.MustCompile(`^(?:(?:its a |this is a |a )?serious question|im (?:being )?serious|(?:im )?not joking|(?:im )?not kidding|for real|seriously)(?: \.|$| though| tho)`)
	// haveMeansRe says one has a means at hand.
	haveMeansRe = regexp.MustCompile(`^(?:i have|ive|i got|ive got|got|we have) (?:a |the |my |some |enough )?(?:\w+ )?(?:garage|car|rope|gun|pills|tablets|bridge|balcony|roof|bleach|charcoal|helium)(?: \.|$| here| at home| right here)`)
)

// Window cues of the eighth chat batch.
var (
	// goalFragRe is the goal of dying said on its own ("enough to not wake up").
	goalFragRe = regexp.MustCompile(`\b(?:enough to (?:not wake up|never wake up|die|kill me|end it|do it|overdose|od)|so (?:that )?i (?:dont|wont|never) wake up|to (?:end it|die|not wake up)(?: \.|$))`)
	// relapsedRe is a bare relapse of one's own.
	relapsedRe = regexp.MustCompile(`^i (?:just |have |ve )?relapsed(?: \.|$| again| last night| today| tonight)`)
	// selfHarmWordRe names cuts, burns or a blade.
	selfHarmWordRe = regexp.MustCompile(`\b(?:cuts|cut|wounds|burns|blade|razor|bleeding|scars)\b`)
)

// Step-back cues for the window (see steppedBack).
var (
	// calmerRe says the moment has passed: calmer, better, the urge gone,
	// or the words taken back as a joke or a figure of speech.
	calmerRe = newFilteredRe(regexp.MustCompile(`\b(?:calm|calmer|calmed|calming|steadier|better|easing|eased|quieter|quieted|passed|lighter|settled|relaxed|normal again|more normal|(?:it|its|urges?|waves?|thoughts?|feelings?|moment|panics?|attack|anxiety|spiral)(?: \w+){0,2} (?:is |are |has |have )?(?:gone|over|passed|down|lower|weaker|quieter)|(?:im|i am|feel|feeling|doing) (?:\w+ )?(?:ok|okay|fine|alright|good|safe)|less bad|not as bad|(?:im|i am) breathing|(?:less|not as|not so) (?:bad|heavy|scary|intense|insane|awful|loud|strong|dark)|more (?:stable|level|grounded|normal|myself|like myself|clear|clearly)|(?:feel|feeling|felt|im|i am) (?:\w+ ){0,2}(?:softer|grounded|stable|steady|level|clearer|lighter|human again)|(?:faded|fading|easing|eased|went away|gone away|wore off|wearing off|died down|calmed down|settled down)|(?:urge|urges|thoughts?|feeling|panic|it)(?: \w+){0,3} (?:lower|down|weaker|quieter|smaller|less)\b|(?:just|only|was) (?:joking|kidding|venting|spiraling|spiralling|being dramatic)|jk|figure of speech|(?:was|im|i was) exaggerat\w+|didnt mean (?:it|that)|(?:not|never) (?:gonna|going to|planning|planning to|intending|intend to|want to) (?:do|act|hurt|end|kill)|no (?:intention|intent|plan) (?:of|to)|i (?:wont|will not|would never|never would))\b`))
	// calmPicturingRe is calm or relief that comes from picturing the end
	// ("it's calm when i picture it"): a warning sign, not a step back.
	calmPicturingRe = regexp.MustCompile(`\b(?:calm|calmer|peace|peaceful|relief|relieved|lighter|better)\b(?: \w+){0,2} (?:when|whenever|once|if) i (?:picture|imagine|think (?:about|of)|plan|visuali[sz]e)\b|\b(?:picturing|imagining|thinking (?:about|of)|planning) (?:it|that|dying|death|the end|how)\b(?: \w+){0,4} (?:calm|calmer|peace|peaceful|relief|lighter|better)\b`)
	// safeWordRe / notSafeWordRe: "safe" said of oneself, and its negation.
	safeWordRe    = regexp.MustCompile(`\bsafer?\b`)
	notSafeWordRe = regexp.MustCompile(`\b(?:not|dont|do not|never|isnt|wasnt|no longer|hardly|nowhere)(?: \w+){0,2} safer?\b|\bsafe (?:place|way|dose|amount|code|combination|box|deposit)\b|\b(?:the|a|gun|his|her|dads|moms|mums|in) safe\b`)
	// disownRe takes the earlier words back: not going to act, not
	// suicidal, did not mean it.
	disownRe = newFilteredRe(regexp.MustCompile(`\bnot (?:\w+ )?(?:going to|gonna)(?: (?:do|act|hurt|kill|end|try|go through|jump|take|use)\b| \.| i promise| promise| ever| lol| lmao|$)|\b(?:im|i am) not (?:suicidal|in (?:crisis|danger)|at risk|going anywhere)\b|\b(?:dont|do not|didnt|did not) (?:really )?(?:mean|want) (?:it|that|to do (?:it|that|anything))\b|came out wrong|\bi (?:wont|will not)(?: \.|$| i promise| promise| do (?:it|anything|that)| act| hurt| ever)|\b(?:would|will) never (?:do|act|hurt)\b|\bno (?:intention|intent|plans?) (?:of|to)\b|\bnot (?:gonna|going to)(?: \w+)? (?:im|i am|i|its|it is|just)\b|\b(?:no|dont have|do not have|havent got|have not got) (?:a )?plan\b|\bnot (?:starting|doing) (?:it |that )?again\b|\bim not doing it\b|^(?:no|nah|nope)(?: \.)? (?:no |not (?:right )?now|not really|not at all|i dont|i wont|i wouldnt|never)|\b(?:didnt|did not) (?:do|act on) (?:it|anything)\b|\b(?:not|dont|do not|no longer|arent|am not) (?:feel|feeling|felt|think|thinking) (?:\w+ )?(?:that way|like that|suicidal|like dying)\b`))
	// helpSoughtRe is help reached since: someone told or called and on
	// the way, a clinic or crisis service been to.
	helpSoughtRe = newFilteredRe(regexp.MustCompile(`\b(?:went|go|going|gone|been|drove|driven|walked) (?:to|into) (?:the |a |an |my )?(?:\w+ )?(?:urgent care|a e|er|emergency|walk in|crisis|hospital|doctor|doctors|gp|clinic|therapist|counsel\w*|psych\w*|wellbeing|student services|health centre|health center)\b|\b(?:emailed|messaged|texted|called|rang|phoned|told|reached out to|contacted|woke up|woke) (?:my|the|a|our) (?:\w+ ){0,3}(?:\.|(?:and|hes|shes|theyre|they|he|she|we)\b)|\b(?:im|i am|were|staying|sitting|sat) (?:here )?with (?:my|her|him|them|a friend|friends|family|people|someone)\b|\b(?:hes|shes|theyre|he|she|they|mum|mom|dad|my \w+|friend|bf|gf|boyfriend|girlfriend|partner|sister|brother|wife|husband|roommate|flatmate) (?:just )?(?:came|come|is coming|are coming|got|is|are) (?:over|round|around|home|here)\b|\b(?:answered|picked up|stayed|staying) (?:on the phone|with me|over)\b|\b(?:at|in) (?:the )?(?:er|a e|hospital|emergency room|urgent care|clinic|crisis cent(?:er|re))\b|\b(?:looking after|taking care of|keeping an eye on) me\b|\b(?:hes|shes|theyre|they are|he is|she is|theyll be|hell be|shell be) (?:coming|on (?:his|her|their) way|here now|with me)\b|\b(?:set me up|referred me|referral|crisis (?:worker|team|center|centre)|psych liaison|safety plan|kids help|samaritans|lifeline|988)\b`))
	// meansAwayRe is a means handed over, locked up or got rid of.
	meansAwayRe = newFilteredRe(regexp.MustCompile(`\b(?:locked|lock) (?:away|up|them|it)\b|\b(?:got rid of|threw out|threw away|thrown away|binned|flushed|disposed of)\b|\b(?:drop ?box|pharmacy|chemist|police station)\b|\b(?:keeps|keeping|has|holds|holding) (?:them|it|the \w+|my \w+)(?: now| for me| a while| for a while| safe)\b|\b(?:are|is|its|theyre) (?:locked|at (?:my |his |her )?\w+s(?: house| place)? now)\b|\b(?:took|taken|gave|given|handed) (?:them|it|the (?:pills|meds|tablets|gun|rifle|knife|knives|blades?|razors?|rope|keys|scissors)) (?:away|to (?:my|a|the|her|his))\b`))
	// plainByeEndRe, leavingRe and finalWordsRe make an ordinary goodbye:
	// a message that ends in a plain "bye", with thanks or somewhere to be
	// ("thank you. gonna watch a movie with my mom, bye") and nothing
	// final in it.
	plainByeEndRe = regexp.MustCompile(`\b(?:bye+|bye bye|cya|nite|night|good ?night)(?: \.)?$`)
	leavingRe     = regexp.MustCompile(`\b(?:thanks|thank you|thank u|thx|ty|gonna|going to|got to|gotta|off to|heading|have to|need to|must)\b`)
	finalWordsRe  = regexp.MustCompile(`\b(?:forever|for good|everyone|everybody|sorry|last|other side|love you|remember|goodbye)\b`)
	// ordinaryAskRe opens a practical question ("how do i fix my bike
	// chain", "whats a quick breakfast", "can you explain photosynthesis"),
	// which moves on when nothing in it is near the earlier words
	// (riskNearRe, suicideTalkRe, meansRe).
	ordinaryAskRe = newFilteredRe(regexp.MustCompile(`^(?:(?:ok|okay|so|anyway|hey|lol|btw|also|um|hmm|right|wait|oh)(?: \.)? )*(?:how (?:do|can|should|long|often|does)|what (?:is|are|do|does|should|time|kind|would you|can)|whats|which|where (?:can|do|is|should)|when (?:is|does|do)|can (?:you|u)|could (?:you|u)|should i|is it|any (?:good|tips|ideas|recs)|recommend|give me|tell me|help me)\b`))
	// riskNearRe are words a sideways question about dying or a farewell
	// uses ("who gets your stuff", "the fastest trains", "a letter to your
	// kids", "how high").
	riskNearRe = regexp.MustCompile(`\b(?:will|wills|testament|insurance|letter|letters|note|notes|goodbye|funeral|grave|heaven|hell|afterlife|soul|forever|gone|without me|after i|miss me|find me|body|stuff|belongings|passwords?|account|accounts|feed|look after|take care of|rehome|hurt|hurts|pain|painless|quick way|quickest|fastest|faster|fall|high|tall|tallest|deep|cold|night|alone|lethal|dose|how many|how much|sure|certain|enough|last|never|end|ending|stop|sleep|wake|found|hide|scars?|cuts|marks|bruises|burns|blood|bleeding|\d{1,2} ?am|be there)\b`)
	// habitualRe says a time is a habit ("every night", "most mornings",
	// "always after dinner"), not one time to come.
	habitualRe = regexp.MustCompile(`\b(?:(?:every|each|most|some|all|many) (?:single )?(?:night|nights|day|days|morning|mornings|evening|evenings|weekend|weekends|time|week)|(?:at|during the|in the) (?:night|nights|mornings?|evenings?)|always|usually|often|sometimes|whenever|mostly|normally|constantly|worst (?:at|on|in|when)|hits (?:hardest|worst)|comes? (?:back|around|and goes))\b`)
	// tookAllRe is taking the whole of something ("took the lot",
	// "swallowed them all"), an overdose when a means came before.
	tookAllRe = regexp.MustCompile(`\b(?:took|taken|swallowed|downed|necked|had) (?:the lot|the whole lot|them all|all of them|every one|every last one|everything i (?:had|saved|was saving)|the whole (?:bottle|box|pack|packet|strip))(?: \.|$| now| already| just now| tonight| last night| earlier| an hour ago| sorry| with| and)`)
	// doneNowRe is a bare report that it is done: "done.", "did it",
	// "it's done now", "all gone now".
	doneNowRe = regexp.MustCompile(`^(?:(?:ok|okay|well|so|and|its|it is|all|ive|i|just) ){0,3}(?:done|did it|finished|gone|taken)(?: \.|$| now| already| it| them| all)`)
	// plansWithRe is plans with other people now: "we're going bowling
	// w my cousins", "off to the beach with friends", "brb".
	plansWithRe = newFilteredRe(regexp.MustCompile(`\b(?:(?:going|gonna|off|heading|were|we are|im|i am)(?: \w+){0,4} (?:with|w) (?:my|the|some|a|our|friends|family|people|everyone)\b|brb|gtg|gotta go|(?:my|a) friend (?:just )?(?:invited|asked|texted|called) me)`))
	// unsafeWordsRe says the person is not safe or is alone, whatever
	// else the message denies.
	unsafeWordsRe = regexp.MustCompile(`\b(?:not safe|unsafe|dont feel safe|do not feel safe|alone|by myself|on my own|nobody|no one|noone|scared|afraid|cant|cannot|can not)\b`)
	// helpedRe says something helped: "the breathing helped", "talking
	// here helped a lot".
	helpedRe = newFilteredRe(regexp.MustCompile(`\b(?:helped|helps|helping)(?: \.|$| a lot| a bit| loads| so much| me| tho| though| heaps)`))
	// changeSubjectRe turns the conversation to something else.
	changeSubjectRe = newFilteredRe(regexp.MustCompile(`^(?:hi|hello|hey|hiya|heya|yo|good (?:morning|afternoon|evening))\b|\bhow are you\b|\b(?:anyway|anyways|any way|something else|(?:change|changing) (?:of |the )?(?:subject|topic)|(?:other|different|new) (?:topic|subject)|moving on|move on|never ?mind|nvm|forget (?:it|that|i said|what i said)|instead|distract me|tell me (?:a|an|about|something)|fun fact|(?:lets|let us|can we|could we|wanna|want to|rather|like to|just) talk about|talk about something|whatever \. \w+|(?:thank you|thanks|thank u|thx|ty)(?: so much| for (?:listening|the|talking|being|your|helping|help))?|good ?night|nite|night night|sleep well|(?:see you|see ya|cya|talk) (?:tomorrow|later|soon|in the morning))\b`))
)

// followUpWords bounds the replies the window reads as carrying an earlier
// disclosure on (see window): a reply of a few words.
const followUpWords = 12

// bareReplyWords: a message of fewer words that follows earlier ones is a
// bare reply, which the learned scorers do not read (see assessRules).
const bareReplyWords = 4

package safety

import "strings"

// normalizerWords are the words the normalizer may repair a token into
// besides commonWords (see lexicon.go): the words of the rule patterns as
// they stood when the learned scorer was first trained on Normalize's
// output. The list is frozen on purpose: rules change often, and a repair
// vocabulary that followed them would shift the learned model's input
// (a stretched or censored token repaired into a newly added rule word).
// Extending it changes Normalize, and the model must then be retrained.
var normalizerWords = strings.Fields(`
able about abused abuses accident acetaminophen across act active actively actually addicted afraid
after afternoon again ago aint alcohol alive all almost already also always ammo and angry annoyed
another answer anti antidepressants antifreeze any anybody anymore anyone anything anyway anyways
anywhere appealing appear are arms around arteries artery article aside asked asking asleep aspirin
assaulted attack attempt attempted attempting attempts attic aunt away babies baby back backed bad
badly bag balcony balls bang banging barrier basement battle beat beaten beating beats became
because becoming bed bedside been before beg begging being belong belongings belt benadryl best
better beyond birthday black blade blades bleach bleed bleeding blessing blow body book born bottle
bottles bought box boxes boyfriend brachial brain brains breath breathe breathing bridge broke
broken brother building bullet bullets bunch burden burn burned burning burns burnt bus but buy
buying bye cabinet call calling came can cancer cannot cant caps capsule capsules car care carotid
carry cat cats cause cease character charcoal cheap check chickened child children choice choked
chokes chose chosen christmas chugged chugging classmate clean client cliff close closet clothes
cold colleague collected collecting coma come comforting commit completely concerned consider
considered considering constant constantly consume contemplated contemplating continue continuing
cope cord could couldnt couldve counted courage cousin coward cowardly coworker crash crave craving
creep crept crisis crossing cruel cupboard curtain cut cuts cutting cyanide dad daily damn dark date
daughter day daydream daydreaming days dead death debating decade decided decision deep defeated
definitely depart depressants depressed deserve deserving desire desk desperately despise determined
did didnt die died diphenhydramine disappear disappeared does doesnt dog dogs doing donate done dont
dose doubt down downed downing drafted drafting drank drawer dreaming drift drink drinking driv
drive drop drown drowning drugs duty dying each earlier earth easier easiest easy eating edge
effective else embrace empty end ended ending ends enjoying enough entire entry episodes escape
essay eternal even evening eventually ever every everybody everyday everyone everything except
exhaust exhausted exist existed existence existing exit experiencing extremely eyes fade failed
failure fake fall falls family fantasi far farewell fastest fatal father feel feeling feelings feels
feet felt fentanyl few fiance fiancee fiction fight fighting figured figuring final finale finally
find finding finds fine finished first five fixated fking fkn flag flatmate floors fluid follow for
forever formerly forward found four free fresh friday friend friends frightened from front fuck
fucked fuckin fucking full fur future game games garage gas gassing gave genuinely get gets getting
gift girlfriend give given giving glad god goes going gone gonna good goodbye googl google googled
googling got gotten grab grabbed grams grandfather grandma grandmother grandpa grieve guilt gun guts
guys had hadnt haha hahaha hand handful handgun handle hands hang hanging happened happier hard harm
harmed harming has hate have having head hear heart heartbeat hehe helium help helpless her here
heres heroin herself hes hid hidden high him himself hips his history hit hits hitting hoard hoarded
hoarding hold holding home honestly hope hopeless hoping hours house how hung hurling hurt hurting
hurts husband ibuprofen ideas ideation idk ill imagine imagining infected ing ingested injecting
injure injured injuring injury inside insulin intend intense intent into intrusive inviting isn isnt
itching its itself ive job joking jump jumped jumping just justified keep keeping keeps kept key kid
kidding kids kill killed killing kills kind kinda knife know lake last lately later lay least leave
leaves leaving ledge left legs less let lethal letter letters lie life lifespan light lighter like
likely line lined literally lithium live living lmao lmfao logical lol long longer longing look
looked looking looks loose lord lorry lose losing lost lot love loved low lowkey lyrics made make
making many matter matters may maybe meaningless means meant medication meds member mentioned mercy
message messaged messages meters method methods metres might mildly mind minute minutes miserable
miss missing mixing molested mom monday money month months mood morbid more morning morphine most
mother motivation movie much multiple mum murder murdering must mutilate mutilating myself nah name
naproxen near nearing nearly neck need needs neither nephew nerve never new next niece night
nightstand nobody none noone noose nope nor not note notes nothing nothingness notice novel now
nowhere numb obligation oblivion obsessing ocean off often okay olanzapine once oncoming one only
open option ordered other others our out over overdos overdose overdosed overdosing overpass own
owned oxy oxycodone pack packet packets pain painful painkillers painless painlessly paper
paracetamol parent parents partner passed passive passively past pathetic patient peace peaceful
peacefully people permanent permanently person pets picked picture picturing pill pills pistol place
plague plagued plan planet planned planning plans please plenty pls pocket point pointless poison
poisoning pole popped popping possessions post posted pray praying prefer prepared pretty previous
previously price probably promise pull pulled pumped punch punching purchased purpose put quetiapine
quick quickest quickly quiet quietest quit quite quits railing rails railway raise raised raising
raped rapes rat rather ravine razor razors reached reaching read reading reads ready real realise
realize really reason reasonable reasons recent recently recovered recovery recurring reddit relapse
relapsed relapsing release reliable relief remaining repair research researched researching resent
rest return returned rifle right river road rofl romantici roof rooftop room roommate rope ruined
run sad safe said saturday saved saving saying says scared scars scary scratch scratched scratching
sea sealed search second secretly see seeing seem seemed seems sees selected self seriously
sertraline set several severe sharpener she shells shes shitty shoot shooting shotgun should
shouldnt shouldve siblings sick side signing silent simpler simply since sing single sister sitting
skin skull sleep sleeping slice slit slitting slumber sober solution some somebody someday someone
something sometimes son song soon sorry sort sorted sounds spending spot stab stabbing stand
standing start started starving stash stashed stay staying steer step stick sticking still stockpil
stockpiled stockpiling stomach stop stopped stopping stops storeys stories story strangle strangled
strangles strangling streak strength strong struggle struggling student students stuff stupid
succeeded such suffering suffocate suffocating suicid suicidal suicide sunday sunrise super supply
support supposed sure surest survive survived surviving swallow swallowed swallowing swap sweet
swerv table tablet tablets tak take taken taking talk talked talking talks ted teen teenager tempted
tempting tendencies terrified tether texted than that thats the their them themself themselves then
there theres these they theyre thighs thing things think thinking third this those thought thoughts
threatened threatening threatens three threw throat through throw throwing thursday tidying tie tied
till time ting tired today told tomorrow tonight too took total totally touched touches tower tracks
trade traffic trafficked train trapped trazodone tree trick tried trigger truck truly try trying
tuesday turn twice two tying tylenol unable uncle under universe unless until unworthiness unworthy
upset urge urges use used utterly vanish veins venlafaxine very viable void wait waiting wake waking
walk wall wanna want wanted wanting wants wardrobe was washer wasnt wave waving way ways weak
wednesday week weekend weeks welcome went were werent what whats when whenever where which while
white who whole whos why wife will window windshield wiper wish wished wishing with without woke
wonder wont words work worked working works world worried worth worthless worthy would wouldnt
wounds wrapped wrapping wrist wrists write writing written wrote xanax yea yeah year yearn years yep
yes yesterday yet you youll younger your
`)

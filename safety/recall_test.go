package safety

import "testing"

// Tests for the recall work: normalizer and pattern-compiler fixes, and the
// phrasing families added after studying which kinds of wording the floor
// missed. Every phrase here is written for the test.

func TestPatternEndingInSentenceMarkMatches(t *testing.T) {
	re, err := compilePattern(`(?:im|i am) done(?: \.|$)`)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"im done . im tired", "ok im done", "im done"} {
		if !re.MatchString(s) {
			t.Errorf("pattern ending in a sentence mark does not match %q", s)
		}
	}
	for _, s := range []string{"im doneness", "im done with lunch"} {
		if re.MatchString(s) {
			t.Errorf("pattern matches %q", s)
		}
	}
}

// checkNormalized checks Normalize against a table of inputs and the
// canonical text each must give.
func checkNormalized(t *testing.T, cases map[string]string) {
	t.Helper()
	for in, want := range cases {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNormalizeKeepsSelfHarmWithItsOwner(t *testing.T) {
	cases := map[string]string{
		"my self-harm":         "my self harm",
		"My self harming":      "my self harming",
		"I hate my self":       "i hate myself",
		"end my self tonight":  "kill myself tonight",
		"my self esteem is ok": "my self esteem is ok",
	}
	checkNormalized(t, cases)
}

func TestNormalizeKeepsObligationHaveTo(t *testing.T) {
	cases := map[string]string{
		"I have to go":      "i have to go",
		"I have a dog":      "ive a dog",
		"I've to admit":     "ive to admit",
		"I HAVE TO die":     "i have to die",
		"i have tons to do": "ive tons to do",
	}
	checkNormalized(t, cases)
	f := NewFloor()
	for _, s := range []string{"I feel like I have to die", "I don't want to die but I feel like I have to"} {
		if a := f.Assess(Input{Text: s}); a.Level < 2 {
			t.Errorf("%q: level %d (path %v), want >= 2", s, a.Level, a.Path)
		}
	}
	if a := f.Assess(Input{Text: "I have to finish this report by Friday"}); a.Level != 0 {
		t.Errorf("obligation about work: level %d (path %v), want 0", a.Level, a.Path)
	}
}

// TestRecallFamilies covers each phrasing family added for recall, with
// synthetic wording in several forms, and the ordinary sentences that share
// its words and must stay below crisis.
func TestRecallFamilies(t *testing.T) {
	checkLevels(t, map[string][]levelCase{
		"asking for a method or lethality": {
			{"what's the best way to end things without pain", 2, 3},
			{"how many of my pills would it take", 2, 3},
			{"what is the least painful way to die", 2, 3},
			{"what's the best way to end things with my girlfriend", 0, 1},
			{"how many pills do I take for a headache", 0, 1},
			{"the easiest way to die in a video game", 0, 1},
		},
		"self-injury told plainly, and recovery": {
			{"I self harmed last night", 2, 3},
			{"I self harm when I'm stressed", 2, 3},
			{"I used to self harm but I've been clean for 2 years", 0, 1},
			{"self harm awareness week is coming", 0, 1},
		},
		"wishing to disappear, and dying of shame": {
			{"sometimes I wish I could just disappear", 1, 1},
			{"honestly I want to die of shame lol", 0, 1},
			{"I want to die lol", 2, 3},
		},
		"pointlessness as a warning sign": {
			{"life is pointless", 1, 1},
			{"what's the point of anything anymore", 1, 1},
			{"this meeting is pointless", 0, 0},
		},
		"one-line chat disclosures": {
			{"I don't want to wake up tomorrow", 2, 3},
			{"I keep thinking everyone would be happier if I was dead", 2, 3},
			{"I can't see myself being alive next year", 2, 3},
			{"there's no way out except death", 2, 3},
			{"I've been googling ways to die", 2, 3},
			{"I'm thinking of driving my car into a tree", 2, 3},
			{"I hate being alive", 2, 3},
			{"I don't think I'll be around much longer", 2, 3},
			{"I've been hurting myself to cope", 2, 3},
			{"if I died tomorrow I wouldn't mind", 2, 3},
			{"I bought pills today and I'm going to take them all", 3, 3},
			{"I've been planning how I would do it", 1, 3},
			{"I've decided tonight is the night", 1, 3},
			{"I have a rope in my closet", 1, 3},
			{"I can't go on anymore. I have a rope in my closet", 3, 3},
			{"I keep my bike in the garage", 0, 0},
			{"I've got my pills in my bag", 0, 1},
			{"I have all my pills counted out in front of me", 3, 3},
			{"I don't want to wake up early tomorrow", 0, 0},
			{"I hate being alone on weekends", 0, 1},
			{"I hate waking up early", 0, 0},
			{"I can't see myself living in London long term", 0, 0},
			{"I've been googling ways to deal with anxiety", 0, 0},
			{"I was thinking of driving to the lake this weekend", 0, 0},
			{"I keep hurting myself at the gym", 0, 1},
			{"I don't think I'll be around much longer at this company", 0, 0},
			{"I don't think I'll last long in this job", 0, 0},
		},
		"questions about someone else and conditional threats": {
			{"what are the signs someone is suicidal", 0, 0},
			{"I think someone in my class is suicidal", 0, 0},
			{"my friend is worried because I am suicidal", 2, 3},
			{"my friend from work has been suicidal", 0, 0},
			{"my friend has noticed I've been suicidal", 2, 3},
			{"I'm going to kill my brother if he eats my leftovers again", 0, 0},
			{"it took courage to tell someone that you've been feeling suicidal, and I'm suicidal now", 2, 3},
		},
		"sayings that share words with risk": {
			{"I had a panic attack and thought I was going to die", 0, 1},
			{"my anxiety makes me feel like I'm dying", 0, 1},
			{"I overdosed on coffee today haha", 0, 1},
			{"I could sleep forever", 0, 1},
			{"if I have to sit through one more meeting I'll kill myself lol", 1, 1},
			{"if she leaves me I'll kill myself", 2, 3},
			{"I want to stop feeling so anxious", 0, 0},
			{"I think I am going to die tonight", 2, 3},
			{"I'm scared I'm going to kill myself", 2, 3},
			{"I overdosed on my pills last night", 3, 3},
			{"I want to sleep forever and never wake up", 2, 3},
		},
		"jumping": {
			{"I want to jump off a bridge", 2, 3},
			{"I'm going to jump tonight", 1, 3},
			{"I'm done with everything. I'm going to jump tonight", 3, 3},
			{"I want to jump on the trampoline tonight", 0, 1},
			{"I want to hang out with friends tonight", 0, 0},
		},
		"means put aside and taking them all": {
			{"I have pills saved and I will take them tonight", 3, 3},
			{"I've been saving up my pills", 3, 3},
			{"i have a stash of sleeping pills saved up", 3, 3},
			{"I feel so done with everything. I'm going to take them all", 3, 3},
			{"I want to take all my pills", 2, 3},
			{"I need to take my meds tonight", 0, 1},
			{"I should take my medication before bed", 0, 1},
			{"I saved the pills for my trip", 0, 1},
			{"my doctor gave me pills and I will take them tonight", 0, 1},
		},
		"never born or not here": {
			{"my parents would be better off if I was never born", 2, 3},
			{"everyone would be happier had I never existed", 2, 3},
			{"honestly I wish I wasn't here", 2, 3},
			{"I wish I hadn't been born", 2, 3},
			{"I wish I wasn't here right now, this party is so boring", 0, 1},
		},
		"life would stop": {
			{"I just wish my life would end", 2, 3},
			{"sometimes I pray my heart would stop", 2, 3},
			{"I want this to stop", 1, 1},
			{"I want it all to go dark and quiet", 1, 1},
			{"I wish this rain would stop", 0, 0},
		},
		"give my life away": {
			{"I wish I could give my life to someone who actually wants it", 2, 3},
			{"I'd trade my remaining years to somebody with cancer", 2, 3},
			{"I would give my life for my kids", 0, 1},
		},
		"hoping it is the last": {
			{"I hope tonight is my last", 2, 3},
			{"praying today will be my last day on earth", 2, 3},
			{"I hope today is my last day at this awful job", 0, 1},
		},
		"not deserving life": {
			{"I don't deserve to live", 2, 3},
			{"I'm undeserving of life", 2, 3},
			{"I don't deserve to be happy", 0, 1},
		},
		"if it were up to me": {
			{"if it was up to me I wouldn't wake up", 2, 3},
			{"if it were my choice, I wouldn't be here", 2, 3},
		},
		"people who would miss me": {
			{"I hate that I have people who would miss me", 2, 3},
			{"nobody will even notice I'm gone", 2, 3},
			{"my friends would miss me if I moved away", 0, 1},
		},
		"no reason to stick around": {
			{"there's no reason for me to stick around anymore", 2, 3},
			{"I have no reason to wake up", 2, 3},
			{"I have two reasons left to stay alive", 2, 3},
			{"only one reason to keep living and it's my dog", 2, 3},
			{"there's no reason to stay at this job", 0, 1},
			{"there is no reason to continue the project", 0, 1},
		},
		"living only for others": {
			{"I'm only alive because of my kids", 2, 3},
			{"I'm only living out of obligation", 2, 3},
			{"I'm only here for the free food", 0, 1},
			{"honestly I'm only staying for my cat", 2, 3},
			{"I'm only here so that I don't hurt my parents", 2, 3},
			{"if it weren't for my kids I'd already be gone", 2, 3},
			{"if I didn't have my dog, I would be dead", 2, 3},
			{"I'm only staying for the weekend", 0, 1},
			{"if I didn't have my dog I would be so lonely", 0, 1},
		},
		"waiting to die": {
			{"I'm just waiting to die at this point", 2, 3},
			{"we're all waiting for the bus to come", 0, 0},
		},
		"method described as inviting": {
			{"the rope in the garage looks so tempting", 2, 3},
			{"the bridge keeps calling me", 2, 3},
			{"that bottle of pills looks comforting", 2, 3},
			{"that cake looks so tempting", 0, 0},
			{"the beach is calling me", 0, 0},
		},
		"SI shorthand": {
			{"I've been dealing with SI again", 2, 3},
			{"I was inpatient for SI with a plan", 3, 3},
			{"what is the SI unit of force", 0, 0},
			{"sí, claro que sí", 0, 0},
		},
		"purpose to kill oneself": {
			{"I'm pushing everyone away so I can finally end my life", 3, 3},
		},
		"preparation": {
			{"I've been tying up loose ends before I kill myself", 3, 3},
			{"I want to die and I've got everything ready", 3, 3},
			{"my goodbye letter is written, I don't want to live anymore", 3, 3},
			{"wrote a few goodbye notes to my family", 3, 3},
			{"I finished my suicide plan", 3, 3},
			{"suicide plan is set for sunday", 3, 3},
			{"suicide plans in the news again", 0, 1},
			{"I just bought a rope, I'm so done with living", 3, 3},
			{"I have enough pills in the cabinet that I could overdose", 3, 3},
			{"tying up loose ends at work before my vacation", 0, 1},
			{"I've got everything ready for the party", 0, 0},
			{"I bought a new rifle for deer season", 0, 0},
			{"my exit plan from this job is ready", 0, 0},
			{"I feel so depressed and I'm tying up loose ends before I move", 0, 1},
		},
		"method with intent": {
			{"gonna lay my head down on the tracks soon", 3, 3},
			{"I'm going to walk into the sea tonight", 3, 3},
		},
		"aborted or interrupted attempt": {
			{"I almost killed myself last week", 3, 3},
			{"came so close to jumping off the bridge yesterday", 3, 3},
			{"I tried to die yesterday", 3, 3},
			{"took some pills to try and OD", 3, 3},
			{"my next attempt will be different", 3, 3},
			{"I'm taking as many pills as I can", 3, 3},
			{"I almost killed myself falling down the stairs lol", 0, 1},
			{"I nearly killed myself on my bike this morning", 0, 1},
			{"I tried to end it with my boyfriend but he cried", 0, 1},
			{"trying to drown my sorrows in ice cream", 0, 0},
			{"I take all the meds I was prescribed", 0, 0},
		},
		"warning signs": {
			{"I'm at the end of my rope", 1, 1},
			{"I just feel like raising the white flag", 1, 1},
			{"I don't belong anywhere", 1, 1},
			{"I just want to be at peace", 1, 1},
			{"honestly not sure how much longer I can keep this up", 1, 1},
			{"how much longer can I take this", 1, 1},
			{"not sure how much longer I can keep this pace up at work lol", 0, 0},
			{"my phone is at the end of its battery", 0, 0},
		},
		"goodbye to the world": {
			{"goodbye cruel world", 3, 3},
			{"bye fucked up world", 3, 3},
		},
		"finality said the chat way": {
			{"logging off for good tonight", 3, 3},
			{"logging off this server for good", 0, 0},
			{"signing off for good from twitter", 0, 1},
			{"goodnight forever", 3, 3},
			{"done with that job for good", 0, 0},
			{"this is the last time anyone hears from me", 3, 3},
			{"said my goodbyes to my old flat today", 0, 0},
		},
		"a date to end it": {
			{"I have decided to end it on Sunday", 3, 3},
			{"that's when i'll end it", 3, 3},
			{"i'm going to end it with him on friday", 0, 1},
			{"ending it.", 2, 3},
			{"ending it with her tonight, we just fight", 0, 1},
			{"the show is ending it on friday with a two hour special", 0, 1},
		},
		"a car in a closed garage": {
			{"sitting in the car in the garage with the engine running", 3, 3},
			{"cars running in the garage with the door shut", 3, 3},
			{"keep thinking about the car exhaust in the garage, how long would it take", 2, 3},
			{"started the car in the garage to warm it up, door wide open", 0, 0},
			{"sitting in my car in the garage waiting for the rain to stop", 0, 0},
			{"the carbon monoxide alarm went off in the garage, what could it be", 0, 1},
		},
		"an overdose told in a few words": {
			{"done it. pills. the lot.", 3, 3},
			{"swallowed all my sleepers", 3, 3},
			{"took all of dads leftover oxy", 3, 3},
			{"swallowed the pills ive been saving", 3, 3},
			{"took the bottle to the recycling", 0, 0},
			{"took all of my vitamins this morning like the doctor said", 0, 0},
		},
		"hurting oneself until it marks": {
			{"punched the wall till my knuckles split", 2, 3},
			{"keep digging my nails in until it bleeds when im stressed", 2, 3},
			{"held my hand on the hot pan to feel something", 2, 3},
			{"i bite my nails until they bleed when im nervous", 0, 1},
			{"scratched my mosquito bites till they bled", 0, 1},
		},
		"last words in chat": {
			{"wont be online tomorrow. or ever. gg everyone", 3, 3},
			{"goodbye. i mean it this time. dont bother replying", 3, 3},
			{"This is the last time I'll talk to you. Look after yourself.", 3, 3},
			{"it's been a long 27 years. signing off", 3, 3},
			{"pretty sure this is the last winter i'll see", 3, 3},
			{"this is the last christmas ill spend in this house, we move in january", 0, 0},
			{"ok bye for real this time", 0, 0},
		},
		"better off without me, and making that happen": {
			{"my family would get the life insurance and be better off without me. i think about making that happen", 2, 3},
			{"everyone would be better off if we moved, i want to make that happen this year", 0, 0},
		},
		"slips, slang and wishes for an accident": {
			{"wnt 2 die", 2, 3},
			{"i dont wanna be alove anymroe", 2, 3},
			{"thinking about topping myself a fair bit", 2, 3},
			{"gonna top myself up with coffee before the shift", 0, 0},
			{"If a bus took me out on the way to the depot tomorrow I don't think I'd be sorry about it.", 2, 3},
			{"hope a truck flattens me on the way home. genuinely", 2, 3},
			{"every night i ask the universe to just take me already", 2, 3},
			{"ending things sounds more reasonable every night", 2, 3},
			{"if a bus hit me id be so annoyed, i have a date tonight", 0, 0},
			{"I so badly wish we could all gain this mindset", 0, 0},
		},
		"wishes, slang and last words, more of them": {
			{"wanna go to sleep and nvr wake up", 2, 3},
			{"standing in the queue wishing i could just stop being alive", 2, 3},
			{"my mind keeps offering my own death as the solution to every problem", 2, 3},
			{"sh'd again. don't lecture me", 2, 3},
			{"this is it for me. thanks for trying", 3, 3},
			{"i keep planning out ways to end it in my head during class", 2, 3},
			{"this is it for me, im quitting the band after this tour", 0, 1},
			{"planning out ways to end the meeting early", 0, 0},
			{"i wish i could stop living paycheck to paycheck", 0, 1},
		},
		"ordinary lives in the same words": {
			{"i'd rather die than sit through another of dave's powerpoints", 0, 1},
			{"id rather die than go to another office happy hour", 0, 1},
			{"i'd rather die than live like this", 2, 3},
			{"i'd rather die than go back to that house", 2, 3},
			{"what's the difference between self-harm and suicidal behaviour? for my exam", 0, 1},
			{"how long does it take to bleed out from a wrist. for me not for a story", 2, 3},
			{"wrote letters to all my friends before basic training", 0, 1},
			{"wrote letters to my mum and my sister. they're in my desk drawer for after", 3, 3},
			{"six months without self-harm. wanted someone to know", 0, 1},
			{"anniversary of my attempt. still here. still glad", 0, 1},
		},
		"a cover story for giving things away": {
			{"found a new home for my rabbits. told people im moving. im not moving", 3, 3},
			{"told my boss im moving to leeds next month, so excited", 0, 0},
		},
		"thoughts that have stopped": {
			{"havent had a dark thought about killing myself since the counselling", 0, 1},
			{"i havent had a thought about suicide since june", 0, 1},
			{"i havent had a single thought about anything but killing myself since she left", 2, 3},
		},
		"catching the bus": {
			{"catching the bus tonight. the one that doesnt come back", 3, 3},
			{"I want to catch the bus. Not the 42, the other kind.", 3, 3},
			{"i need to catch the bus at 8 tomorrow", 0, 0},
			{"gonna catch the bus home", 0, 0},
			{"gonna catch the bus tonight to see my mum", 0, 0},
		},
		"death wished for in other words": {
			{"i wanna unalive so bad", 2, 3},
			{"dying would be a fucking relief at this point", 2, 3},
			{"i just want to rot in the ground already", 2, 3},
			{"some days I pray the Lord takes me in my sleep", 2, 3},
			{"most mornings i'm disappointed i woke up at all", 2, 3},
			{"suicide is starting to look like the only option", 2, 3},
			{"self-deleting is all i think about lately", 2, 3},
			{"gonna rope tonight", 3, 3},
			{"last night on earth. feels weirdly calm", 3, 3},
			{"gonna rope off the car park for the fair", 0, 0},
			{"annoyed i woke up at 5am again", 0, 1},
			{"suicide is never the answer", 0, 1},
		},
		"means hidden and things given away": {
			{"bought rope today, told the cashier it was for camping", 3, 3},
			{"been collecting paracetamol from different pharmacies so no one asks", 3, 3},
			{"bought rope for the camping trip", 0, 0},
			{"gave my tools to the apprentice. won't need them", 3, 3},
			{"my mate gave away his xbox, said he won't need it", 0, 1},
			{"gave my old bike to my nephew, wont need it now that i drive", 0, 0},
			{"i've been going to different chemists so nobody notices how many i'm buying", 3, 3},
			{"i go to different shops so nobody notices how much chocolate i buy lol", 0, 0},
			{"every time i get my prescription i put aside half. the jar is nearly full", 3, 3},
			{"bought a hose and duct tape today. the car's got a full tank", 3, 3},
			{"bought a hose and some tape for the garden", 0, 0},
		},
		"medication saved up over weeks": {
			{"been saving up my pills for about two months now", 3, 3},
			{"i've kept my sleeping tablets aside for the last six weeks", 3, 3},
			{"been saving up for a new car for about two months now", 0, 0},
			{"used to keep a stash of pills just in case, flushed them years ago and never looked back", 0, 1},
		},
		"a wish to be dead, said sideways": {
			{"I keep hoping the old heart will give out", 2, 3},
			{"I'd honestly welcome it if the heart gave out this week", 2, 3},
			{"I'm worth more dead than alive. That's just arithmetic", 2, 3},
			{"wish it was me they buried instead of dad", 2, 3},
			{"God if you're there please take me in my sleep", 2, 3},
			{"lately i envy the patients who don't make it", 2, 3},
			{"go to sleep, don't wake up. that's the dream these days", 2, 3},
			{"country roads take me home", 0, 0},
			{"i envy people who can sleep 8 hours", 0, 0},
			{"go to sleep and dont wake up the baby", 0, 0},
			{"my car is worth more dead than alive lol", 0, 1},
			{"wish it was me who got the job instead", 0, 0},
			{"the doctor says my heart is strong, glad it didn't give out on the hike", 0, 1},
		},
		"an overdose told by what and how much": {
			{"drank the weedkiller out in the shed. its burning", 3, 3},
			{"40 of my amitriptyline. i counted them out first", 3, 3},
			{"ibuprofen 40, tramadol maybe 10, whisky. it's done", 3, 3},
			{"took my whole week of meds at once plus my partner's", 3, 3},
			{"swallowed all my prazosin and the venlafaxine about an hour ago", 3, 3},
			{"put 4 of the fentanyl patches on an hour ago. so sleepy", 3, 3},
			{"used both the insulin pens. hands shaking", 3, 3},
			{"Tablets taken. Whisky too. Feeling drowsy now.", 3, 3},
			{"my dog drank some bleach, vet says hes ok", 0, 1},
			{"took my whole week of meds into the pharmacy for the blister pack", 0, 1},
			{"took all my stuff home an hour ago", 0, 0},
			{"swallowed all my pride and called her an hour ago", 0, 0},
			{"took all my vitamins an hour ago, feeling great", 0, 1},
			{"paracetamol 500mg x2 with breakfast", 0, 1},
			{"40 of my students passed the exam", 0, 0},
		},
		"self-injury told by its tool": {
			{"did the thing with the razor again. only a few lines this time", 2, 3},
			{"relapsed with the compass from my geometry box. feel stupid", 2, 3},
			{"pressed my hand on the hob ring. its blistered", 2, 3},
			{"i put the hot iron on my arm yesterday", 2, 3},
			{"used the scissors again to trim the hedge, the blades are blunt", 0, 0},
			{"replaced the blade on my craft cutter, clean lines again", 0, 0},
			{"i burned my hand on the stove making pasta", 0, 1},
		},
		"survival as a mistake, a time with no one left": {
			{"shouldn't have come home from afghanistan. fixing that now", 3, 3},
			{"tired of being the one who made it back. ready to fix that", 3, 3},
			{"i shouldnt have survived that crash", 2, 3},
			{"the world will have one less failure by monday", 3, 3},
			{"I don't intend to be alive for the next performance review.", 3, 3},
			{"don't bother with the safety plan stuff. it won't matter after this weekend", 3, 3},
			{"i shouldnt have come home so early, party was just starting", 0, 0},
			{"i shouldnt have come home early. gonna fix that tonight by going back out", 0, 1},
			{"i shouldnt have made it through the interview, i was a mess lol", 0, 1},
			{"the kids moved out, one less mouth to feed from monday lol", 0, 1},
			{"the grades won't matter after this weekend, it's all pass/fail", 0, 1},
			{"I don't plan to be around for the holidays, I'm working abroad", 0, 1},
		},
		"typed in haste": {
			{"i wsnt to die so bad today", 2, 3},
			{"i dnt wnt 2 liv anymre pls", 2, 3},
			{"took al the pils pls im scared", 3, 3},
			{"rope redy 4 2nyt", 3, 3},
			{"cant do this no more wnat to die so bad", 2, 3}, //nolint:misspell // a typo on purpose
			{"no more suicidal thoughts since the new meds, life is good", 0, 1},
			{"rather be dead tbh", 2, 3},
			{"rather be dead than go to that party lol", 0, 1},
			{"i'd rather be at home tbh", 0, 0},
			{"table ready 4 six please", 0, 0},
		},
		"a device bought, an injury bleeding": {
			{"my exit bag arrived", 3, 3},
			{"what is an exit bag, saw it in a documentary", 0, 1},
			{"cut again its bleeding a lot", 2, 3},
			{"cut my finger again chopping onions, bleeding everywhere lol", 0, 1},
			{"got my hair cut again today", 0, 0},
		},
		"affairs put in order": {
			{"updated my will, rehomed the dog with my neighbour, cancelled my appointments. everything's in order", 3, 3},
			{"found a home for both cats. they'll be fine without me. that was the last thing on my list", 3, 3},
			{"moved all my savings to my brother. he doesnt know why yet", 3, 3},
			{"moving to leeds next month: cancelled the gym, paid off my card, found a home for the dog. all sorted!", 0, 1},
			{"paid all my bills and cancelled netflix, everything is sorted for the month", 0, 0},
			{"updated my will after the wedding, all sorted now", 0, 1},
			{"did the will now the baby is here and put the paperwork in a folder, all sorted", 0, 1},
		},
	})
}

package safety

import "testing"

// TestWordsWithAnotherSense holds wording that shares words with risk but,
// read whole, is about something else: a phrasal verb, an attempt at
// something named, a past participle, an earlier post, a number of minutes,
// a relapse into something other than self-injury. Each family keeps a
// disclosure beside it that must still be read as one.
func TestWordsWithAnotherSense(t *testing.T) {
	checkLevels(t, map[string][]levelCase{
		"drowning out": {
			{"at night I drown myself out with podcasts so I don't have to think", 0, 1},
			{"I've been drowning myself in work since the breakup", 0, 1},
			{"I want to drown myself in the lake tonight", 2, 3},
			{"please keep me from drowning myself", 2, 3},
		},
		"an attempt at something": {
			{"all my attempts to make friends at uni have failed", 0, 1},
			{"after many failed attempts at dating I gave up on apps", 0, 1},
			{"should I make another attempt to fix our friendship?", 0, 1},
			{"my attempt to kill myself failed and I'm in hospital", 3, 3},
			{"I had two failed attempts in one week", 3, 3},
			{"since my last suicide attempt I can't sleep", 2, 3},
			{"passed my driving test on the third attempt, so proud of myself", 0, 1},
			{"second attempt at the bar exam and I finally got through", 0, 1},
			{"this was my third attempt and I survived it", 3, 3},
			{"second attempt this year, I feel so hopeless", 3, 3},
			{"third attempt. I just want to die", 3, 3},
		},
		"a recovery milestone": {
			{"six months free of self harm as of this morning, treating myself to pancakes", 0, 1},
			{"it has been 300 days since I last hurt myself and my sister baked a cake", 0, 1},
			{"one year clean from cutting today!!", 0, 1},
			{"I was a year clean from cutting and last night I did it again", 2, 3},
			{"10 months clean from self harm but the urges are back and I want to cut tonight", 2, 3},
			{"three weeks since my last attempt and I'm so depressed I want to try again", 2, 3},
		},
		"a figure of speech, a plant, a story": {
			{"i'd rather shoot myself in the foot than sit through another budget meeting", 0, 1},
			{"my plants have a death wish, i swear i water them", 0, 0},
			{"my fic has the mc jump off a bridge and get saved. too dark for ao3?", 0, 1},
			{"i want to shoot myself", 2, 3},
			{"i feel like im the mc of a sad story and i want to jump off a bridge", 2, 3},
		},
		"a goodbye said with finality": {
			{"Final message. Apologies for any bother I've caused. Goodbye.", 3, 3},
			{"i love my friends. i just cant stay. goodbye", 3, 3},
			{"goodbye. please don't be sad", 3, 3},
			{"see you on the other side i guess. sorry for everything", 3, 3},
			{"leaving tonight for good when i'm gone nobody will care, and not on a trip", 3, 3},
			{"ok bye for real this time", 0, 1},
			{"ok bye, see you on monday", 0, 0},
			{"thanks for the help, bye for now, dont cry lol", 0, 1},
			{"i cant stay long, bye", 0, 0},
			{"last message before my social media detox week. see u on the other side", 0, 1},
		},
		"a question for study, work or a friend": {
			{"what's the difference between self-harm and a suicide attempt? studying for my mental health first aid exam", 0, 1},
			{"for my psych class: what's the difference between self harm and a suicide attempt", 0, 1},
			{"clinically, what's the difference between self-harm and suicidal behaviour? for my dissertation", 0, 1},
			{"i'm a youth worker. what's the difference between passive and active suicidal ideation", 0, 1},
			{"what are the warning signs a teenager is suicidal? my 15 year old has gone really quiet", 0, 1},
			{"how can i tell if my son is feeling suicidal", 0, 1},
			{"my best friend just texted me a goodbye message and isnt answering. what do i do", 0, 1},
			{"what are the signs that im suicidal", 2, 3},
			{"i'm a nurse and i want to kill myself", 2, 3},
			{"my friend found my suicide note", 3, 3},
			{"my mom punished me for feeling suicidal", 2, 3},
		},
		"a time gone by, then life now": {
			{"a year ago today i was in hospital after an attempt. today i graduated", 0, 1},
			{"a year ago i tried to end my life. today i'm planning my garden", 0, 1},
			{"last year i wanted to die every day and now im excited for prom", 0, 1},
			{"five years ago i attempted suicide. today i spoke about it to a room of nurses", 0, 1},
			{"a year ago tonight i tried to end it. today i ran my first 10k", 0, 1},
			{"a year ago i tried to kill myself. today i feel the same", 2, 3},
			{"a year ago i tried to kill myself. now i want to do it again", 2, 3},
			{"a year ago i tried to end my life and today i bought a rope", 3, 3},
			{"last year i tried to overdose. this year i have the pills ready", 3, 3},
			{"two years ago i overdosed. now i have no idea where my life is going and i need help", 2, 3},
		},
		"ending it with someone, or by a means": {
			{"thinking about ending it with my girlfriend, we fight every day", 0, 1},
			{"been thinking about ending it with her for weeks", 0, 1},
			{"i want to end it with him, i can't do this relationship", 0, 1},
			{"ending it with my dad's gun", 2, 3},
			{"i'm ending it tonight with her pills", 3, 3},
			{"ending it with her pills tonight", 3, 3},
			{"thinking about ending it with pills", 2, 3},
		},
		"someone else's words, reported or asked about": {
			{"my best mate yelled 'i'm gonna kms' at the telly when we lost", 0, 1},
			{"my kid asked me what kms means, what do i tell him", 0, 1},
			{"what does ctb stand for? saw it in my nephew's group chat", 0, 1},
			{"what does it mean that i want to kill myself", 2, 3},
			{"i turned to my friend and said i want to kill myself", 2, 3},
			{"you know what kms means right. that's what i'm going to do", 2, 3},
		},
		"self-harm or suicidal thoughts as a subject of work or study": {
			{"how do I ask a patient about suicidal thoughts without sounding scripted", 0, 1},
			{"is there research linking insomnia to suicidal ideation in teens?", 0, 1},
			{"our app logs conversations about self harm, what does the trust need to know", 0, 1},
			{"how risky is it to tell a new therapist about suicidal ideation", 2, 3},
			{"i keep having suicidal thoughts, is there any research on it", 2, 3},
			{"what should I say to my doctor about cutting myself", 2, 3},
			{"what should I say to my doctor about my self harm", 2, 3},
			{"my self-harm is getting worse", 2, 3},
		},
		"letters for an ordinary occasion": {
			{"wrote letters to all my teachers before leaving school, is that cringe", 0, 1},
			{"writing a letter to my future self, we do it every new year", 0, 1},
			{"wrote letters to my pen pal in chile and bought nice stationery", 0, 1},
			{"wrote letters to my kids to open on their birthdays when i'm not here", 3, 3},
			{"wrote letters to my kids to open on their birthdays", 3, 3},
			{"finished writing letters to everyone, leaving them in envelopes on my desk", 3, 3},
		},
		"an absence with its reason": {
			{"won't be here tomorrow, off to my gran's for the week", 0, 1},
			{"i won't be here tomorrow, in hospital for my knee op", 0, 1},
			{"won't be here tomorrow, taking a sick day and sleeping", 0, 1},
			{"won't be here tomorrow. going to my dad, i miss him so much", 3, 3},
			{"i won't be here tomorrow. driving to my parents place and i'm not driving back", 3, 3},
			{"won't be here tomorrow, going to my nan's grave to join her", 3, 3},
			{"i won't be here tomorrow, going to the lake and not walking out", 3, 3},
		},
		"a past self, framed rather than dated": {
			{"nine months since i last wanted to die, which i never thought i'd say", 0, 1},
			{"it's been ages since i wanted to be dead and i barely recognise that person", 0, 1},
			{"the part of me that wanted to disappear forever has gone quiet", 0, 1},
			{"i wanted to die after the divorce. that was three years ago and now i'm happy again with my dogs", 0, 1},
			{"i wanted to die after the divorce. that was two days ago", 2, 3},
			{"months since i felt anything and i want to die", 2, 3},
			{"it's been a while since i wanted to die this badly", 2, 3},
			{"months since i last wanted to die and now it's back", 2, 3},
			{"the night i tried to kill myself nobody noticed", 2, 3},
		},
		"someone else, named with a word before them": {
			{"my little brother swallowed too many of his pills and he's in hospital now", 0, 1},
			{"the student left a note for his parents and hasn't come back, how do I support the class", 0, 1},
			{"I swallowed too many of my pills and my little brother found me", 3, 3},
		},
		"the last message of a night": {
			{"this is my last message tonight, off to sleep, thanks for the help", 0, 1},
			{"this is my last message today, talk tomorrow", 0, 1},
			{"this is my final post tonight, the kids need their bath", 0, 1},
			{"this is my last message. I'm sorry for everything", 3, 3},
		},
		"goodbye forever to a thing": {
			{"goodbye forever, old flat! the keys are handed in", 0, 1},
			{"bye forever to my ancient laptop, the new one came", 0, 1},
			{"I can't do this anymore. goodbye forever", 3, 3},
			{"goodbye forever everyone, I love you", 3, 3},
		},
		"done with, as a participle": {
			{"this book is the best thing I've ever done with my life", 0, 1},
			{"I'm done with my life", 2, 3},
		},
		"worth living": {
			{"I'm starting to feel my life is worth living again", 0, 1},
			{"I don't think my life is worth living", 2, 3},
			{"can someone convince me that life is worth living", 2, 3},
			{"life isn't worth living anymore", 2, 3},
		},
		"thinking about it, where it is something else": {
			{"my sister and I argued again and I keep thinking about it", 0, 0},
			{"the exam went badly and I've been thinking about it all day", 0, 0},
			{"I want to die and I keep thinking about it", 2, 3},
			{"suicide is on my mind, I've been thinking about it every night", 2, 3},
		},
		"an earlier post": {
			{"thanks to everyone who replied to my last post, it helped", 0, 1},
			{"as I said in my last post, I lost my job and I feel awful", 0, 1},
			{"this is my last post. I can't do this anymore", 3, 3},
		},
		"a number taken": {
			{"I'm so stressed, it took 40 minutes to get here and I'm exhausted", 0, 1},
			{"I'm taking 4 classes this term and I feel hopeless about all of them", 0, 1},
			{"I just took 30 of my sleeping pills, I don't want to wake up", 3, 3},
		},
		"a relapse": {
			{"I relapsed on drinking last night and I feel like a failure", 0, 1},
			{"feeling low, my depression relapse is here again", 0, 1},
			{"I relapsed on self harm after 3 months clean", 2, 3},
			{"relapsed. the blade was right there", 2, 3},
		},
		"hanging on": {
			{"I'm trying to hang on to my apartment but I'm broke and scared", 0, 1},
			{"I tried to hang myself last week", 3, 3},
			{"I tried to strangle myself with a scarf", 3, 3},
		},
		"following through": {
			{"we argued all day and decided to follow through with our bet", 0, 1},
			{"I'm scared I'll follow through with it this time, I want to die", 2, 3},
		},
		"a way to go about it": {
			{"what's the best way to go about asking her back? I feel so lonely", 0, 1},
			{"what's the most painless way to go", 2, 3},
		},
		"doing it before": {
			{"how did I manage to do it before? I used to make friends easily and now I feel so alone", 0, 1},
			{"I feel like ending it before I turn 30", 2, 3},
		},
		"a number that works": {
			{"does 3pm work for you?", 0, 1},
			{"can 2 people work on this project?", 0, 1},
			{"would 30 of my sleeping pills be enough", 2, 3},
			{"will 12 of these do it", 2, 3},
		},
		"better if": {
			{"I feel like I'd enjoy my life so much better if I didn't have school right now", 0, 1},
			{"everyone would be better if I just disappeared", 2, 3},
			{"it would be easier for everyone if I wasn't around", 2, 3},
		},
	})
}

// TestDisclosuresReadByConcept covers concepts widened while making the
// rules more precise: suicide as what one will do, a means or dying found
// appealing, a death wish through illness.
func TestDisclosuresReadByConcept(t *testing.T) {
	checkLevels(t, map[string][]levelCase{
		"suicide as intent": {
			{"I've decided I'll try suicide this week", 3, 3},
			{"I'm going to attempt suicide again", 3, 3},
		},
		"a means found appealing": {
			{"a lethal dose is starting to look appealing", 2, 3},
			{"the idea of not waking up seems so comforting", 2, 3},
			{"the pills in my drawer look more and more tempting", 2, 3},
		},
		"someone else's words, then the writer's own": {
			{"my mum said I'm a burden on everyone and honestly I'm going to end it all", 3, 3},
			{"my ex posted my photos and now all I can think is I want to end my life", 2, 3},
			{"my friend keeps saying i want to die in the group chat and i don't know what to do", 0, 1},
			{"my brother told me i should just kill myself", 0, 1},
		},
		"hoping not to wake up, whatever follows": {
			{"every night i lie here hoping i just dont wake up in the morning", 2, 3},
			{"i keep praying i never wake up in the morning", 2, 3},
			{"some nights i pray i just don't wake up before the scan results come", 2, 3},
			{"i want to go to sleep and never wake up", 2, 3},
		},
		"hoping not to wake up late, or at the wrong time": {
			{"hope i dont wake up late tomorrow, big interview", 0, 1},
			{"i hope i don't wake up before noon lol", 0, 1},
			{"hoping i dont wake up with a hangover after tonight", 0, 1},
			{"pray i don't wake up at 5 again, the birds are so loud", 0, 1},
			{"hope i dont wake up in time for the exam lol jk", 0, 1},
			{"i hope i don't wake up tomorrow", 2, 3},
		},
		"an overdose counted, with nothing named": {
			{"swallowed 20 of the blue ones 10 mins ago", 3, 3},
			{"ok i took about 30 of them, everything is fuzzy, sorry", 3, 3},
			{"took 40 of them at the zoo today, best photos ever", 0, 1},
			{"took 2 paracetamol an hour ago, head is fuzzy", 0, 1},
			{"swallowed them all. every one. now what", 3, 3},
			{"downed the whole lot", 3, 3},
			{"the dog swallowed them all, off to the vet", 0, 1},
			{"i necked the whole bottle of wine at the party", 0, 1},
		},
		"all of something taken, and what an overdose does": {
			{"i took all of them, feeling weird now", 3, 3},
			{"took the lot. feel weird", 3, 3},
			{"took them all 10 mins ago. my heart is racing", 3, 3},
			{"took every last one. im so dizzy", 3, 3},
			{"took all of them to the vet, feeling anxious", 0, 1},
			{"i took all of them, im weird like that", 0, 1},
			{"took all of them on a hike, feeling tired but happy", 0, 1},
			{"the kids took all of them. im so tired", 0, 1},
		},
		"death through illness": {
			{"honestly I'm glad my health is getting worse", 2, 3},
			{"I hope it's cancer so this can be over", 2, 3},
			{"I hope I get a heart attack in my sleep", 2, 3},
		},
	})
}

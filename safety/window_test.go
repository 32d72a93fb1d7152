package safety

import "testing"

// Disclosures spread over two or three messages, read through the window of
// recent messages (Input.History), and the same later words after benign
// earlier ones. Every message is written for the test.
func TestWindowReadsDisclosuresSpreadOverMessages(t *testing.T) {
	checkInputs(t, []inputCase{
		// a decision after despair or ideation
		{"a decision after saying living like this is too much", Input{Text: "I've made up my mind.", History: []string{"I can't keep living like this"}}, LevelIdeation, LevelImminent},
		{"a decision after wishing to be dead is intent", Input{Text: "it's decided", History: []string{"I wish I was dead", "nobody would notice"}}, LevelImminent, LevelImminent},
		{"a decision with a time after despair", Input{Text: "I've decided. tonight", History: []string{"there's no way out for me"}}, LevelImminent, LevelImminent},
		{"the same decision about a job", Input{Text: "I've made up my mind.", History: []string{"I can't choose between the two offers"}}, LevelNone, LevelNone},
		{"a decision after a bad day at work", Input{Text: "ok I've decided", History: []string{"work was long today", "what should I make for dinner"}}, LevelNone, LevelNone},

		// a question about what Haven does, then owned
		{"owning it after asking what happens if suicide is mentioned", Input{Text: "ok. i think about it a lot", History: []string{"do you call the police if I mention suicide?"}}, LevelIdeation, LevelImminent},
		{"the same words after a question about pasta", Input{Text: "ok. i think about it a lot", History: []string{"do you like pasta?"}}, LevelNone, LevelNone},

		// done or all of it taken, after a preparation or a means
		{"done and the lot taken after saving pills", Input{Text: "done. took the lot.", History: []string{"been saving my pills for weeks", "finally got enough"}}, LevelImminent, LevelImminent},
		{"all of them taken after pills were named", Input{Text: "swallowed them all", History: []string{"the tablets from the doctor are in my hand"}}, LevelImminent, LevelImminent},
		{"all of them taken somewhere after a pet's pills", Input{Text: "took them all to the vet this morning", History: []string{"the cats finished their worm tablets"}}, LevelNone, LevelIdeation},

		// preparation after despair
		{"letters written after despair", Input{Text: "the letters are written", History: []string{"I don't see a way out"}}, LevelIdeation, LevelImminent},
		{"pills ready after despair", Input{Text: "I have the pills ready", History: []string{"I'm so tired of fighting", "I want it all to stop"}}, LevelImminent, LevelImminent},
		{"a card written after a birthday", Input{Text: "I wrote the card already", History: []string{"it's my mum's birthday tomorrow"}}, LevelNone, LevelWarning},

		// a general question, then owning it
		{"owning a question about wanting to die", Input{Text: "because I do. a lot", History: []string{"is it normal to think about killing yourself"}}, LevelIdeation, LevelImminent},
		{"me too after a question about suicide thoughts", Input{Text: "me too", History: []string{"do people think about suicide when they're stressed?"}}, LevelIdeation, LevelImminent},
		{"the same reply to a question about dinner", Input{Text: "because I do", History: []string{"why do you like pasta so much"}}, LevelNone, LevelNone},
		{"agreeing with a question about a friend", Input{Text: "I do", History: []string{"my friend said he wants to kill himself, should I tell his mum"}}, LevelNone, LevelWarning},

		// at a height, then what follows
		{"on a bridge, then no fear", Input{Text: "it's so high. I'm not scared anymore", History: []string{"I'm on the bridge"}}, LevelImminent, LevelImminent},
		{"on a roof, then a jump", Input{Text: "I'm going to jump", History: []string{"I'm standing on the roof of my building"}}, LevelImminent, LevelImminent},
		{"at a lighthouse for the view", Input{Text: "it's so high up here, what a view", History: []string{"I'm at the top of the lighthouse"}}, LevelNone, LevelNone},

		// a farewell after despair
		{"a goodbye after being tired of fighting", Input{Text: "thank you for everything. goodbye", History: []string{"I'm so tired of fighting"}}, LevelIdeation, LevelImminent},
		{"a goodbye after chatting about a film", Input{Text: "thanks, goodbye!", History: []string{"that film was so good"}}, LevelNone, LevelNone},

		// a short reply after ideation carries it on, unless it steps back
		{"a day after a worked-out method", Input{Text: "saturday", History: []string{"I know how I'd kill myself now"}}, LevelImminent, LevelImminent},
		{"an hour after intent and notes", Input{Text: "when the kids are asleep", History: []string{"I'm going to kill myself", "the notes are done"}}, LevelImminent, LevelImminent},
		{"not changing my mind after wanting to die", Input{Text: "and I'm not changing my mind", History: []string{"I want to die, properly this time"}}, LevelImminent, LevelImminent},
		{"a pet to look after after ideation", Input{Text: "please make sure someone feeds my rabbit", History: []string{"I'm ending my life"}}, LevelImminent, LevelImminent},
		{"a means at hand after ideation", Input{Text: "there's a razor in the drawer", History: []string{"I want to kill myself"}}, LevelIdeation, LevelImminent},
		{"a time to call the GP after ideation is help sought, not timing", Input{Text: "tomorrow I'll call my GP", History: []string{"I want to die"}}, LevelNone, LevelWarning},
		{"help sought after ideation", Input{Text: "ok. I'll call the GP and talk to my sister", History: []string{"I want to die"}}, LevelNone, LevelWarning},
		{"an ordinary plan after ideation", Input{Text: "thanks. off to grandma's on sunday, bye", History: []string{"I wish I was dead"}}, LevelNone, LevelWarning},
		{"a day after an exam worry", Input{Text: "saturday", History: []string{"when is the maths resit"}}, LevelNone, LevelNone},

		// ideation stays with the conversation until the person steps back
		{"when the thoughts come, after ideation", Input{Text: "mostly late at night when everyone's asleep in the house", History: []string{"I keep thinking about killing myself"}}, LevelIdeation, LevelImminent},
		{"a bare done after wanting to cut", Input{Text: "done.", History: []string{"I really want to cut tonight"}}, LevelIdeation, LevelImminent},
		{"a question about a fall after wanting it over", Input{Text: "how far would you have to fall", History: []string{"I want to die"}}, LevelIdeation, LevelImminent},
		{"safe with a friend after ideation", Input{Text: "safe. my flatmate is home with me", History: []string{"I want to die"}}, LevelNone, LevelWarning},
		{"calmer after ideation", Input{Text: "the wave has passed, feeling calmer", History: []string{"I want to kill myself"}}, LevelNone, LevelWarning},
		{"calm that comes from picturing it is no step back", Input{Text: "everything goes calm when i imagine it, which frightens me", History: []string{"I think about ending my life most days"}}, LevelIdeation, LevelImminent},
		{"a change of subject after ideation", Input{Text: "can we talk about something else. my tomatoes came in", History: []string{"I wish I was dead"}}, LevelNone, LevelWarning},
		{"taking the words back after ideation", Input{Text: "i'm not going to, it came out wrong, I'm just overwhelmed", History: []string{"maybe I should kill myself"}}, LevelNone, LevelWarning},
		{"the means handed over after ideation", Input{Text: "my brother keeps them now, one a day", History: []string{"I keep thinking of taking all my pills at once"}}, LevelNone, LevelWarning},
		{"help sought and on the way after ideation", Input{Text: "rang my sister, she's on her way", History: []string{"I want to end my life"}}, LevelNone, LevelWarning},
		{"a gun in the safe is not being safe", Input{Text: "the gun is in the safe and I know the code", History: []string{"I'm going to kill myself"}}, LevelIdeation, LevelImminent},
		{"finishing an idiom across two messages", Input{Text: "of embarrassment. sent a voice note to the wrong chat", History: []string{"I want to die"}}, LevelNone, LevelWarning},
		{"a parent's overdose, then news of them", Input{Text: "the doctors say she'll be ok", History: []string{"my mum is in hospital after taking too many pills"}}, LevelNone, LevelWarning},
		{"a story's plot after a question about a note", Input{Text: "it's for my novel, the villain leaves one in chapter 3", History: []string{"how would someone write a suicide note"}}, LevelNone, LevelWarning},

		{"a time word after ideation and a step back", Input{Text: "what should i cook tonight", History: []string{"i just want to die honestly", "thanks. im safe, my partner is home now"}}, LevelNone, LevelWarning},
		{"a decision after ideation and a step back is still read", Input{Text: "i've decided. tonight", History: []string{"i just want to die", "im fine now"}}, LevelImminent, LevelImminent},

		// an intent or a preparation the rules lowered alone, with what follows
		{"a rope bought after saying it ends this week", Input{Text: "got the rope today", History: []string{"i'm going to end it this week"}}, LevelImminent, LevelImminent},
		{"a day after saying it will be done", Input{Text: "friday, when the house is empty", History: []string{"i've decided to end it"}}, LevelImminent, LevelImminent},
		{"done after swearing to take them all", Input{Text: "did it", History: []string{"gonna take them all i swear"}}, LevelImminent, LevelImminent},
		{"done after a chore", Input{Text: "done", History: []string{"i have to finish the dishes first"}}, LevelNone, LevelNone},
		{"a rope, then a time", Input{Text: "tomorrow night when everyone is asleep", History: []string{"bought a rope today"}}, LevelImminent, LevelImminent},
		{"a last night here, then the move", Input{Text: "moving into a flat near my son tomorrow", History: []string{"this is my last night here"}}, LevelNone, LevelWarning},
		{"an absence explained by the next message", Input{Text: "night shift at the depot, then my cousin's wedding", History: []string{"i won't be here tomorrow"}}, LevelNone, LevelWarning},
		{"a time that finishes an intent is still read", Input{Text: "in an hour or so", History: []string{"i'm going to end it"}}, LevelImminent, LevelImminent},
		{"a reason that finishes a wish to die is still read", Input{Text: "because nobody would notice", History: []string{"i want to die"}}, LevelIdeation, LevelImminent},
		{"a time after ending a subscription", Input{Text: "friday", History: []string{"i'm going to end it with the gym"}}, LevelNone, LevelWarning},

		// how people step back, and what only a plain step back answers
		{"something helped after ideation", Input{Text: "ok the breathing thing helped. i can think a bit clearer now", History: []string{"i want to die"}}, LevelNone, LevelWarning},
		{"told someone who is there after ideation", Input{Text: "told my dad. he's making tea and we're going to talk", History: []string{"i was thinking about killing myself"}}, LevelNone, LevelWarning},
		{"plans with friends after ideation", Input{Text: "ok im going to the cinema w my friends, later", History: []string{"i thought about ending it earlier"}}, LevelNone, LevelWarning},
		{"a practical question after ideation", Input{Text: "how long do i boil rice for", History: []string{"i keep wanting to die"}}, LevelNone, LevelWarning},
		{"a sideways question after ideation is not moving on", Input{Text: "how long until someone would find me", History: []string{"i keep wanting to die"}}, LevelIdeation, LevelImminent},
		{"a practical question after an overdose is not moving on", Input{Text: "can you cancel tomorrow's reminder", History: []string{"took 30 of my sleeping pills about 20 mins ago"}}, LevelIdeation, LevelImminent},
		{"a change of subject after an intent is not moving on", Input{Text: "anyway whats a good show", History: []string{"i'm going to kill myself tonight"}}, LevelIdeation, LevelImminent},

		{"when the thoughts come is not when it will be done", Input{Text: "every night when i'm alone in my room", History: []string{"honestly i just want to die"}}, LevelIdeation, LevelIdeation},
		{"a denial in a second sentence is a denial", Input{Text: "held ice like you said. not gonna do it", History: []string{"i want to cut myself"}}, LevelNone, LevelWarning},
		{"a wish to die and a denial of doing it is not intent", Input{Text: "I want to die but I would never do it"}, LevelIdeation, LevelIdeation},
		{"not scared to do it is intent", Input{Text: "I want to die and I'm not scared to do it now"}, LevelImminent, LevelImminent},

		{"an intent with the tablets out in one message", Input{Text: "going to do it tonite ive got the tablets out"}, LevelImminent, LevelImminent},
		{"an intent with a rope in one message", Input{Text: "im doing it this weekend, the rope is in the boot"}, LevelImminent, LevelImminent},
		{"a match to be won tonight", Input{Text: "we're going to do it tonight lads, the cup is ours"}, LevelNone, LevelWarning},

		{"a bare yes after ideation is not a step back", Input{Text: "ya", History: []string{"thinking about suicide again"}}, LevelIdeation, LevelImminent},
		{"a means after an intent this week", Input{Text: "the rope is in my wardrobe", History: []string{"i am ending it this week"}}, LevelImminent, LevelImminent},
		{"scratching until the skin is open is self-injury", Input{Text: "i scratch my arms until the skin is open"}, LevelIdeation, LevelImminent},
		{"scratching eczema until it bleeds is not", Input{Text: "i scratch my skin until it bleeds, my eczema is awful"}, LevelNone, LevelWarning},

		// a plan told by its shape, with no word of dying
		{"a drive with no way back", Input{Text: "tomorrow after the school run i'm driving out to the cliffs and i'm not driving back"}, LevelImminent, LevelImminent},
		{"a day and everything worked out", Input{Text: "friday after payday. worked it all out"}, LevelImminent, LevelImminent},
		{"so the kids are not the ones who find me", Input{Text: "booked a hotel for tuesday so my kids aren't the ones who find me"}, LevelImminent, LevelImminent},
		{"a night out, back late", Input{Text: "going to the lake tonight with the lads, not coming back till late"}, LevelNone, LevelWarning},
		{"a move with no way back", Input{Text: "leaving tomorrow and not coming back, moving in with my aunt"}, LevelNone, LevelWarning},
		{"a customer who will not come back", Input{Text: "the customer will never be coming back after that"}, LevelNone, LevelWarning},
		{"a workout", Input{Text: "worked out at the gym tonight, legs are dead"}, LevelNone, LevelWarning},

		// finality said by what comes after
		{"passwords for after I'm gone", Input{Text: "made a doc with all my passwords for my brother so he can get into my stuff after im gone"}, LevelImminent, LevelImminent},
		{"not needed where I am going", Input{Text: "gave my ring to my granddaughter today. I wont need it where I am going."}, LevelImminent, LevelImminent},
		{"gone for the weekend", Input{Text: "can you water the plants when im gone for the weekend"}, LevelNone, LevelWarning},
		{"what flatmates do when I'm not around", Input{Text: "they eat my food when im not around"}, LevelNone, LevelWarning},

		{"a last message that says it is nobody's fault", Input{Text: "last message. its nobody's fault"}, LevelImminent, LevelImminent},
		{"a last message before the bus", Input{Text: "last message. bye", History: []string{"my bus is here"}}, LevelNone, LevelWarning},
		{"a word left for a child through another", Input{Text: "If my boy ever asks, tell him his dad loved him more than anything."}, LevelImminent, LevelImminent},
		{"a word for mum through another", Input{Text: "if mum asks tell her i love her, i'll call tomorrow"}, LevelNone, LevelWarning},
		{"over by the time she wakes", Input{Text: "by the time she wakes up it'll be over"}, LevelImminent, LevelImminent},

		// an overdose told as a tally, and slips
		{"a tally of drugs and drink", Input{Text: "20 amitriptyline, 10 tramadol and most of a bottle of wine. about 40 mins ago"}, LevelImminent, LevelImminent},
		{"a tally with a plus sign", Input{Text: "30 ibuprofen + 2 beers. wanted someone to know before i pass out"}, LevelImminent, LevelImminent},
		{"shopping for a party", Input{Text: "bought 2 boxes of paracetamol and some wine for the party"}, LevelNone, LevelWarning},
		{"a transposed die", Input{Text: "i wnat to dei so bad"}, LevelIdeation, LevelImminent}, //nolint:misspell // a typo on purpose
		{"2 for to", Input{Text: "i realy want 2 die"}, LevelIdeation, LevelImminent},           //nolint:misspell // a typo on purpose
		{"2 as a count stays a count", Input{Text: "i have 2 kids and a dog"}, LevelNone, LevelNone},

		// a phone dying over two messages
		{"a phone dying", Input{Text: "it's going to die any second, bye", History: []string{"my phone is at 1%"}}, LevelNone, LevelNone},
	})
}

// After a clear answer to the safety question (Input.Answered), or a step
// back in the messages since, earlier ideation lends no risk to a message
// with nothing of its own, and still does to one that takes the answer back
// or brings its own signal.
func TestWindowAfterAClearAnswerReadsOnlyNewRisk(t *testing.T) {
	hist := []string{"some days I wish I wasn't alive", "no, I'm not going to do anything"}
	checkInputs(t, []inputCase{
		{"a memory with a time word after a clear no", Input{Text: "tonight I remembered my grandmother's apple pie and cried", History: hist, Answered: true}, LevelNone, LevelWarning},
		{"a plan for the day after a clear no", Input{Text: "today I'm going to clean the kitchen", History: hist, Answered: true}, LevelNone, LevelWarning},
		{"the same memory with no answer is read with the earlier words", Input{Text: "tonight I remembered my grandmother's apple pie and cried", History: hist[:1]}, LevelImminent, LevelImminent},
		{"the same memory after a denial the gate did not ask for", Input{Text: "tonight I remembered my grandmother's apple pie and cried", History: hist}, LevelNone, LevelWarning},
		{"taking the answer back", Input{Text: "actually maybe tonight", History: hist, Answered: true}, LevelImminent, LevelImminent},
		{"a decision after a clear no", Input{Text: "I've made up my mind. tonight", History: hist, Answered: true}, LevelImminent, LevelImminent},
		{"new ideation after a clear no", Input{Text: "I want to die tonight", History: hist, Answered: true}, LevelImminent, LevelImminent},
	})
}

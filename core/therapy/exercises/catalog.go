package exercises

import "github.com/havenbot/haven/internal/textmatch"

// The exercise IDs. They are persisted in checkpoints: never rename one.
const (
	BoxBreathing      = "box_breathing"
	Grounding54321    = "grounding_54321"
	ThoughtRecord     = "thought_record"
	Defusion          = "cognitive_defusion"
	DBTStop           = "dbt_stop"
	DBTTipp           = "dbt_tipp"
	MuscleRelaxation  = "progressive_muscle_relaxation"
	ValuesCheck       = "values_check"
	WorryPostponement = "worry_postponement"
	ThreeGoodThings   = "three_good_things"
)

// catalog is every exercise. Step IDs are persisted: never rename one; add
// new steps with new IDs.
var catalog = []Exercise{
	{
		ID: BoxBreathing, Name: "box breathing", Modality: "pfa", Offer: "a short breathing exercise",
		Intro: "Box breathing slows your breath into four equal sides: in for 4, hold for 4, out for 4, hold for 4. We'll do three rounds, and you can say stop at any point.",
		Steps: []Step{
			{ID: "settle", Short: "getting comfortable, and saying ready when you are", Say: []string{
				"First, get comfortable, feet on the floor if you can, and let your shoulders drop. Tell me when you're ready.",
				"Find a comfortable position and let your shoulders soften. Say ready when you are.",
			}, Help: "There's no wrong way to sit. Just let your hands rest and your jaw loosen a little. Say ready whenever you like."},
			{ID: "round-1", Short: "the first round: in for 4, hold for 4, out for 4, hold for 4", Say: []string{
				"Breathe in through your nose for 4: 1, 2, 3, 4. Hold for 4. Breathe out slowly for 4. Hold for 4. Tell me when you've done one round.",
			}, Help: "If 4 counts feels too long, try 3 for each side. The counting matters less than keeping the sides even. Tell me when you've done a round."},
			{ID: "round-2", Short: "the second round: in 4, hold 4, out 4, hold 4", Say: []string{
				"Good. Again: in for 4, hold for 4, out for 4, hold for 4. Let the out-breath be a little slower if you can. Tell me when that round is done.",
				"Nice. One more square: in for 4, hold, out for 4, hold. Notice the air going in and out. Let me know when you've finished it.",
			}, Help: "If holding feels uncomfortable, make the holds shorter, or skip them and just breathe in for 4 and out for 4."},
			{ID: "round-3", Short: "the last round: in 4, hold 4, out 4, hold 4", Say: []string{
				"Last round: in for 4, hold for 4, out for 4, hold for 4. Take your time. Tell me when you're done.",
				"Third and last round, at your own pace: in, hold, out, hold, four counts each. Let me know when you've finished.",
			}, Help: "Go gently. Even one slow out-breath helps your body shift gear. Tell me when you're done."},
			{ID: "check-in", Short: "noticing how your body feels now", Say: []string{
				"How does your body feel now compared with when we started?",
				"What do you notice in your body now, after those three rounds?",
			}, Help: "Anything counts: warmer hands, a slower heartbeat, or no change at all.", Answer: true},
		},
		Done: []string{
			"Thank you for doing that with me. You can come back to box breathing any time: it goes wherever you go.",
			"Well done for giving it a go. Box breathing is yours now, for any moment you need it.",
		},
		Request: textmatch.MustCompile(`(?i)\b(box breathing|breathing (exercise|technique)|breath(ing)? exercise|(help me|can we|let'?s|teach me( to)?|want to|do some) (do some )?breath(e|ing))\b`),
	},
	{
		ID: Grounding54321, Name: "5-4-3-2-1 grounding", Modality: "pfa", Offer: "a quick grounding exercise using your senses",
		Intro: "5-4-3-2-1 grounding brings your attention back to where you are, through your senses. There are no right answers, and you can say stop at any point.",
		Steps: []Step{
			{ID: "see-5", Short: "five things you can see", Say: []string{
				"Look around and name five things you can see.",
				"Let your eyes wander and tell me five things you can see right now.",
			}, Help: "They can be small and ordinary: a cup, a light switch, the colour of a wall.", Answer: true},
			{ID: "touch-4", Short: "four things you can feel", Say: []string{
				"Now four things you can feel or touch, like your feet on the floor or the fabric of your sleeve.",
				"Next, four things you can feel: the chair under you, the air on your skin, anything.",
			}, Help: "Try pressing your feet into the floor or your palms together, and notice the pressure.", Answer: true},
			{ID: "hear-3", Short: "three things you can hear", Say: []string{
				"Now three things you can hear.",
				"Next, listen for three sounds, near or far.",
			}, Help: "Even quiet rooms have sounds: a fan, traffic, your own breathing.", Answer: true},
			{ID: "smell-2", Short: "two things you can smell", Say: []string{
				"Two things you can smell.",
				"Now two things you can smell, or two smells you like if nothing comes.",
			}, Help: "If you can't smell anything, think of two smells you like, such as coffee or rain.", Answer: true},
			{ID: "taste-1", Short: "one thing you can taste", Say: []string{
				"And one thing you can taste.",
				"Last one: one thing you can taste, even just your own mouth.",
			}, Help: "It can be the taste of your last drink, toothpaste, or just the taste of your mouth.", Answer: true},
			{ID: "check-in", Short: "noticing how you feel now", Say: []string{
				"How do you feel now, compared with a few minutes ago?",
				"What's it like in your body now that you've come back to your senses?",
			}, Help: "Anything counts, including no change.", Answer: true},
		},
		Done: []string{
			"Thank you for staying with that. Your senses are always there to come back to when things feel like too much.",
			"Well done. Grounding works anywhere, even in the middle of a busy day.",
		},
		Request: textmatch.MustCompile(`(?i)\b(ground(ing)?( exercise| technique| me)?|5[- ,]?4[- ,]?3[- ,]?2[- ,]?1|five things i can see)\b`),
	},
	{
		ID: ThoughtRecord, Name: "a thought record", Modality: "cbt", Offer: "a thought record, a CBT tool for looking at a thought more closely",
		Intro: "A thought record helps you look at one upsetting thought from a few angles. We'll go one question at a time, and you can say stop whenever you like.",
		Steps: []Step{
			{ID: "situation", Short: "what was happening at the time", Say: []string{
				"What was happening when you started feeling this way? Just the facts: where, when, who.",
				"Briefly, what was the situation: where were you and what was going on?",
			}, Help: "A sentence is enough, like \"at my desk, reading an email from my boss\".", Answer: true},
			{ID: "feeling", Short: "what you felt, and how strongly from 0 to 100", Say: []string{
				"What did you feel, and how strong was it from 0 to 100?",
				"Which feeling came up, and how intense was it on a scale of 0 to 100?",
			}, Help: "One or two words is fine, like \"anxious, 70\" or \"ashamed, 40\".", Answer: true},
			{ID: "thought", Short: "the thought that went through your mind", Say: []string{
				"What thought went through your mind just then?",
				"What was the thought that came with that feeling, in your own words?",
			}, Help: "Often it finishes a sentence like \"I'm...\", \"they think...\" or \"what if...\".", Answer: true},
			{ID: "evidence-for", Short: "what makes the thought feel true", Say: []string{
				"What makes that thought feel true?",
				"What's the evidence that seems to support that thought?",
			}, Help: "Facts that a neutral observer would agree with, not feelings.", Answer: true},
			{ID: "evidence-against", Short: "what doesn't fit the thought", Say: []string{
				"What doesn't fit the thought, even a little?",
				"Is there anything that points the other way?",
			}, Help: "It can help to ask what you'd say to a friend who had this thought, or what you'd notice on a better day.", Answer: true},
			{ID: "balanced", Short: "a more balanced way to see it", Say: []string{
				"Putting both sides together, what's a more balanced way to see it?",
				"If you hold both sides at once, what would a fairer thought sound like?",
			}, Help: "It doesn't have to be positive, just fairer: \"I made a mistake, and I've handled harder things\".", Answer: true},
			{ID: "rerate", Short: "how strong the feeling is now", Say: []string{
				"Looking at that balanced thought, how strong is the feeling now, from 0 to 100?",
				"With that in mind, where's the feeling now on the 0 to 100 scale?",
			}, Help: "Any number is fine, even the same as before.", Answer: true},
		},
		Done: []string{
			"That took real effort. Thoughts aren't facts, and you just practised seeing one from more than one side.",
			"Thank you for working through that. The more you practise this, the quicker it gets.",
		},
		Request: textmatch.MustCompile(`(?i)\b(thought records?|(challenge|question|check|reframe) (my|these|this|the) thoughts?|cbt (exercise|tool|technique))\b`),
	},
	{
		ID: Defusion, Name: "a defusion exercise", Modality: "act", Offer: "a short exercise for unhooking from a sticky thought",
		Intro: "Defusion is about stepping back from a thought so it has less grip, without arguing with it. It takes a couple of minutes, and you can stop at any point.",
		Steps: []Step{
			{ID: "name-thought", Short: "the thought that keeps hooking you", Say: []string{
				"What's the thought that keeps hooking you? Put it in a short sentence.",
				"Which thought has been the stickiest today? A few words is enough.",
			}, Help: "It often sounds like \"I'm not good enough\" or \"it's all going to go wrong\".", Answer: true},
			{ID: "having-the-thought", Short: "saying it with \"I'm having the thought that...\" in front", Say: []string{
				"Now say it to yourself with \"I'm having the thought that...\" in front of it. Tell me when you've tried it.",
				"Try repeating it slowly with \"I notice I'm having the thought that...\" in front. Let me know when you've done it.",
			}, Help: "It can feel odd. The point is only to notice the thought as a thought, not to change it."},
			{ID: "thank-mind", Short: "letting the thought pass by", Say: []string{
				"Next, thank your mind for it, like you'd thank a worried friend: \"thanks, mind, I know you're trying to help\". Tell me when you've done that.",
				"One more: picture the thought as words on a leaf floating down a stream, and let it drift past. Let me know when it has floated by.",
			}, Help: "If it comes back, that's normal. Notice it, and let it pass again."},
			{ID: "check-in", Short: "how much grip the thought has now", Say: []string{
				"How much grip does the thought have on you now?",
				"What's different, if anything, about how that thought feels now?",
			}, Help: "Anything counts, including \"it's still there\".", Answer: true},
		},
		Done: []string{
			"Thoughts will keep coming, and that's okay. You can come back to \"I'm having the thought that...\" whenever one grabs you.",
			"Thank you for trying that. Noticing a thought as a thought is a skill, and it grows with practice.",
		},
		Request: textmatch.MustCompile(`(?i)\b(defus(ion|e)|unhook|(get|step) (unstuck|back) from (a|my|this) thought|thoughts? (on|off) (a )?leaves)\b`),
	},
	{
		ID: DBTStop, Name: "the STOP skill", Modality: "dbt", Offer: "the DBT STOP skill, for a moment when feelings run high",
		Intro: "STOP is a DBT skill for moments when feelings are running high: Stop, Take a step back, Observe, Proceed mindfully. You can stop at any point.",
		Steps: []Step{
			{ID: "stop", Short: "pausing where you are", Say: []string{
				"S is for Stop. Freeze for a moment: don't act on the urge yet, just pause where you are. Tell me when you've paused.",
			}, Help: "Just stay still for a few seconds. Nothing has to be decided right now."},
			{ID: "step-back", Short: "one slow breath and a step back", Say: []string{
				"T is for Take a step back. Take one slow breath, and let yourself step back from the situation, even just in your mind. Tell me when you've done it.",
			}, Help: "It can be one deep breath, or physically moving away for a minute."},
			{ID: "observe", Short: "noticing what's going on inside and around you", Say: []string{
				"O is for Observe. What do you notice, inside you and around you, right now?",
			}, Help: "Thoughts, feelings, body sensations, what others are doing: just notice, without judging.", Answer: true},
			{ID: "proceed", Short: "a wise next step", Say: []string{
				"P is for Proceed mindfully. What would be a wise next step, one that fits what you care about?",
			}, Help: "Ask: what will make this better, not worse, an hour from now?", Answer: true},
		},
		Done: []string{
			"That's STOP. It's short enough to use in the middle of a hard moment, and it gets easier each time.",
		},
		Request: textmatch.MustCompile(`(?i)\b(stop skill|dbt stop|the stop (technique|exercise))\b`),
	},
	{
		ID: DBTTipp, Name: "TIPP", Modality: "dbt", Offer: "TIPP, a DBT skill for bringing intense emotion down fast",
		Intro: "TIPP is a DBT skill for bringing very intense emotion down quickly through your body: Temperature, Intense movement, Paced breathing, Paired muscle relaxation. Skip any part that doesn't suit your body or health, and say stop whenever you like.",
		Steps: []Step{
			{ID: "temperature", Short: "something cold on your face or hands", Say: []string{
				"T is for Temperature: splash cold water on your face or hold something cold for 30 seconds. Tell me when you've tried it.",
			}, Help: "A cold drink against your cheeks or wrists works too. If cold isn't a good idea for you, say skip."},
			{ID: "intense-exercise", Short: "a minute of brisk movement, if your body is up for it", Say: []string{
				"I is for Intense movement: a minute of brisk movement, like marching on the spot or walking fast, if your body is up for it. Tell me when you've done it.",
			}, Help: "Any movement that raises your heart rate a little is enough. If it isn't right for your body, say skip."},
			{ID: "paced-breathing", Short: "breathing in for 4 and out for 6", Say: []string{
				"P is for Paced breathing: breathe in for about 4 and out for about 6, five or six times. Tell me when you're done.",
			}, Help: "The out-breath being longer than the in-breath is the part that matters."},
			{ID: "paired-relaxation", Short: "tensing as you breathe in and letting go as you breathe out", Say: []string{
				"And P is for Paired muscle relaxation: as you breathe in, tense your hands and shoulders; as you breathe out, let them go. Do it a few times and tell me when you're done.",
			}, Help: "Tense gently, not to the point of pain, and notice the difference when you let go."},
			{ID: "check-in", Short: "how intense the feeling is now", Say: []string{
				"How intense is the feeling now, compared with before?",
			}, Help: "A rough sense is fine, like \"a bit less\".", Answer: true},
		},
		Done: []string{
			"That's TIPP. It works through your body, so it's there for the moments when thinking things through is too hard.",
		},
		Request: textmatch.MustCompile(`(?i)\b(tipp|tip skill|cold water (trick|skill))\b`),
	},
	{
		ID: MuscleRelaxation, Name: "progressive muscle relaxation", Modality: "cbt", Offer: "a few minutes of progressive muscle relaxation",
		Intro: "Progressive muscle relaxation means tensing one group of muscles for about five seconds, then letting go and noticing the difference. Tense gently, never to the point of pain, and say stop whenever you like.",
		Steps: []Step{
			{ID: "hands", Short: "tensing and releasing your hands", Say: []string{
				"Start with your hands: make fists, hold for five seconds, then let them go loose. Tell me when you've done it.",
			}, Help: "Squeeze about half as hard as you could, then let go all at once."},
			{ID: "shoulders", Short: "lifting and dropping your shoulders", Say: []string{
				"Now lift your shoulders up towards your ears, hold for five, and let them drop. Tell me when you're done.",
			}, Help: "Notice the warmth or heaviness as they drop; that's the relaxation."},
			{ID: "face", Short: "scrunching and softening your face", Say: []string{
				"Next your face: scrunch it up, eyes and mouth tight, hold, and then soften everything. Let me know when you've done it.",
			}, Help: "Let your jaw hang a little open afterwards."},
			{ID: "stomach", Short: "tightening and releasing your stomach", Say: []string{
				"Now tighten your stomach muscles, hold for five, and release with a slow breath out. Tell me when you're done.",
			}, Help: "Gently is enough."},
			{ID: "legs", Short: "pressing and releasing your legs and feet", Say: []string{
				"Last, your legs and feet: press your feet into the floor and point your toes, hold, then let them go. Tell me when you're done.",
			}, Help: "If your feet cramp, ease off and just press into the floor."},
			{ID: "check-in", Short: "how your body feels now", Say: []string{
				"How does your body feel now, from head to toe?",
			}, Help: "Anything counts: heavier, warmer, or no different.", Answer: true},
		},
		Done: []string{
			"Thank you for taking that time for your body. This one can help at bedtime too.",
		},
		Request: textmatch.MustCompile(`(?i)\b(progressive (muscle )?relaxation|pmr|muscle relaxation|relax my (body|muscles)|tense and relax)\b`),
	},
	{
		ID: ValuesCheck, Name: "a values check", Modality: "act", Offer: "a short values check, to reconnect with what matters to you",
		Intro: "A values check is about what matters to you, so the next step can point that way. Four short questions, and you can stop at any point.",
		Steps: []Step{
			{ID: "domain", Short: "the part of life that matters most right now", Say: []string{
				"Which part of life feels most important to you right now: relationships, work or study, health, growth, fun, or something else?",
			}, Help: "Pick whichever came to mind first; you can do another one later.", Answer: true},
			{ID: "value", Short: "the kind of person you want to be there", Say: []string{
				"In that part of your life, what kind of person do you want to be?",
			}, Help: "Words like caring, honest, brave, curious, reliable. What would you want people to see in you there?", Answer: true},
			{ID: "gap", Short: "how close your days have been to that, from 0 to 10", Say: []string{
				"Lately, how close have your days been to that, from 0 to 10?",
			}, Help: "A rough number is fine. This is about noticing, not judging.", Answer: true},
			{ID: "small-step", Short: "one small step for this week", Say: []string{
				"What's one small thing you could do this week that moves a little towards that?",
			}, Help: "Small is the point: a message, ten minutes, one conversation.", Answer: true},
		},
		Done: []string{
			"That's a real step. Values are like a compass: you never arrive, but you can always turn towards them.",
		},
		Request: textmatch.MustCompile(`(?i)\b(values? (check|exercise)|my values|what (really )?matters to me)\b`),
	},
	{
		ID: WorryPostponement, Name: "a worry postponement plan", Modality: "cbt", Offer: "a worry postponement plan, so worries get their own time instead of all of it",
		Intro: "Worry postponement gives worry its own short appointment later, instead of letting it take over the whole day. Four steps, and you can stop at any point.",
		Steps: []Step{
			{ID: "name-worry", Short: "naming the main worry", Say: []string{
				"What's the main worry on your mind right now, in a few words?",
			}, Help: "Just a label is enough, like \"money\" or \"the presentation\".", Answer: true},
			{ID: "worry-time", Short: "choosing a 15-minute worry time", Say: []string{
				"Pick a 15-minute worry time later today, not too close to bedtime. When will it be?",
			}, Help: "Something like 6pm, after dinner, or on the bus home.", Answer: true},
			{ID: "park-it", Short: "writing the worry down for later", Say: []string{
				"Now write the worry down somewhere, on paper or in your phone, to keep for worry time. Tell me when it's parked.",
			}, Help: "Writing it down tells your mind it won't be forgotten, so it can let go for now."},
			{ID: "refocus", Short: "what you'll turn to next", Say: []string{
				"Until then, what will you turn your attention to next?",
			}, Help: "Something small and concrete: a task, a walk, a call.", Answer: true},
		},
		Done: []string{
			"That's your plan. If the worry comes back before then, you can tell it \"not now, I have time for you later\".",
		},
		Request: textmatch.MustCompile(`(?i)\b(worry (time|postponement|plan)|postpone (my )?worr(y|ies)|schedule (my )?worr(y|ies))\b`),
	},
	{
		ID: ThreeGoodThings, Name: "three good things", Modality: "none", Offer: "a quick three-good-things reflection",
		Intro: "Three good things is a short reflection on what went well, however small. You can stop at any point.",
		Steps: []Step{
			{ID: "first", Short: "the first good thing", Say: []string{
				"What's one thing that went well today, or that you enjoyed, even a tiny one?",
			}, Help: "Tiny counts: a good cup of tea, a kind message, the sun coming out.", Answer: true},
			{ID: "second", Short: "a second good thing", Say: []string{
				"And a second good thing?",
			}, Help: "Anything at all that was a little bit okay.", Answer: true},
			{ID: "third", Short: "a third good thing", Say: []string{
				"And a third?",
			}, Help: "It can even be something you did for yourself, like resting.", Answer: true},
			{ID: "why", Short: "why one of them happened", Say: []string{
				"Pick one of them: why do you think it happened, or what was your part in it?",
			}, Help: "Maybe you noticed it, reached out, or made time for it.", Answer: true},
		},
		Done: []string{
			"Thank you for noticing those. Doing this most evenings for a week can gently shift how the days feel.",
		},
		Request: textmatch.MustCompile(`(?i)\b(three|3) good things\b|\b(gratitude (exercise|practice|list))\b`),
	},
}

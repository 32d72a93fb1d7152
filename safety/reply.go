package safety

import (
	"strings"
)

// ReplyInput is what a crisis reply is composed from.
type ReplyInput struct {
	// Assessment of the turn (level >= 2, or the third_party flag).
	Assessment Assessment
	// Country is the ISO code of the person's country, "" when unknown.
	Country string
	// Public is true when the message came from a group or public channel:
	// Text is then meant for a DM or an ephemeral reply, and PublicNote for
	// the channel.
	Public bool
	// Variant rotates the phrasing so the same block is not repeated every
	// turn (any int; taken modulo the number of phrasings).
	Variant int
	// FollowUp is true when Haven's previous reply in this conversation was
	// already a crisis reply: the person has the full list, so this reply is
	// shorter and names one line instead of repeating the block.
	FollowUp bool
	// Directory overrides the embedded directory (nil = DefaultDirectory).
	Directory *Directory
}

// Reply is a composed crisis reply.
type Reply struct {
	// Text is the reply for the person (in a DM or ephemeral message when
	// the conversation is public).
	Text string
	// PublicNote is a short, kind note for the public channel, empty when
	// the conversation is private. It never repeats what the person said.
	PublicNote string
	// AsksQuestion is true when Text ends in a question to the person.
	AsksQuestion bool
	// AsksSafetyQuestion is true when that question asks directly about
	// suicidal thoughts, intent or a plan ("yes" means risk); the next
	// turn's Input should then set AskedSafetyQuestion.
	AsksSafetyQuestion bool
	// AsksIfSafe is true when the question asks whether the person is safe
	// or has someone with them ("no" means danger); the next turn's Input
	// should then set AskedIfSafe.
	AsksIfSafe bool
}

var defaultDirectory = DefaultDirectory()

// Phrasings. Rules every template keeps (tested): no method words, at most
// one question mark in a composed reply, no numbers (numbers come only from
// the directory), no "promise me", no "committed suicide", no claim to be
// human or to have contacted anyone.

var ackImminent = []string{
	"I'm really glad you told me, and I'm taking what you said seriously. Your safety matters most right now.",
	"Thank you for telling me this. It sounds like you're in a lot of pain right now, and I want to help you stay safe.",
	"I hear how much you're hurting, and I'm glad you reached out instead of being alone with this. Let's focus on keeping you safe right now.",
	"What you're going through sounds overwhelming, and you don't have to face this moment alone. Right now, your safety comes first.",
}

var ackIdeation = []string{
	"Thank you for telling me. It takes courage to say this, and I'm glad you did. What you're feeling matters, and so do you.",
	"I'm really sorry you're carrying this much pain. You're not a burden for telling me, and you don't have to go through it alone.",
	"It sounds like things have been incredibly hard, hard enough that you've had thoughts of not wanting to be alive. I'm glad you said it out loud.",
	"I hear you, and I'm taking this seriously. Feeling this way is exhausting, and reaching out was a real step.",
}

var ackSelfInjury = []string{
	"Thank you for trusting me with this. Hurting yourself is often a way of coping with pain that feels unbearable, and you deserve support, not judgment.",
	"I'm glad you told me. There's no shame in this, and you deserve care for whatever is underneath it.",
	"It sounds like you've been in a lot of pain. I'm not here to judge you; I'd like to help you get through the urge and get some support.",
}

var ackThird = []string{
	"It's good that you're looking out for them, and it's a lot to carry. Here is what helps most right now.",
	"I'm glad they have someone like you paying attention. Being worried about someone this way is hard; here's how you can help.",
	"Thank you for reaching out about this. Your concern could make a real difference for them.",
}

var emergencyStep = []string{
	"If you might act on these thoughts soon, please call {emergency} now, or go to the nearest emergency department.",
	"Please contact emergency services now: {emergency}. If you can, go to the nearest emergency department.",
	"If you're in immediate danger, call {emergency} right now.",
}

// attemptStep is the emergency step after an attempt made or under way:
// not "if you might act", but now. One phrasing, not rotated.
const (
	attemptStep         = "If you have already taken something or hurt yourself, please call {emergency} now, or go to the nearest emergency department."
	attemptStepNoNumber = "If you have already taken something or hurt yourself, please call your local emergency number now, or go to the nearest emergency department."
)

// emergencyLine is the level-3 emergency step for a.
func emergencyLine(a Assessment, hasEmergency bool, emergency Resource, v int) string {
	switch {
	case a.Flags.Attempt && hasEmergency:
		return fill(attemptStep, emergency)
	case a.Flags.Attempt:
		return attemptStepNoNumber
	case hasEmergency:
		return fill(pick(emergencyStep, v), emergency)
	}
	return pick(emergencyStepNoNumber, v)
}

var emergencyStepNoNumber = []string{
	"If you might act on these thoughts soon, please call your local emergency number now, or go to the nearest emergency department.",
	"If you're in immediate danger, please call your local emergency number or go to the nearest emergency department right now.",
}

var personStep = []string{
	"Please try to be with someone you trust right now, in person if you can, or call them.",
	"If there's someone nearby you trust, a friend, family member or neighbour, please go to them or ask them to come to you now.",
	"Being with another person right now can help: please reach out to someone you trust and let them know you need them.",
}

var meansStep = []string{
	"If there's anything around you that you could use to hurt yourself, please put distance between you and it: another room, another person's hands, or outside the house.",
	"It can help a lot to put some distance between yourself and anything you might use to hurt yourself, even just for tonight.",
	"If you can, move away from anything you could hurt yourself with, or ask someone to hold on to it for you.",
}

var resourceLead = []string{
	"You can talk to someone right now:",
	"People are there for exactly this, any time:",
	"You can reach a trained person here:",
}

var ideationStep = []string{
	"You don't have to decide anything right now. Talking with a trained person can help you get through this moment.",
	"Reaching out to someone trained to help with exactly this can make the next few hours easier.",
	"A crisis line won't judge you; they're there to listen and help you stay safe.",
}

var selfInjuryStep = []string{
	"If you've injured yourself and it's deep, bleeding a lot or won't stop, please get medical help now.",
	"If you're hurt, please look after the injury, and get medical care if it's serious.",
}

var thirdSteps = []string{
	"Ask them directly whether they're thinking about suicide; asking doesn't put the idea in their head, and it shows you're there. Listen without judging, don't promise to keep it secret, and help them connect with support.",
	"Stay with them if you can, ask them openly how they're doing and whether they've thought about ending their life, and listen. Don't leave them alone if they might be in danger, and help them reach a crisis line or a doctor.",
	"Let them know you care and that you're there. Asking directly about suicide is okay and often a relief. If they're at immediate risk, stay with them and contact emergency services.",
}

var thirdEmergency = []string{
	"If they're in immediate danger, call {emergency} now.",
	"If you think they might act on it soon, call {emergency} and stay with them if it's safe.",
}

var thirdEmergencyNoNumber = []string{
	"If they're in immediate danger, call your local emergency number now.",
}

var aiNote = []string{
	"I'm an AI, so I can't be there in person, but I'm here to keep talking with you.",
	"I'm an AI and not a substitute for a person who can be with you, but I'm not going anywhere; we can keep talking.",
	"As an AI I can listen and help you think things through, and a person can offer what I can't.",
}

var questionImminent = []string{
	"Is there someone who can be with you right now?",
	"Are you somewhere safe at the moment?",
	"Can you tell me whether you're safe right now?",
}

var questionIdeation = []string{
	"Are you thinking about ending your life today?",
	"Have you thought about how or when you might act on these thoughts?",
	"Do you feel you might act on these thoughts?",
	"Are you safe right now?",
}

// ifSafeQuestions are the questions where "no" means danger. Every other
// safety question asks about thoughts or intent, where "yes" means risk.
var ifSafeQuestions = map[string]bool{
	"Is there someone who can be with you right now?": true,
	"Are you somewhere safe at the moment?":           true,
	"Can you tell me whether you're safe right now?":  true,
	"Are you safe right now?":                         true,
}

func asksIfSafe(q string) bool { return ifSafeQuestions[q] }

var questionSelfInjury = []string{
	"Are you safe right now?",
	"Are you having any thoughts of ending your life, or is it the urge to hurt yourself?",
	"Would it help to work out together what you can do the next time the urge comes?",
}

var questionThird = []string{
	"Is the person you're worried about safe right now?",
	"Do you know if they're safe at the moment?",
	"Are you able to be with them or reach them right now?",
}

var safetyPlanOffer = []string{
	"When you're ready, we can also make a short safety plan together.",
	"If it would help, we can write down a simple safety plan: warning signs, things that help, and people to reach.",
}

var locationHint = "If you tell me which country you're in, I can share a local line."

// publicNotes are true whether or not the private message could be
// delivered (a platform may refuse a DM to someone who never wrote to Haven
// directly): they point to the DM and ask the person to write directly.
var publicNotes = []string{
	"I'd like to talk with you privately. Please check your direct messages from me, or message me directly. You matter, and I'm here.",
	"I'm reaching out to you in a private message. If it hasn't arrived, please message me directly. Take care.",
	"Let's continue this privately: look for my direct message, or write to me directly. I'm here for you.",
}

var clarifyingQuestions = []string{
	"Sometimes when people feel this way, they have thoughts of suicide. Are you having thoughts like that?",
	"I want to make sure I understand you. Are you having thoughts of suicide?",
	"Thank you for telling me how heavy this feels. When you say that, do you mean you're thinking about killing yourself?",
	"That sounds really painful. Can I ask you directly: are you thinking about suicide?",
}

// ClarifyingQuestion returns one direct, non-leading safety question for a
// level-1 turn (warning signs without ideation): no hotline list, exactly
// one question. variant rotates the phrasing.
func ClarifyingQuestion(variant int) string {
	return pick(clarifyingQuestions, variant)
}

// CrisisReply composes the reply for a crisis turn (level >= 2, or the
// third_party flag): acknowledgement, one immediate safety step (at level 3
// emergency services, a person nearby and distance from means first), the
// country's resources from the directory (always with a location-free
// fallback), a reminder that Haven is an AI, and at most one question.
//
// A message in another language (Assessment.Language) gets the reply in
// that language where Haven has a vetted translation, else the English
// reply opened by a line saying so, with the international directory
// (lang_reply.go).
func CrisisReply(in ReplyInput) Reply {
	dir := in.Directory
	if dir == nil {
		dir = defaultDirectory
	}
	if r, ok := crisisReplyInLanguage(in, dir); ok {
		return r
	}
	return englishCrisisReply(in)
}

// englishCrisisReply is CrisisReply in English.
func englishCrisisReply(in ReplyInput) Reply {
	dir := in.Directory
	if dir == nil {
		dir = defaultDirectory
	}
	v := in.Variant
	if v < 0 {
		v = -v
	}
	a := in.Assessment
	known := in.Country != "" && dir.Has(in.Country)
	emergency, hasEmergency := Resource{}, false
	if known {
		emergency, hasEmergency = dir.Emergency(in.Country)
	}
	helplines := dir.Helplines(in.Country)

	var parts []string
	var question string
	safetyQ := false
	switch {
	case in.FollowUp && a.Level >= LevelIdeation:
		parts = append(parts, pick(ackFollowUp, v))
		if a.Level >= LevelImminent {
			parts = append(parts, emergencyLine(a, hasEmergency, emergency, v), pick(personStep, v))
		}
		if len(helplines) > 0 {
			parts = append(parts, followUpLine(helplines[0], v))
		}
		if a.Level >= LevelImminent {
			question, safetyQ = pick(questionImminent, v), true
		} else {
			question, safetyQ = pick(questionIdeation, v), true
		}
	case a.Level >= LevelImminent:
		parts = append(parts, pick(ackImminent, v), emergencyLine(a, hasEmergency, emergency, v))
		parts = append(parts, pick(personStep, v), pick(meansStep, v))
		parts = append(parts, resourceBlock(helplines, pick(resourceLead, v)))
		parts = append(parts, pick(aiNote, v))
		question, safetyQ = pick(questionImminent, v), true
	case a.Level >= LevelIdeation && a.Flags.SelfInjury && !strings.Contains(a.Reason, "wish to be dead"):
		parts = append(parts, pick(ackSelfInjury, v), pick(selfInjuryStep, v))
		parts = append(parts, resourceBlock(helplines, pick(resourceLead, v)))
		parts = append(parts, fallbackLine(hasEmergency, emergency))
		parts = append(parts, pick(aiNote, v))
		question, safetyQ = pick(questionSelfInjury, v), true
	case a.Level >= LevelIdeation:
		parts = append(parts, pick(ackIdeation, v), pick(ideationStep, v))
		parts = append(parts, resourceBlock(helplines, pick(resourceLead, v)))
		parts = append(parts, fallbackLine(hasEmergency, emergency))
		parts = append(parts, pick(aiNote, v), pick(safetyPlanOffer, v))
		question, safetyQ = pick(questionIdeation, v), true
	default: // third party
		parts = append(parts, pick(ackThird, v), pick(thirdSteps, v))
		if hasEmergency {
			parts = append(parts, fill(pick(thirdEmergency, v), emergency))
		} else {
			parts = append(parts, pick(thirdEmergencyNoNumber, v))
		}
		parts = append(parts, resourceBlock(helplines, "They, or you, can reach:"))
		question = pick(questionThird, v)
	}
	if !known && !in.FollowUp {
		parts = append(parts, locationHint)
	}
	if question != "" {
		parts = append(parts, question)
	}
	ifSafe := safetyQ && asksIfSafe(question)
	r := Reply{
		Text:               strings.Join(parts, "\n\n"),
		AsksQuestion:       question != "",
		AsksSafetyQuestion: safetyQ && !ifSafe,
		AsksIfSafe:         ifSafe,
	}
	if in.Public {
		r.PublicNote = pick(publicNotes, v)
	}
	return r
}

// fallbackLine is the location-free safety line for level-2 replies.
func fallbackLine(hasEmergency bool, e Resource) string {
	if hasEmergency {
		return "If you feel you might act on these thoughts, call " + e.Phone + " or go to the nearest emergency department."
	}
	return "If you feel you might act on these thoughts, call your local emergency number or go to the nearest emergency department."
}

// resourceBlock renders helplines from the directory as a short list.
func resourceBlock(rs []Resource, lead string) string {
	var b strings.Builder
	b.WriteString(lead)
	for _, r := range rs {
		b.WriteString("\n- ")
		// A question mark in a service's name ("Need to Talk?") would read as
		// a second question.
		b.WriteString(strings.ReplaceAll(r.Name, "?", ""))
		b.WriteString(": ")
		b.WriteString(r.Contact)
		if r.Hours != "" && !strings.Contains(r.Contact, r.Hours) {
			b.WriteString(" (")
			b.WriteString(r.Hours)
			b.WriteString(")")
		}
	}
	return b.String()
}

// ackFollowUp opens a crisis reply that follows another one: it stays with
// the person without repeating the first reply.
var ackFollowUp = []string{
	"I'm still here with you, and I'm glad you're still talking to me.",
	"Thank you for answering me. I'm staying right here with you.",
	"I hear you. You don't have to get through this moment alone.",
}

// followUpLine names one line again, briefly, instead of the whole block.
func followUpLine(r Resource, v int) string {
	name := strings.ReplaceAll(r.Name, "?", "")
	switch v % 2 {
	case 0:
		return "The line I shared is there any time: " + name + ", " + r.Contact + "."
	default:
		return "You can reach " + name + " any time: " + r.Contact + "."
	}
}

// fill puts an emergency resource's number into a template.
func fill(tpl string, e Resource) string {
	return strings.ReplaceAll(tpl, "{emergency}", e.Phone)
}

func pick(xs []string, v int) string {
	if v < 0 {
		v = -v
	}
	return xs[v%len(xs)]
}

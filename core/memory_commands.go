package core

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/havenbot/haven/internal/textmatch"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/memory"
	"github.com/havenbot/haven/memory/extract"
)

// approvalTTL is how long "forget everything?" waits for a yes.
const approvalTTL = 10 * time.Minute

// actionForgetAll is the pending approval of "forget everything".
const actionForgetAll = "forget_all"

// unsafeRuleReply answers a request that would weaken safety.
const unsafeRuleReply = "I hear you, and I'll keep things as light as I can. There's one thing I can't switch off, though: " +
	"if you ever tell me you might be in danger, I'll always share a way to reach someone who can help right away. " +
	"That's there to keep you safe, not to push you. Other than that, tell me how you'd like me to talk with you " +
	"(shorter replies, just listening, fewer questions) and I'll remember it."

// forgetThat is the argument of a forget command that means "what my last
// message said" ("don't remember that", "/forget that").
const forgetThat = "that"

// plainMemory recognises memory controls said in plain words. Each pattern
// must match the whole message (once plainCore has taken off the fillers
// and courtesies around it), so ordinary conversation is never taken for a
// command.
var plainMemory = []struct {
	re   *textmatch.Regexp
	name string
	args string // "$1" takes the first group
}{
	{textmatch.MustCompile(`^(what|what else) (do|did) you (remember|know|keep) about me$|^what have you (remembered|saved|kept)( about me)?$|^(show|list)( me)? (my memories|what you remember( about me)?)$`), "memory", "list"},
	{textmatch.MustCompile(`^forget (everything|all of it|all about me|everything (you know )?about me|everything i('ve| have) (said|told you))$`), "forget", "all"},
	{textmatch.MustCompile(`^forget (number |#|no\.? ?)?([0-9]{1,4})$`), "forget", "$2"},
	{textmatch.MustCompile(`^(export|download|send me|give me) (all )?(my data|my memories|everything you (have|keep|know) about me)$`), "export", ""},
	{textmatch.MustCompile(`^(pause memory|go incognito|incognito( mode)?( on)?|stop remembering( things)?|don't remember anything( from now on)?)$`), "memory", "pause"},
	{textmatch.MustCompile(`^(resume memory|incognito off|start remembering( again)?|you can remember (things )?again)$`), "memory", "resume"},
	{textmatch.MustCompile(`^(turn )?(proactive )?recall (off|on)$`), "memory", "recall $3"},
}

var (
	// plainLead, plainPolite and plainTail are what surrounds a request
	// said in plain words: "actually, please ... too".
	plainLead   = textmatch.MustCompile(`^((actually|oh|and|also|ok|okay|hey|um|umm|so|wait|sorry|right|hmm|well|haven|one more thing|oh and|and also)[,:;]? )+`)
	plainPolite = textmatch.MustCompile(`^((please|pls|plz|can you|could you|would you|will you|i'd like you to|i would like you to|i want you to|i need you to|kindly|just) )+`)
	plainTail   = textmatch.MustCompile(`(,? (too|as well|also|please|thanks|thank you|for me|if you can|if you could|if that's ok|if that's okay|ok|okay))+$`)

	// forgetLastRE asks to forget what the last message said.
	forgetLastRE = textmatch.MustCompile(`^((forget|delete|erase|remove) (what i (just )?(said|wrote|told you)|i (ever )?said (that|anything)|the last thing i said|my last message|that last (bit|message|part))|(don't|dont|do not) (remember|keep|save|store|note down|hold on to) (that|this|what i (just )?said))$`)
	// forgetThisRE is "forget that" alone: a request only when said with a
	// courtesy ("please forget that"); bare, it is as often "never mind".
	forgetThisRE = textmatch.MustCompile(`^(forget|delete|erase) (that|this)$`)
	// forgetDetailRE asks to forget a detail: "forget that I have a dog",
	// "forget about my ADHD", "forget what I said about my sister".
	forgetDetailRE = textmatch.MustCompile(`^(forget|delete|erase|remove|wipe) (((that|what|everything|anything|the (stuff|thing|bit)) i (just )?(said|mentioned|told you|wrote|shared)( about| regarding| re| of)?|(what|everything|anything) you (know|remember|have|kept|saved) about|all about|about|the fact that|that|(?P<my>my|our)) )(?P<detail>.+)$`)
	// notADetail are words that never name a detail: "forget about it" and
	// "forget about him" are said as feelings, not requests.
	notADetail = textmatch.MustCompile(`^(it|that|this|them|him|her|me|us|you|everything|anything|all|all of it|the past|the whole thing|today|yesterday|last night)$`)
)

// trimEnd drops surrounding space and trailing sentence punctuation.
func trimEnd(s string) string {
	return strings.TrimRight(strings.TrimSpace(s), " \t\r\n.!?")
}

// plainCore returns a short message lower-cased, with the fillers and
// courtesies around a request taken off, and whether a courtesy ("please",
// "can you") was among them. "" for a message too long to be a command.
func plainCore(text string) (core string, polite bool) {
	// Commands are short; a long message is never one (and is not scanned).
	if len(text) > 400 {
		return "", false
	}
	s := strings.ToLower(trimEnd(text))
	s = strings.Join(strings.Fields(strings.ReplaceAll(s, "’", "'")), " ")
	if len(s) > 200 {
		return "", false
	}
	for range 2 {
		s = strings.TrimPrefix(s, plainLead.FindString(s))
		if p := plainPolite.FindString(s); p != "" {
			s, polite = strings.TrimPrefix(s, p), true
		}
	}
	if loc := plainTail.FindStringIndex(s); loc != nil {
		polite = polite || strings.Contains(s[loc[0]:], "please")
		s = s[:loc[0]]
	}
	return trimEnd(s), polite
}

// plainForget reads a request to forget something said in plain words and
// returns the forget command's argument: forgetThat for "what my last
// message said", else the words that name the detail. ok is false for
// anything else, including "I forgot my keys" and "I want to forget him".
func plainForget(s string, polite bool) (arg string, ok bool) {
	if forgetLastRE.MatchString(s) || (polite && forgetThisRE.MatchString(s)) {
		return forgetThat, true
	}
	m := forgetDetailRE.FindStringSubmatch(s)
	if m == nil {
		return "", false
	}
	detail := strings.TrimSpace(m[forgetDetailRE.SubexpIndex("detail")])
	if my := m[forgetDetailRE.SubexpIndex("my")]; my != "" {
		detail = my + " " + detail
	}
	// A detail is a few words; a clause after a comma, or a long one, is
	// conversation ("forget about my ex, he never cared").
	if notADetail.MatchString(detail) || strings.ContainsAny(detail, ",;:") || len(strings.Fields(detail)) > 8 {
		return "", false
	}
	return detail, true
}

// plainMemoryCommand returns the memory command a message says in plain
// words, or nil. A request that would weaken safety ("never mention
// hotlines") is one too: it is refused kindly.
func plainMemoryCommand(text string) *Command {
	s, polite := plainCore(text)
	if s == "" {
		return nil
	}
	for _, p := range plainMemory {
		m := p.re.FindStringSubmatchIndex(s)
		if m == nil {
			continue
		}
		args := string(p.re.ExpandString(nil, p.args, s, m))
		return &Command{Name: p.name, Args: strings.TrimSpace(args), Plain: true}
	}
	if arg, ok := plainForget(s, polite); ok {
		return &Command{Name: "forget", Args: arg, Plain: true}
	}
	if extract.UnsafeRule(text) {
		return &Command{Name: "memory", Args: "unsafe-rule", Plain: true}
	}
	return nil
}

// memoryCommand answers /memory, /forget and /export and their plain-word
// forms. It reports false for any other command.
func (e *Engine) memoryCommand(ctx context.Context, t *Turn) bool {
	c := t.Command
	var sub, arg string
	switch c.Name {
	case "memory":
		sub, arg, _ = strings.Cut(c.Args, " ")
		sub = strings.ToLower(sub)
	case "forget":
		sub, arg = "forget", c.Args
	case "export":
		sub = "export"
	default:
		return false
	}
	arg = strings.TrimSpace(arg)
	if sub == "unsafe-rule" {
		e.memoryReply(t, unsafeRuleReply)
		return true
	}
	if e.mem == nil {
		e.memoryReply(t, "Long-term memory isn't switched on in this Haven, so I don't keep anything about you beyond our conversations.")
		return true
	}
	var text string
	var file *channels.File
	var err error
	switch sub {
	case "", "list":
		text, err = e.listMemory(ctx, t)
	case "forget":
		text, err = e.forget(ctx, t, arg)
	case "export":
		text, file, err = e.exportMemory(ctx, t)
	case "pause", "resume":
		st := t.MemorySettings
		if !t.MemoryLoaded {
			st, err = e.mem.Settings(ctx, t.Person.ID)
		}
		if err == nil {
			st.Paused = sub == "pause"
			err = e.mem.SetSettings(ctx, t.Person.ID, st)
		}
		text = "Memory is paused: from now on I won't remember anything new from our conversations, until you say /memory resume. (If you're ever in danger I'll still help, and keep a record without your words.)"
		if sub == "resume" {
			text = "Memory is back on: I'll remember what matters from our conversations again. /memory shows what I keep."
		}
	case "recall":
		on := strings.EqualFold(arg, "on")
		if !on && !strings.EqualFold(arg, "off") {
			text = "Say /memory recall on to let me bring up things you told me before, or /memory recall off to have me keep them to myself unless you ask."
			break
		}
		var st memory.Settings
		st, err = e.mem.Settings(ctx, t.Person.ID)
		if err == nil {
			st.Proactive = on
			err = e.mem.SetSettings(ctx, t.Person.ID, st)
		}
		text = "Okay, I won't bring up things you told me before unless you ask."
		if on {
			text = "Okay, I'll bring up things you told me before when they seem to matter."
		}
	default:
		text = "The memory commands are: /memory (what I remember), /forget 2 or /forget words (forget one thing), /forget all, /export, /memory pause, /memory resume, /memory recall on|off."
	}
	if err != nil {
		t.Err = fmt.Errorf("memory command %s for person %s: %w", sub, t.Person.ID, err)
		e.logger(t).Error("memory command failed", slog.String("command", sub), slog.Any("err", err))
		text, file = "Sorry, I couldn't reach my memory just now. Please try again in a moment.", nil
	}
	e.memoryReplyFile(t, text, file)
	return true
}

// memoryReply answers a memory command: in a DM as usual; in a group or
// channel privately to the person, with a short note in the channel.
func (e *Engine) memoryReply(t *Turn, text string) { e.memoryReplyFile(t, text, nil) }

// memoryReplyFile is memoryReply with a file attached (nil for none): the
// file goes wherever the text goes, so in a group it too is private.
func (e *Engine) memoryReplyFile(t *Turn, text string, file *channels.File) {
	t.Reply, t.ReplyKind = text, channels.OutReply
	if !t.In.Conversation.Kind.Public() {
		o := t.reply(channels.OutReply, text)
		o.File = file
		t.Out = append(t.Out, o)
		return
	}
	t.Out = append(t.Out,
		channels.Outbound{Platform: t.In.Platform, Conversation: t.In.Conversation, Kind: channels.OutReply,
			Private: true, Recipient: t.In.Author.ID, Text: text, File: file},
		t.reply(channels.OutNotice, "I've answered you privately: what I remember about you is never shown here."))
}

func (e *Engine) listMemory(ctx context.Context, t *Turn) (string, error) {
	recs, err := e.mem.Records(ctx, t.Person.ID)
	if err != nil {
		return "", err
	}
	st, err := e.mem.Settings(ctx, t.Person.ID)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if len(recs) == 0 {
		b.WriteString("I don't remember anything about you yet.")
	} else {
		b.WriteString("Here's what I remember about you:\n")
		for i, r := range recs {
			prefix := ""
			switch r.Ref.Kind {
			case memory.KindRule:
				prefix = "how you like me to talk: "
			case memory.KindEpisode:
				prefix = "a past conversation: "
			}
			fmt.Fprintf(&b, "%d. %s%s\n", i+1, prefix, r.Words(memory.ToThem))
		}
		b.WriteString("\nSay /forget and a number to forget one thing, /forget and some words to forget what mentions them, /forget all for everything, or /export for a copy.")
	}
	if st.Paused {
		b.WriteString("\nMemory is paused (incognito): /memory resume turns it back on.")
	}
	if !st.Proactive {
		b.WriteString("\nProactive recall is off: /memory recall on turns it back on.")
	}
	return b.String(), nil
}

func (e *Engine) forget(ctx context.Context, t *Turn, arg string) (string, error) {
	switch strings.ToLower(arg) {
	case "":
		return "What should I forget? Say /forget 2 (a number from /memory), /forget and some words, /forget that (what you just said), or /forget all.", nil
	case "all", "everything":
		cp := t.Checkpoint
		cp.PendingApproval = &memory.Approval{
			Action:  actionForgetAll,
			Prompt:  "forget everything",
			Expires: e.now().Add(approvalTTL),
		}
		t.Diag.StoreWrites++
		if err := e.store.CommitTurn(ctx, memory.TurnRecord{SessionID: t.Session.ID, Checkpoint: cp}); err != nil {
			return "", err
		}
		t.Checkpoint, t.askedApproval = cp, true
		return "Are you sure? I'll delete everything I hold about you: what I remember, our conversations, your settings. " +
			"It can't be undone. Reply yes to go ahead or no to keep it.", nil
	}
	recs, err := e.mem.Records(ctx, t.Person.ID)
	if err != nil {
		return "", err
	}
	if strings.EqualFold(arg, forgetThat) {
		return e.forgetLastMessage(ctx, t, recs)
	}
	if n, err := strconv.Atoi(arg); err == nil {
		if n < 1 || n > len(recs) {
			return fmt.Sprintf("I don't have a number %d; /memory shows the list (%d %s).", n, len(recs), plural(len(recs), "item", "items")), nil
		}
		r := recs[n-1]
		lines, err := e.mem.MatchTranscript(ctx, t.Person.ID, mentionsRecord([]memory.Record{r}))
		if err != nil {
			return "", err
		}
		if err := e.mem.Forget(ctx, t.Person.ID, append([]memory.Ref{r.Ref}, transcriptRefs(lines)...)...); err != nil {
			return "", err
		}
		return "Done, I've forgotten that: " + r.Words(memory.ToThem), nil
	}
	var matched []memory.Record
	for _, r := range recs {
		if memory.Matches(arg, r.Text()) {
			matched = append(matched, r)
		}
	}
	byRecord := mentionsRecord(matched)
	ids, err := e.mem.MatchTranscript(ctx, t.Person.ID, func(s string) bool { return memory.Matches(arg, s) || byRecord(s) })
	if err != nil {
		return "", err
	}
	if len(matched) == 0 && len(ids) == 0 {
		return "I couldn't find anything I remember about that. /memory shows everything I keep.", nil
	}
	if err := e.mem.Forget(ctx, t.Person.ID, append(recordRefs(matched), transcriptRefs(ids)...)...); err != nil {
		return "", err
	}
	return forgotten(len(matched), len(ids)), nil
}

// forgetLastMessage forgets what the person's last message in this
// session said: the facts drawn from it, the message itself and Haven's
// replies to it, and every other line of our conversations that names one
// of those facts.
func (e *Engine) forgetLastMessage(ctx context.Context, t *Turn, recs []memory.Record) (string, error) {
	last, text, err := e.mem.LastMessage(ctx, t.Person.ID, t.Session.ID)
	if err != nil {
		return "", err
	}
	if len(last) == 0 {
		return "I don't have anything from you in this conversation to forget. /memory shows everything I keep.", nil
	}
	var matched []memory.Record
	for _, r := range recs {
		if f := r.Fact; f != nil && f.SessionID == t.Session.ID &&
			(f.Turn == t.Checkpoint.TurnCount || f.Evidence != "" && strings.Contains(strings.ToLower(text), strings.ToLower(f.Evidence))) {
			matched = append(matched, r)
		}
	}
	byRecord := mentionsRecord(matched)
	ids, err := e.mem.MatchTranscript(ctx, t.Person.ID, byRecord)
	if err != nil {
		return "", err
	}
	for _, id := range last {
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	if err := e.mem.Forget(ctx, t.Person.ID, append(recordRefs(matched), transcriptRefs(ids)...)...); err != nil {
		return "", err
	}
	return forgotten(len(matched), len(ids)), nil
}

// forgotten is the reply to a forget: how many memories and lines went.
func forgotten(records, lines int) string {
	return fmt.Sprintf("Done. I've forgotten %d %s about that, and %d %s of our conversations that mentioned it.",
		records, plural(records, "memory", "memories"), lines, plural(lines, "line", "lines"))
}

// mentionsRecord returns a match for transcript lines that name one of
// recs: a fact's name (the person or pet it is about, or what it says of
// the person: "Leeds", "nurse") or the person's words it was drawn from.
// So forgetting a fact also forgets the message that told it and Haven's
// replies that quoted it back.
func mentionsRecord(recs []memory.Record) func(string) bool {
	var names, quotes []string
	for _, r := range recs {
		f := r.Fact
		if f == nil {
			continue
		}
		name := f.Object
		if f.Subject != "" && !strings.EqualFold(f.Subject, memory.Self) {
			name = f.Subject
		}
		if len(memory.Terms(name)) > 0 {
			names = append(names, name)
		}
		if q := strings.TrimSpace(f.Evidence); q != "" {
			quotes = append(quotes, strings.ToLower(q))
		}
	}
	return func(s string) bool {
		for _, n := range names {
			if memory.Matches(n, s) {
				return true
			}
		}
		low := strings.ToLower(s)
		for _, q := range quotes {
			if strings.Contains(low, q) {
				return true
			}
		}
		return false
	}
}

func recordRefs(recs []memory.Record) []memory.Ref {
	refs := make([]memory.Ref, 0, len(recs))
	for _, r := range recs {
		refs = append(refs, r.Ref)
	}
	return refs
}

func transcriptRefs(ids []int64) []memory.Ref {
	refs := make([]memory.Ref, 0, len(ids))
	for _, id := range ids {
		refs = append(refs, memory.Ref{Kind: memory.KindTranscript, ID: id})
	}
	return refs
}

// exportCaption is the text that goes with the export file.
const exportCaption = "Here is everything I hold about you."

// exportMemory builds the export: a JSON file named for today's date, with
// a short caption. The Hub delivers it as a file where the platform takes
// files and as JSON text where it does not. An export over
// channels.MaxFileSize is not sent; the reply says so.
func (e *Engine) exportMemory(ctx context.Context, t *Turn) (string, *channels.File, error) {
	ex, err := e.mem.Export(ctx, t.Person.ID)
	if err != nil {
		return "", nil, err
	}
	data, err := json.MarshalIndent(ex, "", "  ")
	if err != nil {
		return "", nil, fmt.Errorf("encode export: %w", err)
	}
	data = append(data, '\n')
	if len(data) > channels.MaxFileSize {
		e.logger(t).Warn("export too large to send in a chat", slog.Int("bytes", len(data)), slog.Int("max", channels.MaxFileSize))
		return fmt.Sprintf("Everything I hold about you comes to %s, more than the %s I can send in a chat, so I can't send it here. "+
			"Nothing has been deleted. The person who runs this Haven can give you a copy from its database, "+
			"or /memory and /forget let you see and trim what I keep.",
			channels.FormatSize(len(data)), channels.FormatSize(channels.MaxFileSize)), nil, nil
	}
	return exportCaption, &channels.File{
		Name:        "haven-export-" + e.now().Format("2006-01-02") + ".json",
		ContentType: "application/json",
		Data:        data,
	}, nil
}

var (
	reYes = textmatch.MustCompile(`^(yes|y|yep|yeah|yup|sure|ok|okay|do it|go ahead|confirm|yes please|yes,? (forget|delete) (it|everything|all)( please)?)$`)
	reNo  = textmatch.MustCompile(`^(no|n|nope|nah|cancel|stop|don't|do not|keep it|no thanks|no thank you|never ?mind)$`)
)

// approvalAnswer reads a message as the answer to a pending approval:
// "yes", "no", or "" for anything else.
func approvalAnswer(text string) string {
	if len(text) > 100 {
		return ""
	}
	s := strings.ToLower(trimEnd(text))
	switch {
	case reYes.MatchString(s):
		return "yes"
	case reNo.MatchString(s):
		return "no"
	}
	return ""
}

// checkApproval runs at the gateway: an expired approval, or one the
// message does not answer, is dropped; a yes or no is recorded for the
// approval node.
func (e *Engine) checkApproval(t *Turn) {
	ap := t.Checkpoint.PendingApproval
	if ap == nil {
		return
	}
	if !ap.Expires.IsZero() && e.now().After(ap.Expires) {
		t.Checkpoint.PendingApproval = nil
		if ap.Action == actionTask {
			t.Tasks.Plan = nil
		}
		return
	}
	if ap.Action == actionTask {
		e.checkTaskApproval(t)
		return
	}
	text := t.In.Text
	if ap.Action == actionForgetUser {
		// An admin confirms with the command they asked with, where a
		// plain "yes" would be public or not reach Haven (a slash command).
		if rest, ok := cutAdminPrefix(text); ok {
			text = rest
		}
	}
	if t.ApprovalAnswer = approvalAnswer(text); t.ApprovalAnswer == "" {
		t.Checkpoint.PendingApproval = nil
	}
}

// approval carries out or cancels the pending approval.
func (e *Engine) approval(ctx context.Context, t *Turn) {
	t.approvalDone = true
	ap := t.Checkpoint.PendingApproval
	t.Checkpoint.PendingApproval = nil
	if ap != nil && ap.Action == actionForgetUser {
		e.confirmForgetUser(ctx, t, ap)
		return
	}
	if ap != nil && ap.Action == actionTask {
		e.resumeTask(ctx, t)
		return
	}
	if ap != nil && ap.Action == actionForgetAll && t.ApprovalAnswer == "yes" && e.mem != nil {
		t.Diag.StoreWrites++
		if err := e.mem.ForgetAll(ctx, t.Person.ID); err != nil {
			t.Err = fmt.Errorf("forget everything about person %s: %w", t.Person.ID, err)
			e.memoryReply(t, "Sorry, something went wrong and I couldn't delete everything. Nothing was lost; please try again in a moment.")
			return
		}
		e.logger(t).Info("person forgotten at their request")
		e.memoryReply(t, "Done. I've deleted everything I held about you. If you write again, I'll meet you as someone new.")
		return
	}
	t.Diag.StoreWrites++
	if err := e.store.CommitTurn(ctx, memory.TurnRecord{SessionID: t.Session.ID, Checkpoint: t.Checkpoint}); err != nil {
		e.logger(t).Error("approval: save checkpoint failed", slog.String("session", t.Session.ID), slog.Any("err", err))
	}
	e.memoryReply(t, "Okay, I've kept everything as it was.")
}

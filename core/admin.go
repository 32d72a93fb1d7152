package core

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"strings"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/memory"
)

// ChannelControls are what the pause, resume and policy admin commands
// need: each conversation's settings, kept in the store (Options.Channels;
// memory/sqlite's Store implements it).
type ChannelControls interface {
	channels.ChannelPolicies
	// SetChannelSettings saves the conversation's settings; by is the
	// admin's namespaced platform id.
	SetChannelSettings(ctx context.Context, conversationID string, st channels.ChannelSettings, by string) error
}

// adminCommand is one parsed "/haven ..." command.
type adminCommand struct {
	// sub is the command word ("pause"); arg what follows it, checked.
	sub, arg string
}

// audit returns the command as the audit log records it: the command word
// and its checked argument, never free text. forget-user keeps no id: the
// person is to leave nothing behind.
func (c adminCommand) audit() string {
	if c.arg == "" || c.sub == "forget-user" {
		return c.sub
	}
	return c.sub + " " + c.arg
}

// adminSpec describes one admin command for /haven help.
type adminSpec struct {
	sub, usage, doc string
	// args reads the command's argument; ok is false when it is not one
	// the command takes. nil takes no argument.
	args func(string) (string, bool)
}

// adminList is every admin command, in help order.
var adminList = []adminSpec{
	{"help", "help", "these commands", nil},
	{"status", "status", "version and uptime, each platform's liveness, queues and outbox backlog, the model, the database and its last backup", nil},
	{"stats", "stats [day|week|month]", "de-identified counts: turns, people, routes and modes, crisis levels, exercises, guard replacements", parseStatsPeriod},
	{"crisis", "crisis [n]", "the last n crisis-log rows (10 by default): ids, levels, rules, never text; only in the operators' alert conversation or a DM", parseCrisisCount},
	{"forget-user", "forget-user <id>", "erase everything Haven holds about a person (their platform id, e.g. telegram::42, or the person id from the crisis log) after you confirm; they are not told who asked", parseUserID},
	{"reload", "reload", "re-read the configuration file: admins and the default country change at once; what needs a restart is named", nil},
	{"pause", "pause", "stop answering in this conversation (a message in crisis still gets the crisis reply)", nil},
	{"resume", "resume", "answer in this conversation again", nil},
	{"policy", "policy mentions|all|dm-only", "when I answer here: mentions and replies, every message, or only in DMs", func(s string) (string, bool) {
		p, ok := channels.ParsePolicy(s)
		return string(p), ok
	}},
}

// parseAdmin reads the words after "/haven": ok is false unless they are
// one admin command with a valid argument.
func parseAdmin(args string) (adminCommand, bool) {
	// The command word is case-blind; an argument keeps its case (a Slack
	// user id is upper case).
	f := strings.Fields(args)
	if len(f) > 0 {
		f[0] = strings.ToLower(f[0])
	}
	if len(f) == 0 {
		return adminCommand{sub: "help"}, true
	}
	if len(f) > 2 {
		return adminCommand{}, false
	}
	for _, s := range adminList {
		if s.sub != f[0] {
			continue
		}
		switch {
		case s.args == nil && len(f) == 1:
			return adminCommand{sub: s.sub}, true
		case s.sub == "stats" && len(f) == 1:
			return adminCommand{sub: s.sub, arg: "day"}, true
		case s.sub == "crisis" && len(f) == 1:
			return adminCommand{sub: s.sub, arg: strconv.Itoa(defaultCrisisRows)}, true
		case s.args != nil && len(f) == 2:
			a, ok := s.args(f[1])
			return adminCommand{sub: s.sub, arg: a}, ok
		}
		return adminCommand{}, false
	}
	return adminCommand{}, false
}

// adminCommandName is the command word of admin commands ("/haven").
const adminCommandName = "haven"

// Admin reports whether the command is a well-formed admin command
// ("/haven pause"): it goes to the admin node without passing the crisis
// gate, and never reaches the transcript or memory.
func (c *Command) Admin() bool {
	if c.Name != adminCommandName {
		return false
	}
	_, ok := parseAdmin(c.Args)
	return ok
}

// plainAdminCommand returns the admin command an admin says in plain words
// addressed to Haven ("pause", "policy all"), or nil.
func plainAdminCommand(text string) *Command {
	if len(text) > 60 {
		return nil
	}
	s := strings.TrimSpace(text)
	if _, ok := parseAdmin(s); !ok || s == "" {
		return nil
	}
	return &Command{Name: adminCommandName, Args: s, Plain: true}
}

// isAdmin reports whether the author may run admin commands: a configured
// admin, or one the platform says administers the conversation. A bot
// never is.
func (e *Engine) isAdmin(t *Turn) bool {
	a := t.In.Author
	return !a.IsBot && (a.PlatformAdmin || (*e.admins.Load())[a.ID])
}

// loadChannel reads the conversation's settings at the gateway. A failure
// is logged and leaves the defaults: Haven answers rather than falls
// silent.
func (e *Engine) loadChannel(ctx context.Context, t *Turn) {
	if e.channels == nil {
		return
	}
	st, err := e.channels.ChannelSettings(ctx, t.In.Conversation.ID)
	if err != nil {
		e.logger(t).Warn("channel settings unavailable; using the defaults", slog.String("conversation", t.In.Conversation.ID), slog.Any("err", err))
		return
	}
	t.Channel = st
}

// quiet reports whether the conversation's settings keep Haven from its
// ordinary answers: paused, or dm-only in a shared conversation.
func (t *Turn) quiet() bool {
	return t.Channel.Paused || t.dmOnly()
}

// dmOnly reports whether Haven answers this message only with a pointer to
// a DM.
func (t *Turn) dmOnly() bool {
	return t.Channel.Policy == channels.PolicyDMOnly && t.In.Conversation.Kind.Public()
}

// admin runs an admin command: refused (and audited) for anyone who is not
// an admin; otherwise carried out, audited and answered privately.
func (e *Engine) admin(ctx context.Context, t *Turn) {
	t.adminDone = true
	c, ok := parseAdmin(t.Command.Args)
	if !e.isAdmin(t) {
		cmd := "unknown"
		if ok {
			cmd = c.audit()
		}
		e.audit(ctx, t, cmd, false, "not an admin")
		e.adminReply(t, "Only an admin of this Haven can run /haven commands here.")
		return
	}
	if ok && c.sub == "crisis" && !e.privateForAdmins(t) {
		e.audit(ctx, t, c.audit(), false, "not a private conversation")
		e.adminReply(t, "The crisis log is shown only in the operators' alert conversation or a direct message with me.")
		return
	}
	if !ok {
		e.audit(ctx, t, "unknown", true, "unknown command")
		e.adminReply(t, "I don't know that admin command.\n\n"+adminHelp())
		return
	}
	text, err := e.runAdmin(ctx, t, c)
	detail := "ok"
	if err != nil {
		detail = "failed"
		e.logger(t).Error("admin command failed", slog.String("command", c.sub), slog.Any("err", err))
		text = fmt.Sprintf("Sorry, /haven %s failed: %v", c.sub, err)
	}
	e.audit(ctx, t, c.audit(), true, detail)
	e.adminReply(t, text)
}

// runAdmin carries out an admin's command and returns the answer.
func (e *Engine) runAdmin(ctx context.Context, t *Turn, c adminCommand) (string, error) {
	switch c.sub {
	case "status":
		if e.status == nil {
			return "Status is not available in this Haven.", nil
		}
		return statusText(e.status.Status(ctx), e.now(), e.liveWindow), nil
	case "stats":
		if e.stats == nil {
			return "Stats are not available in this Haven (no store for them).", nil
		}
		st, err := e.stats.Stats(ctx, e.now().Add(-statsPeriods[c.arg]))
		if err != nil {
			return "", err
		}
		return statsText(c.arg, st), nil
	case "crisis":
		if e.crisisRows == nil {
			return "The crisis log is not available in this Haven (no store for it).", nil
		}
		n, _ := strconv.Atoi(c.arg)
		rows, err := e.crisisRows.RecentCrisis(ctx, n)
		if err != nil {
			return "", err
		}
		return crisisText(rows), nil
	case "reload":
		if e.reloader == nil {
			return "Reloading the configuration is not available in this Haven.", nil
		}
		r, err := e.reloader.Reload(ctx)
		if err != nil {
			return "", fmt.Errorf("%w (nothing changed)", err)
		}
		return reloadText(r), nil
	case "forget-user":
		return e.askForgetUser(ctx, t, c.arg)
	case "pause", "resume", "policy":
		if e.channels == nil {
			return "Channel settings are not available in this Haven (no store for them).", nil
		}
		st := t.Channel
		var text string
		switch c.sub {
		case "pause":
			st.Paused = true
			text = "Paused: I won't answer in this conversation until an admin says /haven resume. A message in crisis still gets the crisis reply, privately where the platform allows."
		case "resume":
			st.Paused = false
			text = "Resumed: I'm answering in this conversation again."
		case "policy":
			st.Policy = channels.Policy(c.arg)
			text = policyText(st.Policy)
		}
		if err := e.channels.SetChannelSettings(ctx, t.In.Conversation.ID, st, t.In.Author.ID); err != nil {
			return "", err
		}
		t.Channel = st
		return text, nil
	}
	return adminHelp(), nil
}

func policyText(p channels.Policy) string {
	switch p {
	case channels.PolicyAll:
		return "Policy set to all: I'll answer every message in this conversation."
	case channels.PolicyDMOnly:
		return "Policy set to dm-only: here I'll only point people to a direct message (a message in crisis still gets the crisis reply)."
	}
	return "Policy set to mentions: I'll answer messages that mention me or reply to me."
}

// adminHelp lists the admin commands. Every platform takes them as
// "/haven ..." (a slash command on Slack and Discord, a bot command on
// Telegram, typed in the terminal).
func adminHelp() string {
	const prefix = "/haven "
	var b strings.Builder
	b.WriteString("Admin commands (answered only to you):\n")
	for _, s := range adminList {
		fmt.Fprintf(&b, "- %s%s: %s\n", prefix, s.usage, s.doc)
	}
	b.WriteString("\nEvery admin command is recorded in the audit log (who, where, which command; never message text).")
	return b.String()
}

// audit records an admin command, allowed or refused; a failed write is
// logged.
func (e *Engine) audit(ctx context.Context, t *Turn, command string, allowed bool, detail string) {
	t.Diag.StoreWrites++
	ev := memory.AdminEvent{ActorID: t.In.Author.ID, Platform: t.In.Platform, ConversationID: t.In.Conversation.ID, Command: command,
		Allowed: allowed, Detail: detail, At: e.now()}
	if ev.ActorID == "" {
		ev.ActorID = "unknown"
	}
	if err := e.store.AuditAdmin(ctx, ev); err != nil {
		e.logger(t).Error("admin audit write failed", slog.String("command", command), slog.Bool("allowed", allowed), slog.Any("err", err))
	}
	// Who and where are in the audit row; the log line says what happened.
	e.logger(t).Info("admin command", slog.String("platform", t.In.Platform), slog.String("command", command),
		slog.Bool("allowed", allowed), slog.String("outcome", detail))
}

// adminReply answers an admin command privately: in a shared conversation
// only the author sees it (ephemeral on Slack and Discord, a DM on
// Telegram).
func (e *Engine) adminReply(t *Turn, text string) {
	t.Reply, t.ReplyKind = text, channels.OutReply
	if !t.In.Conversation.Kind.Public() {
		t.Out = append(t.Out, t.reply(channels.OutReply, text))
		return
	}
	t.Out = append(t.Out, channels.Outbound{Platform: t.In.Platform, Conversation: t.In.Conversation, Kind: channels.OutReply,
		Private: true, Recipient: t.In.Author.ID, ReplyTo: t.In.MessageID, Text: text})
}

// redirect answers a message in a dm-only conversation with a pointer to a
// direct message.
func (e *Engine) redirect(t *Turn) {
	t.replied = true
	text := "In this conversation I only answer in direct messages: write to me there and I'll be glad to talk."
	t.Reply, t.ReplyKind = text, channels.OutNotice
	t.Out = append(t.Out, t.reply(channels.OutNotice, text))
}

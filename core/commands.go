package core

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/core/tasks"
)

// Command is a slash command parsed at the gateway.
type Command struct {
	// Name is the command without its slash, lower case ("help").
	Name string
	// Args is the rest of the message after the command word.
	Args string
	// Plain is true for a command said in plain words ("what do you
	// remember about me?"), not typed with a slash.
	Plain bool
	// Capability names the task capability whose command this is
	// ("/journal ..."), set at the gateway; "" for other commands.
	Capability string
}

// Pure reports whether the command is a known one with nothing after it.
// Only pure commands skip the crisis gate.
func (c *Command) Pure() bool {
	if c.Args != "" {
		return false
	}
	if c.Name == "start" || c.Capability != "" {
		return true
	}
	for _, s := range commandList {
		if s.name == c.Name {
			return true
		}
	}
	return false
}

// builtin reports whether the command is one the gateway itself knows
// (the commands of /help, /start and the admin command): a capability's
// command can never shadow one.
func (c *Command) builtin() bool {
	if c.Name == "start" || c.Name == adminCommandName {
		return true
	}
	for _, s := range commandList {
		if s.name == c.Name {
			return true
		}
	}
	return false
}

// commandSpec describes one command for /help.
type commandSpec struct {
	name, usage string
}

// commandList is every command the gateway knows, in /help order.
var commandList = []commandSpec{
	{"help", "what Haven can do and the commands it knows"},
	{"reset", "start a new conversation (this one is kept, and closed)"},
	{"whoami", "how Haven knows you, and this conversation's session"},
	{"memory", "what Haven remembers about you; /memory pause|resume, /memory recall on|off"},
	{"forget", "forget one memory (/forget 2, /forget my ex), what you just said (/forget that) or everything (/forget all)"},
	{"export", "everything Haven holds about you, as a JSON file"},
}

// parseCommand returns the command at the start of text, or nil when text is
// not a command. "/help@HavenBot" is /help: adapters strip a mention of
// another bot before the core sees it.
func parseCommand(text string) *Command {
	s := strings.TrimSpace(text)
	if !strings.HasPrefix(s, "/") || len(s) < 2 {
		return nil
	}
	word, rest, _ := strings.Cut(s[1:], " ")
	word, _, _ = strings.Cut(word, "@")
	word = strings.ToLower(word)
	if word == "" || strings.ContainsAny(word, "/\\") {
		return nil // "/ not a command", a path like /usr/bin
	}
	return &Command{Name: word, Args: strings.TrimSpace(rest)}
}

// command answers a parsed command.
func (e *Engine) command(ctx context.Context, t *Turn) {
	t.commandDone = true
	if t.Command.Name == adminCommandName {
		e.admin(ctx, t)
		return
	}
	if e.memoryCommand(ctx, t) {
		return
	}
	var text string
	switch t.Command.Name {
	case "help", "start":
		text = helpText(t.Command.Name == "start" || t.FirstContact, e.TaskCapabilities())
	case "reset":
		old := t.Session.ID
		s, err := e.store.ResetSession(ctx, t.Person.ID, t.In.Conversation.ID, e.now())
		if err != nil {
			t.Err = fmt.Errorf("reset session for person %s: %w", t.Person.ID, err)
			return
		}
		t.Diag.StoreWrites++
		e.logger(t).Info("session reset", slog.String("person", t.Person.ID), slog.String("session", s.ID))
		t.Session, t.Checkpoint = s, s.Checkpoint
		e.sessionEnded(ctx, t, old)
		text = "Okay, we're starting fresh. What would you like to talk about?"
	case "whoami":
		text = fmt.Sprintf("You're talking to Haven as %s on %s. This conversation's session started %s and has %d %s so far.",
			t.In.Author.ID, t.In.Platform, t.Session.Started.UTC().Format("2 Jan 2006 15:04 MST"),
			t.Checkpoint.TurnCount, plural(t.Checkpoint.TurnCount, "turn", "turns"))
	default:
		names := make([]string, 0, len(commandList))
		for _, c := range commandList {
			names = append(names, "/"+c.name)
		}
		for _, c := range e.TaskCapabilities() {
			if c.Command != "" {
				names = append(names, "/"+c.Command)
			}
		}
		text = fmt.Sprintf("I don't know /%s. The commands I know are %s.", t.Command.Name, strings.Join(names, ", "))
	}
	t.Reply, t.ReplyKind = text, channels.OutReply
	t.Out = append(t.Out, t.reply(channels.OutReply, text))
}

// helpText is /help: the commands, then what Haven can do for the person
// (each capability with a Usage).
func helpText(intro bool, caps []*tasks.Capability) string {
	var b strings.Builder
	if intro {
		b.WriteString("I'm Haven, an AI companion. I'm not a therapist or an emergency service, but I'm here to listen and help you think things through.\n\n")
	}
	b.WriteString("Just write to me in your own words. Commands:\n")
	for _, c := range commandList {
		fmt.Fprintf(&b, "- /%s: %s\n", c.name, c.usage)
	}
	first := true
	for _, c := range caps {
		if c.Usage == "" {
			continue
		}
		if first {
			b.WriteString("\nThings I can do for you (a command, or just ask in your own words):\n")
			first = false
		}
		fmt.Fprintf(&b, "- %s: %s\n", c.Usage, strings.TrimSuffix(c.Description, "."))
	}
	b.WriteString("\nIf you are in danger right now, please contact your local emergency number.")
	return b.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

package discord_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/havenbot/haven/adapters/discord"
	"github.com/havenbot/haven/adapters/discord/discordtest"
	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/channels/channelstest"
)

// adminCommands stands in for the core's parsing of "/haven <command>"
// (core's business, another issue): it hands "/haven pause" to the
// scenario core as its admin command "/pause", and records every Inbound.
type adminCommands struct {
	next channels.Handler
	mu   sync.Mutex
	seen []channels.Inbound
}

func (h *adminCommands) Handle(ctx context.Context, in channels.Inbound) ([]channels.Outbound, error) {
	h.mu.Lock()
	h.seen = append(h.seen, in)
	h.mu.Unlock()
	if in.Text == "/haven pause" {
		in.Text = "/pause"
	}
	return h.next.Handle(ctx, in)
}

func (h *adminCommands) inbounds() []channels.Inbound {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.seen)
}

func invoke(w *world, channel string, who discordgo.User, command, locale string) string {
	inv := discordtest.Invocation{ChannelID: channel, UserID: who.ID, Name: "haven", Locale: locale}
	if command != "" {
		inv.Options = []discordtest.CommandOption{{Name: "command", Value: command}}
	}
	return w.srv.Invoke(inv)
}

func TestAnInteractionIsDeferredBeforeItsTurnRunsAndAnsweredEphemerally(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	// The turn waits until Discord has the deferral: the acknowledgement
	// must not wait for the turn.
	var cmds *adminCommands
	slow := func(next channels.Handler) channels.Handler {
		cmds = &adminCommands{next: next}
		return channels.HandlerFunc(func(ctx context.Context, in channels.Inbound) ([]channels.Outbound, error) {
			if _, err := w.srv.WaitCallbacks(ctx, 1); err != nil {
				return nil, err
			}
			return cmds.Handle(ctx, in)
		})
	}
	runHub(t, w, discord.Options{}, slow)
	id := invoke(w, w.general, w.ana, "how does this work", "en-GB")
	cb, err := w.srv.WaitCallbacks(ctxT(t), 1)
	if err != nil {
		t.Fatal(err)
	}
	if cb[0].InteractionID != id || cb[0].Type != discordgo.InteractionResponseDeferredChannelMessageWithSource || cb[0].Flags != discordgo.MessageFlagsEphemeral {
		t.Errorf("callback %+v, want a deferred, ephemeral acknowledgement of %s", cb[0], id)
	}
	p := w.posts(t, 1)[0]
	if p.InteractionID != id || !p.Ephemeral || p.Content != "echo: /haven how does this work" || p.Pings() {
		t.Errorf("answer %+v, want an ephemeral follow-up echoing the command, pinging nobody", p)
	}
	in := cmds.inbounds()[0]
	if in.Text != "/haven how does this work" || in.Locale != "en-GB" || !in.MentionsBot || in.DeliveryKey != "discord::interaction:"+id ||
		in.Conversation != (channels.Conversation{ID: "discord::" + w.general, Kind: channels.KindChannel}) || in.Author.ID != "discord::"+w.ana.ID {
		t.Errorf("inbound %+v", in)
	}
}

func TestAnAdminCommandFromAMemberWithoutManageServerIsRefusedEphemerally(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	var cmds *adminCommands
	h := runHub(t, w, discord.Options{Admins: []string{"discord::" + w.ben.ID}}, func(next channels.Handler) channels.Handler {
		cmds = &adminCommands{next: next}
		return cmds
	})
	tests := []struct {
		who    discordgo.User
		want   string
		pauses int
	}{
		{w.ana, channelstest.DeniedText, 0}, // a plain member
		{w.mod, channelstest.PausedText, 1}, // Manage Server
		{w.ben, channelstest.PausedText, 2}, // in the configured admins
	}
	for i, tt := range tests {
		id := invoke(w, w.general, tt.who, "pause", "")
		p := w.posts(t, i+1)[i]
		if p.Content != tt.want || !p.Ephemeral || p.InteractionID != id {
			t.Errorf("%s: answer %+v, want %q ephemerally", tt.who.GlobalName, p, tt.want)
		}
		if got := h.core.Pauses(); got != tt.pauses {
			t.Errorf("%s: %d pauses, want %d", tt.who.GlobalName, got, tt.pauses)
		}
	}
	for _, p := range w.srv.Posts() {
		if !p.Ephemeral {
			t.Errorf("a public post: %+v", p)
		}
	}
}

func TestAnInteractionInADMIsAnsweredOpenly(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	runHub(t, w, discord.Options{}, nil)
	dm := w.srv.DMChannel(w.ana.ID)
	invoke(w, dm, w.ana, "hello", "")
	p := w.posts(t, 1)[0]
	if p.Ephemeral || p.ChannelID != dm || p.Content != "echo: /haven hello" {
		t.Errorf("answer %+v, want an ordinary follow-up in the DM", p)
	}
	if cb := w.srv.Callbacks(); len(cb) != 1 || cb[0].Flags != 0 {
		t.Errorf("callbacks %+v, want one deferral without flags", cb)
	}
}

func TestAnInteractionReplayedOnResumeIsAcknowledgedAndAnsweredOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	h := runHub(t, w, discord.Options{}, nil)
	invoke(w, w.general, w.ana, "once", "")
	w.posts(t, 1)
	w.srv.ReplayOnResume(0)
	established := w.srv.Established()
	w.srv.DropConnections()
	if err := w.srv.WaitConnected(ctxT(t), established+1); err != nil {
		t.Fatal(err)
	}
	w.dm(w.ana, "marker")
	posts := w.posts(t, 2)
	if len(posts) != 2 || posts[1].Content != "echo: marker" || len(w.srv.Callbacks()) != 1 {
		t.Errorf("posts %+v and %d callbacks, want one answer, the marker's, and one callback", posts, len(w.srv.Callbacks()))
	}
	if n := strings.Count(strings.Join(h.core.Seen(), "\n"), "/haven once"); n != 1 {
		t.Errorf("the core ran %d turns for the interaction, want 1", n)
	}
}

func TestAnAnswerToAnInteractionThatCouldNotBeDeferredGoesByDM(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	runHub(t, w, discord.Options{}, nil)
	w.srv.FailNext(discordtest.OpCallback, discordtest.Failure{Status: 500})
	invoke(w, w.general, w.ana, "hello", "")
	p := w.posts(t, 1)[0]
	if p.ChannelID != w.srv.DMChannel(w.ana.ID) || p.InteractionID != "" || p.Content != "echo: /haven hello" {
		t.Errorf("answer %+v, want it in Ana's DM", p)
	}
}

func TestCommandsAreRegisteredGloballyOrInTheConfiguredGuilds(t *testing.T) {
	t.Parallel()
	t.Run("globally", func(t *testing.T) {
		w := newWorld(t)
		run(t, w, discord.Options{})
		cmds := w.srv.Commands("")
		if len(cmds) != 1 || cmds[0].Name != "haven" || len(cmds[0].Options) != 1 || cmds[0].Options[0].Name != "command" {
			t.Fatalf("global commands %+v, want /haven with its command option", cmds)
		}
		if c := cmds[0].Contexts; c == nil || !slices.Contains(*c, discordgo.InteractionContextBotDM) || !slices.Contains(*c, discordgo.InteractionContextGuild) {
			t.Errorf("contexts %v, want guilds and DMs", c)
		}
	})
	t.Run("in a guild", func(t *testing.T) {
		w := newWorld(t)
		run(t, w, discord.Options{CommandGuilds: []string{w.guild}})
		if g, all := w.srv.Commands(w.guild), w.srv.Commands(""); len(g) != 1 || len(all) != 0 {
			t.Errorf("guild commands %+v, global %+v; want /haven in the guild only", g, all)
		}
	})
}

func TestTheInteractionLocaleIsRememberedForLaterMessages(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	r := run(t, w, discord.Options{})
	invoke(w, w.general, w.ana, "hi", "pt-BR")
	if in := r.sink.next(t); in.Locale != "pt-BR" {
		t.Fatalf("interaction locale %q", in.Locale)
	}
	w.say(w.general, w.ana, w.mention("later"))
	if in := r.sink.next(t); in.Locale != "pt-BR" {
		t.Errorf("a later message's locale %q, want pt-BR", in.Locale)
	}
	w.say(w.general, w.ben, w.mention("someone else"))
	if in := r.sink.next(t); in.Locale != "" {
		t.Errorf("Ben's locale %q, want none", in.Locale)
	}
}

func TestACrisisMessageForAPersonWithClosedDMsGoesToTheirInteraction(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	r := run(t, w, discord.Options{})
	w.srv.CloseDMs(w.ana.ID)
	invoke(w, w.general, w.ana, "I am not okay", "")
	in := r.sink.next(t)
	private := channels.Outbound{Conversation: in.Conversation, Kind: channels.OutCrisis, Private: true, Recipient: in.Author.ID, Text: "details for you"}
	if err := r.a.Send(ctxT(t), private); err != nil {
		t.Fatal(err)
	}
	p := w.posts(t, 1)[0]
	if !p.Ephemeral || p.Content != "details for you" || w.srv.Calls(discordtest.OpCreateMessage) != 1 {
		t.Errorf("post %+v after %d message calls, want the DM tried and the details ephemeral", p, w.srv.Calls(discordtest.OpCreateMessage))
	}
	// Without an interaction there is nowhere private to put it.
	w.srv.CloseDMs(w.ben.ID)
	err := r.a.Send(ctxT(t), channels.Outbound{Conversation: in.Conversation, Kind: channels.OutCrisis, Private: true, Recipient: "discord::" + w.ben.ID, Text: "details"})
	if !errors.Is(err, discord.ErrCannotDM) || !channels.IsPermanent(err) {
		t.Errorf("Send to closed DMs = %v, want a permanent ErrCannotDM", err)
	}
}

func TestAPrivateAnswerGoesUnderTheCommandThatAskedUntilThePersonWritesAgain(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	r := run(t, w, discord.Options{})
	invoke(w, w.general, w.ana, "memory", "")
	in := r.sink.next(t)
	private := func(kind channels.OutKind, text string) {
		t.Helper()
		out := channels.Outbound{Conversation: in.Conversation, Kind: kind, Private: true, Recipient: in.Author.ID, Text: text}
		if err := r.a.Send(ctxT(t), out); err != nil {
			t.Fatal(err)
		}
	}
	private(channels.OutReply, "what I remember")
	private(channels.OutCrisis, "crisis details")
	w.say(w.general, w.ana, w.mention("something else"))
	r.sink.next(t)
	private(channels.OutReply, "what I remember, later")
	dm := w.srv.DMChannel(w.ana.ID)
	p := w.posts(t, 3)
	for i, want := range []struct {
		text      string
		channel   string
		ephemeral bool
	}{{"what I remember", w.general, true}, {"crisis details", dm, false}, {"what I remember, later", dm, false}} {
		if p[i].Content != want.text || p[i].ChannelID != want.channel || p[i].Ephemeral != want.ephemeral {
			t.Errorf("post %d: %+v, want %q in %s (ephemeral %v)", i, p[i], want.text, want.channel, want.ephemeral)
		}
	}
}

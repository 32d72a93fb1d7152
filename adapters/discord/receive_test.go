package discord_test

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/havenbot/haven/adapters/discord"
	"github.com/havenbot/haven/adapters/discord/discordtest"
	"github.com/havenbot/haven/channels"
)

func TestMessagesAreNormalizedIntoInbound(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	r := run(t, w, discord.Options{})
	bot := discordtest.Mention(w.bot.ID)
	botRole := discordtest.RoleMention(w.srv.BotRole(w.guild))
	conv := func(id string) string { return "discord::" + id }
	tests := []struct {
		name    string
		channel string
		text    string
		want    channels.Inbound // the fields compared
	}{
		{"a DM", w.srv.DMChannel(w.ana.ID), "  I had a rough day  ",
			channels.Inbound{Conversation: channels.Conversation{ID: conv(w.srv.DMChannel(w.ana.ID)), Kind: channels.KindDM}, MentionsBot: true, Text: "I had a rough day"}},
		{"a mention in a channel", w.general, bot + " can you help?",
			channels.Inbound{Workspace: w.guild, Conversation: channels.Conversation{ID: conv(w.general), Kind: channels.KindChannel}, MentionsBot: true, Text: "can you help?"}},
		{"the legacy nickname mention with a comma", w.general, "<@!" + w.bot.ID + ">, how are you",
			channels.Inbound{Workspace: w.guild, Conversation: channels.Conversation{ID: conv(w.general), Kind: channels.KindChannel}, MentionsBot: true, Text: "how are you"}},
		{"the bot's role mentioned", w.general, "thanks " + botRole + "!",
			channels.Inbound{Workspace: w.guild, Conversation: channels.Conversation{ID: conv(w.general), Kind: channels.KindChannel}, MentionsBot: true, Text: "thanks!"}},
		{"other mentions rendered as names", w.general, bot + " <@" + w.ben.ID + "> said <#" + w.general + "> is quiet <:wave:123456>",
			channels.Inbound{Workspace: w.guild, Conversation: channels.Conversation{ID: conv(w.general), Kind: channels.KindChannel}, MentionsBot: true, Text: "@Ben said #general is quiet :wave:"}},
		{"a message in a thread", w.thread, bot + " in the thread",
			channels.Inbound{Workspace: w.guild, Conversation: channels.Conversation{ID: conv(w.general), Kind: channels.KindChannel, ThreadID: w.thread}, MentionsBot: true, Text: "in the thread"}},
		{"a forum post", w.post, bot + " in the forum",
			channels.Inbound{Workspace: w.guild, Conversation: channels.Conversation{ID: conv(w.forum), Kind: channels.KindChannel, ThreadID: w.post}, MentionsBot: true, Text: "in the forum"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := w.say(tt.channel, w.ana, tt.text)
			in := r.sink.next(t)
			want := tt.want
			want.Platform = discord.Platform
			want.MessageID = "discord::" + m.ChannelID + ":" + m.ID
			want.DeliveryKey = "discord::message:" + m.ID
			want.Author = channels.Author{ID: "discord::" + w.ana.ID, Display: "Ana"}
			in.ReceivedAt = want.ReceivedAt
			if in != want {
				t.Errorf("got  %+v\nwant %+v", in, want)
			}
		})
	}
}

func TestGuildMessagesNotAddressedToHavenGoNoFurther(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	r := run(t, w, discord.Options{})
	ben := w.say(w.general, w.ben, "hello all")
	for _, text := range []string{"just chatting", "@everyone lunch?", discordtest.Mention(w.ben.ID) + " hi", discordtest.RoleMention(w.modRole) + " help"} {
		w.say(w.general, w.ana, text)
	}
	reply := w.srv.NewReply(w.general, w.ana.ID, "hi Ben", ben)
	w.srv.Post(reply)
	w.say(w.general, w.ana, w.mention("marker"))
	if in := r.sink.next(t); in.Text != "marker" {
		t.Errorf("accepted %q, want only the marker", in.Text)
	}
}

func TestAThreadNobodyAnnouncedIsLookedUp(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	r := run(t, w, discord.Options{})
	// Made while Haven was away: no THREAD_CREATE reached it.
	quiet := w.srv.AddThread(w.general, "made while away", false)
	w.say(quiet, w.ana, w.mention("hello"))
	in := r.sink.next(t)
	if want := (channels.Conversation{ID: "discord::" + w.general, Kind: channels.KindChannel, ThreadID: quiet}); in.Conversation != want {
		t.Errorf("conversation %+v, want %+v", in.Conversation, want)
	}
	if n := w.srv.Calls(discordtest.OpGetChannel); n != 1 {
		t.Errorf("%d channel lookups, want 1", n)
	}
	w.say(quiet, w.ana, w.mention("again"))
	r.sink.next(t)
	if n := w.srv.Calls(discordtest.OpGetChannel); n != 1 {
		t.Errorf("%d channel lookups after a second message, want 1 (kept)", n)
	}
}

func TestAReplyToHavenCountsAsAMention(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	r := run(t, w, discord.Options{})
	w.say(w.general, w.ana, w.mention("hi"))
	in := r.sink.next(t)
	if err := r.a.Send(ctxT(t), channels.Outbound{Conversation: in.Conversation, ReplyTo: in.MessageID, Text: "Hello Ana."}); err != nil {
		t.Fatal(err)
	}
	mine := w.posts(t, 1)[0].Message
	for _, ping := range []bool{true, false} {
		reply := w.srv.NewReply(w.general, w.ana.ID, "thank you", mine)
		if !ping {
			reply.Mentions = nil // replied without the @ ping
		}
		w.srv.Post(reply)
		if in := r.sink.next(t); !in.MentionsBot || in.Text != "thank you" {
			t.Errorf("reply (ping %v): MentionsBot %v, text %q", ping, in.MentionsBot, in.Text)
		}
	}
}

func TestBotsWebhooksSystemMessagesAndHavensOwnAreDropped(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	r := run(t, w, discord.Options{})
	other := w.srv.AddBotUser("OtherBot")
	w.say(w.general, other, w.mention("I am a bot"))
	w.say(w.general, w.bot, w.mention("I am Haven"))
	hook := w.srv.NewMessage(w.general, w.ana.ID, w.mention("through a webhook"))
	hook.WebhookID = "999"
	w.srv.Post(hook)
	pin := w.srv.NewMessage(w.general, w.ana.ID, "")
	pin.Type = discordgo.MessageTypeChannelPinnedMessage
	w.srv.Post(pin)
	w.say(w.general, w.ana, w.mention("marker"))
	if in := r.sink.next(t); in.Text != "marker" {
		t.Errorf("first accepted %q, want only the marker", in.Text)
	}
}

func TestAnEditIsMarkedEditedWithItsOwnKey(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	r := run(t, w, discord.Options{})
	m := w.dm(w.ana, "first")
	orig := r.sink.next(t)
	w.srv.Edit(m, "first, edited")
	ed := r.sink.next(t)
	if !ed.Edited || ed.Text != "first, edited" || ed.DeliveryKey == orig.DeliveryKey || ed.MessageID != orig.MessageID {
		t.Errorf("edit %+v; original key %s", ed, orig.DeliveryKey)
	}
	if ok, _ := channels.Admit(ed); ok {
		t.Error("the Hub's policy would run the edit as a turn")
	}
}

func TestAMessageSeenBeforeIsDropped(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	r := run(t, w, discord.Options{})
	m := w.dm(w.ana, "once")
	r.sink.next(t)
	w.srv.Redeliver(m)
	w.dm(w.ana, "marker")
	if in := r.sink.next(t); in.Text != "marker" {
		t.Errorf("accepted %q, want the marker (the redelivery dropped)", in.Text)
	}
	if s := r.a.Stats(); s.Replays != 1 {
		t.Errorf("Stats().Replays = %d, want 1", s.Replays)
	}
}

func TestPicturesGetTheTextOnlyNote(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	r := run(t, w, discord.Options{})
	pic := w.srv.NewMessage(w.srv.DMChannel(w.ana.ID), w.ana.ID, "")
	pic.Attachments = []*discordgo.MessageAttachment{{ID: "1", Filename: "cat.png", ContentType: "image/png"}}
	w.srv.Post(pic)
	p := w.posts(t, 1)[0]
	if !strings.Contains(p.Content, "I can only read text") || !strings.Contains(p.Content, "image") || p.ChannelID != pic.ChannelID {
		t.Errorf("note %+v", p)
	}
	w.dm(w.ana, "marker")
	if in := r.sink.next(t); in.Text != "marker" {
		t.Errorf("accepted %q, want only the marker", in.Text)
	}
}

func TestAMessageAddressedToHavenWithoutItsTextIsLoggedOnceAndAnswered(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	r := run(t, w, discord.Options{})
	for range 2 {
		// What Discord sends for a reply to Haven without the
		// Message Content intent: no text at all.
		mine := w.srv.NewMessage(w.general, w.bot.ID, "earlier")
		w.srv.Post(mine)
		reply := w.srv.NewReply(w.general, w.ana.ID, "", mine)
		reply.Mentions = nil
		w.srv.Post(reply)
	}
	posts := w.posts(t, 2)
	for _, p := range posts {
		if !strings.Contains(p.Content, "couldn't read your message") || !strings.Contains(p.Content, "direct message") {
			t.Errorf("note %q", p.Content)
		}
	}
	logs := r.logs.String()
	if n := strings.Count(logs, "arrived without its text"); n != 1 {
		t.Errorf("the problem was logged %d times, want once:\n%s", n, logs)
	}
	if !containsAll(logs, "MESSAGE CONTENT INTENT", "Developer Portal", "Privileged Gateway Intents") {
		t.Errorf("the log line does not say where to switch it on:\n%s", logs)
	}
	if s := r.a.Stats(); s.Unreadable != 2 {
		t.Errorf("Stats().Unreadable = %d, want 2", s.Unreadable)
	}
}

func TestAdminsAreTheConfiguredListAndServerAdminsFailClosed(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	owner := w.srv.Owner(w.guild)
	ownerUser := discordgo.User{ID: owner, Username: "owner", GlobalName: "Owner"}
	other := w.srv.AddGuild("Another guild")
	otherCh := w.srv.AddChannel(other, "general", discordgo.ChannelTypeGuildText)
	w.srv.AddMember(other, w.ben.ID)
	r := run(t, w, discord.Options{Admins: []string{
		"telegram::12345",                   // another platform's: skipped
		"discord:" + other + ":" + w.ben.ID, // Ben administers the other guild only
	}})
	tests := []struct {
		name    string
		channel string
		who     discordgo.User
		text    string
		admin   bool
	}{
		{"a member", w.general, w.ana, "/pause", false},
		{"a member with Manage Server", w.general, w.mod, "/pause", true},
		{"the owner", w.general, ownerUser, "/pause", true},
		{"a guild-scoped admin in another guild", w.general, w.ben, "/pause", false},
		{"a guild-scoped admin in their guild", otherCh, w.ben, "/pause", true},
		{"not a command", w.general, w.mod, "pause", false},
		{"a DM", w.srv.DMChannel(w.mod.ID), w.mod, "/pause", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := tt.text
			if tt.channel != w.srv.DMChannel(w.mod.ID) {
				text = w.mention(text)
			}
			w.say(tt.channel, tt.who, text)
			if in := r.sink.next(t); in.Author.PlatformAdmin != tt.admin {
				t.Errorf("PlatformAdmin = %v, want %v", in.Author.PlatformAdmin, tt.admin)
			}
		})
	}
}

func TestAGuildThatCannotBeReadMakesNobodyAnAdmin(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	r := run(t, w, discord.Options{})
	// A guild Haven heard nothing of (it joined while away), whose lookup
	// fails once.
	var g, ch string
	w.srv.Quietly(func() {
		g = w.srv.AddGuild("joined while away")
		ch = w.srv.AddChannel(g, "general", discordgo.ChannelTypeGuildText)
	})
	owner := discordgo.User{ID: w.srv.Owner(g)}
	w.srv.FailNext(discordtest.OpGetGuild, discordtest.Failure{Status: 500})
	w.say(ch, owner, w.mention("/pause"))
	if in := r.sink.next(t); in.Author.PlatformAdmin {
		t.Error("the owner counted as admin though the guild could not be read")
	}
	w.say(ch, owner, w.mention("/pause"))
	if in := r.sink.next(t); !in.Author.PlatformAdmin {
		t.Error("the owner is not an admin once the guild could be read")
	}
	// A member's message without its member object (roles unknown).
	m := w.srv.NewMessage(w.general, w.mod.ID, w.mention("/pause"))
	m.Member = nil
	w.srv.Post(m)
	if in := r.sink.next(t); in.Author.PlatformAdmin {
		t.Error("a member whose roles are unknown counted as admin")
	}
}

func TestBadAdminIDsAreRefusedNamingTheForm(t *testing.T) {
	t.Parallel()
	for _, id := range []string{"discord:456", "discord::alice", "discord:abc:456"} {
		_, err := discord.New(discord.Options{Token: token, Admins: []string{id}})
		if err == nil || !containsAll(err.Error(), id, "discord::<user id>") {
			t.Errorf("New(admin %q) = %v", id, err)
		}
	}
}

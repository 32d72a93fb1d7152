package discord

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"regexp"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/havenbot/haven/channels"
)

// Ids. Discord's ids (snowflakes) are unique across the platform, so every
// namespaced id has an empty workspace: people are "discord::<user id>"
// (the same person in every guild and in DMs), conversations
// "discord::<channel id>", messages "discord::<channel id>:<message id>"
// (the channel the message is in: a thread's for a message in a thread).
// The guild is in Inbound.Workspace. A thread or forum post is a thread
// of its parent channel: Conversation{ID: the parent, ThreadID: the
// thread}, so that a channel's threads share its queue, as the Hub orders
// threads of one conversation.

func conversationID(channelID string) string { return channels.NamespacedID(Platform, "", channelID) }

func userID(id string) string { return channels.NamespacedID(Platform, "", id) }

func messageID(channelID, id string) string {
	return channels.NamespacedID(Platform, "", channelID+":"+id)
}

// interactionMessageID is the MessageID of an interaction's turn: it names
// the invoker too, so that an answer sent after a restart (when the
// interaction's token is gone) still reaches them privately.
func interactionMessageID(channelID, id, user string) string {
	return channels.NamespacedID(Platform, "", channelID+":interaction:"+id+":"+user)
}

func messageKey(id string) string     { return channels.NamespacedID(Platform, "", "message:"+id) }
func interactionKey(id string) string { return channels.NamespacedID(Platform, "", "interaction:"+id) }

// outcome says what to do with an event.
type outcome int

const (
	// deliver hands the Inbound to the sink.
	deliver outcome = iota
	// ignore drops the event: not for Haven, or nothing to answer.
	ignore
	// skip drops an event that does not decode (counted, logged).
	skip
	// replay drops an event seen before.
	replay
	// note answers with a short note instead of a turn.
	note
)

// normalized is an event turned into what Haven does with it.
type normalized struct {
	in      channels.Inbound
	outcome outcome
	reason  string // why it is ignored or skipped, for logs
	// For a note: what to say, where, and the message it answers.
	noteText    string
	noteChannel string
	noteReplyTo string
}

// normalize turns a queued event into an Inbound, or says why there is
// none.
func (a *Adapter) normalize(ctx context.Context, ev gwEvent) normalized {
	switch ev.t {
	case "INTERACTION_CREATE":
		if ev.it != nil && ev.it.press != nil {
			return a.normalizePress(ctx, ev.it)
		}
		return a.normalizeInteraction(ctx, ev.it)
	case "MESSAGE_CREATE", "MESSAGE_UPDATE":
		var m discordgo.Message
		if err := json.Unmarshal(ev.raw, &m); err != nil {
			return normalized{outcome: skip, reason: describeJSONError(err)}
		}
		return a.normalizeMessage(ctx, &m, ev.t == "MESSAGE_UPDATE")
	}
	return normalized{outcome: ignore, reason: "event " + ev.t}
}

// normalizeMessage turns a message into an Inbound: DMs (no guild), guild
// channels, threads and forum posts; only people's ordinary messages and
// replies; the bot's mentions (its user and its managed role) stripped and
// other mentions rendered as names; a reply to the bot counts as a
// mention. An edit is marked Edited (the Hub never runs it as a turn).
func (a *Adapter) normalizeMessage(ctx context.Context, m *discordgo.Message, edited bool) normalized {
	me := a.selfID()
	switch {
	case m.ID == "" || m.ChannelID == "":
		return normalized{outcome: skip, reason: "message without an id or channel"}
	case m.Author == nil:
		// MESSAGE_UPDATE for an embed Discord added carries no author.
		return normalized{outcome: ignore, reason: "message without an author"}
	case m.Author.ID == me:
		return normalized{outcome: ignore, reason: "Haven's own message"}
	case m.Author.Bot || m.Author.System || m.WebhookID != "":
		return normalized{outcome: ignore, reason: "sent by a bot, a webhook or Discord"}
	case m.Type != discordgo.MessageTypeDefault && m.Type != discordgo.MessageTypeReply:
		return normalized{outcome: ignore, reason: fmt.Sprintf("message type %d", m.Type)}
	}
	key := messageKey(m.ID)
	if edited {
		ts := ""
		if m.EditedTimestamp != nil {
			ts = m.EditedTimestamp.UTC().Format("20060102T150405.000000")
		}
		key = channels.NamespacedID(Platform, "", "edit:"+m.ID+":"+ts)
	} else if a.seen.Has(key) {
		return normalized{outcome: replay, in: channels.Inbound{DeliveryKey: key}}
	}

	in := channels.Inbound{
		Platform:    Platform,
		Workspace:   m.GuildID,
		MessageID:   messageID(m.ChannelID, m.ID),
		DeliveryKey: key,
		Edited:      edited,
		ReceivedAt:  a.now(),
		Author:      channels.Author{ID: userID(m.Author.ID), Display: displayName(m.Author, m.Member)},
		Locale:      a.rememberedLocale(m.Author.ID),
	}
	r := resolver{me: me, mentions: m.Mentions}
	var (
		guild      guildInfo // a copy of what is known of the guild
		guildKnown bool
	)
	if m.GuildID == "" {
		in.Conversation = channels.Conversation{ID: conversationID(m.ChannelID), Kind: channels.KindDM}
		in.MentionsBot = true
	} else {
		for _, u := range m.Mentions {
			in.MentionsBot = in.MentionsBot || (u != nil && u.ID == me)
		}
		if ref := m.ReferencedMessage; ref != nil && ref.Author != nil && ref.Author.ID == me {
			in.MentionsBot = true
		}
		if !in.MentionsBot && len(m.MentionRoles) == 0 {
			// Not Haven's: the Hub would drop it; nothing of it goes on.
			return normalized{outcome: ignore, reason: "not addressed to Haven in a guild"}
		}
		guildKnown = a.withGuild(ctx, m.GuildID, func(g *guildInfo) {
			guild = guildInfo{owner: g.owner, perms: maps.Clone(g.perms), roleNames: maps.Clone(g.roleNames), botRoles: maps.Clone(g.botRoles)}
		})
		for _, id := range m.MentionRoles {
			in.MentionsBot = in.MentionsBot || guild.botRoles[id]
		}
		if !in.MentionsBot {
			return normalized{outcome: ignore, reason: "not addressed to Haven in a guild"}
		}
		in.Conversation = a.guildConversation(ctx, m.ChannelID)
		r.botRoles, r.roleNames, r.channelName = guild.botRoles, guild.roleNames, a.channelName
	}
	text, _ := r.render(m.Content)
	in.Text = text

	noteReplyTo := "" // a note references the message in a guild only, as replies do
	if m.GuildID != "" {
		noteReplyTo = m.ID
	}
	if strings.TrimSpace(m.Content) == "" && !edited {
		if hasMedia(m) {
			return normalized{outcome: note, noteText: mediaNote(mediaKind(m)), noteChannel: m.ChannelID, noteReplyTo: noteReplyTo}
		}
		if m.GuildID != "" && m.Poll == nil && len(m.MessageSnapshots) == 0 {
			// Addressed to Haven, and nothing arrived of what it says:
			// Discord withholds guild messages' content without the
			// Message Content intent.
			a.stats.unreadable.Add(1)
			if a.contentWarned.CompareAndSwap(false, true) {
				a.log.Error("discord: a message addressed to Haven arrived without its text: " + contentIntentHelp)
			}
			return normalized{outcome: note, noteText: unreadableNote, noteChannel: m.ChannelID, noteReplyTo: noteReplyTo}
		}
		return normalized{outcome: ignore, reason: "no text"}
	}

	if m.GuildID != "" && !edited {
		a.inter.supersede(in.Conversation.ID, m.Author.ID)
	}
	switch {
	case a.configuredAdmin(m.GuildID, m.Author.ID):
		in.Author.PlatformAdmin = true
	case m.GuildID != "" && guildKnown && strings.HasPrefix(text, "/"):
		in.Author.PlatformAdmin = memberAdmin(&guild, m.GuildID, m.Author.ID, m.Member)
	}
	return normalized{outcome: deliver, in: in}
}

// guildConversation is the conversation of a message in a guild channel:
// a thread or forum post is a thread of its parent. A channel that cannot
// be looked up is a conversation of its own (replies still go to it).
func (a *Adapter) guildConversation(ctx context.Context, channelID string) channels.Conversation {
	c, err := a.lookupChannel(ctx, channelID)
	if err != nil {
		a.log.Warn("discord: cannot tell whether a channel is a thread; answering in it as a channel", slog.String("channel", channelID), slog.Any("err", err))
		return channels.Conversation{ID: conversationID(channelID), Kind: channels.KindChannel}
	}
	if c.isThread() && c.parentID != "" {
		return channels.Conversation{ID: conversationID(c.parentID), Kind: channels.KindChannel, ThreadID: channelID}
	}
	return channels.Conversation{ID: conversationID(channelID), Kind: channels.KindChannel}
}

// channelName is a channel's name when the world knows it.
func (a *Adapter) channelName(id string) string {
	c, _ := a.world.channel(id)
	return c.name
}

// memberAdmin reports whether a member of guild g (whose id is guildID)
// may run admin commands there: the guild's owner, or a member one of
// whose roles (or @everyone) grants Administrator or Manage Server. A
// member whose roles are unknown counts as no (fail closed).
func memberAdmin(g *guildInfo, guildID, user string, m *discordgo.Member) bool {
	if g.owner != "" && g.owner == user {
		return true
	}
	if m == nil {
		return false
	}
	p := g.perms[guildID] // @everyone's id is the guild's
	for _, r := range m.Roles {
		p |= g.perms[r]
	}
	return p&(discordgo.PermissionAdministrator|discordgo.PermissionManageGuild) != 0
}

// interactionUser is who made an interaction: in a guild the member's user
// (member is then that member), in a DM user (member nil). user may be nil
// for a malformed interaction.
func interactionUser(user *discordgo.User, m *discordgo.Member) (*discordgo.User, *discordgo.Member) {
	if m != nil && m.User != nil {
		return m.User, m
	}
	return user, nil
}

// interactionAdmin reports whether the invoker of i may run admin
// commands: in a guild, the member's permissions as Discord computed them
// for the interaction (Administrator or Manage Server); in a DM, never by
// the platform. Missing permissions count as no.
func interactionAdmin(i *discordgo.Interaction) bool {
	if i.GuildID == "" || i.Member == nil {
		return false
	}
	return i.Member.Permissions&(discordgo.PermissionAdministrator|discordgo.PermissionManageGuild) != 0
}

// normalizeInteraction turns an acknowledged command interaction into an
// Inbound whose text is "/name value".
func (a *Adapter) normalizeInteraction(ctx context.Context, p *pendingInteraction) normalized {
	if p == nil {
		return normalized{outcome: ignore, reason: "no interaction"}
	}
	i := p.i
	data, _ := i.Data.(discordgo.ApplicationCommandInteractionData)
	if !a.knownCommand(data.Name) {
		return normalized{outcome: ignore, reason: "unknown command " + data.Name}
	}
	user, member := interactionUser(i.User, i.Member)
	if user.Bot {
		return normalized{outcome: ignore, reason: "run by a bot"}
	}
	parts := []string{"/" + data.Name}
	parts = appendOptions(parts, data.Options)
	locale := string(i.Locale)
	a.rememberLocale(user.ID, locale)
	in := channels.Inbound{
		Platform:    Platform,
		Workspace:   i.GuildID,
		MessageID:   interactionMessageID(i.ChannelID, i.ID, user.ID),
		DeliveryKey: interactionKey(i.ID),
		Author:      channels.Author{ID: userID(user.ID), Display: displayName(user, member)},
		MentionsBot: true,
		Text:        strings.TrimSpace(strings.Join(parts, " ")),
		Locale:      locale,
		ReceivedAt:  a.now(),
	}
	return a.deliverInteraction(ctx, p, user.ID, in)
}

// deliverInteraction delivers in, made from interaction p by the user
// with the Discord id user: in the conversation of p's channel, with the
// author's admin standing there, and with that conversation kept on p for
// the answers.
func (a *Adapter) deliverInteraction(ctx context.Context, p *pendingInteraction, user string, in channels.Inbound) normalized {
	in.Conversation = a.interactionConversation(ctx, p)
	in.Author.PlatformAdmin = a.configuredAdmin(p.i.GuildID, user) || interactionAdmin(p.i)
	a.inter.mu.Lock()
	p.conv = in.Conversation.ID
	a.inter.mu.Unlock()
	return normalized{outcome: deliver, in: in}
}

// interactionConversation is the conversation of the channel interaction
// p came from: a DM, or a guild channel (a thread of its parent for a
// thread or forum post), read from the payload's channel when it came
// with one.
func (a *Adapter) interactionConversation(ctx context.Context, p *pendingInteraction) channels.Conversation {
	i := p.i
	switch {
	case i.GuildID == "":
		return channels.Conversation{ID: conversationID(i.ChannelID), Kind: channels.KindDM}
	case p.channelKnown:
		if p.channel.isThreadRaw() && p.channel.ParentID != "" {
			return channels.Conversation{ID: conversationID(p.channel.ParentID), Kind: channels.KindChannel, ThreadID: i.ChannelID}
		}
		return channels.Conversation{ID: conversationID(i.ChannelID), Kind: channels.KindChannel}
	default:
		return a.guildConversation(ctx, i.ChannelID)
	}
}

func (c rawChannel) isThreadRaw() bool {
	return channelInfo{typ: c.Type}.isThread()
}

// appendOptions renders command options as words: subcommands by name,
// values as typed.
func appendOptions(parts []string, opts []*discordgo.ApplicationCommandInteractionDataOption) []string {
	for _, o := range opts {
		if o == nil {
			continue
		}
		switch o.Type {
		case discordgo.ApplicationCommandOptionSubCommand, discordgo.ApplicationCommandOptionSubCommandGroup:
			parts = appendOptions(append(parts, o.Name), o.Options)
		default:
			if o.Value != nil {
				parts = append(parts, strings.TrimSpace(fmt.Sprint(o.Value)))
			}
		}
	}
	return parts
}

func (a *Adapter) knownCommand(name string) bool {
	for _, c := range a.opts.Commands {
		if c.Name == name {
			return true
		}
	}
	return false
}

// maxLocales bounds the remembered locales.
const maxLocales = 100000

// rememberLocale keeps a person's client locale from an interaction, the
// only place Discord gives it, as a hint for their later messages (the
// crisis gate uses it to choose the country's resources).
func (a *Adapter) rememberLocale(user, locale string) {
	if locale == "" {
		return
	}
	a.locMu.Lock()
	defer a.locMu.Unlock()
	if len(a.locale) >= maxLocales {
		a.locale = map[string]string{}
	}
	a.locale[user] = locale
}

func (a *Adapter) rememberedLocale(user string) string {
	a.locMu.Lock()
	defer a.locMu.Unlock()
	return a.locale[user]
}

// displayName is how a person appears: their nickname in the guild, their
// display name, or their username.
func displayName(u *discordgo.User, m *discordgo.Member) string {
	switch {
	case m != nil && m.Nick != "":
		return m.Nick
	case u.GlobalName != "":
		return u.GlobalName
	default:
		return u.Username
	}
}

func hasMedia(m *discordgo.Message) bool {
	return len(m.Attachments) > 0 || len(m.StickerItems) > 0 || len(m.Embeds) > 0
}

// mediaKind names what a message without text carries.
func mediaKind(m *discordgo.Message) string {
	switch {
	case m.Flags&discordgo.MessageFlagsIsVoiceMessage != 0:
		return "voice message"
	case len(m.StickerItems) > 0:
		return "sticker"
	case len(m.Attachments) > 0:
		ct := m.Attachments[0].ContentType
		switch {
		case strings.HasPrefix(ct, "image/gif"):
			return "GIF"
		case strings.HasPrefix(ct, "image/"):
			return "image"
		case strings.HasPrefix(ct, "video/"):
			return "video"
		case strings.HasPrefix(ct, "audio/"):
			return "audio file"
		}
		return "file"
	}
	return "embed"
}

// mediaNote is the kind reply to a message Haven cannot read.
func mediaNote(kind string) string {
	return "Thank you for sending this. I can only read text, so I can't see or hear your " + kind +
		". If you'd like to, tell me in words and I'll be right here."
}

// unreadableNote answers a message addressed to Haven whose text Discord
// did not send: it points to a DM, where Discord always sends the text.
const unreadableNote = "I'm sorry, I couldn't read your message here. If you'd like to talk, please write to me in a direct message, where I can read it."

var mentionRE = regexp.MustCompile(`<(@!?|@&|#)(\d{1,20})>|<a?:(\w{1,32}):\d{1,20}>|</([\w-]{1,32}(?: [\w-]{1,32}){0,2}):\d{1,20}>`)

// resolver renders a message's mentions.
type resolver struct {
	me          string
	mentions    []*discordgo.User
	botRoles    map[string]bool
	roleNames   map[string]string
	channelName func(id string) string
}

// render strips the mentions of Haven (its user, its managed role) from
// text, with the space and punctuation that followed them where they
// opened a sentence ("<@Haven>, hi" -> "hi"), and renders other mentions
// as names: "<@id>" -> "@Name", "<@&id>" -> "@role", "<#id>" ->
// "#channel", custom emoji "<:name:id>" -> ":name:", command mentions
// "</name:id>" -> "/name". It reports whether Haven was mentioned.
func (r resolver) render(text string) (string, bool) {
	var b strings.Builder
	mentioned := false
	pos := 0
	for _, m := range mentionRE.FindAllStringSubmatchIndex(text, -1) {
		b.WriteString(text[pos:m[0]])
		pos = m[1]
		repl, cut := r.replace(text, m)
		if !cut {
			b.WriteString(repl)
			continue
		}
		mentioned = true
		out := b.String()
		if out == "" || isSpace(out[len(out)-1]) {
			for pos < len(text) && strings.IndexByte(" \t\r\n,:", text[pos]) >= 0 {
				pos++
			}
			if out != "" && pos < len(text) && strings.IndexByte(".!?", text[pos]) >= 0 {
				b.Reset()
				b.WriteString(strings.TrimRight(out, " \t\r\n")) // "thanks <@Haven>!" -> "thanks!"
			}
		}
	}
	b.WriteString(text[pos:])
	return strings.TrimSpace(b.String()), mentioned
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// replace renders one match; cut is true for a mention of Haven.
func (r resolver) replace(text string, m []int) (repl string, cut bool) {
	group := func(i int) string {
		if m[2*i] < 0 {
			return ""
		}
		return text[m[2*i]:m[2*i+1]]
	}
	switch kind, id := group(1), group(2); {
	case kind == "@" || kind == "@!":
		if id == r.me {
			return "", true
		}
		for _, u := range r.mentions {
			if u != nil && u.ID == id {
				return "@" + displayName(u, nil), false
			}
		}
		return "@someone", false
	case kind == "@&":
		if r.botRoles[id] {
			return "", true
		}
		if n := r.roleNames[id]; n != "" {
			return "@" + n, false
		}
		return "@role", false
	case kind == "#":
		if r.channelName != nil {
			if n := r.channelName(id); n != "" {
				return "#" + n, false
			}
		}
		return "#channel", false
	case group(3) != "":
		return ":" + group(3) + ":", false
	default:
		return "/" + group(4), false
	}
}

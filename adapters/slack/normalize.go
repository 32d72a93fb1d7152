package slack

import (
	"context"
	"strings"
	"unicode/utf8"

	slackgo "github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	"github.com/havenbot/haven/channels"
)

// IDs. Slack's ids are unique within a workspace (team), which is the
// middle part of every namespaced id:
//
//	conversation  slack:T0123:C0456
//	message       slack:T0123:C0456:1700000000.000100   (channel:ts)
//	command       slack:T0123:C0456:cmd:U0789:<trigger_id>
//	person        slack:T0123:U0789                     (their own team in shared channels)
//	delivery key  slack:T0123:msg:C0456:1700000000.000100, slack:T0123:cmd:<trigger_id>,
//	              slack:T0123:press:<trigger_id>                  (a button press)
//
// A button press's MessageID is the id of the message the button is under
// (Haven's question), so that the answer to it goes where a reply to that
// message goes (its thread, in a shared conversation).
//
// A message's delivery key is its channel and ts, not its event_id: the
// app_mention and message events of one message (two event_ids) and every
// retry of either (the same event_id) are one delivery, so the Hub runs
// one turn for them, also across a restart (its inbox is durable).

func conversationID(team, channel string) string {
	return channels.NamespacedID(Platform, team, channel)
}

func userID(team, user string) string { return channels.NamespacedID(Platform, team, user) }

func messageID(team, channel, ts string) string {
	return channels.NamespacedID(Platform, team, channel+":"+ts)
}

func commandID(team, channel, user, trigger string) string {
	return channels.NamespacedID(Platform, team, channel+":cmd:"+user+":"+trigger)
}

// outcome says what to do with an event.
type outcome int

const (
	deliver outcome = iota // hand the Inbound to the sink
	ignore                 // not for Haven, or nothing to answer
)

// normalized is an event turned into what Haven does with it.
type normalized struct {
	in      channels.Inbound
	outcome outcome
	reason  string // why it is ignored, for debug logs
}

func ignored(reason string) normalized { return normalized{outcome: ignore, reason: reason} }

// humanSubtypes are the message subtypes a person writes; every other
// subtype (bot_message, message_changed, message_deleted, channel_join,
// ...) is dropped.
var humanSubtypes = map[string]bool{"": true, "thread_broadcast": true, "file_share": true, "me_message": true}

// message is the part of a message or app_mention event Haven reads.
type message struct {
	team, userTeam     string
	channel, chanType  string
	user, botID        string
	subtype            string
	text, ts, threadTS string
	parentUser         string
	edited             bool
	mention            bool // an app_mention event
}

// fromMessageEvent reads a message event.
func fromMessageEvent(team string, e *slackevents.MessageEvent) message {
	m := message{team: team, channel: e.Channel, chanType: e.ChannelType, user: e.User, botID: e.BotID,
		subtype: e.SubType, text: e.Text, ts: e.TimeStamp, threadTS: e.ThreadTimeStamp, userTeam: e.UserTeam}
	if msg := e.Message; msg != nil {
		m.parentUser = msg.ParentUserId
		m.edited = msg.Edited != nil
		if m.botID == "" {
			m.botID = msg.BotID
		}
	}
	return m
}

// fromMention reads an app_mention event.
func fromMention(team string, e *slackevents.AppMentionEvent) message {
	return message{team: team, channel: e.Channel, user: e.User, botID: e.BotID, text: e.Text, ts: e.TimeStamp,
		threadTS: e.ThreadTimeStamp, userTeam: e.UserTeam, edited: e.Edited != nil, mention: true}
}

// kindOf says what kind of conversation channel is. A message event says
// it (channel_type), and the answer is remembered for the app_mention
// events, which do not: for a channel never seen in a message event, the
// id's first letter decides (D a DM, G a private channel or group DM, C a
// channel).
func (a *Adapter) kindOf(channel, chanType string) channels.Kind {
	var k channels.Kind
	switch chanType {
	case "im":
		k = channels.KindDM
	case "mpim":
		k = channels.KindGroup
	case "channel", "group":
		k = channels.KindChannel
	default:
		if v, ok := a.kinds.Load(channel); ok {
			return v.(channels.Kind)
		}
		switch {
		case strings.HasPrefix(channel, "D"):
			return channels.KindDM
		case strings.HasPrefix(channel, "G"):
			return channels.KindGroup
		default:
			return channels.KindChannel
		}
	}
	if v, ok := a.kinds.Load(channel); !ok || v.(channels.Kind) != k {
		a.kinds.Store(channel, k)
	}
	return k
}

// maxNameLookups bounds the users.info calls one message's mentions of
// other people may cost; past it they are rendered by id.
const maxNameLookups = 5

// normalizeMessage turns a message or app_mention event into an Inbound,
// or says why there is none. me is the bot.
func (a *Adapter) normalizeMessage(ctx context.Context, m message, me *self) normalized {
	switch {
	case !humanSubtypes[m.subtype]:
		return ignored("message subtype " + m.subtype)
	case m.botID != "" || (me != nil && m.user == me.user):
		return ignored("sent by a bot")
	case m.edited:
		return ignored("edit of an earlier message")
	case m.channel == "" || m.ts == "" || m.user == "":
		return ignored("message without a channel, ts or user")
	case !utf8.ValidString(m.channel + m.ts + m.user + m.team):
		return ignored("ids that are not text")
	}
	team := m.team
	if team == "" && me != nil {
		team = me.team
	}
	authorTeam := team
	if m.userTeam != "" {
		authorTeam = m.userTeam // a person from another workspace in a shared channel
	}
	kind := a.kindOf(m.channel, m.chanType)
	bot := ""
	if me != nil {
		bot = me.user
	}
	startedByBot := m.threadTS != "" && m.threadTS != m.ts && bot != "" && m.parentUser == bot
	// users.info is asked only about messages Haven will answer: the Hub
	// drops the others in shared conversations without a turn.
	addressed := kind == channels.KindDM || m.mention || startedByBot ||
		(bot != "" && (strings.Contains(m.text, "<@"+bot+">") || strings.Contains(m.text, "<@"+bot+"|")))
	var p person
	nameOf := func(string) string { return "" }
	if addressed {
		p = a.person(ctx, authorTeam, m.user)
		if p.isBot {
			return ignored("sent by a bot user")
		}
		lookups := 0
		nameOf = func(id string) string {
			if lookups++; lookups > maxNameLookups {
				return ""
			}
			return a.person(ctx, authorTeam, id).display
		}
	}
	text, mentioned := renderText(m.text, bot, nameOf)
	conv := channels.Conversation{ID: conversationID(team, m.channel), Kind: kind}
	if m.threadTS != "" && m.threadTS != m.ts {
		conv.ThreadID = m.threadTS
	}
	in := channels.Inbound{
		Platform:     Platform,
		Workspace:    team,
		Conversation: conv,
		MessageID:    messageID(team, m.channel, m.ts),
		DeliveryKey:  channels.NamespacedID(Platform, team, "msg:"+m.channel+":"+m.ts),
		Author:       a.author(authorTeam, m.user, p),
		MentionsBot:  kind == channels.KindDM || mentioned || m.mention || startedByBot,
		Text:         text,
		Locale:       p.locale,
		TimeZone:     p.tz,
		ReceivedAt:   a.now(),
	}
	return normalized{outcome: deliver, in: in}
}

// author builds the Author of a person: PlatformAdmin when they are in
// Options.Admins or Slack says they administer the workspace; false when
// users.info could not be read.
func (a *Adapter) author(team, user string, p person) channels.Author {
	return channels.Author{
		ID:            userID(team, user),
		Display:       p.display,
		PlatformAdmin: a.admins[[2]string{team, user}] || (p.known && p.admin),
	}
}

// normalizeCommand turns the slash command into an admin command for the
// core: Text "/haven ARGS", addressed to Haven, in the conversation it was
// typed in. Other commands are ignored.
func (a *Adapter) normalizeCommand(ctx context.Context, c slackgo.SlashCommand, me *self) normalized {
	switch {
	case !strings.EqualFold(c.Command, a.opts.Command):
		return ignored("another slash command")
	case c.ChannelID == "" || c.UserID == "" || c.TriggerID == "":
		return ignored("slash command without a channel, user or trigger_id")
	case !utf8.ValidString(c.ChannelID + c.UserID + c.TriggerID + c.TeamID):
		return ignored("ids that are not text")
	}
	team := c.TeamID
	if team == "" && me != nil {
		team = me.team
	}
	p := a.person(ctx, team, c.UserID)
	text := a.opts.Command
	if args := strings.Join(strings.Fields(strings.ToValidUTF8(c.Text, "\uFFFD")), " "); args != "" {
		text += " " + args
	}
	return normalized{outcome: deliver, in: channels.Inbound{
		Platform:     Platform,
		Workspace:    team,
		Conversation: channels.Conversation{ID: conversationID(team, c.ChannelID), Kind: a.kindOf(c.ChannelID, "")},
		MessageID:    commandID(team, c.ChannelID, c.UserID, c.TriggerID),
		DeliveryKey:  channels.NamespacedID(Platform, team, "cmd:"+c.TriggerID),
		Author:       a.author(team, c.UserID, p),
		MentionsBot:  true,
		Text:         text,
		Locale:       p.locale,
		TimeZone:     p.tz,
		ReceivedAt:   a.now(),
	}}
}

// renderText turns Slack's message text into plain text: mentions of the
// bot (<@BOT>, <@BOT|name>) removed with the space or punctuation that
// went with them, other people's mentions rendered as @Name (their label,
// else nameOf their id, else the id), channels as #name, @here, @channel
// and @everyone as those words, links as their label and URL, and Slack's
// escapes (&amp; &lt; &gt;) decoded. mentioned says whether the bot was
// mentioned. The result is trimmed; it is valid UTF-8 when text is.
func renderText(text, bot string, nameOf func(id string) string) (out string, mentioned bool) {
	var b strings.Builder
	b.Grow(len(text))
	cut := false // a bot mention was just removed
	for i := 0; i < len(text); {
		c := text[i]
		if c != '<' {
			if cut {
				cut = false
				// "<@BOT>, hi" -> "hi"; "so <@BOT> what" -> "so what".
				if b.Len() == 0 || endsSpace(b.String()) {
					for i < len(text) && strings.IndexByte(" \t\n\r,:", text[i]) >= 0 {
						i++
					}
					if i < len(text) && strings.IndexByte(".!?", text[i]) >= 0 && b.Len() > 0 {
						s := strings.TrimRight(b.String(), " \t")
						b.Reset()
						b.WriteString(s) // "thanks <@BOT>!" -> "thanks!"
					}
					continue
				}
			}
			j := strings.IndexByte(text[i:], '<')
			if j < 0 {
				j = len(text) - i
			}
			b.WriteString(unescape(text[i : i+j]))
			i += j
			continue
		}
		end := strings.IndexByte(text[i:], '>')
		if end < 0 {
			b.WriteString(unescape(text[i:]))
			break
		}
		inner := text[i+1 : i+end]
		i += end + 1
		target, label, _ := strings.Cut(inner, "|")
		label = unescape(label)
		switch {
		case strings.HasPrefix(target, "@"):
			id := target[1:]
			if bot != "" && id == bot {
				mentioned, cut = true, true
				continue
			}
			name := label
			if name == "" && nameOf != nil && isUserID(id) {
				name = nameOf(id)
			}
			if name == "" {
				name = id
			}
			b.WriteString("@" + strings.TrimPrefix(name, "@"))
		case strings.HasPrefix(target, "#"):
			name := label
			if name == "" {
				name = target[1:]
			}
			b.WriteString("#" + name)
		case strings.HasPrefix(target, "!"):
			special, _, _ := strings.Cut(target[1:], "^")
			switch {
			case special == "here" || special == "channel" || special == "everyone":
				b.WriteString("@" + special)
			case label != "":
				b.WriteString(label)
			}
		default:
			link := unescape(target)
			switch {
			case label != "" && label != link && label != strings.TrimPrefix(link, "mailto:"):
				b.WriteString(label + " (" + link + ")")
			case label != "":
				b.WriteString(label)
			default:
				b.WriteString(strings.TrimPrefix(link, "mailto:"))
			}
		}
		cut = false
	}
	return strings.TrimSpace(b.String()), mentioned
}

func endsSpace(s string) bool {
	if s == "" {
		return false
	}
	switch s[len(s)-1] {
	case ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

// unescape decodes Slack's three escapes.
func unescape(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&").Replace(s)
}

package slack

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	slackgo "github.com/slack-go/slack"

	"github.com/havenbot/haven/channels"
)

// Buttons. An Outbound with Choices is posted with Block Kit blocks: its
// text (the same escaped mrkdwn as the message's text, which stays the
// notification fallback) in section blocks, then one actions block
// (ChoicesBlockID) with a button per choice: value the choice's Text,
// label the choice's Label as plain_text, and action_id "haven_choice_N"
// (N its index), or, when the Outbound names the person the choices are
// for (ChoicesFor), "haven_choice_N_for_" and that person's user id, so
// the binding lives on the message and survives a restart. A press comes
// back as a block_actions interaction; only a press of such a button on a
// message of Haven's becomes an Inbound, anything else is skipped. A
// press of bound buttons by anyone else is skipped too, and answered with
// an ephemeral message (chat.postEphemeral) that only the presser sees,
// channels.NotYourChoices; the buttons stay. Unbound buttons (also those
// made before persons were named) work for anyone.

// ChoicesBlockID is the block_id of the actions block that holds Haven's
// buttons.
const ChoicesBlockID = "haven_choices"

// choiceActionPrefix starts the action_id of every button Haven makes.
const choiceActionPrefix = "haven_choice_"

// choiceForSep separates a bound button's index from the user id it is
// for in its action_id. A user id is upper-case letters and digits, so it
// cannot hold the separator; the action_id stays far within Slack's 255
// characters.
const choiceForSep = "_for_"

// maxUserID bounds the user id a button is bound to. Slack's ids are
// about a dozen characters; the bound keeps any action_id Haven makes
// within Slack's 255.
const maxUserID = 64

// choiceOwner is the Slack user id the buttons of an Outbound whose
// ChoicesFor is choicesFor are bound to: "" (anyone) when it names no
// one. ok is false when it names someone who is not a Slack user.
func choiceOwner(choicesFor string) (owner string, ok bool) {
	if choicesFor == "" {
		return "", true
	}
	platform, _, local, ok := channels.SplitID(choicesFor)
	if !ok || platform != Platform || !isUserID(local) || len(local) > maxUserID {
		return "", false
	}
	return local, true
}

// choiceActionID is the action_id of the button at index i, bound to the
// user id owner unless owner is empty.
func choiceActionID(i int, owner string) string {
	id := choiceActionPrefix + strconv.Itoa(i)
	if owner != "" {
		id += choiceForSep + owner
	}
	return id
}

// parseChoiceActionID reads an action_id Haven made: ok is false for any
// other, and owner is the user id the button is for ("" for anyone).
func parseChoiceActionID(actionID string) (owner string, ok bool) {
	rest, ok := strings.CutPrefix(actionID, choiceActionPrefix)
	if !ok {
		return "", false
	}
	idx, owner, bound := strings.Cut(rest, choiceForSep)
	if _, err := strconv.Atoi(idx); err != nil || (bound && !isUserID(owner)) {
		return "", false
	}
	return owner, true
}

// maxSectionText is the longest text of one section block, in UTF-16
// units (Slack: 3,000 characters).
const maxSectionText = 3000

// pressTimeout bounds the chat.update that removes a pressed message's
// buttons.
const pressTimeout = 10 * time.Second

// choiceBlocks returns the blocks of a message whose rendered mrkdwn is
// text with buttons for cs: text in section blocks (verbatim, so Slack
// links and parses nothing in it, as for the message's text), then the
// buttons, bound to the user id owner unless it is empty. cs must fit
// (channels.ChoicesFit).
func choiceBlocks(text string, cs []channels.Choice, owner string) []slackgo.Block {
	var blocks []slackgo.Block
	for _, part := range sectionParts(text) {
		blocks = append(blocks, slackgo.NewSectionBlock(
			&slackgo.TextBlockObject{Type: slackgo.MarkdownType, Text: part, Verbatim: true}, nil, nil))
	}
	buttons := make([]slackgo.BlockElement, 0, len(cs))
	for i, c := range cs {
		buttons = append(buttons, slackgo.NewButtonBlockElement(choiceActionID(i, owner), c.Text,
			slackgo.NewTextBlockObject(slackgo.PlainTextType, c.Label, false, false)))
	}
	return append(blocks, slackgo.NewActionBlock(ChoicesBlockID, buttons...))
}

// sectionParts cuts rendered text into pieces of at most maxSectionText
// UTF-16 units: at the last line break that fits, else the last space,
// else anywhere outside an escape (&amp; &lt; &gt;) and a rune.
func sectionParts(text string) []string {
	var parts []string
	for utf16Len(text) > maxSectionText {
		end, n := 0, 0
		for i, r := range text {
			n += utf16.RuneLen(r)
			if n > maxSectionText {
				break
			}
			end = i + utf8.RuneLen(r)
		}
		cut := end
		if i := strings.LastIndexByte(text[:end], '\n'); i > end/2 {
			cut = i + 1
		} else if i := strings.LastIndexByte(text[:end], ' '); i > end/2 {
			cut = i + 1
		} else if amp := strings.LastIndexByte(text[:end], '&'); amp >= 0 && amp > end-5 && !strings.Contains(text[amp:end], ";") {
			cut = amp // do not split an escape
		}
		if strings.TrimSpace(text[:cut]) != "" {
			parts = append(parts, text[:cut])
		}
		text = text[cut:]
	}
	if strings.TrimSpace(text) != "" {
		parts = append(parts, text)
	}
	return parts
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// press is a button press made into an Inbound, and what is needed to
// take the buttons off its message; or, when refused is set, a press by
// someone the buttons are not for, and what is needed to tell them so.
type press struct {
	channel, ts string
	message     slackgo.Message
	// ephemeral is set for a press on an ephemeral message, which only
	// responseURL can change.
	ephemeral   bool
	responseURL string
	// refused is set for a press of buttons bound to someone else; user
	// pressed, in thread (of channel) if not "", and key identifies the
	// press (as an Inbound's DeliveryKey would).
	refused      bool
	user, thread string
	key          string
}

// normalizeInteraction turns a block_actions press of one of Haven's
// buttons into an Inbound from the person who pressed, saying the
// choice's Text in the conversation (and thread) of the message. Any
// other interaction, or a press of a button Haven did not make, is
// foreign: skip is then true. A press of buttons bound to someone else is
// skipped too, with p.refused set (see refusePress).
func (a *Adapter) normalizeInteraction(ctx context.Context, cb slackgo.InteractionCallback, me *self) (n normalized, p press, skip bool) {
	if cb.Type != slackgo.InteractionTypeBlockActions {
		return ignored("interaction type " + safeToken(string(cb.Type))), p, true
	}
	if len(cb.ActionCallback.BlockActions) != 1 || len(cb.ActionCallback.AttachmentActions) != 0 {
		return ignored("block_actions without exactly one action"), p, true
	}
	act := cb.ActionCallback.BlockActions[0]
	owner, isOurs := parseChoiceActionID(act.ActionID)
	if !isOurs || act.BlockID != ChoicesBlockID || act.Type != slackgo.ActionType(slackgo.METButton) {
		return ignored("a press of a button Haven did not make"), p, true
	}
	if act.Value == "" || len(act.Value) > channels.MaxChoiceText || !utf8.ValidString(act.Value) {
		return ignored("a button whose value is not a choice"), p, true
	}
	channel, ts := cb.Container.ChannelID, cb.Container.MessageTs
	if channel == "" {
		channel = cb.Channel.ID
	}
	if ts == "" {
		ts = cb.Message.Timestamp
	}
	user, team := cb.User.ID, cb.Team.ID
	switch {
	case cb.Container.Type != "" && cb.Container.Type != "message":
		return ignored("a press outside a message"), p, true
	case channel == "" || ts == "" || !isUserID(user):
		return ignored("a press without a channel, message or user"), p, true
	case !utf8.ValidString(channel + ts + team + cb.TriggerID + act.ActionTs):
		return ignored("ids that are not text"), p, true
	case me != nil && me.botID != "" && cb.Message.BotID != "" && cb.Message.BotID != me.botID:
		return ignored("a press on another app's message"), p, true
	}
	if team == "" && me != nil {
		team = me.team
	}
	authorTeam := team
	if cb.User.TeamID != "" {
		authorTeam = cb.User.TeamID
	}
	key := cb.TriggerID
	if key == "" {
		key = channel + ":" + ts + ":" + user + ":" + act.ActionTs
	}
	conv := channels.Conversation{ID: conversationID(team, channel), Kind: a.kindOf(channel, "")}
	thread := cb.Container.ThreadTs
	if thread == "" {
		thread = cb.Message.ThreadTimestamp
	}
	if thread != "" && thread != ts {
		conv.ThreadID = thread
	}
	if owner != "" && owner != user {
		return ignored("a press by someone the buttons are not for"),
			press{channel: channel, ts: ts, refused: true, user: user, thread: conv.ThreadID,
				key: channels.NamespacedID(Platform, team, "press:"+key)}, true
	}
	who := a.person(ctx, authorTeam, user)
	if who.isBot {
		return ignored("pressed by a bot user"), p, false
	}
	in := channels.Inbound{
		Platform:     Platform,
		Workspace:    team,
		Conversation: conv,
		MessageID:    messageID(team, channel, ts),
		DeliveryKey:  channels.NamespacedID(Platform, team, "press:"+key),
		Author:       a.author(authorTeam, user, who),
		MentionsBot:  true,
		Text:         act.Value,
		Locale:       who.locale,
		TimeZone:     who.tz,
		ReceivedAt:   a.now(),
	}
	return normalized{outcome: deliver, in: in}, press{channel: channel, ts: ts, message: cb.Message,
		ephemeral: cb.Container.IsEphemeral, responseURL: cb.ResponseURL}, false
}

// removeButtons takes Haven's buttons off the pressed message with
// chat.update, keeping its text and its other blocks, so that it cannot
// be pressed again; an ephemeral message, which chat.update cannot
// change, is replaced through the press's response_url (see
// removeEphemeralButtons). A failure is logged and otherwise harmless: a
// second press says the same thing again, which the core reads as
// ordinary text when nothing waits for it.
func (a *Adapter) removeButtons(ctx context.Context, p press) {
	if p.ephemeral {
		a.removeEphemeralButtons(ctx, p)
		return
	}
	all := p.message.Blocks.BlockSet
	kept := make([]slackgo.Block, 0, len(all))
	for _, b := range all {
		if b.ID() != ChoicesBlockID {
			kept = append(kept, b)
		}
	}
	if len(all) > 0 && len(kept) == len(all) {
		return // no buttons left: an earlier press took them off
	}
	if len(all) == 0 && p.message.Text == "" {
		a.log.Debug("slack cannot take buttons off a message the press did not include", slog.String("channel", safeToken(p.channel)))
		return
	}
	ctx, cancel := context.WithTimeout(ctx, pressTimeout)
	defer cancel()
	opts := []slackgo.MsgOption{slackgo.MsgOptionBlocks(kept...)}
	if p.message.Text != "" {
		opts = append(opts, slackgo.MsgOptionText(p.message.Text, false))
	}
	if _, _, _, err := a.api.UpdateMessageContext(ctx, p.channel, p.ts, opts...); err != nil && ctx.Err() == nil {
		a.log.Info("slack could not take the buttons off a pressed message", slog.String("channel", safeToken(p.channel)), slog.Any("err", fmt.Errorf("chat.update: %w", err)))
	}
}

// refusePress tells the person who pressed buttons bound to someone else,
// with an ephemeral message only they see in the conversation (and
// thread) of the buttons, that the buttons are not theirs
// (channels.NotYourChoices). The buttons stay as they are. A failure is
// logged and otherwise harmless.
func (a *Adapter) refusePress(ctx context.Context, p press) {
	ctx, cancel := context.WithTimeout(ctx, pressTimeout)
	defer cancel()
	if err := a.postEphemeral(ctx, p.channel, p.user, p.thread, renderMrkdwn(channels.NotYourChoices), nil); err != nil && ctx.Err() == nil {
		a.log.Info("slack could not tell a presser the buttons are for someone else", slog.String("channel", safeToken(p.channel)), slog.Any("err", err))
	}
}

// removeEphemeralButtons replaces a pressed ephemeral message, through
// the press's response_url (replace_original), with its text and no
// buttons. Slack sends no copy of an ephemeral message with a press on
// it, so the text is the one postEphemeral remembered (or the press's
// message, should Slack send one). Nothing is sent when neither is
// known (the adapter restarted since: the buttons stay, and a second
// press is read as ordinary text), or when the response_url is not
// Slack's (see trustedResponseURL): the text may be private.
func (a *Adapter) removeEphemeralButtons(ctx context.Context, p press) {
	if !a.trustedResponseURL(p.responseURL) {
		a.log.Info("slack press on an ephemeral message without a Slack response_url; its buttons stay", slog.String("channel", safeToken(p.channel)))
		return
	}
	text, remembered := a.ephemerals.Take(ephemeralKey(p.channel, p.ts))
	var blocks []slackgo.Block
	switch {
	case p.message.Text != "":
		text = p.message.Text
		for _, b := range p.message.Blocks.BlockSet {
			if b.ID() != ChoicesBlockID {
				blocks = append(blocks, b)
			}
		}
	case remembered:
		for _, part := range sectionParts(text) {
			blocks = append(blocks, slackgo.NewSectionBlock(
				&slackgo.TextBlockObject{Type: slackgo.MarkdownType, Text: part, Verbatim: true}, nil, nil))
		}
	default:
		a.log.Debug("slack cannot take buttons off an ephemeral message it no longer knows", slog.String("channel", safeToken(p.channel)))
		return
	}
	ctx, cancel := context.WithTimeout(ctx, pressTimeout)
	defer cancel()
	opts := []slackgo.MsgOption{slackgo.MsgOptionReplaceOriginal(p.responseURL), slackgo.MsgOptionText(text, false)}
	if len(blocks) > 0 {
		opts = append(opts, slackgo.MsgOptionBlocks(blocks...))
	}
	if _, _, _, err := a.api.SendMessageContext(ctx, p.channel, opts...); err != nil && ctx.Err() == nil {
		a.log.Info("slack could not take the buttons off a pressed ephemeral message", slog.String("channel", safeToken(p.channel)), slog.Any("err", fmt.Errorf("response_url: %w", err)))
	}
}

// trustedResponseURL reports whether u may be sent the text of a pressed
// message: an https URL on Slack's hooks hosts, or on the host of the
// configured Web API (a Slack of one's own, or a test's fake).
func (a *Adapter) trustedResponseURL(u string) bool {
	pu, err := url.Parse(u)
	if err != nil || pu.User != nil || pu.Host == "" {
		return false
	}
	switch {
	case pu.Scheme == "https" && (pu.Host == "hooks.slack.com" || pu.Host == "hooks.slack-gov.com"):
		return true
	default:
		return pu.Scheme+"://"+pu.Host == a.host
	}
}

// maxEphemerals bounds the ephemeral messages with buttons whose text an
// adapter remembers, by channel and message_ts, until a press takes it
// (the oldest is forgotten first). It lives in memory only: the text may
// be private, and a restart forgets it.
const maxEphemerals = 256

// ephemeralKey is the key of an ephemeral message's text in
// Adapter.ephemerals.
func ephemeralKey(channel, ts string) string { return channel + "\x00" + ts }

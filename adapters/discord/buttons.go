package discord

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/havenbot/haven/channels"
)

// Buttons. An Outbound's Choices go under the message as one action row
// of buttons (Discord takes five to a row, the most channels allows),
// each with the custom_id choicePrefix + the choice's Text. A press is an
// INTERACTION_CREATE of type 3 (MESSAGE_COMPONENT): the adapter answers
// it at once with UPDATE_MESSAGE (type 7) and an empty components array,
// which acknowledges it and removes the buttons in one call, then hands
// the sink an Inbound that says the choice's Text, from the person who
// pressed. A press on a button Haven did not make is skipped.

// choicePrefix starts the custom_id of every button Haven makes. The rest
// is the choice's Text (at most channels.MaxChoiceText bytes, so a
// custom_id stays well within Discord's 100 characters).
const choicePrefix = "haven:choice:"

// choiceComponents renders cs as one action row of buttons: the first a
// primary (blurple) button, the others secondary (grey). It returns nil,
// and the message goes without buttons, for no choices, for choices that
// do not fit channels.ChoicesFit (the Hub drops those first), and for a
// choice whose press choiceText would not read back (a Text that is not
// UTF-8 or holds control characters): the message itself says what to
// type, and no button is better than one that does nothing.
func choiceComponents(cs []channels.Choice) []discordgo.MessageComponent {
	if len(cs) == 0 || !channels.ChoicesFit(cs) {
		return nil
	}
	for _, c := range cs {
		if t, ok := choiceText(choicePrefix + c.Text); !ok || t != c.Text {
			return nil
		}
	}
	row := discordgo.ActionsRow{Components: make([]discordgo.MessageComponent, len(cs))}
	for i, c := range cs {
		style := discordgo.SecondaryButton
		if i == 0 {
			style = discordgo.PrimaryButton
		}
		row.Components[i] = discordgo.Button{Label: c.Label, Style: style, CustomID: choicePrefix + c.Text}
	}
	return []discordgo.MessageComponent{row}
}

// choiceText is the Text of the choice a custom_id Haven made stands for;
// ok is false for any other custom_id (another version's, another app's,
// a forged one).
func choiceText(customID string) (text string, ok bool) {
	text, ok = strings.CutPrefix(customID, choicePrefix)
	if !ok || text == "" || len(text) > channels.MaxChoiceText || !utf8.ValidString(text) ||
		strings.ContainsFunc(text, unicode.IsControl) {
		return "", false
	}
	return text, true
}

// press is what the adapter keeps of a button press.
type press struct {
	text      string // the choice's Text
	messageID string // the message the button is under
	// ephemeral is true when that message is ephemeral (an answer to a
	// command in a guild): what answers the press goes only to the person.
	ephemeral bool
}

// rawPress is the part of a MESSAGE_COMPONENT interaction the adapter
// reads. It is decoded by hand rather than as a discordgo.Interaction,
// whose decoding fails on any component type discordgo does not know in
// the message the button is under.
type rawPress struct {
	ID        string            `json:"id"`
	AppID     string            `json:"application_id"`
	Token     string            `json:"token"`
	ChannelID string            `json:"channel_id"`
	GuildID   string            `json:"guild_id"`
	Channel   *rawChannel       `json:"channel"`
	Member    *discordgo.Member `json:"member"`
	User      *discordgo.User   `json:"user"`
	Locale    discordgo.Locale  `json:"locale"`
	Message   *struct {
		ID    string                 `json:"id"`
		Flags discordgo.MessageFlags `json:"flags"`
	} `json:"message"`
	Data struct {
		CustomID      string                  `json:"custom_id"`
		ComponentType discordgo.ComponentType `json:"component_type"`
	} `json:"data"`
}

// acknowledgePress decodes a press and, for a button Haven made pressed
// for the first time, answers it in the background (answerPress). A
// press on anything else is skipped: logged at debug, counted, nil
// returned.
func (a *Adapter) acknowledgePress(raw json.RawMessage) (*pendingInteraction, error) {
	var r rawPress
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, err
	}
	if r.ID == "" || r.Token == "" || r.ChannelID == "" {
		return nil, errors.New("interaction without id, token or channel")
	}
	user, _ := interactionUser(r.User, r.Member)
	if user == nil || user.ID == "" {
		return nil, errors.New("interaction without a user")
	}
	text, ok := choiceText(r.Data.CustomID)
	if !ok || r.Data.ComponentType != discordgo.ButtonComponent || r.Message == nil || r.Message.ID == "" {
		a.stats.skipped.Add(1)
		a.log.Debug("discord: skipped a press on a component Haven did not make", slog.String("interaction", r.ID),
			slog.Int("component_type", int(r.Data.ComponentType)))
		return nil, nil
	}
	if !a.seen.Add(interactionKey(r.ID)) {
		a.stats.replays.Add(1)
		a.log.Debug("discord interaction seen before; dropped", slog.String("interaction", r.ID))
		return nil, nil
	}
	i := &discordgo.Interaction{ID: r.ID, AppID: r.AppID, Type: discordgo.InteractionMessageComponent, Token: r.Token,
		ChannelID: r.ChannelID, GuildID: r.GuildID, Member: r.Member, User: r.User, Locale: r.Locale,
		Data: discordgo.MessageComponentInteractionData{CustomID: r.Data.CustomID, ComponentType: r.Data.ComponentType}}
	ch := rawChannel{ID: r.ChannelID, GuildID: r.GuildID}
	known := r.Channel != nil && r.Channel.ID == r.ChannelID
	if known {
		ch = *r.Channel
		if ch.GuildID == "" {
			ch.GuildID = r.GuildID
		}
	}
	p := &pendingInteraction{i: i, channel: ch, channelKnown: known, userID: user.ID, ephemeral: r.GuildID != "", created: a.now(),
		done:  make(chan struct{}),
		press: &press{text: text, messageID: r.Message.ID, ephemeral: r.Message.Flags&discordgo.MessageFlagsEphemeral != 0}}
	a.inter.add(p, a.now())
	if !a.background(func() { a.answerPress(p) }) {
		p.err = errors.New("discord: not running")
		close(p.done)
	}
	return p, nil
}

// removeButtons is the UPDATE_MESSAGE that answers a press: components
// set to an empty array removes the buttons (a null would leave them),
// and nothing else is set. It is written by hand because discordgo's
// InteractionResponseData always sends "content", which would blank the
// message.
var removeButtons = json.RawMessage(`{"type":7,"data":{"components":[]}}`)

// answerPress acknowledges a press within Discord's 3 seconds with
// UPDATE_MESSAGE, removing the buttons so that they cannot be pressed
// twice. When Discord refuses that update (a 4xx other than an unknown or
// expired interaction), it acknowledges with DEFERRED_UPDATE_MESSAGE
// (type 6), which leaves the message as it is.
func (a *Adapter) answerPress(p *pendingInteraction) {
	defer close(p.done)
	ctx, cancel := context.WithTimeout(a.lifeContext(), callbackTimeout)
	defer cancel()
	endpoint := discordgo.EndpointInteractionResponse(p.i.ID, p.i.Token)
	_, err := a.session().RequestWithBucketID(http.MethodPost, endpoint, removeButtons, endpoint, discordgo.WithContext(ctx))
	var re *discordgo.RESTError
	if err != nil && ctx.Err() == nil && errors.As(err, &re) && re.Response != nil &&
		re.Response.StatusCode >= 400 && re.Response.StatusCode < 500 && re.Response.StatusCode != http.StatusNotFound && re.Response.StatusCode != http.StatusTooManyRequests {
		a.log.Warn("discord: could not remove the buttons of a pressed message; acknowledging the press without it", slog.String("interaction", p.i.ID), slog.Any("err", a.redact(err, p.i.Token)))
		err = a.session().InteractionRespond(p.i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}, discordgo.WithContext(ctx))
	}
	if err != nil {
		p.err = a.redact(err, p.i.Token)
		a.log.Warn("discord: could not acknowledge a press in time; its answers go by DM", slog.String("interaction", p.i.ID), slog.Any("err", p.err))
	}
}

// normalizePress turns an acknowledged press into an Inbound that says
// the choice's Text, from the person who pressed, in the conversation of
// the message the button is under. Answers go where answers to that
// message's conversation go: in a guild they reply to the message; for a
// press on an ephemeral message (an answer to a command) they go, as
// follow-ups on the press, to the person alone.
func (a *Adapter) normalizePress(ctx context.Context, p *pendingInteraction) normalized {
	i := p.i
	user, member := interactionUser(i.User, i.Member)
	if user.Bot {
		return normalized{outcome: ignore, reason: "pressed by a bot"}
	}
	locale := string(i.Locale)
	if locale == "" {
		locale = a.rememberedLocale(user.ID)
	}
	a.rememberLocale(user.ID, locale)
	in := channels.Inbound{
		Platform:    Platform,
		Workspace:   i.GuildID,
		MessageID:   messageID(i.ChannelID, p.press.messageID),
		DeliveryKey: interactionKey(i.ID),
		Author:      channels.Author{ID: userID(user.ID), Display: displayName(user, member)},
		MentionsBot: true, // a press on Haven's own message is addressed to Haven
		Text:        p.press.text,
		Locale:      locale,
		ReceivedAt:  a.now(),
	}
	if p.press.ephemeral {
		in.MessageID = interactionMessageID(i.ChannelID, i.ID, user.ID)
	}
	return a.deliverInteraction(ctx, p, user.ID, in)
}

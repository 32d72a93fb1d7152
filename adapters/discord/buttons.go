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
// of buttons (Discord takes five to a row, the most channels allows).
// When the Outbound names the person they are for (ChoicesFor), each
// button's custom_id is forPrefix + that person's user id + ":" + the
// choice's Text, so the binding is on the message itself and survives a
// restart; without a person it is choicePrefix + the Text (and buttons
// made before persons were named read the same way: anyone may press).
// A press is an INTERACTION_CREATE of type 3 (MESSAGE_COMPONENT). A press
// by the person (or on an unbound button) is answered at once with
// UPDATE_MESSAGE (type 7) and an empty components array, which
// acknowledges it and removes the buttons in one call, then the sink
// gets an Inbound that says the choice's Text, from the person who
// pressed. A press by anyone else is answered with an ephemeral message
// (type 4, flag 64) only they see, channels.NotYourChoices; the buttons
// stay and no Inbound is made. A press on a button Haven did not make is
// skipped.

// choicePrefix starts the custom_id of a button anyone may press. The
// rest is the choice's Text (at most channels.MaxChoiceText bytes, so a
// custom_id stays well within Discord's 100 characters).
const choicePrefix = "haven:choice:"

// forPrefix starts the custom_id of a button only one person may press:
// their user id (a snowflake, at most 20 digits), a colon, the choice's
// Text. At its longest 10 + 20 + 1 + 32 = 63 characters, within
// Discord's 100.
const forPrefix = "haven:for:"

// customID is the custom_id of the button for text, bound to the user id
// owner unless owner is empty.
func customID(owner, text string) string {
	if owner == "" {
		return choicePrefix + text
	}
	return forPrefix + owner + ":" + text
}

// choiceOwner is the Discord user id the buttons of an Outbound whose
// ChoicesFor is choicesFor are bound to: "" (anyone) when it names no
// one. ok is false when it names someone who is not a Discord user.
func choiceOwner(choicesFor string) (owner string, ok bool) {
	if choicesFor == "" {
		return "", true
	}
	local, err := localID(choicesFor, "choices for")
	return local, err == nil
}

// choiceComponents renders cs as one action row of buttons, bound to the
// person choicesFor names (see choiceOwner): the first a primary
// (blurple) button, the others secondary (grey). It returns nil, and the
// message goes without buttons, for no choices, for choices that do not
// fit channels.ChoicesFit (the Hub drops those first), for a choicesFor
// that names no Discord user (a button that answered for the wrong
// person, or for anyone, would be worse than none), and for a choice
// whose press choiceText would not read back (a Text that is not UTF-8
// or holds control characters): the message itself says what to type.
func choiceComponents(cs []channels.Choice, choicesFor string) []discordgo.MessageComponent {
	if len(cs) == 0 || !channels.ChoicesFit(cs) {
		return nil
	}
	owner, ok := choiceOwner(choicesFor)
	if !ok {
		return nil
	}
	for _, c := range cs {
		if t, o, ok := choiceText(customID(owner, c.Text)); !ok || t != c.Text || o != owner {
			return nil
		}
	}
	row := discordgo.ActionsRow{Components: make([]discordgo.MessageComponent, len(cs))}
	for i, c := range cs {
		style := discordgo.SecondaryButton
		if i == 0 {
			style = discordgo.PrimaryButton
		}
		row.Components[i] = discordgo.Button{Label: c.Label, Style: style, CustomID: customID(owner, c.Text)}
	}
	return []discordgo.MessageComponent{row}
}

// choiceText is the Text of the choice a custom_id Haven made stands for,
// and the user id of the one person who may press it ("" for anyone); ok
// is false for any other custom_id (another version's, another app's, a
// forged one).
func choiceText(customID string) (text, owner string, ok bool) {
	if rest, bound := strings.CutPrefix(customID, forPrefix); bound {
		var found bool
		owner, text, found = strings.Cut(rest, ":")
		if !found || !isSnowflake(owner) {
			return "", "", false
		}
	} else if text, ok = strings.CutPrefix(customID, choicePrefix); !ok {
		return "", "", false
	}
	if text == "" || len(text) > channels.MaxChoiceText || !utf8.ValidString(text) ||
		strings.ContainsFunc(text, unicode.IsControl) {
		return "", "", false
	}
	return text, owner, true
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
	text, owner, ok := choiceText(r.Data.CustomID)
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
	if owner != "" && owner != user.ID {
		a.stats.skipped.Add(1)
		a.log.Debug("discord: refused a press by someone the buttons are not for", slog.String("interaction", r.ID))
		i := &discordgo.Interaction{ID: r.ID, AppID: r.AppID, Type: discordgo.InteractionMessageComponent, Token: r.Token}
		a.background(func() { a.refusePress(i) })
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

// refusePress answers a press by someone the buttons are not for with a
// message only they see (channels.NotYourChoices), which acknowledges the
// press and leaves the buttons as they are. A failure is logged: the
// press then shows Discord's "interaction failed" to that person alone.
func (a *Adapter) refusePress(i *discordgo.Interaction) {
	ctx, cancel := context.WithTimeout(a.lifeContext(), callbackTimeout)
	defer cancel()
	resp := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: channels.NotYourChoices, Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: noPings()}}
	if err := a.session().InteractionRespond(i, resp, discordgo.WithContext(ctx)); err != nil && ctx.Err() == nil {
		a.log.Info("discord: could not answer a press by someone the buttons are not for", slog.String("interaction", i.ID), slog.Any("err", a.redact(err, i.Token)))
	}
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

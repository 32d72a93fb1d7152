package discordtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// Discord's limits on message components (buttons).
const (
	// MaxActionRows is how many action rows a message may carry.
	MaxActionRows = 5
	// MaxButtonsPerRow is how many buttons an action row may hold.
	MaxButtonsPerRow = 5
	// MaxButtonLabel is a button label's limit, in characters.
	MaxButtonLabel = 80
	// MaxCustomID is a custom_id's limit, in characters.
	MaxCustomID = 100
)

// Button is a button under one of the bot's messages.
type Button struct {
	// Label is the text it shows.
	Label string
	// CustomID is the custom_id a press sends back to the bot.
	CustomID string
	// Style is its colour (1 primary, 2 secondary, 3 success, 4 danger).
	Style discordgo.ButtonStyle
}

// rawComponent is a component as a request carries it.
type rawComponent struct {
	Type       discordgo.ComponentType `json:"type"`
	Components []rawComponent          `json:"components"`
	Label      string                  `json:"label"`
	CustomID   string                  `json:"custom_id"`
	Style      discordgo.ButtonStyle   `json:"style"`
	URL        string                  `json:"url"`
}

// parseButtons reads a request's components as Discord checks them:
// up to MaxActionRows action rows of 1 to MaxButtonsPerRow buttons, each
// with a label of 1 to MaxButtonLabel characters and a custom_id of 1 to
// MaxCustomID characters unique in the message (or, for a link button,
// a URL). set is false when the request leaves the components as they
// are: the field is absent or null (Discord ignores a null here; only
// an empty array removes the components).
func parseButtons(raw json.RawMessage) (buttons []Button, set bool, err error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, false, nil
	}
	var rows []rawComponent
	if err := json.Unmarshal(raw, &rows); err != nil {
		return nil, false, newAPIError(http.StatusBadRequest, 50035, "Invalid Form Body: components: "+err.Error())
	}
	invalid := func(format string, args ...any) error {
		return newAPIError(http.StatusBadRequest, 50035, "Invalid Form Body: components: "+fmt.Sprintf(format, args...))
	}
	if len(rows) > MaxActionRows {
		return nil, false, invalid("must be %d or fewer in length", MaxActionRows)
	}
	buttons = []Button{}
	for i, row := range rows {
		if row.Type != discordgo.ActionsRowComponent {
			return nil, false, invalid("%d: a top-level component must be an action row (type 1), not %d", i, row.Type)
		}
		if len(row.Components) == 0 || len(row.Components) > MaxButtonsPerRow {
			return nil, false, invalid("%d.components: must hold 1 to %d components", i, MaxButtonsPerRow)
		}
		for j, c := range row.Components {
			where := fmt.Sprintf("%d.components.%d", i, j)
			switch {
			case c.Type != discordgo.ButtonComponent:
				return nil, false, invalid("%s: the fake only knows buttons (type 2), not %d", where, c.Type)
			case c.Label == "" || utf8.RuneCountInString(c.Label) > MaxButtonLabel:
				return nil, false, invalid("%s.label: must be 1 to %d in length", where, MaxButtonLabel)
			case c.Style == discordgo.LinkButton:
				if c.URL == "" || c.CustomID != "" {
					return nil, false, invalid("%s: a link button has a url and no custom_id", where)
				}
				continue
			case c.Style < discordgo.PrimaryButton || c.Style > discordgo.DangerButton:
				return nil, false, invalid("%s.style: %d is not a valid button style", where, c.Style)
			case c.CustomID == "" || utf8.RuneCountInString(c.CustomID) > MaxCustomID:
				return nil, false, invalid("%s.custom_id: must be 1 to %d in length", where, MaxCustomID)
			case slices.ContainsFunc(buttons, func(b Button) bool { return b.CustomID == c.CustomID }):
				return nil, false, invalid("%s.custom_id: component custom id cannot be duplicated", where)
			}
			buttons = append(buttons, Button{Label: c.Label, CustomID: c.CustomID, Style: c.Style})
		}
	}
	return buttons, true, nil
}

// components are buttons as a message object carries them: one action
// row (the fake keeps a message's buttons in one row).
func components(buttons []Button) []discordgo.MessageComponent {
	if len(buttons) == 0 {
		return nil
	}
	row := discordgo.ActionsRow{}
	for _, b := range buttons {
		row.Components = append(row.Components, discordgo.Button{Label: b.Label, CustomID: b.CustomID, Style: b.Style})
	}
	return []discordgo.MessageComponent{row}
}

// setButtonsLocked records the buttons message m carries now.
func (s *Server) setButtonsLocked(m *discordgo.Message, buttons []Button) {
	if len(buttons) == 0 {
		delete(s.buttons, m.ID)
	} else {
		s.buttons[m.ID] = slices.Clone(buttons)
	}
	m.Components = components(buttons)
}

// Buttons returns the buttons the bot's message messageID carries now
// (after any update that removed or changed them).
func (s *Server) Buttons(messageID string) []Button {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.buttons[messageID])
}

// Press is a person pressing a button under one of the bot's messages.
type Press struct {
	// Message is the bot's message (a Post's Message).
	Message *discordgo.Message
	// UserID is who presses.
	UserID string
	// Label names the button pressed among those the message carries now;
	// Press panics when there is none (a person cannot press it).
	Label string
	// CustomID, when set instead of Label, is sent as the pressed
	// button's custom_id whatever the message carries: a button from an
	// older version of the bot, or a forged press.
	CustomID string
	// Locale is the person's client locale; empty means "en-US".
	Locale string
}

// Press makes a person press a button (INTERACTION_CREATE of type 3,
// MESSAGE_COMPONENT) and returns the interaction's id. The interaction
// carries the message as it is now, the member with their permissions in
// a guild or the user in a DM, and takes the callbacks a component
// interaction takes: 4 and 5 as for a command, 6 (DEFERRED_UPDATE_MESSAGE)
// and 7 (UPDATE_MESSAGE, which edits the message: an empty components
// array removes its buttons, a null leaves them).
func (s *Server) Press(p Press) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p.Message == nil {
		panic("discordtest: Press without a message")
	}
	c, ok := s.channels[p.Message.ChannelID]
	if !ok {
		panic("discordtest: Press on a message in an unknown channel " + p.Message.ChannelID)
	}
	customID := p.CustomID
	if customID == "" {
		i := slices.IndexFunc(s.buttons[p.Message.ID], func(b Button) bool { return b.Label == p.Label })
		if i < 0 {
			panic(fmt.Sprintf("discordtest: message %s carries no button %q", p.Message.ID, p.Label))
		}
		customID = s.buttons[p.Message.ID][i].CustomID
	}
	m := *p.Message
	if cur, ok := s.messages[m.ID]; ok {
		m = *cur
	}
	m.Components = components(s.buttons[m.ID])
	it, d := s.newInteractionLocked(c, p.UserID, p.Locale, discordgo.InteractionMessageComponent)
	it.messageID = m.ID
	d["message"] = &m
	d["data"] = map[string]any{"custom_id": customID, "component_type": int(discordgo.ButtonComponent)}
	s.dispatchInteractionLocked(it, d)
	return it.id
}

// RedeliverInteraction dispatches interaction id again, as a new event
// with the same payload (id and token included).
func (s *Server) RedeliverInteraction(id string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	it, ok := s.interactions[id]
	if !ok {
		panic("discordtest: unknown interaction " + id)
	}
	before := 0
	if s.gw.current != nil {
		before = s.gw.current.seq
	}
	s.dispatchLocked("INTERACTION_CREATE", it.payload)
	if s.gw.current != nil && s.gw.current.seq != before {
		return s.gw.current.seq
	}
	return 0
}

// newInteractionLocked makes an interaction of type typ run by userID in
// c, and the fields of its payload every type shares.
func (s *Server) newInteractionLocked(c *discordgo.Channel, userID, locale string, typ discordgo.InteractionType) (*interaction, map[string]any) {
	u, ok := s.users[userID]
	if !ok {
		panic("discordtest: unknown user " + userID)
	}
	tok := make([]byte, 24)
	_, _ = rand.Read(tok)
	it := &interaction{id: s.newIDLocked(), token: "itok-" + hex.EncodeToString(tok), channelID: c.ID, userID: u.ID, typ: typ, created: time.Now()}
	if locale == "" {
		locale = "en-US"
	}
	channel := map[string]any{"id": c.ID, "type": int(c.Type)}
	if c.ParentID != "" {
		channel["parent_id"] = c.ParentID
	}
	if c.GuildID != "" {
		channel["guild_id"] = c.GuildID
		channel["name"] = c.Name
	}
	d := map[string]any{
		"id": it.id, "application_id": s.appID, "type": int(typ), "token": it.token,
		"version": 1, "locale": locale, "channel_id": c.ID, "channel": channel, "entitlements": []any{},
	}
	if g, ok := s.guilds[c.GuildID]; ok {
		mem, ok := g.members[u.ID]
		if !ok {
			panic("discordtest: " + u.ID + " is not a member of guild " + g.id)
		}
		mj := s.memberJSONLocked(g, mem, true)
		mj["permissions"] = strconv.FormatInt(s.permissionsLocked(g, u.ID), 10)
		d["guild_id"], d["member"], d["guild_locale"] = g.id, mj, "en-US"
		d["context"] = 0
		d["app_permissions"] = strconv.FormatInt(s.permissionsLocked(g, s.bot.ID), 10)
	} else {
		d["user"], d["context"] = u, 1
	}
	return it, d
}

// dispatchInteractionLocked keeps it (with its payload d, for
// RedeliverInteraction) and dispatches it.
func (s *Server) dispatchInteractionLocked(it *interaction, d map[string]any) {
	it.payload = mustJSON(d)
	s.interactions[it.id] = it
	s.byToken[it.token] = it
	s.dispatchLocked("INTERACTION_CREATE", it.payload)
}

// updateMessageLocked applies an UPDATE_MESSAGE callback (type 7) to the
// message whose button was pressed: content when the data sets it,
// the buttons when it sets components (an empty array removes them). A
// message left with neither content nor files is refused, as Discord
// refuses it (50006).
func (s *Server) updateMessageLocked(it *interaction, data callbackData) error {
	cur, ok := s.messages[it.messageID]
	if !ok {
		return newAPIError(http.StatusNotFound, 10008, "Unknown Message")
	}
	buttons, set, err := parseButtons(data.Components)
	if err != nil {
		return err
	}
	// A new message object: the old one may be a Post's, which tests read.
	m := new(discordgo.Message)
	*m = *cur
	content := m.Content
	if data.Content != nil {
		content = *data.Content
	}
	if content == "" && len(m.Attachments) == 0 {
		return newAPIError(http.StatusBadRequest, 50006, "Cannot send an empty message")
	}
	m.Content = content
	if set {
		s.setButtonsLocked(m, buttons)
	}
	now := time.Now().UTC()
	m.EditedTimestamp = &now
	s.messages[m.ID] = m
	if m.Flags&discordgo.MessageFlagsEphemeral == 0 {
		cp := *m
		s.dispatchLocked("MESSAGE_UPDATE", &cp)
	}
	return nil
}

// WaitButtonsGone blocks until the bot's message messageID carries no
// buttons or ctx is done.
func (s *Server) WaitButtonsGone(ctx context.Context, messageID string) error {
	return s.cond.Wait(ctx, func() bool { return len(s.buttons[messageID]) == 0 })
}

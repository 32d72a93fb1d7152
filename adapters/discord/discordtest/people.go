package discordtest

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

var (
	userMentionRE = regexp.MustCompile(`<@!?(\d+)>`)
	roleMentionRE = regexp.MustCompile(`<@&(\d+)>`)
)

// Mention is how a message mentions userID: "<@id>".
func Mention(userID string) string { return "<@" + userID + ">" }

// RoleMention is how a message mentions roleID: "<@&id>".
func RoleMention(roleID string) string { return "<@&" + roleID + ">" }

// NewMessage builds the message userID writes in channelID (a DM channel,
// a guild channel or a thread), with its mentions parsed from content as
// Discord does. Post it with Post; change it first to add attachments or
// the like.
func (s *Server) NewMessage(channelID, userID, content string) *discordgo.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.channels[channelID]
	if !ok {
		panic("discordtest: unknown channel " + channelID)
	}
	u, ok := s.users[userID]
	if !ok {
		panic("discordtest: unknown user " + userID)
	}
	author := *u
	m := &discordgo.Message{
		ID: s.newIDLocked(), ChannelID: c.ID, GuildID: c.GuildID, Content: content, Timestamp: time.Now().UTC(),
		Author: &author, Type: discordgo.MessageTypeDefault, Attachments: []*discordgo.MessageAttachment{},
		Embeds: []*discordgo.MessageEmbed{}, MentionRoles: []string{}, Mentions: []*discordgo.User{},
	}
	s.parseMentionsLocked(m)
	if g, ok := s.guilds[c.GuildID]; ok {
		if mem, ok := g.members[userID]; ok {
			m.Member = &discordgo.Member{Nick: mem.nick, Roles: slices.Clone(mem.roles), JoinedAt: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}
			if m.Member.Roles == nil {
				m.Member.Roles = []string{}
			}
		}
	}
	return m
}

func (s *Server) parseMentionsLocked(m *discordgo.Message) {
	m.Mentions, m.MentionRoles = m.Mentions[:0], m.MentionRoles[:0]
	for _, sm := range userMentionRE.FindAllStringSubmatch(m.Content, -1) {
		if u, ok := s.users[sm[1]]; ok && !slices.ContainsFunc(m.Mentions, func(x *discordgo.User) bool { return x.ID == u.ID }) {
			cp := *u
			m.Mentions = append(m.Mentions, &cp)
		}
	}
	for _, sm := range roleMentionRE.FindAllStringSubmatch(m.Content, -1) {
		if !slices.Contains(m.MentionRoles, sm[1]) {
			m.MentionRoles = append(m.MentionRoles, sm[1])
		}
	}
	m.MentionEveryone = strings.Contains(m.Content, "@everyone") || strings.Contains(m.Content, "@here")
}

// NewReply builds the message userID writes in channelID in reply to
// `to`, with Discord's default of pinging to's author (who is then among
// the mentions; clear Mentions for a reply without the ping).
func (s *Server) NewReply(channelID, userID, content string, to *discordgo.Message) *discordgo.Message {
	m := s.NewMessage(channelID, userID, content)
	ref := *to
	ref.ReferencedMessage = nil
	m.Type = discordgo.MessageTypeReply
	m.MessageReference = &discordgo.MessageReference{MessageID: to.ID, ChannelID: to.ChannelID, GuildID: to.GuildID}
	m.ReferencedMessage = &ref
	if to.Author != nil && !slices.ContainsFunc(m.Mentions, func(x *discordgo.User) bool { return x.ID == to.Author.ID }) {
		a := *to.Author
		m.Mentions = append(m.Mentions, &a)
	}
	return m
}

// Post makes Discord deliver m as a new message (MESSAGE_CREATE) and
// returns the event's sequence number (0 when held for the first session
// or excluded by the session's intents).
func (s *Server) Post(m *discordgo.Message) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	cp := *m
	s.messages[m.ID] = &cp
	return s.dispatchMessageLocked("MESSAGE_CREATE", m)
}

// Redeliver delivers m's MESSAGE_CREATE again, as a new event.
func (s *Server) Redeliver(m *discordgo.Message) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dispatchMessageLocked("MESSAGE_CREATE", m)
}

// Edit makes m's author change its content (MESSAGE_UPDATE) and returns
// the edited message.
func (s *Server) Edit(m *discordgo.Message, content string) *discordgo.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := *m
	e.Content = content
	now := time.Now().UTC()
	e.EditedTimestamp = &now
	e.Mentions, e.MentionRoles = slices.Clone(m.Mentions), slices.Clone(m.MentionRoles)
	s.parseMentionsLocked(&e)
	s.messages[e.ID] = &e
	s.dispatchMessageLocked("MESSAGE_UPDATE", &e)
	return &e
}

func (s *Server) dispatchMessageLocked(t string, m *discordgo.Message) int {
	before := 0
	if s.gw.current != nil {
		before = s.gw.current.seq
	}
	s.dispatchLocked(t, m)
	if s.gw.current != nil && s.gw.current.seq != before {
		return s.gw.current.seq
	}
	return 0
}

// CommandOption is one option of a chat command as a person fills it in.
type CommandOption struct {
	Name  string
	Value string
}

// Invocation is what a person does to run a chat command.
type Invocation struct {
	// ChannelID is where it is run (a DM channel, a guild channel, a
	// thread).
	ChannelID string
	// UserID is who runs it.
	UserID string
	// Name is the command's name, without the slash.
	Name string
	// Options are its string options, in order.
	Options []CommandOption
	// Locale is the person's client locale ("en-GB"); empty means "en-US".
	Locale string
}

// interaction is an interaction the fake dispatched.
type interaction struct {
	id, token, channelID, userID string
	typ                          discordgo.InteractionType
	messageID                    string          // a press: the message whose button was pressed
	payload                      json.RawMessage // as dispatched
	created                      time.Time
	acked                        bool
	ackType                      discordgo.InteractionResponseType
	ackFlags                     discordgo.MessageFlags
	followups                    int
}

// Invoke makes a person run a chat command (INTERACTION_CREATE, type 2)
// and returns the interaction's id. In a guild the interaction carries
// the member with the permissions Discord computes for them (owner,
// Administrator and role permissions); in a DM it carries the user.
func (s *Server) Invoke(inv Invocation) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.channels[inv.ChannelID]
	if !ok {
		panic("discordtest: unknown channel " + inv.ChannelID)
	}
	it, d := s.newInteractionLocked(c, inv.UserID, inv.Locale, discordgo.InteractionApplicationCommand)
	opts := make([]any, len(inv.Options))
	for i, o := range inv.Options {
		opts[i] = map[string]any{"name": o.Name, "type": int(discordgo.ApplicationCommandOptionString), "value": o.Value}
	}
	cmdID := ""
	for _, key := range []string{"", c.GuildID} {
		for _, cmd := range s.commands[key] {
			if cmd.Name == inv.Name {
				cmdID = cmd.ID
			}
		}
	}
	if cmdID == "" {
		cmdID = s.newIDLocked()
	}
	d["data"] = map[string]any{"id": cmdID, "name": inv.Name, "type": int(discordgo.ChatApplicationCommand), "options": opts}
	s.dispatchInteractionLocked(it, d)
	return it.id
}

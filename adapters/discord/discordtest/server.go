package discordtest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"

	"github.com/havenbot/haven/internal/waitcond"
)

// APIVersion is the Discord API version the fake serves, discordgo's.
const APIVersion = "9"

// MaxContentLen is Discord's limit on a message's content: 2,000 Unicode
// code points (Discord's API counts with Python's len).
const MaxContentLen = 2000

// InteractionDeadline is how long Discord gives an application to answer
// an interaction (a callback), counted from when it was dispatched.
const InteractionDeadline = 3 * time.Second

// TokenLifetime is how long an interaction's token takes follow-ups.
const TokenLifetime = 15 * time.Minute

// Permission bits the fake computes with (Discord's values).
const (
	PermAdministrator int64 = discordgo.PermissionAdministrator
	PermManageGuild   int64 = discordgo.PermissionManageGuild
	// PermEveryone is what @everyone may do in a new guild of the fake:
	// view channels, send messages (also in threads), read history, attach
	// files, use application commands.
	PermEveryone int64 = discordgo.PermissionViewChannel | discordgo.PermissionSendMessages |
		discordgo.PermissionSendMessagesInThreads | discordgo.PermissionReadMessageHistory |
		discordgo.PermissionAttachFiles | discordgo.PermissionUseApplicationCommands
)

// Intents the fake acts on.
const (
	intentGuilds         = int(discordgo.IntentsGuilds)
	intentGuildMessages  = int(discordgo.IntentsGuildMessages)
	intentDirectMessages = int(discordgo.IntentsDirectMessages)
	intentMessageContent = int(discordgo.IntentMessageContent)
)

// Option configures a Server.
type Option func(*Server)

// WithBot sets the bot's user id and username (default "100001",
// "Haven"). The application id is the bot's id unless WithApplication
// sets another.
func WithBot(id, username string) Option {
	return func(s *Server) { s.bot.ID, s.bot.Username = id, username }
}

// WithApplication sets the application id READY and the interactions
// carry (default: the bot's user id, as for applications made since 2020).
func WithApplication(id string) Option { return func(s *Server) { s.appID = id } }

// WithHeartbeat sets the heartbeat_interval HELLO asks for (default
// 41.25 s, Discord's). Tests make it short so that heartbeats and their
// ACKs happen within the test.
func WithHeartbeat(d time.Duration) Option { return func(s *Server) { s.heartbeat = d } }

// WithMessageContentDisabled models the Developer Portal with the
// Message Content privileged intent switched off: an IDENTIFY that asks
// for it is closed with 4014 (disallowed intents).
func WithMessageContentDisabled() Option { return func(s *Server) { s.contentOff = true } }

// Server is a fake Discord: gateway and REST. Its methods are safe for
// concurrent use.
type Server struct {
	ts         *httptest.Server
	token      string
	bot        discordgo.User
	appID      string
	heartbeat  time.Duration
	contentOff bool
	upgrader   websocket.Upgrader
	wg         sync.WaitGroup // connection goroutines

	mu       sync.Mutex
	cond     *waitcond.Cond // over mu: wakes waiters at every change
	closed   bool
	next     uint64
	users    map[string]*discordgo.User
	guilds   map[string]*guild
	gorder   []string
	channels map[string]*discordgo.Channel
	dms      map[string]string // user id -> DM channel id
	dmClosed map[string]bool
	messages map[string]*discordgo.Message
	buttons  map[string][]Button // by message id: the buttons it carries now

	gw gatewayState

	calls        map[string]int
	failures     map[string][]Failure
	posts        []Post
	interactions map[string]*interaction // by id
	byToken      map[string]*interaction
	callbacks    []Callback
	commands     map[string][]*discordgo.ApplicationCommand // by guild id, "" global
	typing       []string
}

// guild is one guild of the fake's world.
type guild struct {
	id, name, owner string
	roles           []*role
	members         map[string]*member
	channels        []string // in creation order, threads included
}

type role struct {
	id, name string
	perms    int64
	position int
	botID    string // set for an application's managed role
}

type member struct {
	userID string
	nick   string
	roles  []string
}

// NewServer starts a fake Discord for token on 127.0.0.1. Close it when
// done (t.Cleanup(s.Close)).
func NewServer(token string, opts ...Option) *Server {
	s := &Server{
		token:        token,
		bot:          discordgo.User{ID: "100001", Username: "Haven", Bot: true, Discriminator: "0"},
		heartbeat:    41250 * time.Millisecond,
		next:         200000,
		users:        map[string]*discordgo.User{},
		guilds:       map[string]*guild{},
		channels:     map[string]*discordgo.Channel{},
		dms:          map[string]string{},
		dmClosed:     map[string]bool{},
		messages:     map[string]*discordgo.Message{},
		buttons:      map[string][]Button{},
		calls:        map[string]int{},
		failures:     map[string][]Failure{},
		interactions: map[string]*interaction{},
		byToken:      map[string]*interaction{},
		commands:     map[string][]*discordgo.ApplicationCommand{},
	}
	s.cond = waitcond.New(&s.mu)
	s.gw.init()
	for _, o := range opts {
		o(s)
	}
	if s.appID == "" {
		s.appID = s.bot.ID
	}
	bot := s.bot
	s.users[bot.ID] = &bot
	s.upgrader = websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}
	mux := http.NewServeMux()
	mux.HandleFunc("/gateway/", s.serveGateway)
	mux.HandleFunc("/api/v"+APIVersion+"/", s.serveREST)
	s.ts = httptest.NewServer(mux)
	return s
}

// URL is the server's base URL, "http://127.0.0.1:port".
func (s *Server) URL() string { return s.ts.URL }

// APIURL is the REST root in discordgo's EndpointAPI form,
// "http://127.0.0.1:port/api/v9/": the value of HAVEN_DISCORD_API_URL.
func (s *Server) APIURL() string { return s.ts.URL + "/api/v" + APIVersion + "/" }

// GatewayURL is the gateway's WebSocket URL, as /gateway returns it.
func (s *Server) GatewayURL() string {
	return "ws" + strings.TrimPrefix(s.ts.URL, "http") + "/gateway/"
}

// Token is the bot token the server accepts.
func (s *Server) Token() string { return s.token }

// Bot is the bot's own user.
func (s *Server) Bot() discordgo.User { return s.bot }

// AppID is the application id.
func (s *Server) AppID() string { return s.appID }

// Close drops every gateway connection and shuts the server down.
func (s *Server) Close() {
	s.mu.Lock()
	s.closed = true
	conns := s.gw.allConnsLocked()
	s.cond.Broadcast()
	s.mu.Unlock()
	for _, c := range conns {
		c.drop()
	}
	s.ts.CloseClientConnections()
	s.ts.Close()
	s.wg.Wait()
}

// newIDLocked returns a fresh snowflake-like id.
func (s *Server) newIDLocked() string {
	s.next++
	return strconv.FormatUint(s.next, 10)
}

// AddUser adds a person and returns them. Their id is fresh; name is
// their username and global display name.
func (s *Server) AddUser(name string) discordgo.User {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := &discordgo.User{ID: s.newIDLocked(), Username: strings.ToLower(name), GlobalName: name, Discriminator: "0"}
	s.users[u.ID] = u
	return *u
}

// AddBotUser adds another bot (or app) account.
func (s *Server) AddBotUser(name string) discordgo.User {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := &discordgo.User{ID: s.newIDLocked(), Username: name, Bot: true, Discriminator: "0"}
	s.users[u.ID] = u
	return *u
}

// AddGuild adds a guild with an @everyone role (PermEveryone), a separate
// owner, and the bot as a member holding its managed role (tagged with the
// bot's id, as Discord makes it when a bot joins). It returns the guild id.
// A guild added while a session is connected is sent to it in GUILD_CREATE.
func (s *Server) AddGuild(name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := &guild{id: s.newIDLocked(), name: name, members: map[string]*member{}}
	owner := &discordgo.User{ID: s.newIDLocked(), Username: "owner-" + g.id, GlobalName: "Owner", Discriminator: "0"}
	s.users[owner.ID] = owner
	g.owner = owner.ID
	g.roles = append(g.roles,
		&role{id: g.id, name: "@everyone", perms: PermEveryone},
		&role{id: s.newIDLocked(), name: s.bot.Username, perms: PermEveryone, position: 1, botID: s.bot.ID})
	g.members[owner.ID] = &member{userID: owner.ID}
	g.members[s.bot.ID] = &member{userID: s.bot.ID, roles: []string{g.roles[1].id}}
	s.guilds[g.id] = g
	s.gorder = append(s.gorder, g.id)
	s.dispatchLocked("GUILD_CREATE", s.guildJSONLocked(g))
	return g.id
}

// Owner returns the id of guildID's owner.
func (s *Server) Owner(guildID string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mustGuildLocked(guildID).owner
}

// BotRole returns the id of the bot's managed role in guildID.
func (s *Server) BotRole(guildID string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.mustGuildLocked(guildID).roles {
		if r.botID == s.bot.ID {
			return r.id
		}
	}
	panic("discordtest: the bot has no role in guild " + guildID)
}

// AddRole adds a role with the given permission bits to guildID and
// returns its id.
func (s *Server) AddRole(guildID, name string, perms int64) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.mustGuildLocked(guildID)
	r := &role{id: s.newIDLocked(), name: name, perms: perms, position: len(g.roles)}
	g.roles = append(g.roles, r)
	s.dispatchLocked("GUILD_ROLE_CREATE", map[string]any{"guild_id": g.id, "role": r.json()})
	return r.id
}

// AddMember makes userID a member of guildID with the given roles.
func (s *Server) AddMember(guildID, userID string, roleIDs ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.mustGuildLocked(guildID)
	g.members[userID] = &member{userID: userID, roles: slices.Clone(roleIDs)}
}

// SetNick sets userID's nickname in guildID.
func (s *Server) SetNick(guildID, userID, nick string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mustMemberLocked(guildID, userID).nick = nick
}

// GrantRole gives userID (a member of guildID) roleID.
func (s *Server) GrantRole(guildID, userID, roleID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.mustMemberLocked(guildID, userID)
	if !slices.Contains(m.roles, roleID) {
		m.roles = append(m.roles, roleID)
	}
}

// AddChannel adds a channel of type typ (text, announcement, forum, ...)
// to guildID and returns its id. A channel added while a session is
// connected is announced with CHANNEL_CREATE.
func (s *Server) AddChannel(guildID, name string, typ discordgo.ChannelType) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.mustGuildLocked(guildID)
	c := &discordgo.Channel{ID: s.newIDLocked(), GuildID: g.id, Name: name, Type: typ}
	s.channels[c.ID] = c
	g.channels = append(g.channels, c.ID)
	s.dispatchLocked("CHANNEL_CREATE", c)
	return c.ID
}

// AddThread starts a public thread named name in parentID (in a forum or
// media channel: a post) and returns its id. It is announced with
// THREAD_CREATE when announce is set; a thread made while the bot was away
// is not, and the bot learns of it from GET /channels/{id}.
func (s *Server) AddThread(parentID, name string, announce bool) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.channels[parentID]
	if !ok || p.GuildID == "" {
		panic("discordtest: AddThread in an unknown guild channel " + parentID)
	}
	c := &discordgo.Channel{ID: s.newIDLocked(), GuildID: p.GuildID, ParentID: p.ID, Name: name, Type: discordgo.ChannelTypeGuildPublicThread,
		ThreadMetadata: &discordgo.ThreadMetadata{}}
	s.channels[c.ID] = c
	g := s.guilds[p.GuildID]
	g.channels = append(g.channels, c.ID)
	if announce {
		d, _ := json.Marshal(c)
		var m map[string]any
		_ = json.Unmarshal(d, &m)
		m["newly_created"] = true
		s.dispatchLocked("THREAD_CREATE", m)
	}
	return c.ID
}

// DMChannel returns the id of the DM channel between userID and the bot,
// creating it if need be.
func (s *Server) DMChannel(userID string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dmLocked(userID)
}

func (s *Server) dmLocked(userID string) string {
	if id, ok := s.dms[userID]; ok {
		return id
	}
	u, ok := s.users[userID]
	if !ok {
		panic("discordtest: unknown user " + userID)
	}
	c := &discordgo.Channel{ID: s.newIDLocked(), Type: discordgo.ChannelTypeDM, Recipients: []*discordgo.User{u}}
	s.channels[c.ID] = c
	s.dms[userID] = c.ID
	return c.ID
}

// CloseDMs makes Discord refuse the bot's messages to userID's DMs with
// 50007 (Cannot send messages to this user), as when a person has turned
// off direct messages from server members.
func (s *Server) CloseDMs(userID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dmClosed[userID] = true
}

func (s *Server) mustGuildLocked(id string) *guild {
	g, ok := s.guilds[id]
	if !ok {
		panic("discordtest: unknown guild " + id)
	}
	return g
}

func (s *Server) mustMemberLocked(guildID, userID string) *member {
	m, ok := s.mustGuildLocked(guildID).members[userID]
	if !ok {
		panic("discordtest: " + userID + " is not a member of guild " + guildID)
	}
	return m
}

// permissionsLocked computes a member's guild-level permissions as
// Discord does: everything for the owner; else @everyone's and their
// roles' permissions together, everything when one of them has
// Administrator. Channel overwrites are not modelled.
func (s *Server) permissionsLocked(g *guild, userID string) int64 {
	if userID == g.owner {
		return discordgo.PermissionAll
	}
	var p int64
	m := g.members[userID]
	for _, r := range g.roles {
		if r.id == g.id || (m != nil && slices.Contains(m.roles, r.id)) {
			p |= r.perms
		}
	}
	if p&discordgo.PermissionAdministrator != 0 {
		return discordgo.PermissionAll
	}
	return p
}

func (r *role) json() map[string]any {
	m := map[string]any{
		"id": r.id, "name": r.name, "permissions": strconv.FormatInt(r.perms, 10), "position": r.position,
		"color": 0, "hoist": false, "managed": r.botID != "", "mentionable": false, "flags": 0,
	}
	if r.botID != "" {
		m["tags"] = map[string]any{"bot_id": r.botID}
	}
	return m
}

// memberJSONLocked is a guild member object. withUser adds the user, as in
// interactions and GUILD_CREATE (a MESSAGE_CREATE's member has none).
func (s *Server) memberJSONLocked(g *guild, m *member, withUser bool) map[string]any {
	out := map[string]any{
		"roles": slices.Clone(m.roles), "joined_at": "2024-01-01T00:00:00.000000+00:00",
		"deaf": false, "mute": false, "flags": 0, "pending": false,
	}
	if m.roles == nil {
		out["roles"] = []string{}
	}
	if m.nick != "" {
		out["nick"] = m.nick
	} else {
		out["nick"] = nil
	}
	if withUser {
		out["user"] = s.users[m.userID]
	}
	return out
}

// guildJSONLocked is g as GUILD_CREATE sends it: roles, channels, active
// threads and the bot's own member.
func (s *Server) guildJSONLocked(g *guild) map[string]any {
	roles := make([]any, len(g.roles))
	for i, r := range g.roles {
		roles[i] = r.json()
	}
	chans, threads := []any{}, []any{}
	for _, id := range g.channels {
		c := s.channels[id]
		if c.IsThread() {
			threads = append(threads, c)
		} else {
			chans = append(chans, c)
		}
	}
	return map[string]any{
		"id": g.id, "name": g.name, "owner_id": g.owner, "roles": roles, "channels": chans, "threads": threads,
		"members":      []any{s.memberJSONLocked(g, g.members[s.bot.ID], true)},
		"member_count": len(g.members), "large": false, "unavailable": false,
		"joined_at": "2024-01-01T00:00:00.000000+00:00", "preferred_locale": "en-US",
		"emojis": []any{}, "stickers": []any{}, "voice_states": []any{}, "presences": []any{},
	}
}

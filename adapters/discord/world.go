package discord

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// The adapter keeps what it needs to know about guilds and channels
// itself, from the raw gateway events (GUILD_CREATE and the channel,
// thread and role events, which the GUILDS intent brings), with a REST
// lookup when an event never came. discordgo's State is off: it cannot say
// which role is the bot's own (discordgo's Role has no tags), and reading
// its objects while the library updates them in place needs its lock.

// channelInfo is what the adapter knows of a channel.
type channelInfo struct {
	guildID  string
	parentID string
	name     string
	typ      discordgo.ChannelType
}

// isThread reports whether the channel is a thread (a forum or media
// channel's posts are threads too).
func (c channelInfo) isThread() bool {
	switch c.typ {
	case discordgo.ChannelTypeGuildPublicThread, discordgo.ChannelTypeGuildPrivateThread, discordgo.ChannelTypeGuildNewsThread:
		return true
	}
	return false
}

// guildInfo is what the adapter knows of a guild.
type guildInfo struct {
	owner     string
	perms     map[string]int64 // role id -> permission bits
	roleNames map[string]string
	botRoles  map[string]bool // the roles Discord made for Haven itself
	expires   time.Time       // zero when kept up to date by events
}

// world is the adapter's view of guilds and channels.
type world struct {
	mu       sync.RWMutex
	channels map[string]channelInfo
	guilds   map[string]*guildInfo
}

// maxChannels bounds the channel cache; past it, the cache starts over
// (what it forgets is looked up again).
const maxChannels = 50000

func newWorld() *world {
	return &world{channels: map[string]channelInfo{}, guilds: map[string]*guildInfo{}}
}

// rawChannel is a channel object as the events carry it.
type rawChannel struct {
	ID       string                `json:"id"`
	GuildID  string                `json:"guild_id"`
	ParentID string                `json:"parent_id"`
	Name     string                `json:"name"`
	Type     discordgo.ChannelType `json:"type"`
}

// rawRole is a role object with the tags discordgo's Role leaves out.
type rawRole struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Permissions string `json:"permissions"`
	Tags        *struct {
		BotID string `json:"bot_id"`
	} `json:"tags"`
}

// rawGuild is a guild object as GUILD_CREATE and GET /guilds/{id} carry
// it.
type rawGuild struct {
	ID          string       `json:"id"`
	OwnerID     string       `json:"owner_id"`
	Unavailable bool         `json:"unavailable"`
	Roles       []rawRole    `json:"roles"`
	Channels    []rawChannel `json:"channels"`
	Threads     []rawChannel `json:"threads"`
}

// apply updates the world from one gateway event, when it is one the
// world tracks. me is the bot's user id. It returns an error only when
// the event's data does not decode.
func (w *world) apply(t string, raw json.RawMessage, me string) error {
	switch t {
	case "GUILD_CREATE", "GUILD_UPDATE":
		var g rawGuild
		if err := json.Unmarshal(raw, &g); err != nil {
			return err
		}
		if g.Unavailable || g.ID == "" {
			return nil
		}
		w.mu.Lock()
		defer w.mu.Unlock()
		w.guilds[g.ID] = guildFrom(g, me)
		for _, cs := range [][]rawChannel{g.Channels, g.Threads} {
			for _, c := range cs {
				w.addLocked(c, g.ID)
			}
		}
	case "GUILD_DELETE":
		var g rawGuild
		if err := json.Unmarshal(raw, &g); err != nil {
			return err
		}
		if g.Unavailable {
			return nil // an outage: the guild comes back with GUILD_CREATE
		}
		w.mu.Lock()
		defer w.mu.Unlock()
		delete(w.guilds, g.ID)
		for id, c := range w.channels {
			if c.guildID == g.ID {
				delete(w.channels, id)
			}
		}
	case "GUILD_ROLE_CREATE", "GUILD_ROLE_UPDATE":
		var e struct {
			GuildID string  `json:"guild_id"`
			Role    rawRole `json:"role"`
		}
		if err := json.Unmarshal(raw, &e); err != nil {
			return err
		}
		w.mu.Lock()
		defer w.mu.Unlock()
		if g := w.guilds[e.GuildID]; g != nil {
			g.addRole(e.Role, me)
		}
	case "GUILD_ROLE_DELETE":
		var e struct {
			GuildID string `json:"guild_id"`
			RoleID  string `json:"role_id"`
		}
		if err := json.Unmarshal(raw, &e); err != nil {
			return err
		}
		w.mu.Lock()
		defer w.mu.Unlock()
		if g := w.guilds[e.GuildID]; g != nil {
			delete(g.perms, e.RoleID)
			delete(g.roleNames, e.RoleID)
			delete(g.botRoles, e.RoleID)
		}
	case "CHANNEL_CREATE", "CHANNEL_UPDATE", "THREAD_CREATE", "THREAD_UPDATE":
		var c rawChannel
		if err := json.Unmarshal(raw, &c); err != nil {
			return err
		}
		w.mu.Lock()
		defer w.mu.Unlock()
		w.addLocked(c, c.GuildID)
	case "CHANNEL_DELETE", "THREAD_DELETE":
		var c rawChannel
		if err := json.Unmarshal(raw, &c); err != nil {
			return err
		}
		w.mu.Lock()
		defer w.mu.Unlock()
		delete(w.channels, c.ID)
	case "THREAD_LIST_SYNC":
		var e struct {
			GuildID string       `json:"guild_id"`
			Threads []rawChannel `json:"threads"`
		}
		if err := json.Unmarshal(raw, &e); err != nil {
			return err
		}
		w.mu.Lock()
		defer w.mu.Unlock()
		for _, c := range e.Threads {
			w.addLocked(c, e.GuildID)
		}
	}
	return nil
}

func (w *world) addLocked(c rawChannel, guildID string) {
	if c.ID == "" {
		return
	}
	if len(w.channels) >= maxChannels {
		w.channels = map[string]channelInfo{}
	}
	if c.GuildID == "" {
		c.GuildID = guildID
	}
	w.channels[c.ID] = channelInfo{guildID: c.GuildID, parentID: c.ParentID, name: c.Name, typ: c.Type}
}

func guildFrom(g rawGuild, me string) *guildInfo {
	gi := &guildInfo{owner: g.OwnerID, perms: map[string]int64{}, roleNames: map[string]string{}, botRoles: map[string]bool{}}
	for _, r := range g.Roles {
		gi.addRole(r, me)
	}
	return gi
}

func (g *guildInfo) addRole(r rawRole, me string) {
	if r.ID == "" {
		return
	}
	p, err := strconv.ParseInt(r.Permissions, 10, 64)
	if err != nil {
		p = 0 // unreadable permissions grant nothing
	}
	g.perms[r.ID], g.roleNames[r.ID] = p, r.Name
	if r.Tags != nil && r.Tags.BotID != "" && r.Tags.BotID == me {
		g.botRoles[r.ID] = true
	}
}

// channel returns what the world knows of channel id.
func (w *world) channel(id string) (channelInfo, bool) {
	w.mu.RLock()
	defer w.mu.RUnlock()
	c, ok := w.channels[id]
	return c, ok
}

// guild returns a copy-free view of guild id through f, under the lock;
// ok is false when the guild is unknown or its REST copy has expired.
func (w *world) guild(id string, now time.Time, f func(g *guildInfo)) bool {
	w.mu.RLock()
	defer w.mu.RUnlock()
	g, ok := w.guilds[id]
	if !ok || (!g.expires.IsZero() && !now.Before(g.expires)) {
		return false
	}
	f(g)
	return true
}

// lookupChannel returns channel id's info, asking Discord
// (GET /channels/{id}) when no event told it.
func (a *Adapter) lookupChannel(ctx context.Context, id string) (channelInfo, error) {
	if c, ok := a.world.channel(id); ok {
		return c, nil
	}
	cctx, cancel := context.WithTimeout(ctx, lookupTimeout)
	defer cancel()
	ch, err := a.session().Channel(id, discordgo.WithContext(cctx))
	if err != nil {
		return channelInfo{}, fmt.Errorf("look up channel %s: %w", id, a.redact(err))
	}
	c := rawChannel{ID: ch.ID, GuildID: ch.GuildID, ParentID: ch.ParentID, Name: ch.Name, Type: ch.Type}
	a.world.mu.Lock()
	a.world.addLocked(c, ch.GuildID)
	a.world.mu.Unlock()
	return channelInfo{guildID: c.GuildID, parentID: c.ParentID, name: c.Name, typ: c.Type}, nil
}

// lookupTimeout bounds one lookup the normalizer makes.
const lookupTimeout = 10 * time.Second

// withGuild calls f with guild id's info, asking Discord (GET
// /guilds/{id}) when no event told it; the REST copy is kept for
// AdminCacheTTL. It reports false, without calling f, when the guild
// cannot be known.
func (a *Adapter) withGuild(ctx context.Context, id string, f func(g *guildInfo)) bool {
	if a.world.guild(id, a.now(), f) {
		return true
	}
	cctx, cancel := context.WithTimeout(ctx, lookupTimeout)
	defer cancel()
	ep := discordgo.EndpointGuild(id)
	body, err := a.session().RequestWithBucketID("GET", ep, nil, ep, discordgo.WithContext(cctx))
	if err != nil {
		a.log.Warn("discord: cannot look up a guild; its members count as not admins and its roles as not Haven's",
			slog.String("guild", id), slog.Any("err", a.redact(err)))
		return false
	}
	var g rawGuild
	if err := json.Unmarshal(body, &g); err != nil || g.ID != id {
		a.log.Warn("discord: the guild lookup did not answer with the guild", slog.String("guild", id))
		return false
	}
	gi := guildFrom(g, a.selfID())
	gi.expires = a.now().Add(a.opts.AdminCacheTTL)
	a.world.mu.Lock()
	if old, ok := a.world.guilds[id]; !ok || !old.expires.IsZero() {
		a.world.guilds[id] = gi // never replace what events keep up to date
	}
	a.world.mu.Unlock()
	return a.world.guild(id, a.now(), f)
}

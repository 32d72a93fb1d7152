package discord

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Interactions (application commands, /haven) are acknowledged at once on
// the gateway's goroutine with a deferred response (Discord's "Haven is
// thinking...", which must come within 3 seconds), then run as a turn like
// any message. The turn's answers go back as follow-ups on the
// interaction's token: ephemeral in a guild (flag 64: only the person who
// ran the command sees them), ordinary in a DM.

// callbackTimeout bounds the deferral: Discord refuses it after 3 s.
const callbackTimeout = 3 * time.Second

// tokenLifetime is how long Discord takes follow-ups on an interaction's
// token; past it the adapter answers by DM instead.
const tokenLifetime = 15 * time.Minute

// pendingInteraction is an acknowledged interaction whose answers may
// still come.
type pendingInteraction struct {
	i       *discordgo.Interaction
	channel rawChannel // the channel it was run in, from the payload
	// channelKnown is true when the payload described the channel (its
	// type and parent).
	channelKnown bool
	userID       string
	conv         string // the namespaced conversation id of its turn
	ephemeral    bool   // answers only its invoker sees (in a guild)
	created      time.Time
	// superseded is set (under interactions.mu) once its invoker has
	// written in the conversation since: it is no longer where their
	// private answers go first.
	superseded bool

	// press is set for a button press (its acknowledgement is then
	// answerPress's update, not a deferral).
	press *press

	done chan struct{} // closed when the deferral has an outcome
	err  error         // the deferral's outcome: nil when acknowledged
}

// wait blocks until the deferral has an outcome, and returns it.
func (p *pendingInteraction) wait(ctx context.Context) error {
	select {
	case <-p.done:
		return p.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// interactions are the pending interactions, by id.
type interactions struct {
	mu   sync.Mutex
	byID map[string]*pendingInteraction
}

func newInteractions() *interactions {
	return &interactions{byID: map[string]*pendingInteraction{}}
}

// add keeps p, forgetting those whose token has expired.
func (s *interactions) add(p *pendingInteraction, now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, q := range s.byID {
		if now.Sub(q.created) > tokenLifetime {
			delete(s.byID, id)
		}
	}
	s.byID[p.i.ID] = p
}

// get returns the interaction id while its token takes follow-ups.
func (s *interactions) get(id string, now time.Time) *pendingInteraction {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.byID[id]
	if p == nil || now.Sub(p.created) > tokenLifetime {
		return nil
	}
	return p
}

// latest returns the most recent live interaction user ran in conv;
// unless all, only one they have not written after (see supersede).
func (s *interactions) latest(conv, user string, now time.Time, all bool) *pendingInteraction {
	s.mu.Lock()
	defer s.mu.Unlock()
	var best *pendingInteraction
	for _, p := range s.byID {
		if p.conv == conv && p.userID == user && now.Sub(p.created) <= tokenLifetime && (all || !p.superseded) &&
			(best == nil || p.created.After(best.created)) {
			best = p
		}
	}
	return best
}

// supersede records that user wrote a message in conv: the private
// answers of that turn belong in their DM, not under an earlier command.
func (s *interactions) supersede(conv, user string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.byID {
		if p.conv == conv && p.userID == user {
			p.superseded = true
		}
	}
}

// acknowledge decodes an INTERACTION_CREATE and, for a chat command seen
// for the first time, defers its response in the background; a button
// press goes to acknowledgePress. It returns nil (and no error) for what
// is not Haven's to answer or was seen before.
func (a *Adapter) acknowledge(raw json.RawMessage) (*pendingInteraction, error) {
	var head struct {
		Type discordgo.InteractionType `json:"type"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return nil, err
	}
	if head.Type == discordgo.InteractionMessageComponent {
		return a.acknowledgePress(raw)
	}
	var i discordgo.Interaction
	if err := json.Unmarshal(raw, &i); err != nil {
		return nil, err
	}
	var extra struct {
		Channel *rawChannel `json:"channel"`
	}
	if err := json.Unmarshal(raw, &extra); err != nil {
		return nil, err
	}
	if i.ID == "" || i.Token == "" || i.ChannelID == "" {
		return nil, errors.New("interaction without id, token or channel")
	}
	if i.Type != discordgo.InteractionApplicationCommand {
		a.log.Debug("discord interaction ignored", slog.String("interaction", i.ID), slog.Int("type", int(i.Type)))
		return nil, nil
	}
	if _, ok := i.Data.(discordgo.ApplicationCommandInteractionData); !ok {
		return nil, errors.New("command interaction without command data")
	}
	user, _ := interactionUser(i.User, i.Member)
	if user == nil || user.ID == "" {
		return nil, errors.New("interaction without a user")
	}
	if !a.seen.Add(interactionKey(i.ID)) {
		a.stats.replays.Add(1)
		a.log.Debug("discord interaction seen before; dropped", slog.String("interaction", i.ID))
		return nil, nil
	}
	ch := rawChannel{ID: i.ChannelID, GuildID: i.GuildID}
	if extra.Channel != nil && extra.Channel.ID == i.ChannelID {
		ch = *extra.Channel
		if ch.GuildID == "" {
			ch.GuildID = i.GuildID
		}
	}
	p := &pendingInteraction{i: &i, channel: ch, channelKnown: extra.Channel != nil && extra.Channel.ID == i.ChannelID, userID: user.ID, ephemeral: i.GuildID != "", created: a.now(), done: make(chan struct{})}
	a.inter.add(p, a.now())
	if !a.background(func() { a.deferResponse(p) }) {
		p.err = errors.New("discord: not running")
		close(p.done)
	}
	return p, nil
}

// deferResponse acknowledges p with a deferred response, ephemeral in a
// guild.
func (a *Adapter) deferResponse(p *pendingInteraction) {
	defer close(p.done)
	ctx, cancel := context.WithTimeout(a.lifeContext(), callbackTimeout)
	defer cancel()
	resp := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{}}
	if p.ephemeral {
		resp.Data.Flags = discordgo.MessageFlagsEphemeral
	}
	if err := a.session().InteractionRespond(p.i, resp, discordgo.WithContext(ctx)); err != nil {
		p.err = a.redact(err, p.i.Token)
		a.log.Warn("discord: could not acknowledge an interaction in time; its answers go by DM", slog.String("interaction", p.i.ID), slog.Any("err", p.err))
	}
}

// registerCommands registers the commands, globally or in each of
// CommandGuilds (bulk overwrite: commands Haven no longer has are
// removed). Failure is logged: Haven works without them.
func (a *Adapter) registerCommands(ctx context.Context) {
	app := a.appID.Load()
	if app == nil {
		a.log.Warn("discord: READY named no application; the /haven command is not registered")
		return
	}
	cmds := make([]*discordgo.ApplicationCommand, len(a.opts.Commands))
	contexts := []discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM}
	for i, c := range a.opts.Commands {
		cmd := &discordgo.ApplicationCommand{Name: c.Name, Description: c.Description, Type: discordgo.ChatApplicationCommand,
			Contexts: &contexts, Options: []*discordgo.ApplicationCommandOption{}}
		if c.Option != "" {
			cmd.Options = append(cmd.Options, &discordgo.ApplicationCommandOption{
				Type: discordgo.ApplicationCommandOptionString, Name: c.Option, Description: c.OptionDescription, MaxLength: maxMessageLen})
		}
		cmds[i] = cmd
	}
	guilds := a.opts.CommandGuilds
	if len(guilds) == 0 {
		guilds = []string{""}
	}
	for _, g := range guilds {
		cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		_, err := a.session().ApplicationCommandBulkOverwrite(*app, g, cmds, discordgo.WithContext(cctx))
		cancel()
		where := "globally"
		if g != "" {
			where = "in guild " + g
		}
		if err != nil {
			if ctx.Err() == nil {
				a.log.Warn("discord: cannot register the commands; /haven may be missing or out of date", slog.String("where", where), slog.Any("err", a.redact(err)))
			}
			continue
		}
		a.log.Info("discord commands registered", slog.String("where", where), slog.Int("commands", len(cmds)))
	}
}

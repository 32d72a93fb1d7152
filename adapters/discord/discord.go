package discord

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cenkalti/backoff/v5"

	"github.com/havenbot/haven/adapters/internal/recent"
	"github.com/havenbot/haven/adapters/internal/retry"
	"github.com/havenbot/haven/channels"
)

// maxMessageLen is Discord's limit on a message's content: 2,000 code
// points (see channels.Measure for the source). Haven's neutral text is
// Discord markdown as it is, so what the Hub measures is what Discord
// counts.
const maxMessageLen = 2000

// messageLimit is what MessageLimit returns.
var messageLimit = channels.Limit{Max: maxMessageLen, Measure: channels.Runes}

// Intents are the gateway intents Haven asks for: guilds (channels,
// threads and roles, to tell threads and forum posts from channels and
// admins from members), guild messages, direct messages, and the
// privileged message content, without which guild messages arrive without
// their text.
const Intents = discordgo.IntentsGuilds | discordgo.IntentsGuildMessages | discordgo.IntentsDirectMessages | discordgo.IntentMessageContent

// InvitePermissions are the permissions Haven asks for in its invite URL
// (README.md): view channels, send messages, send messages in threads,
// read message history, attach files, use application commands.
const InvitePermissions int64 = discordgo.PermissionViewChannel | discordgo.PermissionSendMessages |
	discordgo.PermissionSendMessagesInThreads | discordgo.PermissionReadMessageHistory |
	discordgo.PermissionAttachFiles | discordgo.PermissionUseApplicationCommands

// Command is an application (slash) command Haven registers at start.
// Running it reaches the core as the text "/Name value", value being what
// the person typed in its one string option.
type Command struct {
	// Name is the command without its slash: 1-32 lowercase letters,
	// digits, - and _.
	Name string
	// Description is shown next to it (1-100 characters).
	Description string
	// Option names its one optional string option; "" for none.
	Option string
	// OptionDescription describes the option (1-100 characters).
	OptionDescription string
}

// DefaultCommands are the commands registered when Options.Commands is
// empty: /haven, which carries admin commands ("/haven pause") and
// anything else to Haven.
var DefaultCommands = []Command{{
	Name:              "haven",
	Description:       "Talk to Haven privately here, or give it a command (help, pause, ...)",
	Option:            "command",
	OptionDescription: "What to tell Haven, e.g. help",
}}

// Options configure the adapter.
type Options struct {
	// Token is the bot token as the Developer Portal shows it
	// (HAVEN_DISCORD_TOKEN); a "Bot " prefix is accepted. Required.
	Token string
	// APIURL is the REST API root with its trailing slash
	// (HAVEN_DISCORD_API_URL, discordgo's EndpointAPI with another scheme,
	// host and path); empty means Discord's own, DefaultAPIURL. The
	// gateway URL comes from its /gateway endpoint.
	APIURL string
	// HTTPClient makes the REST calls; nil means a client of its own. The
	// adapter wraps its Transport (see transport.go) and never changes
	// the client given.
	HTTPClient *http.Client
	// Admins are namespaced user ids that are PlatformAdmin:
	// "discord::<user id>" everywhere, "discord:<guild id>:<user id>" in
	// that guild only. Other platforms' ids are skipped, so the
	// configuration's shared admin list can be passed as it is.
	Admins []string
	// CommandGuilds, when set, registers the commands in these guilds
	// only (at once) instead of globally.
	CommandGuilds []string
	// Commands are registered at start; empty means DefaultCommands.
	Commands []Command
	// Logger receives the adapter's logs; nil means slog.Default().
	Logger *slog.Logger
	// Clock returns the current time; nil means time.Now.
	Clock func() time.Time
	// AdminCacheTTL is how long a guild's roles and owner fetched over
	// REST (when no GUILD_CREATE told them) are reused (default 1 minute).
	AdminCacheTTL time.Duration
	// StaleAfter is the heartbeat-ACK age past which Liveness no longer
	// counts the gateway connection as working (default 2 minutes, about
	// three of Discord's heartbeat intervals). discordgo itself replaces a
	// connection after five intervals without an ACK.
	StaleAfter time.Duration
	// OpenTimeout bounds one gateway connection attempt, from the
	// WebSocket dial to READY or RESUMED (default 30 s).
	OpenTimeout time.Duration
}

// ErrUnauthorized is wrapped by Run's and Check's error when Discord
// refuses the token.
var ErrUnauthorized = errors.New("discord: Discord refused the bot token; check HAVEN_DISCORD_TOKEN (Developer Portal, your application, Bot, Reset Token)")

// ErrCannotDM is wrapped by the permanent send error returned when a
// private message cannot reach the person (Discord's 50007: they do not
// take direct messages from server members, or blocked the bot). The core
// has already said publicly, without the private details, that it wrote
// privately and how to reach it.
var ErrCannotDM = errors.New("discord: cannot message this person directly (50007): their privacy settings refuse DMs from server members")

// contentIntentHelp says where to switch the Message Content intent on.
const contentIntentHelp = "switch on MESSAGE CONTENT INTENT in the Discord Developer Portal (Applications, your application, Bot, Privileged Gateway Intents) and restart Haven"

// Adapter is the Discord adapter. Create it with New.
type Adapter struct {
	opts       Options
	token      string // without "Bot "
	log        *slog.Logger
	client     *http.Client // the session's, with transport
	ownClient  bool
	api        *url.URL
	apiHost    string // scheme and host, for messages
	admins     map[string]bool
	now        func() time.Time
	sleep      func(ctx context.Context, d time.Duration) error
	newBackoff func() backoff.BackOff

	gw        atomic.Pointer[gateway]
	world     *world
	self      atomic.Pointer[discordgo.User]
	appID     atomic.Pointer[string]
	life      atomic.Pointer[context.Context] // Run's context while it runs
	ready     chan struct{}
	readyOnce sync.Once
	running   atomic.Bool
	connected atomic.Bool
	lastEvent atomic.Int64 // unix nanoseconds
	lastAck   atomic.Int64 // unix nanoseconds
	noContent atomic.Bool  // running without the Message Content intent

	events       chan gwEvent
	disconnected chan struct{}
	stopping     atomic.Pointer[chan struct{}] // closed when Run stops taking events

	seen   *recent.Set
	inter  *interactions
	dmMu   sync.Mutex
	dms    map[string]string // user id -> DM channel id
	locMu  sync.Mutex
	locale map[string]string // user id -> their client's locale, from interactions

	contentWarned atomic.Bool
	stats         counters

	bgMu   sync.Mutex
	bgOpen bool
	bg     sync.WaitGroup
}

// counters are the adapter's Stats.
type counters struct {
	skipped, replays, unreadable, lost atomic.Uint64
}

var (
	_ channels.Adapter    = (*Adapter)(nil)
	_ channels.Typer      = (*Adapter)(nil)
	_ channels.FileSender = (*Adapter)(nil)
	_ channels.Live       = (*Adapter)(nil)
)

// New checks opts and returns an adapter. It does not contact Discord:
// Run does (and Send may, for replies left from an earlier run, before
// Run has connected).
func New(opts Options) (*Adapter, error) {
	if opts.Token == "" {
		return nil, errors.New("discord: no token: set HAVEN_DISCORD_TOKEN to the bot token from the Developer Portal")
	}
	if err := checkToken(opts.Token); err != nil {
		return nil, fmt.Errorf("discord: %w", err)
	}
	if opts.APIURL == "" {
		opts.APIURL = DefaultAPIURL
	}
	api, err := checkAPIURL(opts.APIURL)
	if err != nil {
		return nil, fmt.Errorf("discord: %w", err)
	}
	for _, g := range opts.CommandGuilds {
		if err := checkSnowflake("discord.command_guilds", "HAVEN_DISCORD_COMMAND_GUILDS", g); err != nil {
			return nil, fmt.Errorf("discord: %w", err)
		}
	}
	if len(opts.Commands) == 0 {
		opts.Commands = DefaultCommands
	}
	for _, c := range opts.Commands {
		if err := checkCommand(c); err != nil {
			return nil, fmt.Errorf("discord: %w", err)
		}
	}
	if opts.AdminCacheTTL <= 0 {
		opts.AdminCacheTTL = time.Minute
	}
	if opts.StaleAfter <= 0 {
		opts.StaleAfter = 2 * time.Minute
	}
	if opts.OpenTimeout <= 0 {
		opts.OpenTimeout = 30 * time.Second
	}
	admins, err := parseAdmins(opts.Admins)
	if err != nil {
		return nil, err
	}
	a := &Adapter{
		opts:         opts,
		token:        strings.TrimPrefix(opts.Token, "Bot "),
		log:          opts.Logger,
		api:          api,
		apiHost:      api.Scheme + "://" + api.Host,
		admins:       admins,
		now:          opts.Clock,
		sleep:        retry.Sleep,
		newBackoff:   retry.Backoff,
		world:        newWorld(),
		ready:        make(chan struct{}),
		events:       make(chan gwEvent, eventBuffer),
		disconnected: make(chan struct{}, 1),
		seen:         recent.New(recentSize),
		inter:        newInteractions(),
		dms:          map[string]string{},
		locale:       map[string]string{},
	}
	if a.log == nil {
		a.log = slog.Default()
	}
	if a.now == nil {
		a.now = time.Now
	}
	base, next := opts.HTTPClient, http.RoundTripper(nil)
	if base == nil {
		base = &http.Client{}
		next = http.DefaultTransport.(*http.Transport).Clone()
		a.ownClient = true
	} else {
		next = base.Transport
		if next == nil {
			next = http.DefaultTransport
		}
	}
	a.client = &http.Client{
		Transport:     &transport{next: next, to: api, base: a.lifeContext},
		CheckRedirect: base.CheckRedirect,
		Jar:           base.Jar,
		Timeout:       base.Timeout,
	}
	a.gw.Store(a.newGateway(Intents))
	return a, nil
}

// parseAdmins reads the configured admins that are Discord's.
func parseAdmins(ids []string) (map[string]bool, error) {
	out := map[string]bool{}
	for _, id := range ids {
		p, ws, local, ok := channels.SplitID(id)
		if prefix, _, _ := strings.Cut(id, ":"); (ok && p != Platform) || (!ok && prefix != Platform) {
			continue // another platform's admin, from the shared list
		}
		if !ok || checkSnowflake("admins", "HAVEN_ADMINS", local) != nil || (ws != "" && checkSnowflake("admins", "HAVEN_ADMINS", ws) != nil) {
			return nil, fmt.Errorf("discord: admin %q is not a namespaced Discord user id: use \"discord::<user id>\" for an admin everywhere or \"discord:<server id>:<user id>\" for one server", id)
		}
		out[ws+":"+local] = true
	}
	return out, nil
}

// configuredAdmin reports whether the admins list names user, everywhere
// or in guild.
func (a *Adapter) configuredAdmin(guild, user string) bool {
	return a.admins[":"+user] || (guild != "" && a.admins[guild+":"+user])
}

func checkCommand(c Command) error {
	ok := func(s string) bool {
		return s != "" && len(s) <= 32 && !strings.ContainsFunc(s, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_')
		})
	}
	switch {
	case !ok(c.Name):
		return fmt.Errorf("command name %q: use 1-32 lowercase letters, digits, - and _", c.Name)
	case c.Description == "" || len([]rune(c.Description)) > 100:
		return fmt.Errorf("command %s: the description must have 1-100 characters", c.Name)
	case c.Option != "" && !ok(c.Option):
		return fmt.Errorf("command %s: option name %q: use 1-32 lowercase letters, digits, - and _", c.Name, c.Option)
	case c.Option != "" && (c.OptionDescription == "" || len([]rune(c.OptionDescription)) > 100):
		return fmt.Errorf("command %s: the option's description must have 1-100 characters", c.Name)
	}
	return nil
}

// Platform returns "discord".
func (a *Adapter) Platform() string { return Platform }

// MessageLimit is Discord's: 2,000 code points.
func (a *Adapter) MessageLimit() channels.Limit { return messageLimit }

// Close releases idle connections of the adapter's own HTTP client.
func (a *Adapter) Close() error {
	if a.ownClient {
		a.client.CloseIdleConnections()
	}
	return nil
}

// Ready is closed once Run has connected: the bot's identity is known,
// the gateway session is ready and the commands are registered (or their
// registration failed, which is logged).
func (a *Adapter) Ready() <-chan struct{} { return a.ready }

func (a *Adapter) markReady() { a.readyOnce.Do(func() { close(a.ready) }) }

// Stats are an Adapter's counters since New.
type Stats struct {
	// Skipped counts events dropped because they did not decode; each
	// was logged without its content.
	Skipped uint64
	// Replays counts events dropped because they were seen before (a
	// RESUME replaying what had already arrived).
	Replays uint64
	// Unreadable counts messages addressed to Haven that arrived without
	// their text (the Message Content intent is off).
	Unreadable uint64
	// Lost counts events received but not handed to the Hub: at shutdown,
	// when the Hub refused them.
	Lost uint64
}

// Stats returns the adapter's counters; it is safe to call at any time.
func (a *Adapter) Stats() Stats {
	return Stats{Skipped: a.stats.skipped.Load(), Replays: a.stats.replays.Load(),
		Unreadable: a.stats.unreadable.Load(), Lost: a.stats.lost.Load()}
}

// SkippedEvents returns Stats().Skipped, for the skipped-events metric.
func (a *Adapter) SkippedEvents() uint64 { return a.stats.skipped.Load() }

// Self returns the bot's own user once Run has fetched it, else nil.
func (a *Adapter) Self() *discordgo.User { return a.self.Load() }

func (a *Adapter) selfID() string {
	if u := a.self.Load(); u != nil {
		return u.ID
	}
	return ""
}

// Liveness reports the gateway connection's health: Connected while a
// session is open and its last heartbeat ACK is younger than StaleAfter;
// LastHeartbeat is that ACK (HELLO counts for a new connection);
// LastEvent the last message or interaction. It never blocks: while
// discordgo holds its session lock (opening or closing a connection) it
// reports the last ACK it read.
func (a *Adapter) Liveness() channels.Liveness {
	var l channels.Liveness
	if g := a.gw.Load(); g != nil && g.opened.Load() && g.s.TryRLock() {
		ack := g.s.LastHeartbeatAck
		g.s.RUnlock()
		if ns := ack.UnixNano(); ns > a.lastAck.Load() {
			a.lastAck.Store(ns)
		}
	}
	if ns := a.lastAck.Load(); ns != 0 {
		l.LastHeartbeat = time.Unix(0, ns)
	}
	if ns := a.lastEvent.Load(); ns != 0 {
		l.LastEvent = time.Unix(0, ns)
	}
	l.Connected = a.connected.Load() && !l.LastHeartbeat.IsZero() && a.now().Sub(l.LastHeartbeat) < a.opts.StaleAfter
	return l
}

// lifeContext is Run's context while it runs, for requests the library
// makes without one.
func (a *Adapter) lifeContext() context.Context {
	if p := a.life.Load(); p != nil {
		return *p
	}
	return context.Background()
}

// background runs f in a goroutine that Run waits for before it returns.
// It reports false, and does not run f, when Run is not running.
func (a *Adapter) background(f func()) bool {
	a.bgMu.Lock()
	defer a.bgMu.Unlock()
	if !a.bgOpen {
		return false
	}
	a.bg.Add(1)
	go func() {
		defer a.bg.Done()
		f()
	}()
	return true
}

// redactedError hides the bot token and interaction tokens, which request
// URLs (in network errors) and headers may carry.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// redact returns err with the bot token and the given secrets replaced.
func (a *Adapter) redact(err error, secrets ...string) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	out := strings.ReplaceAll(msg, a.token, "<token>")
	for _, s := range secrets {
		if s != "" {
			out = strings.ReplaceAll(out, s, "<interaction-token>")
		}
	}
	if out == msg {
		return err
	}
	return &redactedError{msg: out, err: err}
}

// recentSize is how many event ids the adapter remembers.
const recentSize = 8192

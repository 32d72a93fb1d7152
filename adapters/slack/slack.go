package slack

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	slackgo "github.com/slack-go/slack"

	"github.com/havenbot/haven/adapters/internal/recent"
	"github.com/havenbot/haven/adapters/internal/retry"
	"github.com/havenbot/haven/channels"
)

// maxMessageLen is the longest text Send takes: 3,000 UTF-16 units, the
// limit of a section block's text and Slack's advice for a message. Send
// posts it as the message's text, whose hard limit is 40,000 characters
// (Slack truncates beyond): escaping (&amp; is five characters for one)
// can make it at most five times longer, 15,000, so nothing is ever cut
// however Slack counts.
const maxMessageLen = 3000

// messageLimit is what MessageLimit returns.
var messageLimit = channels.Limit{Max: maxMessageLen, Measure: channels.UTF16}

// DefaultCommand is the slash command Haven answers when Options.Command
// is empty.
const DefaultCommand = "/haven"

// Options configure the adapter.
type Options struct {
	// BotToken is the xoxb- bot token (HAVEN_SLACK_BOT_TOKEN). Required.
	BotToken string
	// AppToken is the xapp- app-level token with connections:write
	// (HAVEN_SLACK_APP_TOKEN). Required in Socket Mode.
	AppToken string
	// SigningSecret verifies Events API requests (HAVEN_SLACK_SIGNING_SECRET).
	// Required in http mode.
	SigningSecret string
	// Mode is ModeSocket (the default) or ModeHTTP.
	Mode string
	// APIURL is the Web API root with its trailing slash
	// (HAVEN_SLACK_API_URL); empty means Slack's own.
	APIURL string
	// HTTPClient makes the Web API calls; nil means a client of its own.
	// The Socket Mode WebSocket has its own dialer.
	HTTPClient *http.Client
	// Admins are namespaced user ids ("slack:T0123:U0456") that are
	// PlatformAdmin in every conversation, in addition to the workspace's
	// admins and owners that users.info reports. Other platforms' ids are
	// skipped, so the configuration's shared list can be passed as it is.
	Admins []string
	// Command is the slash command delivered to the core as an admin
	// command (default "/haven").
	Command string
	// Logger receives the adapter's logs; nil means slog.Default().
	Logger *slog.Logger
	// UserCacheTTL is how long a users.info answer (name, admin flag, time
	// zone, locale) is reused (default 10 minutes). A lookup that failed is
	// tried again after at most 30 seconds.
	UserCacheTTL time.Duration
	// LookupTimeout bounds one users.info call made while an event is
	// received (default 2 s), so that a slow Slack cannot hold events up;
	// a lookup that times out counts as failed (not an admin, no locale).
	LookupTimeout time.Duration
	// PingTimeout is how long the Socket Mode connection may go without a
	// ping from Slack before it is replaced by a new one (default 30 s).
	PingTimeout time.Duration
	// MaxBody bounds one Events API request body (default 1 MiB).
	MaxBody int64
	// Clock returns the current time; nil means time.Now.
	Clock func() time.Time
}

// ErrCannotDM is wrapped by the permanent send error returned when a
// private message cannot reach the person: the DM cannot be opened
// (conversations.open refused) and no ephemeral message can be shown to
// them either.
var ErrCannotDM = errors.New("slack: cannot message this person privately")

// ErrBotToken is wrapped by Run's and Check's error when Slack rejects
// the bot token.
var ErrBotToken = errors.New("slack: Slack rejected the bot token; check HAVEN_SLACK_BOT_TOKEN (OAuth & Permissions → Bot User OAuth Token, xoxb-)")

// ErrAppToken is wrapped by Run's and Check's error when Slack rejects
// the app-level token that opens Socket Mode connections.
var ErrAppToken = errors.New("slack: Slack rejected the app-level token; check HAVEN_SLACK_APP_TOKEN (Basic Information → App-Level Tokens, xapp- with connections:write)")

// self is who the bot is, from auth.test.
type self struct {
	team, user, botID, name string
}

// Adapter is the Slack adapter. Create it with New.
type Adapter struct {
	opts      Options
	api       *slackgo.Client
	client    *http.Client
	ownClient bool
	log       *slog.Logger
	admins    map[[2]string]bool // {team, user}
	now       func() time.Time
	host      string // the API's scheme and host, for messages
	sleep     func(ctx context.Context, d time.Duration) error

	me        atomic.Pointer[self]
	ready     chan struct{}
	readyOnce sync.Once
	running   atomic.Bool
	hook      atomic.Pointer[hookState]

	live       channels.LiveRecorder
	skipped    atomic.Uint64
	duplicates atomic.Uint64

	users userCache
	dms   sync.Map // {team, user} -> DM channel id
	kinds sync.Map // channel id -> channels.Kind, learnt from message events
	// ephemerals: the text of ephemeral messages with buttons, for a press
	// (see maxEphemerals)
	ephemerals *recent.Map[string]
	events     *recent.Set // event ids already handled
}

// hookState is what the Events API handler needs while Run runs.
type hookState struct {
	ctx  context.Context
	sink channels.Sink
	jobs chan<- job // button presses, for process
}

var (
	_ channels.Adapter    = (*Adapter)(nil)
	_ channels.FileSender = (*Adapter)(nil)
	_ channels.Live       = (*Adapter)(nil)
)

// New checks opts and returns an adapter. It does not contact Slack: Run
// does. The tokens, mode and URL follow the rules of Config.Validate.
func New(opts Options) (*Adapter, error) {
	if opts.Mode == "" {
		opts.Mode = ModeSocket
	}
	if opts.APIURL == "" {
		opts.APIURL = slackgo.APIURL
	}
	cfg := Config{APIURL: opts.APIURL, BotToken: opts.BotToken, AppToken: opts.AppToken,
		SigningSecret: opts.SigningSecret, Mode: opts.Mode, HTTPListen: ":3000"}
	if opts.BotToken == "" {
		return nil, errors.New("slack: HAVEN_SLACK_BOT_TOKEN is empty: set the xoxb- bot token")
	}
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("slack: %w", err)
	}
	if opts.Command == "" {
		opts.Command = DefaultCommand
	}
	if !strings.HasPrefix(opts.Command, "/") || strings.ContainsAny(opts.Command, " \t\n") {
		return nil, fmt.Errorf("slack: command %q must be one word starting with a slash, like /haven", opts.Command)
	}
	if opts.UserCacheTTL <= 0 {
		opts.UserCacheTTL = 10 * time.Minute
	}
	if opts.LookupTimeout <= 0 {
		opts.LookupTimeout = 2 * time.Second
	}
	if opts.PingTimeout <= 0 {
		opts.PingTimeout = 30 * time.Second
	}
	if opts.MaxBody <= 0 {
		opts.MaxBody = 1 << 20
	}
	admins := map[[2]string]bool{}
	for _, id := range opts.Admins {
		p, team, user, ok := channels.SplitID(id)
		if ok && p != Platform {
			continue // another platform's admin, from a shared list
		}
		if !ok || team == "" || !isUserID(user) {
			return nil, fmt.Errorf("slack: admin %q is not a namespaced Slack user id; one looks like \"slack:T0123:U0456\" (workspace id, then user id)", id)
		}
		admins[[2]string{team, user}] = true
	}
	u, _ := url.Parse(opts.APIURL) // Validate has parsed it
	a := &Adapter{
		opts:       opts,
		client:     opts.HTTPClient,
		log:        opts.Logger,
		admins:     admins,
		now:        opts.Clock,
		host:       u.Scheme + "://" + u.Host,
		sleep:      retry.Sleep,
		ready:      make(chan struct{}),
		events:     recent.New(4096),
		ephemerals: recent.NewMap[string](maxEphemerals),
	}
	if a.client == nil {
		a.client = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
		a.ownClient = true
	}
	if a.log == nil {
		a.log = slog.Default()
	}
	if a.now == nil {
		a.now = time.Now
	}
	a.users = userCache{ttl: opts.UserCacheTTL, entries: map[[2]string]userEntry{}}
	a.api = slackgo.New(opts.BotToken,
		slackgo.OptionAPIURL(opts.APIURL),
		slackgo.OptionAppLevelToken(opts.AppToken),
		slackgo.OptionHTTPClient(a.client),
		slackgo.OptionLog(log.New(io.Discard, "", 0)),
	)
	return a, nil
}

// isUserID reports whether s looks like a Slack user id (U… or W…).
func isUserID(s string) bool {
	if len(s) < 2 || (s[0] != 'U' && s[0] != 'W') {
		return false
	}
	for _, r := range s {
		if !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// Platform returns "slack".
func (a *Adapter) Platform() string { return Platform }

// MessageLimit is 3,000 UTF-16 units (see maxMessageLen).
func (a *Adapter) MessageLimit() channels.Limit { return messageLimit }

// Close releases idle connections of the adapter's own HTTP client.
func (a *Adapter) Close() error {
	if a.ownClient {
		a.client.CloseIdleConnections()
	}
	return nil
}

// Ready is closed once Run has connected: the bot's identity is known and
// Slack has said hello on the Socket Mode connection (socket mode) or
// Handler accepts requests (http mode).
func (a *Adapter) Ready() <-chan struct{} { return a.ready }

func (a *Adapter) markReady() { a.readyOnce.Do(func() { close(a.ready) }) }

// Liveness reports the connection's health: Connected while a Socket Mode
// connection is open (in http mode, while Run serves Handler), LastEvent
// when the last envelope or request arrived, and LastHeartbeat when Slack
// was last heard from: anything arriving on the socket, which on an idle
// connection is Slack's ping every few seconds, or a verified request.
func (a *Adapter) Liveness() channels.Liveness { return a.live.Liveness() }

func (a *Adapter) heard()     { a.live.Heartbeat(a.now()) }
func (a *Adapter) eventCame() { a.live.Event(a.now()) }

// SkippedEvents returns Stats().Skipped, for the skipped-events metric.
func (a *Adapter) SkippedEvents() uint64 { return a.skipped.Load() }

// Stats are an Adapter's counters since New.
type Stats struct {
	// Skipped counts events dropped because they did not parse (a field of
	// the wrong type, an unknown event type, invalid JSON), and
	// interactions Haven did not ask for (a press of a button it did not
	// make, a shortcut, a form). Each was acked (or answered 200), logged
	// without its content, and never retried.
	Skipped uint64
	// Duplicates counts deliveries of an event_id already handled (Slack's
	// retries), dropped before they reached the Hub.
	Duplicates uint64
}

// Stats returns the adapter's counters; it is safe to call at any time.
func (a *Adapter) Stats() Stats {
	return Stats{Skipped: a.skipped.Load(), Duplicates: a.duplicates.Load()}
}

// Run connects to Slack (auth.test) and receives events until ctx is done:
// over Socket Mode, or in http mode through Handler. It returns nil when
// ctx is done, and an error only when it cannot go on: a token is
// rejected (the error names its variable), the Web API stays unreachable
// at start, or the Hub keeps refusing an event.
func (a *Adapter) Run(ctx context.Context, sink channels.Sink) error {
	if sink == nil {
		return errors.New("slack: Run needs a sink")
	}
	if !a.running.CompareAndSwap(false, true) {
		return errors.New("slack: Run called while already running")
	}
	defer a.running.Store(false)
	me, err := a.start(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	a.log.Debug("slack bot identified", slog.String("team", me.team), slog.String("bot_user", me.user), slog.String("mode", a.opts.Mode), slog.String("api", a.host))
	if a.opts.Mode == ModeHTTP {
		return a.serveHTTP(ctx, sink, me)
	}
	return a.runSocket(ctx, sink)
}

// maxStartAttempts bounds the auth.test attempts at start on transient
// errors.
const maxStartAttempts = 8

// start asks Slack who the bot is.
func (a *Adapter) start(ctx context.Context) (*self, error) {
	bo := retry.Backoff()
	for attempt := 1; ; attempt++ {
		cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		r, err := a.api.AuthTestContext(cctx)
		cancel()
		if err == nil {
			me := &self{team: r.TeamID, user: r.UserID, botID: r.BotID, name: r.User}
			a.me.Store(me)
			return me, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if authError(err) {
			return nil, fmt.Errorf("%w (auth.test: %w)", ErrBotToken, err)
		}
		if attempt >= maxStartAttempts {
			return nil, fmt.Errorf("slack: cannot reach the Web API at %s after %d attempts (check HAVEN_SLACK_API_URL and the network): %w", a.host, attempt, err)
		}
		wait := bo.NextBackOff()
		if rl, ok := errors.AsType[*slackgo.RateLimitedError](err); ok && rl.RetryAfter > 0 {
			wait = rl.RetryAfter
		}
		a.log.Warn("slack auth.test failed; retrying", slog.Int("attempt", attempt), slog.Duration("wait", wait), slog.Any("err", err))
		if err := a.sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// authCodes are the Slack errors that mean a token is not accepted.
var authCodes = map[string]bool{
	"invalid_auth": true, "not_authed": true, "account_inactive": true, "token_revoked": true,
	"token_expired": true, "not_allowed_token_type": true, "invalid_token": true,
}

// authError reports whether err says a token was refused.
func authError(err error) bool {
	if se, ok := errors.AsType[slackgo.SlackErrorResponse](err); ok {
		return authCodes[se.Err]
	}
	if sc, ok := errors.AsType[slackgo.StatusCodeError](err); ok {
		return sc.Code == http.StatusUnauthorized || sc.Code == http.StatusForbidden
	}
	return authCodes[err.Error()]
}

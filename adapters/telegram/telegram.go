package telegram

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cenkalti/backoff/v5"
	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/havenbot/haven/adapters/internal/retry"
	"github.com/havenbot/haven/channels"
)

// Platform is the adapter's platform name.
const Platform = "telegram"

// maxMessageLen is Telegram's limit on one message's text: 4,096 Unicode
// code points after entity parsing (see channels.Measure for the sources).
// Haven's neutral text is never shorter than what Telegram counts: HTML
// escapes such as &lt; count as the one character they stand for, and the
// ``` markers of a fence become <pre> tags that count nothing.
const maxMessageLen = 4096

// messageLimit is what MessageLimit returns.
var messageLimit = channels.Limit{Max: maxMessageLen, Measure: channels.Runes}

// Mode says how the adapter receives updates.
type Mode string

// The receive modes.
const (
	// ModePolling asks Telegram for updates with long-polled getUpdates.
	ModePolling Mode = "polling"
	// ModeWebhook receives updates that Telegram POSTs to Handler.
	ModeWebhook Mode = "webhook"
)

// Command is a bot command shown in Telegram's command menu.
type Command struct {
	// Name is the command without its slash: 1-32 lowercase letters,
	// digits and underscores.
	Name string
	// Description is shown next to it (1-256 characters).
	Description string
}

// DefaultCommands are the commands registered with setMyCommands when
// Options.Commands is empty.
var DefaultCommands = []Command{
	{"help", "What Haven can do and the commands it knows"},
	{"reset", "Start a new conversation"},
	{"whoami", "How Haven knows you"},
}

// idleConnsPerHost is how many idle connections to the Bot API the
// adapter's own HTTP client keeps: more than the Hub's senders per platform
// and the poller together.
const idleConnsPerHost = 16

// Options configure the adapter.
type Options struct {
	// Token is the bot token from BotFather (HAVEN_TELEGRAM_TOKEN). Required.
	Token string
	// APIEndpoint is the Bot API URL in the library's form
	// "http://host:port/bot%s/%s" (HAVEN_TELEGRAM_API_URL); empty means
	// Telegram's own, tgbotapi.APIEndpoint.
	APIEndpoint string
	// HTTPClient makes the API calls; nil means a client of its own. Do not
	// set a client Timeout shorter than PollTimeout: every call already has
	// a deadline.
	HTTPClient *http.Client
	// Mode is ModePolling (the default) or ModeWebhook.
	Mode Mode
	// PollTimeout is how long one getUpdates call waits for updates
	// (whole seconds; default 30 s).
	PollTimeout time.Duration
	// Admins are namespaced user ids ("telegram::12345") that are
	// PlatformAdmin in every conversation, in addition to the group
	// administrators Telegram reports. Other platforms' ids are skipped, so
	// the configuration's shared admin list can be passed as it is.
	Admins []string
	// Logger receives the adapter's logs; nil means slog.Default().
	Logger *slog.Logger
	// Offsets stores the last accepted update_id durably (polling mode);
	// nil keeps it in memory only, so a restart may see the last updates
	// again (the Hub's dedupe then drops them).
	Offsets OffsetStore
	// Commands are registered with setMyCommands at start; empty means
	// DefaultCommands.
	Commands []Command
	// WebhookSecret is the secret token Telegram sends in the
	// X-Telegram-Bot-Api-Secret-Token header (1-256 of A-Z a-z 0-9 _ -).
	// Required in webhook mode.
	WebhookSecret string
	// WebhookURL, if set in webhook mode, is registered with setWebhook
	// (with WebhookSecret) when Run starts. Leave it empty when the webhook
	// is registered some other way.
	WebhookURL string
	// MaxWebhookBody bounds one webhook request body (default 1 MiB).
	MaxWebhookBody int64
	// AdminCacheTTL is how long a getChatMember answer is reused
	// (default 1 minute).
	AdminCacheTTL time.Duration
	// Clock returns the current time; nil means time.Now.
	Clock func() time.Time
}

// ErrCannotDM is wrapped by the permanent send error returned when a
// private message cannot be delivered because the person has not started a
// private chat with the bot (Telegram answers 403). The caller should say so
// publicly, without the private details.
var ErrCannotDM = errors.New("telegram: cannot message this person privately: they have not started a chat with the bot")

// ErrUnauthorized is wrapped by Run's error when Telegram rejects the token.
var ErrUnauthorized = errors.New("telegram: the Bot API rejected the bot token; check HAVEN_TELEGRAM_TOKEN")

// ErrConflict is wrapped by the errors logged while another instance polls
// the same token, or a webhook is set while polling.
var ErrConflict = errors.New("telegram: getUpdates conflict")

// Adapter is the Telegram adapter. Create it with New.
type Adapter struct {
	opts       Options
	base       tgbotapi.BotAPI // never changed after New; copied per call
	client     *http.Client
	ownClient  bool
	log        *slog.Logger
	offsets    OffsetStore
	admins     map[int64]bool
	now        func() time.Time
	endpoint   string // the endpoint's scheme and host, for messages
	sleep      func(ctx context.Context, d time.Duration) error
	newBackoff func() backoff.BackOff

	self      atomic.Pointer[tgbotapi.User]
	ready     chan struct{} // closed once Run has connected
	readyOnce sync.Once
	running   atomic.Bool
	hook      atomic.Pointer[hookState]
	skipped   atomic.Uint64 // updates that did not decode (Stats)
	live      channels.LiveRecorder
	bgMu      sync.Mutex
	bgOpen    bool           // background work may start (Run is running)
	bg        sync.WaitGroup // kind replies sent in the background

	adminMu    sync.Mutex
	adminCache map[[2]int64]adminEntry
}

type adminEntry struct {
	admin   bool
	expires time.Time
}

// hookState is what the webhook handler needs while Run runs.
type hookState struct {
	ctx  context.Context
	sink channels.Sink
}

var (
	_ channels.Adapter = (*Adapter)(nil)
	_ channels.Typer   = (*Adapter)(nil)
)

// New checks opts and returns an adapter. It does not contact Telegram:
// Run does. The token, endpoint, mode and webhook secret follow the rules
// of Config.Validate (the same checks, written once in config.go).
func New(opts Options) (*Adapter, error) {
	if err := checkToken(opts.Token); err != nil {
		return nil, fmt.Errorf("telegram: %w", err)
	}
	if opts.APIEndpoint == "" {
		opts.APIEndpoint = tgbotapi.APIEndpoint
	}
	host, err := checkEndpoint(opts.APIEndpoint)
	if err != nil {
		return nil, fmt.Errorf("telegram: %w", err)
	}
	if opts.Mode == "" {
		opts.Mode = ModePolling
	}
	if err := checkMode(opts.Mode); err != nil {
		return nil, fmt.Errorf("telegram: %w", err)
	}
	if opts.Mode == ModeWebhook {
		if err := checkSecret(opts.WebhookSecret); err != nil {
			return nil, fmt.Errorf("telegram: %w", err)
		}
	}
	if opts.PollTimeout < 0 {
		return nil, fmt.Errorf("telegram: negative poll timeout %s", opts.PollTimeout)
	}
	if opts.PollTimeout == 0 {
		opts.PollTimeout = 30 * time.Second
	}
	if opts.MaxWebhookBody <= 0 {
		opts.MaxWebhookBody = 1 << 20
	}
	if opts.AdminCacheTTL <= 0 {
		opts.AdminCacheTTL = time.Minute
	}
	if len(opts.Commands) == 0 {
		opts.Commands = DefaultCommands
	}
	admins := map[int64]bool{}
	for _, id := range opts.Admins {
		p, _, local, ok := channels.SplitID(id)
		if ok && p != Platform {
			continue // another platform's admin, from a shared list
		}
		n, err := strconv.ParseInt(local, 10, 64)
		if !ok || err != nil {
			return nil, fmt.Errorf("telegram: admin %q is not a namespaced user id; a Telegram one looks like \"telegram::12345\"", id)
		}
		admins[n] = true
	}
	a := &Adapter{
		opts:       opts,
		client:     opts.HTTPClient,
		log:        opts.Logger,
		offsets:    opts.Offsets,
		admins:     admins,
		now:        opts.Clock,
		endpoint:   host,
		sleep:      retry.Sleep,
		newBackoff: retry.Backoff,
		adminCache: map[[2]int64]adminEntry{},
		ready:      make(chan struct{}),
	}
	if a.client == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		// The poller and the Hub's senders all talk to one host at once:
		// keep their connections (the default keeps 2 idle per host, so
		// under load every other request dialled, and TLS-shook, anew).
		t.MaxIdleConnsPerHost = idleConnsPerHost
		a.client = &http.Client{Transport: t}
		a.ownClient = true
	}
	if a.log == nil {
		a.log = slog.Default()
	}
	if a.offsets == nil {
		a.offsets = &MemoryOffsets{}
	}
	if a.now == nil {
		a.now = time.Now
	}
	a.base = tgbotapi.BotAPI{Token: opts.Token, Buffer: 100}
	a.base.SetAPIEndpoint(opts.APIEndpoint)
	return a, nil
}

// Platform returns "telegram".
func (a *Adapter) Platform() string { return Platform }

// MessageLimit is Telegram's: 4,096 code points.
func (a *Adapter) MessageLimit() channels.Limit { return messageLimit }

// Close releases idle connections of the adapter's own HTTP client.
func (a *Adapter) Close() error {
	if a.ownClient {
		a.client.CloseIdleConnections()
	}
	return nil
}

// Ready is closed once Run has connected to Telegram: the bot's identity
// is known, commands are registered and, in webhook mode, Handler accepts
// updates.
func (a *Adapter) Ready() <-chan struct{} { return a.ready }

func (a *Adapter) markReady() { a.readyOnce.Do(func() { close(a.ready) }) }

// logConnected says the adapter is connected; call it after markReady.
func (a *Adapter) logConnected(me *tgbotapi.User) {
	a.log.Info("telegram connected", slog.Int64("bot_id", me.ID), slog.String("mode", string(a.opts.Mode)), slog.String("api", a.endpoint))
}

// Stats are an Adapter's counters since New.
type Stats struct {
	// Skipped counts updates dropped because they did not decode (a field
	// of the wrong type, invalid JSON), polled or delivered to the webhook.
	// Each was logged without its content and confirmed to Telegram, so it
	// is never fetched or delivered again.
	Skipped uint64
}

// Stats returns the adapter's counters; it is safe to call at any time.
func (a *Adapter) Stats() Stats { return Stats{Skipped: a.skipped.Load()} }

// SkippedEvents returns Stats().Skipped: updates dropped because they did
// not decode.
func (a *Adapter) SkippedEvents() uint64 { return a.skipped.Load() }

// Liveness reports the adapter's connection health: in polling mode it is
// connected while getUpdates answers, and each answer is a heartbeat; in
// webhook mode it is connected while Run serves, and each delivery is an
// event.
func (a *Adapter) Liveness() channels.Liveness { return a.live.Liveness() }

// Self returns the bot's own user once Run has fetched it, else nil.
func (a *Adapter) Self() *tgbotapi.User { return a.self.Load() }

// Run connects to Telegram (getMe, setMyCommands) and then receives updates
// until ctx is done: by long polling, or in webhook mode by serving Handler.
// It returns nil when ctx is done, and an error only when it cannot go on:
// the token is rejected, the Bot API stays unreachable at start, or the Hub
// keeps refusing an update (which is then fetched again on the next start).
func (a *Adapter) Run(ctx context.Context, sink channels.Sink) error {
	if sink == nil {
		return errors.New("telegram: Run needs a sink")
	}
	if !a.running.CompareAndSwap(false, true) {
		return errors.New("telegram: Run called while already running")
	}
	defer a.running.Store(false)
	a.bgMu.Lock()
	a.bgOpen = true
	a.bgMu.Unlock()
	defer func() {
		a.bgMu.Lock()
		a.bgOpen = false
		a.bgMu.Unlock()
		a.bg.Wait()
	}()

	defer a.live.SetConnected(false)
	me, err := a.start(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	if a.opts.Mode == ModeWebhook {
		// Telegram does not ping a webhook: it is live while served.
		a.live.SetConnected(true)
		a.live.Heartbeat(a.now())
		return a.serveWebhook(ctx, sink, me)
	}
	// getMe answered: connected until a poll fails. Ready comes before the
	// log line, so whoever reads "telegram connected" finds it ready.
	a.live.SetConnected(true)
	a.live.Heartbeat(a.now())
	a.markReady()
	a.logConnected(me)
	return a.poll(ctx, sink, me)
}

// maxStartAttempts bounds the getMe attempts at start on transient errors.
const maxStartAttempts = 8

// start fetches the bot's identity and registers its commands.
func (a *Adapter) start(ctx context.Context) (*tgbotapi.User, error) {
	bo := a.newBackoff()
	var me tgbotapi.User
	for attempt := 1; ; attempt++ {
		cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		u, err := a.api(cctx).GetMe()
		cancel()
		if err == nil {
			me = u
			break
		}
		err = a.redact(err)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if te := apiError(err); te != nil {
			switch te.Code {
			case http.StatusUnauthorized:
				return nil, fmt.Errorf("%w (401 %s)", ErrUnauthorized, te.Message)
			case http.StatusNotFound:
				return nil, fmt.Errorf("%w (404 %s: a malformed token, or HAVEN_TELEGRAM_API_URL does not point at a Bot API)", ErrUnauthorized, te.Message)
			}
		}
		if attempt >= maxStartAttempts {
			return nil, fmt.Errorf("telegram: cannot reach the Bot API at %s after %d attempts (check HAVEN_TELEGRAM_API_URL and the network): %w", a.endpoint, attempt, err)
		}
		wait := bo.NextBackOff()
		if te := apiError(err); te != nil && te.RetryAfter > 0 {
			wait = time.Duration(te.RetryAfter) * time.Second
		}
		a.log.Warn("telegram getMe failed; retrying", slog.Int("attempt", attempt), slog.Duration("wait", wait), slog.Any("err", err))
		if err := a.sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
	if !me.IsBot {
		return nil, fmt.Errorf("telegram: the token belongs to user %d, which is not a bot: check HAVEN_TELEGRAM_TOKEN", me.ID)
	}
	a.self.Store(&me)

	cmds := make([]tgbotapi.BotCommand, len(a.opts.Commands))
	for i, c := range a.opts.Commands {
		cmds[i] = tgbotapi.BotCommand{Command: c.Name, Description: c.Description}
	}
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if _, err := a.api(cctx).Request(tgbotapi.NewSetMyCommands(cmds...)); err != nil && ctx.Err() == nil {
		// Not fatal: Haven works without the command menu.
		a.log.Warn("telegram setMyCommands failed; the command menu may be out of date", slog.Any("err", a.redact(err)))
	}
	return &me, nil
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

var (
	_ channels.Adapter    = (*Adapter)(nil)
	_ channels.Typer      = (*Adapter)(nil)
	_ channels.FileSender = (*Adapter)(nil)
	_ channels.Live       = (*Adapter)(nil)
)

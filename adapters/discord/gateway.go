package discord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"

	"github.com/havenbot/haven/channels"
)

// gateway is one discordgo session and what the adapter tracks of it. A
// session is replaced (never reused) when it must IDENTIFY afresh with
// other intents or after Discord refused to resume it: discordgo resumes
// whenever it holds a session id, and offers no way to drop it.
type gateway struct {
	s      *discordgo.Session
	opened atomic.Bool // Open succeeded once

	dialMu  sync.Mutex
	opening bool     // an Open is in progress
	conn    net.Conn // the connection it dialled
}

// dial dials the gateway for discordgo's WebSocket dialer, keeping the
// connection so that a hung Open can be cut.
func (g *gateway) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	c, err := (&net.Dialer{Timeout: 15 * time.Second, KeepAlive: 30 * time.Second}).DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	g.dialMu.Lock()
	if g.opening {
		g.conn = c
	}
	g.dialMu.Unlock()
	return c, nil
}

// abortOpen cuts the connection of an Open in progress.
func (g *gateway) abortOpen() {
	g.dialMu.Lock()
	defer g.dialMu.Unlock()
	if g.opening && g.conn != nil {
		_ = g.conn.Close()
	}
}

// newGateway makes a discordgo session for the adapter: the token, the
// HTTP client with the adapter's transport, the intents, and these
// departures from discordgo's defaults:
//
//   - ShouldReconnectOnError off: Run reconnects itself (resuming the
//     session through Open as the library does), because the library's
//     loop has no context, can reopen a session after Close, and hides
//     the close codes (4004 bad token, 4014 disallowed intents).
//   - ShouldRetryOnRateLimit off and MaxRestRetries 0: a 429 or a 502
//     comes back to Send, which the Hub retries honouring retry_after;
//     the library would sleep without a context, and repost a message
//     after a 502 that may have been delivered.
//   - SyncEvents on: events reach the adapter in the gateway's order; the
//     handlers only queue them.
//   - StateEnabled off: the adapter keeps what it needs (world.go).
//   - LogLevel below errors: discordgo logs through the standard logger,
//     payloads included at debug; the adapter logs what matters itself.
func (a *Adapter) newGateway(intents discordgo.Intent) *gateway {
	g := &gateway{}
	s, _ := discordgo.New("Bot " + a.token) // cannot fail
	s.Identify.Token = a.token
	s.Identify.Intents = intents
	s.Client = a.client
	s.Dialer = &websocket.Dialer{Proxy: http.ProxyFromEnvironment, HandshakeTimeout: 15 * time.Second, NetDialContext: g.dial}
	s.ShouldReconnectOnError = false
	s.ShouldRetryOnRateLimit = false
	s.MaxRestRetries = 0
	s.SyncEvents = true
	s.StateEnabled = false
	s.LogLevel = -1
	s.AddHandler(a.onEvent)
	s.AddHandler(a.onReady)
	s.AddHandler(a.onResumed)
	s.AddHandler(a.onDisconnect)
	g.s = s
	return g
}

// session is the current discordgo session, for REST calls.
func (a *Adapter) session() *discordgo.Session { return a.gw.Load().s }

// open opens g's gateway connection: a new session or a RESUME. It gives
// up after OpenTimeout, or at once when ctx is done, by cutting the
// connection discordgo is reading from (Open takes no context).
func (a *Adapter) open(ctx context.Context, g *gateway) error {
	g.dialMu.Lock()
	g.opening, g.conn = true, nil
	g.dialMu.Unlock()
	timer := time.AfterFunc(a.opts.OpenTimeout, g.abortOpen)
	stop := context.AfterFunc(ctx, g.abortOpen)
	err := g.s.Open()
	timer.Stop()
	stop()
	g.dialMu.Lock()
	g.opening, g.conn = false, nil
	g.dialMu.Unlock()
	if err == nil {
		g.opened.Store(true)
	}
	return err
}

// eventBuffer is how many gateway events may wait for the dispatcher;
// when it is full the gateway's reader waits, which Discord notices as a
// slow client.
const eventBuffer = 1024

// gwEvent is a gateway event queued for the dispatcher.
type gwEvent struct {
	t   string
	raw json.RawMessage
	// it is the decoded interaction of an INTERACTION_CREATE (decoded,
	// checked and acknowledged by the gateway handler).
	it *pendingInteraction
}

// maxStartAttempts bounds the attempts to connect at start on transient
// errors; later reconnects go on until Run's context is done.
const maxStartAttempts = 8

// maxAcceptAttempts bounds how often one event is offered to a refusing
// sink before Run gives up.
const maxAcceptAttempts = 8

// Run connects to Discord (GET /users/@me for the bot's identity, the
// gateway, command registration) and then hands every message and
// interaction to sink, in order, until ctx is done. It reconnects and
// resumes after every disconnection. It returns nil when ctx is done, and
// an error only when it cannot go on: the token is refused (the error
// names HAVEN_DISCORD_TOKEN), Discord stays unreachable at start, Discord
// refuses the session for good (invalid intents, sharding required), or
// the Hub keeps refusing a message.
func (a *Adapter) Run(ctx context.Context, sink channels.Sink) error {
	if sink == nil {
		return errors.New("discord: Run needs a sink")
	}
	if !a.running.CompareAndSwap(false, true) {
		return errors.New("discord: Run called while already running")
	}
	defer a.running.Store(false)
	a.life.Store(&ctx)
	defer a.life.Store(nil)
	stopping := make(chan struct{})
	a.stopping.Store(&stopping)
	a.bgMu.Lock()
	a.bgOpen = true
	a.bgMu.Unlock()
	defer func() {
		a.bgMu.Lock()
		a.bgOpen = false
		a.bgMu.Unlock()
		a.bg.Wait()
	}()

	me, err := a.start(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	a.self.Store(me)
	dctx, stopDispatch := context.WithCancel(ctx)
	var dispatchErr error
	dispatched := make(chan struct{}) // closed when the dispatcher has stopped
	go func() {
		defer close(dispatched)
		dispatchErr = a.dispatch(dctx, sink)
	}()

	err = a.connect(ctx, true)
	if err == nil {
		a.registerCommands(ctx)
		a.markReady()
		a.log.Info("discord connected", slog.String("bot_id", me.ID), slog.String("api", a.apiHost),
			slog.Bool("message_content", !a.noContent.Load()))
		err = a.supervise(ctx, dispatched)
	}
	// Stop the gateway first, so that no event arrives after the
	// dispatcher has drained the queue.
	a.connected.Store(false)
	_ = a.session().Close()
	close(stopping)
	stopDispatch()
	<-dispatched
	if err == nil {
		err = dispatchErr
	}
	a.drainEvents(ctx, sink)
	if ctx.Err() != nil && !isFatal(err) {
		return nil
	}
	return err
}

// start fetches the bot's user (GET /users/@me), retrying transient
// failures a few times.
func (a *Adapter) start(ctx context.Context) (*discordgo.User, error) {
	bo := a.newBackoff()
	for attempt := 1; ; attempt++ {
		me, err := a.me(ctx)
		if err == nil {
			if !me.Bot {
				return nil, fmt.Errorf("discord: the token belongs to %s, which is not a bot: set HAVEN_DISCORD_TOKEN to a bot's token (Developer Portal, your application, Bot)", me.ID)
			}
			return me, nil
		}
		if ctx.Err() != nil || errors.Is(err, ErrUnauthorized) || errors.Is(err, errNotTheAPI) {
			return nil, err
		}
		if attempt >= maxStartAttempts {
			return nil, fmt.Errorf("discord: cannot reach Discord's API at %s after %d attempts (check HAVEN_DISCORD_API_URL and the network): %w", a.apiHost, attempt, err)
		}
		wait := bo.NextBackOff()
		a.log.Warn("discord: GET /users/@me failed; retrying", slog.Int("attempt", attempt), slog.Duration("wait", wait), slog.Any("err", err))
		if err := a.sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// me asks who the bot is. A refused token gives an error wrapping
// ErrUnauthorized.
func (a *Adapter) me(ctx context.Context) (*discordgo.User, error) {
	cctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	u, err := a.session().User("@me", discordgo.WithContext(cctx))
	if err == nil {
		return u, nil
	}
	err = a.redact(err)
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Response != nil {
		switch re.Response.StatusCode {
		case http.StatusUnauthorized:
			return nil, fmt.Errorf("%w (401 from GET /users/@me)", ErrUnauthorized)
		case http.StatusNotFound:
			return nil, fmt.Errorf("%w: GET /users/@me answered 404 at %s", errNotTheAPI, a.opts.APIURL)
		}
	}
	return nil, fmt.Errorf("discord: GET /users/@me: %w", err)
}

// errNotTheAPI is wrapped by me's error when the API root answers 404:
// a configuration mistake that retrying cannot fix.
var errNotTheAPI = errors.New("discord: HAVEN_DISCORD_API_URL does not point at Discord's API root (https://discord.com/api/v9/, or a proxy's path ending in /api/v9/)")

// fatalError is an error after which Run must stop, even once its
// context is done.
type fatalError struct{ err error }

func (e *fatalError) Error() string { return e.err.Error() }
func (e *fatalError) Unwrap() error { return e.err }

func isFatal(err error) bool {
	var f *fatalError
	return errors.As(err, &f)
}

// connect opens the gateway, retrying with backoff: at start a bounded
// number of times, later until ctx is done. It reads the close codes
// Discord ends a refused IDENTIFY with: 4004 (bad token) and the
// sharding and intents codes stop Run; 4014 (the Message Content intent is
// not enabled in the portal) is logged with what to do, and Haven goes on
// without it (it still reads DMs and messages that @mention it); 4007 and
// 4009 (the session cannot resume) start a new session.
func (a *Adapter) connect(ctx context.Context, first bool) error {
	bo := a.newBackoff()
	for attempt := 1; ; attempt++ {
		g := a.gw.Load()
		err := a.open(ctx, g)
		if err == nil || errors.Is(err, discordgo.ErrWSAlreadyOpen) {
			return nil
		}
		if ctx.Err() != nil {
			return nil
		}
		err = a.redact(err)
		var ce *websocket.CloseError
		if errors.As(err, &ce) {
			switch ce.Code {
			case 4004:
				return &fatalError{fmt.Errorf("%w (the gateway closed with 4004, authentication failed)", ErrUnauthorized)}
			case 4014:
				if !a.noContent.Load() {
					a.noContent.Store(true)
					a.contentWarned.Store(true) // this is the one line about it
					a.log.Error("discord: Discord refused the Message Content intent (close 4014): " + contentIntentHelp +
						". Until then Haven connects without it and reads only DMs and messages that @mention it")
					a.replaceGateway(Intents &^ discordgo.IntentMessageContent)
					continue
				}
				return &fatalError{fmt.Errorf("discord: the gateway refused Haven's intents even without Message Content (close 4014): %w", err)}
			case 4010, 4011:
				return &fatalError{fmt.Errorf("discord: the gateway asks for sharding (close %d): the bot is in more guilds than one Haven connection may serve: %w", ce.Code, err)}
			case 4012, 4013:
				return &fatalError{fmt.Errorf("discord: the gateway refused the API version or the intents (close %d): %w", ce.Code, err)}
			case 4007, 4009:
				a.log.Info("discord: the gateway session cannot be resumed; starting a new one", slog.Int("close", ce.Code))
				a.replaceGateway(a.gw.Load().s.Identify.Intents)
			}
		}
		if first && attempt >= maxStartAttempts {
			return &fatalError{fmt.Errorf("discord: cannot connect to the gateway after %d attempts (check HAVEN_DISCORD_API_URL and the network): %w", attempt, err)}
		}
		wait := bo.NextBackOff()
		a.log.Warn("discord: gateway connection failed; retrying", slog.Int("attempt", attempt), slog.Duration("wait", wait), slog.Any("err", err))
		if a.sleep(ctx, wait) != nil {
			return nil
		}
	}
}

// replaceGateway starts over with a new session (the current one is
// closed: its Open failed).
func (a *Adapter) replaceGateway(intents discordgo.Intent) {
	a.gw.Store(a.newGateway(intents))
}

// supervise reconnects after every disconnection until ctx is done or
// the dispatcher stops (Run then reads its error).
func (a *Adapter) supervise(ctx context.Context, dispatched <-chan struct{}) error {
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-dispatched:
			return nil
		case <-a.disconnected:
		}
		if ctx.Err() != nil {
			return nil
		}
		a.log.Info("discord: gateway disconnected; reconnecting")
		if err := a.connect(ctx, false); err != nil {
			return err
		}
		if ctx.Err() == nil {
			a.log.Info("discord reconnected")
		}
	}
}

// onReady runs inside Open (which holds the session's lock: it must not
// call the session).
func (a *Adapter) onReady(s *discordgo.Session, r *discordgo.Ready) {
	if s != a.session() {
		return
	}
	if r.Application != nil && r.Application.ID != "" {
		id := r.Application.ID
		a.appID.Store(&id)
	}
	a.lastAck.Store(a.now().UnixNano())
	a.connected.Store(true)
}

func (a *Adapter) onResumed(s *discordgo.Session, _ *discordgo.Resumed) {
	if s != a.session() {
		return
	}
	a.connected.Store(true)
}

func (a *Adapter) onDisconnect(s *discordgo.Session, _ *discordgo.Disconnect) {
	if s != a.session() {
		return
	}
	a.connected.Store(false)
	select {
	case a.disconnected <- struct{}{}:
	default:
	}
}

// onEvent receives every gateway dispatch, in order, on discordgo's
// reading goroutine (or inside Open). It keeps the world up to date,
// acknowledges interactions at once (Discord's 3-second deadline), and
// queues messages and interactions for the dispatcher. A panic here would
// end the process, so it is recovered and the event skipped.
func (a *Adapter) onEvent(s *discordgo.Session, e *discordgo.Event) {
	defer func() {
		if r := recover(); r != nil {
			a.stats.skipped.Add(1)
			a.log.Error("discord: handling a gateway event panicked; event skipped", slog.String("type", e.Type), slog.Int64("seq", e.Sequence))
		}
	}()
	if s != a.session() {
		return
	}
	ev := gwEvent{t: e.Type, raw: e.RawData}
	switch e.Type {
	case "MESSAGE_CREATE", "MESSAGE_UPDATE":
		a.lastEvent.Store(a.now().UnixNano())
	case "INTERACTION_CREATE":
		a.lastEvent.Store(a.now().UnixNano())
		it, err := a.acknowledge(e.RawData)
		if err != nil {
			a.stats.skipped.Add(1)
			a.log.Warn("discord: skipped an interaction that does not decode", slog.Int64("seq", e.Sequence), slog.String("problem", describeJSONError(err)))
			return
		}
		if it == nil {
			return // seen before, or not a command
		}
		ev.it = it
	default:
		if err := a.world.apply(e.Type, e.RawData, a.selfID()); err != nil {
			a.stats.skipped.Add(1)
			a.log.Warn("discord: skipped an event that does not decode", slog.String("type", e.Type), slog.Int64("seq", e.Sequence), slog.String("problem", describeJSONError(err)))
		}
		return
	}
	stop := a.stopping.Load()
	if stop == nil {
		return
	}
	select {
	case a.events <- ev:
	case <-*stop:
		a.stats.lost.Add(1)
	}
}

// dispatch hands queued events to sink, one at a time, in order.
func (a *Adapter) dispatch(ctx context.Context, sink channels.Sink) error {
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev := <-a.events:
			if err := a.handle(ctx, sink, ev, maxAcceptAttempts); err != nil {
				if ctx.Err() != nil {
					// Stopping: the drain offers it once more.
					a.requeue(ev)
					return nil
				}
				return &fatalError{err}
			}
		}
	}
}

// requeue puts an event back for the drain (there is room: the
// dispatcher just took it).
func (a *Adapter) requeue(ev gwEvent) {
	select {
	case a.events <- ev:
	default:
		a.stats.lost.Add(1)
	}
}

// drainEvents offers the events still queued at shutdown to the sink
// once each, so that nothing received is dropped while the Hub still
// takes messages (Discord does not send gateway events again once they
// were received).
func (a *Adapter) drainEvents(ctx context.Context, sink channels.Sink) {
	bctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	for {
		select {
		case ev := <-a.events:
			if err := a.handle(bctx, sink, ev, 1); err != nil {
				a.stats.lost.Add(1)
				a.log.Warn("discord: a message received at shutdown could not be handed over", slog.String("type", ev.t), slog.Any("err", err))
			}
		default:
			return
		}
	}
}

// handle normalizes one event and acts on it: hands it to the sink, with
// retries, or sends a note (a picture Haven cannot see, a message it
// cannot read).
func (a *Adapter) handle(ctx context.Context, sink channels.Sink, ev gwEvent, attempts int) error {
	n := a.safeNormalize(ctx, ev)
	switch n.outcome {
	case ignore:
		a.log.Debug("discord event ignored", slog.String("type", ev.t), slog.String("reason", n.reason))
		return nil
	case skip:
		a.stats.skipped.Add(1)
		a.log.Warn("discord: skipped an event that does not decode", slog.String("type", ev.t), slog.String("problem", n.reason))
		return nil
	case replay:
		a.stats.replays.Add(1)
		a.log.Debug("discord event seen before; dropped", slog.String("type", ev.t), slog.String("delivery_key", n.in.DeliveryKey))
		return nil
	case note:
		a.sendNote(ctx, n)
		return nil
	}
	bo := a.newBackoff()
	for attempt := 1; ; attempt++ {
		err := sink.Accept(ctx, n.in)
		if err == nil {
			a.seen.Add(n.in.DeliveryKey)
			a.log.Debug("discord event accepted", slog.String("type", ev.t), slog.String("kind", string(n.in.Conversation.Kind)), slog.String("delivery_key", n.in.DeliveryKey))
			return nil
		}
		if ctx.Err() != nil || errors.Is(err, channels.ErrHubClosed) {
			return fmt.Errorf("discord: hand %s to the hub: %w", n.in.DeliveryKey, err)
		}
		if attempt >= attempts {
			return fmt.Errorf("discord: the hub did not accept %s after %d attempts: %w", n.in.DeliveryKey, attempt, err)
		}
		wait := bo.NextBackOff()
		a.log.Warn("discord: the hub did not accept a message; retrying", slog.String("delivery_key", n.in.DeliveryKey), slog.Int("attempt", attempt), slog.Duration("wait", wait), slog.Any("err", err))
		if err := a.sleep(ctx, wait); err != nil {
			return fmt.Errorf("discord: hand %s to the hub: %w", n.in.DeliveryKey, err)
		}
	}
}

// safeNormalize is normalize, with a panic turned into a skip: a
// malformed event must never stop the events after it.
func (a *Adapter) safeNormalize(ctx context.Context, ev gwEvent) (n normalized) {
	defer func() {
		if r := recover(); r != nil {
			n = normalized{outcome: skip, reason: "normalizing it panicked"}
		}
	}()
	return a.normalize(ctx, ev)
}

// describeJSONError says what is wrong with a payload without quoting it.
func describeJSONError(err error) string {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		return fmt.Sprintf("field %q holds a JSON %s where %s belongs", te.Field, te.Value, te.Type)
	case errors.As(err, &se):
		return fmt.Sprintf("invalid JSON at byte %d", se.Offset)
	default:
		return "undecodable"
	}
}

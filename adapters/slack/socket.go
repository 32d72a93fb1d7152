package slack

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
	slackgo "github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
	"github.com/slack-go/slack/socketmode"

	"github.com/havenbot/haven/adapters/internal/retry"
	"github.com/havenbot/haven/channels"
)

// job is one received event, slash command or interaction waiting to be
// normalized.
type job struct {
	event       *slackevents.EventsAPIEvent
	command     *slackgo.SlashCommand
	interaction *slackgo.InteractionCallback
	envelope    string
}

// jobQueue bounds the envelopes acked and not yet handed to the Hub.
const jobQueue = 1024

// runSocket is Run in Socket Mode: slack-go's client opens the connection
// (apps.connections.open, then the WebSocket), answers pings, and opens a
// fresh connection after a disconnect envelope, a dropped socket or
// PingTimeout without a ping, backing off while Slack cannot be reached.
// Every envelope is acked as soon as it arrives, before anything else is
// done with it; one goroutine then normalizes the envelopes in the order
// they came and hands them to sink.
func (a *Adapter) runSocket(ctx context.Context, sink channels.Sink) error {
	client := socketmode.New(a.api,
		socketmode.OptionPingInterval(a.opts.PingTimeout),
		socketmode.OptionDialer(a.dialer()),
		socketmode.OptionLog(log.New(io.Discard, "", 0)),
	)
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	libDone := make(chan error, 1)
	go func() { libDone <- client.RunContext(runCtx) }()
	jobs := make(chan job, jobQueue)
	procDone := make(chan error, 1)
	go func() { procDone <- a.process(runCtx, sink, jobs) }()
	defer a.live.SetConnected(false)

	var hellos atomic.Int64
	var result error
	libReturned, procReturned := false, false
loop:
	for {
		select {
		case <-ctx.Done():
			break loop
		case err := <-libDone:
			libReturned = true
			if ctx.Err() == nil {
				result = a.socketError(err)
			}
			break loop
		case err := <-procDone:
			procReturned = true
			result = err
			break loop
		case evt := <-client.Events:
			a.onSocketEvent(runCtx, client, evt, jobs, &hellos)
		}
	}
	cancel()
	if !libReturned {
		<-libDone
	}
	if !procReturned {
		<-procDone
	}
	return result
}

// socketError explains why slack-go's client stopped.
func (a *Adapter) socketError(err error) error {
	if err == nil {
		return errors.New("slack: the Socket Mode client stopped")
	}
	if authError(err) {
		return fmt.Errorf("%w (apps.connections.open: %w)", ErrAppToken, err)
	}
	if sc, ok := errors.AsType[slackgo.StatusCodeError](err); ok && sc.Code == http.StatusNotFound {
		return fmt.Errorf("slack: apps.connections.open answered 404 at %s: check HAVEN_SLACK_API_URL (it needs its trailing slash) and HAVEN_SLACK_APP_TOKEN: %w", a.host, err)
	}
	return fmt.Errorf("slack: Socket Mode stopped: %w", err)
}

// onSocketEvent handles one event of slack-go's client. It acks
// envelopes at once and queues their content for process.
func (a *Adapter) onSocketEvent(ctx context.Context, client *socketmode.Client, evt socketmode.Event, jobs chan<- job, hellos *atomic.Int64) {
	push := func(j job) {
		select {
		case jobs <- j:
		case <-ctx.Done():
		}
	}
	switch evt.Type {
	case socketmode.EventTypeConnecting:
		a.live.SetConnected(false)
		if c, ok := evt.Data.(*slackgo.ConnectingEvent); ok {
			a.log.Debug("slack socket mode connecting", slog.Int("attempt", c.Attempt), slog.Int("connection", c.ConnectionCount))
		}
	case socketmode.EventTypeConnectionError:
		a.live.SetConnected(false)
		if c, ok := evt.Data.(*slackgo.ConnectionErrorEvent); ok {
			a.log.Warn("slack socket mode cannot connect; retrying", slog.Int("attempt", c.Attempt), slog.Duration("wait", c.Backoff), slog.Any("err", c.ErrorObj))
		}
	case socketmode.EventTypeConnected:
		a.live.SetConnected(true)
		a.heard()
	case socketmode.EventTypeHello:
		a.heard()
		n := hellos.Add(1)
		me := a.me.Load()
		a.markReady()
		a.log.Info("slack connected", slog.String("team", me.team), slog.String("bot_user", me.user),
			slog.String("mode", ModeSocket), slog.Int64("connection", n))
	case socketmode.EventTypeEventsAPI:
		a.eventCame()
		id := a.ack(ctx, client, evt.Request)
		if ev, ok := evt.Data.(slackevents.EventsAPIEvent); ok {
			push(job{event: &ev, envelope: id})
		}
	case socketmode.EventTypeSlashCommand:
		a.eventCame()
		id := a.ack(ctx, client, evt.Request)
		if c, ok := evt.Data.(slackgo.SlashCommand); ok {
			push(job{command: &c, envelope: id})
		}
	case socketmode.EventTypeInteractive:
		a.eventCame()
		id := a.ack(ctx, client, evt.Request)
		if cb, ok := evt.Data.(slackgo.InteractionCallback); ok {
			push(job{interaction: &cb, envelope: id})
		}
	case socketmode.EventTypeErrorBadMessage:
		a.eventCame()
		if bad, ok := evt.Data.(*socketmode.ErrorBadMessage); ok {
			a.skipBadMessage(ctx, client, bad)
		}
	case socketmode.EventTypeIncomingError:
		e, ok := evt.Data.(*slackgo.IncomingEventError)
		if !ok {
			break
		}
		_, syntax := errors.AsType[*json.SyntaxError](e.ErrorObj)
		_, typ := errors.AsType[*json.UnmarshalTypeError](e.ErrorObj)
		if syntax || typ {
			a.skipped.Add(1)
			a.log.Warn("slack socket mode skipped a frame that is not JSON", slog.String("problem", describeParseError(e.ErrorObj)))
			break
		}
		// A read error of the socket itself: slack-go opens a new one.
		a.live.SetConnected(false)
		a.log.Info("slack socket mode connection lost; reconnecting", slog.Any("err", e.ErrorObj))
	case socketmode.EventTypeErrorWriteFailed:
		if e, ok := evt.Data.(*socketmode.ErrorWriteFailed); ok && e.Response != nil {
			a.log.Warn("slack socket mode could not send an ack; Slack will deliver the envelope again", slog.String("envelope_id", e.Response.EnvelopeID), slog.Any("err", e.Cause))
		}
	}
}

// ack acks req's envelope and returns its id.
func (a *Adapter) ack(ctx context.Context, client *socketmode.Client, req *socketmode.Request) string {
	if req == nil || req.EnvelopeID == "" {
		return ""
	}
	if err := client.AckCtx(ctx, req.EnvelopeID, nil); err != nil && ctx.Err() == nil {
		a.log.Warn("slack socket mode ack failed", slog.String("envelope_id", req.EnvelopeID), slog.Any("err", err))
	}
	return req.EnvelopeID
}

// skipBadMessage acks an envelope slack-go could not parse, so that Slack
// does not deliver it again, and logs it without its content.
func (a *Adapter) skipBadMessage(ctx context.Context, client *socketmode.Client, bad *socketmode.ErrorBadMessage) {
	a.skipped.Add(1)
	var env struct {
		EnvelopeID string `json:"envelope_id"`
		Type       string `json:"type"`
	}
	_ = json.Unmarshal(bad.Message, &env)
	if env.EnvelopeID != "" {
		a.ack(ctx, client, &socketmode.Request{EnvelopeID: env.EnvelopeID})
	}
	a.log.Warn("slack skipped an envelope that does not parse",
		slog.String("envelope_id", safeToken(env.EnvelopeID)), slog.String("type", safeToken(env.Type)),
		slog.String("event_type", safeToken(innerType(bad.Message))), slog.String("problem", describeParseError(bad.Cause)))
}

// innerType returns the type of the event inside an envelope, if it can
// be read.
func innerType(raw []byte) string {
	var env struct {
		Payload struct {
			Event struct {
				Type string `json:"type"`
			} `json:"event"`
		} `json:"payload"`
	}
	_ = json.Unmarshal(raw, &env)
	return env.Payload.Event.Type
}

var tokenRE = regexp.MustCompile(`^[A-Za-z0-9_.\-]{1,64}$`)

// safeToken returns s when it is a short identifier (an id, a type name)
// and a placeholder otherwise, so that a hostile event cannot put text in
// the logs through it.
func safeToken(s string) string {
	if s == "" || tokenRE.MatchString(s) {
		return s
	}
	return "(not an identifier)"
}

// describeParseError says what is wrong with an event without repeating
// any of its content.
func describeParseError(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case err == nil:
		return "unknown"
	case errors.As(err, &se):
		return fmt.Sprintf("invalid JSON at byte %d", se.Offset)
	case errors.As(err, &te):
		return fmt.Sprintf("field %q has the wrong type (want %s)", safeToken(te.Field), te.Type)
	case strings.Contains(err.Error(), "does not exist"):
		return "an event type Haven does not handle"
	case strings.Contains(err.Error(), "missing or null event"):
		return "an event_callback without its event"
	case strings.Contains(err.Error(), "unsupported type"):
		return "an envelope type Haven does not handle"
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "empty or truncated JSON"
	default:
		return "not an event Haven can read"
	}
}

// process normalizes queued jobs in order and hands them to sink until ctx
// is done. It returns an error only when the sink keeps refusing one. A
// button press also takes the buttons off its message, in a goroutine of
// its own that process waits for before it returns.
func (a *Adapter) process(ctx context.Context, sink channels.Sink, jobs <-chan job) error {
	var updates sync.WaitGroup
	defer updates.Wait()
	for {
		select {
		case <-ctx.Done():
			return nil
		case j := <-jobs:
			var n normalized
			var eventID string
			switch {
			case j.event != nil:
				n, eventID = a.fromEvent(ctx, *j.event)
			case j.command != nil:
				n = a.normalizeCommand(ctx, *j.command, a.me.Load())
			case j.interaction != nil:
				var p press
				n, p, eventID = a.fromInteraction(ctx, *j.interaction)
				switch {
				case n.outcome == deliver:
					updates.Go(func() { a.removeButtons(ctx, p) })
				case p.refused:
					updates.Go(func() { a.refusePress(ctx, p) })
				}
			}
			if n.outcome != deliver {
				a.log.Debug("slack event ignored", slog.String("envelope_id", j.envelope), slog.String("reason", n.reason))
				continue
			}
			if err := a.acceptRetrying(ctx, sink, n.in); err != nil {
				if ctx.Err() != nil {
					return nil
				}
				a.events.Forget(eventID)
				return err
			}
		}
	}
}

// maxAcceptAttempts bounds how often one event is offered to a refusing
// sink before Run gives up.
const maxAcceptAttempts = 8

// acceptRetrying hands in to sink, retrying with backoff while it refuses.
// The envelope was acked already, so Slack will not send it again: an
// event the sink refuses every time is lost, and Run stops with an error
// saying which.
func (a *Adapter) acceptRetrying(ctx context.Context, sink channels.Sink, in channels.Inbound) error {
	bo := retry.Backoff()
	for attempt := 1; ; attempt++ {
		err := sink.Accept(ctx, in)
		if err == nil {
			a.log.Debug("slack event accepted", slog.String("delivery_key", in.DeliveryKey), slog.String("kind", string(in.Conversation.Kind)))
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if attempt >= maxAcceptAttempts {
			return fmt.Errorf("slack: the hub did not accept %s after %d attempts; it is lost: %w", in.DeliveryKey, attempt, err)
		}
		wait := bo.NextBackOff()
		a.log.Warn("slack: the hub did not accept an event; retrying", slog.String("delivery_key", in.DeliveryKey),
			slog.Int("attempt", attempt), slog.Duration("wait", wait), slog.Any("err", err))
		if err := a.sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// fromEvent normalizes an Events API event, and returns its event_id. A
// redelivered event_id is ignored.
func (a *Adapter) fromEvent(ctx context.Context, ev slackevents.EventsAPIEvent) (normalized, string) {
	if ev.Type == slackevents.AppRateLimited {
		a.log.Warn("slack says the app was rate limited and some events were not delivered (app_rate_limited)")
		return ignored("app_rate_limited"), ""
	}
	if ev.Type != slackevents.CallbackEvent {
		return ignored("outer event " + safeToken(ev.Type)), ""
	}
	team, eventID := ev.TeamID, ""
	if cb, ok := ev.Data.(*slackevents.EventsAPICallbackEvent); ok && cb != nil {
		eventID = cb.EventID
		if team == "" {
			team = cb.TeamID
		}
	}
	if eventID != "" && !a.events.Add(eventID) {
		a.duplicates.Add(1)
		return ignored("event_id delivered before"), ""
	}
	me := a.me.Load()
	switch e := ev.InnerEvent.Data.(type) {
	case *slackevents.MessageEvent:
		return a.normalizeMessage(ctx, fromMessageEvent(team, e), me), eventID
	case *slackevents.AppMentionEvent:
		return a.normalizeMessage(ctx, fromMention(team, e), me), eventID
	default:
		return ignored("event type " + safeToken(ev.InnerEvent.Type)), eventID
	}
}

// fromInteraction normalizes an interaction and returns its delivery key,
// the key of a press already handled is ignored (counted in
// Stats().Duplicates), and an interaction Haven did not ask for (another
// kind, a button it did not make, buttons bound to someone else) is
// counted in Stats().Skipped. A refused press delivered again is refused
// once (p.refused is cleared).
func (a *Adapter) fromInteraction(ctx context.Context, cb slackgo.InteractionCallback) (normalized, press, string) {
	n, p, skip := a.normalizeInteraction(ctx, cb, a.me.Load())
	if p.refused && !a.events.Add(p.key) {
		a.duplicates.Add(1)
		return ignored("button press delivered before"), press{}, ""
	}
	if skip {
		a.skipped.Add(1)
	}
	if n.outcome != deliver {
		return n, p, ""
	}
	if !a.events.Add(n.in.DeliveryKey) {
		a.duplicates.Add(1)
		return ignored("button press delivered before"), p, ""
	}
	return n, p, n.in.DeliveryKey
}

// dialer is the Socket Mode WebSocket dialer: slack-go's defaults, with a
// connection that notes every read as a sign of life (Liveness).
func (a *Adapter) dialer() *websocket.Dialer {
	nd := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	return &websocket.Dialer{
		Proxy:            http.ProxyFromEnvironment,
		HandshakeTimeout: 45 * time.Second,
		WriteBufferSize:  32 * 1024,
		NetDialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := nd.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			return &tapConn{Conn: c, heard: a.heard}, nil
		},
	}
}

// tapConn calls heard whenever bytes arrive.
type tapConn struct {
	net.Conn
	heard func()
}

func (c *tapConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.heard()
	}
	return n, err
}

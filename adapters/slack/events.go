package slack

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"mime"
	"net/http"

	slackgo "github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	"github.com/havenbot/haven/channels"
)

// serveHTTP is Run in http mode: Handler delivers to sink until ctx is
// done. Button presses, answered 200 before anything else is done with
// them, are queued and handed to sink in order by process, as in Socket
// Mode.
func (a *Adapter) serveHTTP(ctx context.Context, sink channels.Sink, me *self) error {
	jobs := make(chan job, jobQueue)
	a.hook.Store(&hookState{ctx: ctx, sink: sink, jobs: jobs})
	defer a.hook.Store(nil)
	a.live.SetConnected(true)
	defer a.live.SetConnected(false)
	a.markReady()
	a.log.Info("slack connected", slog.String("team", me.team), slog.String("bot_user", me.user), slog.String("mode", ModeHTTP))
	return a.process(ctx, sink, jobs)
}

// Handler serves Slack's HTTP requests in http mode: the Events API
// (JSON) and the slash command (a form), on any path, so one Request URL
// can serve both. Every request is checked before anything in it is read:
// X-Slack-Request-Timestamp within five minutes and X-Slack-Signature
// made with Options.SigningSecret over the exact body; a request that
// fails gets 401 and nothing else happens. Then:
//
//   - url_verification: the challenge is answered.
//   - event_callback: the event is normalized and handed to the Hub, and
//     200 goes back once the Hub has recorded it (before the turn runs).
//     A retry (X-Slack-Retry-Num) of an event_id already handled is
//     answered 200 and dropped; the Hub also drops a message it has seen
//     (its channel and ts), so app_mention and its message twin make one
//     turn.
//   - the slash command: handed to the Hub the same way; 200 with an empty
//     body, so Slack shows nothing and the answer comes as an ephemeral
//     message.
//   - an interaction (a form with a payload, for a Request URL under
//     Interactivity): 200 at once, and a press of one of Haven's buttons
//     is then handed to the Hub as what the person would have typed
//     (the choice's Text) and the buttons taken off its message. Slack
//     does not send an interaction again, so it is never answered with
//     an error once it is read; another kind of interaction, a press
//     of a button Haven did not make, or a press of buttons bound to
//     someone else (who is told so, ephemerally), is skipped
//     (Stats().Skipped).
//
// An event that does not parse would fail the same way every time: it is
// logged without its content, counted in Stats().Skipped and answered
// 200, so that Slack stops sending it. A request while Run is not running
// gets 503, and one the Hub refuses 500, so that Slack sends it again.
func (a *Adapter) Handler() http.Handler {
	return http.HandlerFunc(a.serveEvents)
}

func (a *Adapter) serveEvents(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, a.opts.MaxBody))
	if err != nil {
		if mbe, ok := errors.AsType[*http.MaxBytesError](err); ok {
			a.log.Warn("slack events: refused a request larger than the limit", slog.Int64("limit", mbe.Limit), slog.String("remote", r.RemoteAddr))
			http.Error(w, "request too large", http.StatusRequestEntityTooLarge)
			return
		}
		http.Error(w, "cannot read the request", http.StatusBadRequest)
		return
	}
	// The signature covers the exact bytes: it is checked on the body as
	// read, before anything parses it.
	sv, err := slackgo.NewSecretsVerifier(r.Header, a.opts.SigningSecret)
	if err == nil {
		_, _ = sv.Write(body)
		err = sv.Ensure()
	}
	if err != nil {
		a.log.Warn("slack events: refused a request that is not signed by Slack", slog.String("remote", r.RemoteAddr), slog.String("problem", signatureProblem(err)))
		http.Error(w, "invalid signature", http.StatusUnauthorized)
		return
	}
	a.heard()
	a.eventCame()
	retry := r.Header.Get("X-Slack-Retry-Num")
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct == "application/x-www-form-urlencoded" {
		a.serveForm(w, r, body)
		return
	}
	var outer struct {
		Type      string `json:"type"`
		Challenge string `json:"challenge"`
	}
	if err := json.Unmarshal(body, &outer); err != nil {
		a.skip(w, "", describeParseError(err))
		return
	}
	if outer.Type == slackevents.URLVerification {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = io.WriteString(w, outer.Challenge)
		return
	}
	ev, err := slackevents.ParseEvent(body, slackevents.OptionNoVerifyToken())
	if err != nil {
		a.skip(w, innerTypeOf(body), describeParseError(err))
		return
	}
	st, ok := a.running503(w)
	if !ok {
		return
	}
	ctx, cancel := requestContext(r, st)
	defer cancel()
	n, eventID := a.fromEvent(ctx, ev)
	if n.outcome != deliver {
		a.log.Debug("slack event ignored", slog.String("event_id", safeToken(eventID)), slog.String("retry", safeToken(retry)), slog.String("reason", n.reason))
		w.WriteHeader(http.StatusOK)
		return
	}
	if err := st.sink.Accept(ctx, n.in); err != nil {
		a.events.Forget(eventID)
		a.log.Warn("slack events: the hub did not accept an event; Slack will send it again", slog.String("event_id", safeToken(eventID)), slog.Any("err", err))
		http.Error(w, "not accepted", http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusOK)
}

// serveForm answers a form post: the slash command, or an interaction.
func (a *Adapter) serveForm(w http.ResponseWriter, r *http.Request, body []byte) {
	// SlashCommandParse reads the body again: it gets the verified copy.
	r.Body = io.NopCloser(bytes.NewReader(body))
	cmd, err := slackgo.SlashCommandParse(r)
	if err != nil {
		a.skip(w, "", "a form that does not parse")
		return
	}
	if r.PostForm.Has("payload") {
		a.serveInteraction(w, r)
		return
	}
	st, ok := a.running503(w)
	if !ok {
		return
	}
	ctx, cancel := requestContext(r, st)
	defer cancel()
	n := a.normalizeCommand(ctx, cmd, a.me.Load())
	if n.outcome != deliver {
		a.log.Debug("slack slash command ignored", slog.String("reason", n.reason))
		w.WriteHeader(http.StatusOK)
		return
	}
	if !a.events.Add(n.in.DeliveryKey) {
		a.duplicates.Add(1)
		w.WriteHeader(http.StatusOK)
		return
	}
	if err := st.sink.Accept(ctx, n.in); err != nil {
		a.events.Forget(n.in.DeliveryKey)
		a.log.Warn("slack events: the hub did not accept a slash command; Slack will send it again", slog.Any("err", err))
		http.Error(w, "not accepted", http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusOK)
}

// serveInteraction queues an interaction for process and answers 200.
func (a *Adapter) serveInteraction(w http.ResponseWriter, r *http.Request) {
	cb, err := slackgo.InteractionCallbackParse(r)
	if err != nil {
		a.skip(w, "interaction", describeParseError(err))
		return
	}
	st, ok := a.running503(w)
	if !ok {
		return
	}
	select {
	case st.jobs <- job{interaction: &cb}:
		w.WriteHeader(http.StatusOK)
	case <-st.ctx.Done():
		http.Error(w, "not running", http.StatusServiceUnavailable)
	case <-r.Context().Done():
	}
}

// running503 returns the running Run's state, or answers 503.
func (a *Adapter) running503(w http.ResponseWriter) (*hookState, bool) {
	st := a.hook.Load()
	if st == nil || a.me.Load() == nil {
		http.Error(w, "not running", http.StatusServiceUnavailable)
		return nil, false
	}
	return st, true
}

// requestContext ends with the request or with Run, whichever is first.
func requestContext(r *http.Request, st *hookState) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(r.Context())
	stop := context.AfterFunc(st.ctx, cancel)
	return ctx, func() { stop(); cancel() }
}

// skip answers 200 to a verified request that does not parse, so that
// Slack does not send it again, and logs it without its content.
func (a *Adapter) skip(w http.ResponseWriter, eventType, problem string) {
	a.skipped.Add(1)
	a.log.Warn("slack events: skipped a request that does not parse", slog.String("event_type", safeToken(eventType)), slog.String("problem", problem))
	w.WriteHeader(http.StatusOK)
}

// innerTypeOf returns the type of the event in an event_callback body.
func innerTypeOf(body []byte) string {
	var cb struct {
		Event struct {
			Type string `json:"type"`
		} `json:"event"`
	}
	_ = json.Unmarshal(body, &cb)
	return cb.Event.Type
}

// signatureProblem names what is wrong with a request's signature.
func signatureProblem(err error) string {
	switch {
	case errors.Is(err, slackgo.ErrExpiredTimestamp):
		return "timestamp more than five minutes off (a replay, or a clock out of sync)"
	case errors.Is(err, slackgo.ErrMissingHeaders):
		return "no X-Slack-Signature or X-Slack-Request-Timestamp"
	case errors.Is(err, slackgo.ErrInvalidSignature):
		return "signature does not match HAVEN_SLACK_SIGNING_SECRET"
	default:
		return "malformed signature headers"
	}
}

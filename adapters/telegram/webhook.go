package telegram

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/havenbot/haven/channels"
)

// secretHeader is the header Telegram puts the webhook's secret token in.
const secretHeader = "X-Telegram-Bot-Api-Secret-Token"

// serveWebhook is Run in webhook mode: it registers the webhook when asked
// to, then lets Handler deliver to sink until ctx is done.
func (a *Adapter) serveWebhook(ctx context.Context, sink channels.Sink, me *tgbotapi.User) error {
	if a.opts.WebhookURL != "" {
		cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		_, err := a.api(cctx).MakeRequest("setWebhook", tgbotapi.Params{
			"url":             a.opts.WebhookURL,
			"secret_token":    a.opts.WebhookSecret,
			"allowed_updates": `["` + strings.Join(allowedUpdates, `","`) + `"]`,
		})
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("telegram: register the webhook: %w", a.redact(err))
		}
	}
	a.hook.Store(&hookState{ctx: ctx, sink: sink})
	defer a.hook.Store(nil)
	a.markReady()
	a.logConnected(me)
	<-ctx.Done()
	return nil
}

// Handler serves Telegram's webhook requests (ModeWebhook). It checks the
// X-Telegram-Bot-Api-Secret-Token header against Options.WebhookSecret,
// reads the update (at most MaxWebhookBody bytes), normalizes it like a
// polled one and answers 200 once the sink has accepted it. A wrong secret
// gets 401, and a request while Run is not running, or that the sink
// refuses, 503 or 500 so that Telegram delivers it again. An update that
// does not decode (invalid JSON, a field of the wrong type) or is larger
// than MaxWebhookBody would fail the same way every time: it is logged
// without its content, counted in Stats().Skipped and answered 200, so that
// Telegram stops redelivering it (Telegram resends on any other status).
func (a *Adapter) Handler() http.Handler {
	want := sha256.Sum256([]byte(a.opts.WebhookSecret))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := sha256.Sum256([]byte(r.Header.Get(secretHeader)))
		if a.opts.WebhookSecret == "" || subtle.ConstantTimeCompare(got[:], want[:]) != 1 {
			a.log.Warn("telegram webhook: request without the right secret token", slog.String("remote", r.RemoteAddr))
			http.Error(w, "wrong secret token", http.StatusUnauthorized)
			return
		}
		if r.Method != http.MethodPost {
			http.Error(w, "POST only", http.StatusMethodNotAllowed)
			return
		}
		st := a.hook.Load()
		me := a.self.Load()
		if st == nil || me == nil {
			http.Error(w, "not running", http.StatusServiceUnavailable)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, a.opts.MaxWebhookBody)
		u, err := a.base.HandleUpdate(r)
		if err != nil {
			a.skipped.Add(1)
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				a.log.Warn("telegram webhook: skipped an update too large to read", slog.Int64("limit", mbe.Limit))
			} else {
				a.log.Warn("telegram webhook: skipped a malformed update", slog.String("problem", describeJSONError(err)))
			}
			w.WriteHeader(http.StatusOK) // a redelivery would fail the same way
			return
		}
		// The request's context ends with the request; the Run context
		// bounds the work as well.
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		stop := context.AfterFunc(st.ctx, cancel)
		defer stop()

		a.live.Event(a.now())
		n := a.normalize(ctx, *u, me)
		a.answerPress(ctx, n)
		switch n.outcome {
		case ignore:
			a.log.Debug("telegram update ignored", slog.Int("update_id", u.UpdateID), slog.String("reason", n.reason))
		case skip:
			a.skipped.Add(1)
			a.log.Debug("telegram update skipped", slog.Int("update_id", u.UpdateID), slog.String("reason", n.reason))
		case media:
			a.noteMedia(st.ctx, n)
		case deliver:
			if err := st.sink.Accept(ctx, n.in); err != nil {
				a.log.Warn("telegram webhook: the hub did not accept an update; Telegram will resend it", slog.Int("update_id", u.UpdateID), slog.Any("err", err))
				http.Error(w, "not accepted", http.StatusInternalServerError)
				return
			}
			a.clearButtons(st.ctx, n)
		}
		w.WriteHeader(http.StatusOK)
	})
}

// describeJSONError says what is wrong with a request body without
// repeating any of its content.
func describeJSONError(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("invalid JSON at byte %d", se.Offset)
	case errors.As(err, &te):
		return fmt.Sprintf("field %q has the wrong type (want %s)", te.Field, te.Type)
	case err.Error() == "EOF" || err.Error() == "unexpected EOF":
		return "empty or truncated body"
	default:
		return "not a JSON update"
	}
}

package telegram

import (
	"context"
	"errors"
	"net/http"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// ctxDoer gives every request of one API call the call's context: the
// library builds its requests without one.
type ctxDoer struct {
	ctx context.Context
	c   *http.Client
}

func (d ctxDoer) Do(req *http.Request) (*http.Response, error) {
	return d.c.Do(req.WithContext(d.ctx))
}

// api returns a BotAPI whose calls are bound to ctx: a copy of the
// adapter's, so concurrent calls with different contexts do not interfere.
func (a *Adapter) api(ctx context.Context) *tgbotapi.BotAPI {
	b := a.base
	b.Client = ctxDoer{ctx: ctx, c: a.client}
	if me := a.self.Load(); me != nil {
		b.Self = *me
	}
	return &b
}

// redactedError hides the bot token, which the HTTP client puts in its
// errors as part of the request URL.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// redact returns err with every occurrence of the token replaced.
func (a *Adapter) redact(err error) error {
	if err == nil || !strings.Contains(err.Error(), a.opts.Token) {
		return err
	}
	return &redactedError{msg: strings.ReplaceAll(err.Error(), a.opts.Token, "<token>"), err: err}
}

// apiError returns the Bot API error in err's chain, or nil when err is a
// network or decoding failure.
func apiError(err error) *tgbotapi.Error {
	var pe *tgbotapi.Error
	if errors.As(err, &pe) {
		return pe
	}
	var ve tgbotapi.Error
	if errors.As(err, &ve) {
		return &ve
	}
	return nil
}

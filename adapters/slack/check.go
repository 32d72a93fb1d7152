package slack

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Check asks Slack once, without retrying, whether the tokens work, for
// `haven doctor`: auth.test with the bot token and, in Socket Mode,
// apps.connections.open with the app-level token (the connection URL it
// returns is not used, and expires unused). It returns the bot's name
// when both work; an error wrapping ErrBotToken or ErrAppToken when Slack
// refuses one; another error, saying where it looked, when the Web API
// cannot be reached. Errors never hold a token. Run makes its own checks.
func (a *Adapter) Check(ctx context.Context) (string, error) {
	cctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	r, err := a.api.AuthTestContext(cctx)
	if err != nil {
		return "", a.checkError("auth.test", err, cctx, ErrBotToken)
	}
	if a.opts.Mode == ModeSocket {
		if _, _, err := a.api.StartSocketModeContext(cctx); err != nil {
			return "", a.checkError("apps.connections.open", err, cctx, ErrAppToken)
		}
	}
	return r.User, nil
}

func (a *Adapter) checkError(method string, err error, ctx context.Context, refused error) error {
	switch {
	case authError(err):
		return fmt.Errorf("%w (%s: %w)", refused, method, err)
	case errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil:
		return fmt.Errorf("slack: the Web API at %s did not answer %s within 15s: check HAVEN_SLACK_API_URL and the network", a.host, method)
	default:
		return fmt.Errorf("slack: %s at %s failed (check HAVEN_SLACK_API_URL, with its trailing slash, and the network): %w", method, a.host, err)
	}
}

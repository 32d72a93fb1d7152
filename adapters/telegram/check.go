package telegram

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Check asks Telegram once, without retrying, who the bot is (getMe), for
// `haven doctor`. It returns the bot's username when the token works; an
// error wrapping ErrUnauthorized when Telegram refuses the token; another
// error, saying where it looked, when the Bot API cannot be reached or the
// token is a person's. Errors never hold the token. Run makes its own checks.
func (a *Adapter) Check(ctx context.Context) (string, error) {
	cctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	me, err := a.api(cctx).GetMe()
	if err != nil {
		err = a.redact(err)
		if te := apiError(err); te != nil {
			switch te.Code {
			case http.StatusUnauthorized:
				return "", fmt.Errorf("%w (401 %s): it must be the token @BotFather gave the bot", ErrUnauthorized, te.Message)
			case http.StatusNotFound:
				return "", fmt.Errorf("%w (404 %s): the token is malformed, or HAVEN_TELEGRAM_API_URL does not point at a Bot API", ErrUnauthorized, te.Message)
			}
			return "", fmt.Errorf("telegram: the Bot API at %s answered getMe with %d %s", a.endpoint, te.Code, te.Message)
		}
		if errors.Is(err, context.DeadlineExceeded) || cctx.Err() != nil {
			return "", fmt.Errorf("telegram: the Bot API at %s did not answer within 15s: check HAVEN_TELEGRAM_API_URL and the network", a.endpoint)
		}
		return "", fmt.Errorf("telegram: cannot reach the Bot API at %s (check HAVEN_TELEGRAM_API_URL and the network): %w", a.endpoint, err)
	}
	if !me.IsBot {
		return "", fmt.Errorf("telegram: the token belongs to user %d, which is not a bot: set HAVEN_TELEGRAM_TOKEN to a bot's token from @BotFather", me.ID)
	}
	return me.UserName, nil
}

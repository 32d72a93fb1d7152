package discord

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Check asks Discord once, without retrying, who the bot is (GET
// /users/@me), for `haven doctor`. It returns the bot's username when the
// token works; an error wrapping ErrUnauthorized when Discord refuses the
// token; another error, saying where it looked, when the API cannot be
// reached or the token is a person's. Errors never hold the token. Check
// cannot tell whether the Message Content intent is on: Run logs that
// when it connects.
func (a *Adapter) Check(ctx context.Context) (string, error) {
	cctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	me, err := a.me(cctx)
	switch {
	case err == nil && !me.Bot:
		return "", fmt.Errorf("discord: the token belongs to %s, which is not a bot: set HAVEN_DISCORD_TOKEN to a bot's token (Developer Portal, your application, Bot)", me.ID)
	case err == nil:
		return me.Username, nil
	case errors.Is(err, ErrUnauthorized), errors.Is(err, errNotTheAPI):
		return "", err
	case cctx.Err() != nil && ctx.Err() == nil:
		return "", fmt.Errorf("discord: Discord's API at %s did not answer within 15s: check HAVEN_DISCORD_API_URL and the network", a.apiHost)
	default:
		return "", fmt.Errorf("discord: cannot reach Discord's API at %s (check HAVEN_DISCORD_API_URL and the network): %w", a.apiHost, err)
	}
}

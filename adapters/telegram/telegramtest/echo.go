package telegramtest

import (
	"context"
	"fmt"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// EchoBot starts a bare echo bot built on the real client library against
// s: one goroutine long-polls getUpdates (pollSeconds a call) and answers
// every message with its text. It is the baseline Haven's benchmarks
// compare with. stop ends the bot and waits for its goroutine; the
// library's calls take no context, so a waiting long poll ends after at
// most pollSeconds, or at once when s was closed first.
func (s *Server) EchoBot(token string, pollSeconds int) (stop func(), err error) {
	bot, err := tgbotapi.NewBotAPIWithAPIEndpoint(token, s.APIEndpoint())
	if err != nil {
		return nil, fmt.Errorf("echo bot: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		offset := 0
		for ctx.Err() == nil {
			updates, err := bot.GetUpdates(tgbotapi.UpdateConfig{Offset: offset, Timeout: pollSeconds})
			if err != nil {
				continue
			}
			for _, u := range updates {
				offset = u.UpdateID + 1
				if u.Message != nil {
					_, _ = bot.Send(tgbotapi.NewMessage(u.Message.Chat.ID, u.Message.Text))
				}
			}
		}
	}()
	return func() { cancel(); <-done }, nil
}

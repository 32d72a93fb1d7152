package telegram_test

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/havenbot/haven/adapters/telegram"
	"github.com/havenbot/haven/adapters/telegram/telegramtest"
	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/channels/channelstest"
)

// tgPlatform drives the scenario suite on the fake Bot API.
type tgPlatform struct {
	srv    *telegramtest.Server
	a      *telegram.Adapter
	people []tgbotapi.User
	group  tgbotapi.Chat

	mu      sync.Mutex
	updates map[string]tgbotapi.Update // by namespaced message id
}

var _ channelstest.Platform = (*tgPlatform)(nil)

func newTGPlatform(t *testing.T) channelstest.Platform {
	srv := telegramtest.NewServer(token)
	t.Cleanup(srv.Close)
	a, err := telegram.New(telegram.Options{
		Token:       token,
		APIEndpoint: srv.APIEndpoint(),
		PollTimeout: 10 * time.Second,
		Offsets:     &telegram.MemoryOffsets{},
		Logger:      slog.New(slog.DiscardHandler),
	})
	if err != nil {
		t.Fatal(err)
	}
	// Reconnect at once after a drop instead of after a real backoff.
	telegram.SetSleep(a, func(ctx context.Context, d time.Duration) error { return ctx.Err() })
	p := &tgPlatform{
		srv: srv, a: a,
		people: []tgbotapi.User{
			{ID: 501, FirstName: "Ana", LanguageCode: "en"},
			{ID: 502, FirstName: "Ben", LanguageCode: "en"},
			{ID: 503, FirstName: "Cy", LanguageCode: "en"},
		},
		group:   telegramtest.SupergroupChat(-100500, "Scenario group"),
		updates: map[string]tgbotapi.Update{},
	}
	srv.AddChat(p.group)
	return p
}

func (p *tgPlatform) Adapter() channels.Adapter { return p.a }

func (p *tgPlatform) inject(m *tgbotapi.Message) channelstest.Message {
	u := tgbotapi.Update{Message: m}
	u.UpdateID = p.srv.InjectUpdate(u)
	msg := channelstest.Message{
		Conversation: fmt.Sprintf("telegram::%d", m.Chat.ID),
		ID:           fmt.Sprintf("telegram::%d:%d", m.Chat.ID, m.MessageID),
	}
	p.mu.Lock()
	p.updates[msg.ID] = u
	p.mu.Unlock()
	return msg
}

func (p *tgPlatform) DM(t testing.TB, person int, text string) channelstest.Message {
	u := p.people[person]
	return p.inject(p.srv.NewMessage(telegramtest.PrivateChat(u), u, text))
}

func (p *tgPlatform) Group(t testing.TB, person int, text string, mention bool) channelstest.Message {
	if mention {
		text = "@" + p.srv.Bot().UserName + " " + text
	}
	return p.inject(p.srv.NewMessage(p.group, p.people[person], text))
}

func (p *tgPlatform) update(t testing.TB, m channelstest.Message) tgbotapi.Update {
	p.mu.Lock()
	defer p.mu.Unlock()
	u, ok := p.updates[m.ID]
	if !ok {
		t.Fatalf("unknown message %s", m.ID)
	}
	return u
}

func (p *tgPlatform) Edit(t testing.TB, m channelstest.Message, text string) {
	p.srv.InjectEdit(telegramtest.Edited(p.update(t, m).Message, text))
}

func (p *tgPlatform) Redeliver(t testing.TB, m channelstest.Message) {
	p.srv.InjectUpdate(p.update(t, m)) // the same update_id again
}

func (p *tgPlatform) OwnMessage(t testing.TB, text string) {
	p.srv.Inject(p.srv.NewMessage(p.group, p.srv.Bot(), "@"+p.srv.Bot().UserName+" "+text))
}

func (p *tgPlatform) MakeAdmin(t testing.TB, person int) {
	p.srv.SetMemberStatus(p.group.ID, p.people[person].ID, "administrator")
}

func (p *tgPlatform) DropConnection(t testing.TB) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := p.srv.WaitPolling(ctx); err != nil {
		t.Fatal(err)
	}
	if n := p.srv.DropConnections(); n == 0 {
		t.Fatal("no long poll was open to drop")
	}
}

func (p *tgPlatform) RateLimitNextSend(t testing.TB, d time.Duration) {
	p.srv.FailNext("sendMessage", 429, d)
}

func (p *tgPlatform) WaitPosted(ctx context.Context, n int) ([]channelstest.Posted, error) {
	sent, err := p.srv.WaitSent(ctx, n)
	out := make([]channelstest.Posted, len(sent))
	for i, s := range sent {
		out[i] = channelstest.Posted{Conversation: fmt.Sprintf("telegram::%d", s.ChatID), Text: s.Plain}
		if s.ReplyTo != 0 {
			out[i].ReplyTo = fmt.Sprintf("telegram::%d:%d", s.ChatID, s.ReplyTo)
		}
	}
	return out, err
}

func TestScenarios(t *testing.T) {
	channelstest.RunScenarios(t, newTGPlatform)
}

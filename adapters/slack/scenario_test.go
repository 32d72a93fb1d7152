package slack_test

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/havenbot/haven/adapters/slack"
	"github.com/havenbot/haven/adapters/slack/slacktest"
	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/channels/channelstest"
)

// slackPlatform drives the scenario suite on the fake Slack, over Socket
// Mode or the Events API.
type slackPlatform struct {
	srv    *slacktest.Server
	a      *slack.Adapter
	http   bool
	people []slacktest.User

	mu     sync.Mutex
	events map[string]slacktest.Event // by namespaced message id
	users  map[string]string          // message id -> author
}

var _ channelstest.Platform = (*slackPlatform)(nil)

func newPlatform(mode string) func(t *testing.T) channelstest.Platform {
	return func(t *testing.T) channelstest.Platform {
		srv := newFake(t)
		a, err := slack.New(slack.Options{
			BotToken: srv.BotToken(), AppToken: srv.AppToken(), SigningSecret: secret, Mode: mode,
			APIURL: srv.APIURL(), Logger: slog.New(slog.DiscardHandler),
		})
		if err != nil {
			t.Fatal(err)
		}
		slack.SetSleep(a, func(ctx context.Context, d time.Duration) error { return ctx.Err() })
		p := &slackPlatform{srv: srv, a: a, http: mode == slack.ModeHTTP, people: []slacktest.User{ana, ben, cy},
			events: map[string]slacktest.Event{}, users: map[string]string{}}
		if p.http {
			hook := httptest.NewServer(a.Handler())
			t.Cleanup(hook.Close)
			srv.SetEventsURL(hook.URL+"/slack/events", secret)
		}
		return p
	}
}

func (p *slackPlatform) Adapter() channels.Adapter { return p.a }

// say makes user say text in channel. Over HTTP it waits until the
// adapter runs: Slack would retry a refused delivery for minutes, the fake
// only three times at once.
func (p *slackPlatform) say(t testing.TB, channel, user, text, botID string) channelstest.Message {
	if p.http {
		select {
		case <-p.a.Ready():
		case <-time.After(10 * time.Second):
			t.Fatal("the adapter was not ready within 10s")
		}
	}
	ev := p.srv.Message(slacktest.Message{Channel: channel, User: user, Text: text, BotID: botID})
	m := channelstest.Message{Conversation: ns(channel), ID: ns(channel + ":" + ev.TS)}
	p.mu.Lock()
	p.events[m.ID], p.users[m.ID] = ev, user
	p.mu.Unlock()
	return m
}

func (p *slackPlatform) DM(t testing.TB, person int, text string) channelstest.Message {
	u := p.people[person].ID
	return p.say(t, p.srv.DM(u), u, slacktest.Escape(text), "")
}

func (p *slackPlatform) Group(t testing.TB, person int, text string, addressed bool) channelstest.Message {
	text = slacktest.Escape(text)
	if addressed {
		text = mention(text)
	}
	return p.say(t, general.ID, p.people[person].ID, text, "")
}

func (p *slackPlatform) event(t testing.TB, m channelstest.Message) (slacktest.Event, string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	ev, ok := p.events[m.ID]
	if !ok {
		t.Fatalf("unknown message %s", m.ID)
	}
	return ev, p.users[m.ID]
}

func (p *slackPlatform) Edit(t testing.TB, m channelstest.Message, text string) {
	ev, user := p.event(t, m)
	p.srv.Edit(ev, user, slacktest.Escape(text))
}

func (p *slackPlatform) Redeliver(t testing.TB, m channelstest.Message) {
	ev, _ := p.event(t, m)
	p.srv.Redeliver(ev.ID)
}

func (p *slackPlatform) OwnMessage(t testing.TB, text string) {
	p.say(t, general.ID, p.srv.BotUser(), mention(slacktest.Escape(text)), p.srv.BotID())
}

func (p *slackPlatform) MakeAdmin(t testing.TB, person int) {
	p.srv.SetAdmin(p.people[person].ID, true)
}

func (p *slackPlatform) DropConnection(t testing.TB) {
	if p.http {
		// Nothing stays open to receive over HTTP: drop the Web API's
		// kept-alive connections instead.
		p.srv.DropHTTPConnections()
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := p.srv.WaitConnected(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if n := p.srv.DropConnections(); n == 0 {
		t.Fatal("no socket was open to drop")
	}
}

func (p *slackPlatform) RateLimitNextSend(t testing.TB, d time.Duration) {
	p.srv.FailNext("chat.postMessage", slacktest.Failure{Status: 429, RetryAfter: d})
}

func (p *slackPlatform) WaitPosted(ctx context.Context, n int) ([]channelstest.Posted, error) {
	posts, err := p.srv.WaitPosts(ctx, n)
	out := make([]channelstest.Posted, len(posts))
	for i, s := range posts {
		out[i] = channelstest.Posted{Conversation: ns(s.Channel), Text: s.Plain}
		if s.ThreadTS != "" {
			out[i].ReplyTo = ns(s.Channel + ":" + s.ThreadTS)
		}
	}
	return out, err
}

func TestScenariosInSocketMode(t *testing.T) {
	channelstest.RunScenarios(t, newPlatform(slack.ModeSocket))
}

func TestScenariosOverTheEventsAPI(t *testing.T) {
	channelstest.RunScenarios(t, newPlatform(slack.ModeHTTP))
}

package slack_test

import (
	"context"
	"fmt"
	"log/slog"
	"testing"

	"github.com/havenbot/haven/adapters/slack"
	"github.com/havenbot/haven/adapters/slack/slacktest"
	"github.com/havenbot/haven/internal/pipebench"
	"github.com/havenbot/haven/memory/sqlite"
)

// benchLoad is a fake Slack with pipebench.People people, each with a DM.
func benchLoad() (*slacktest.Server, pipebench.Load) {
	srv := slacktest.NewServer()
	dms := make([]string, pipebench.People)
	for i := range pipebench.People {
		id := fmt.Sprintf("U%04d", i)
		srv.AddUser(slacktest.User{ID: id, Name: "p", TZ: "America/Chicago", Locale: "en-US"})
		dms[i] = srv.DM(id)
	}
	return srv, pipebench.Load{
		Inject: func(n int) {
			for i := range n {
				p := i % pipebench.People
				srv.Message(slacktest.Message{Channel: dms[p], User: fmt.Sprintf("U%04d", p), Text: pipebench.Texts[i%len(pipebench.Texts)]})
			}
		},
		WaitSent: func(ctx context.Context, n int) error { _, err := srv.WaitPosts(ctx, n); return err },
	}
}

// BenchmarkSlackThroughput measures messages per second through
// fake Slack -> Socket Mode -> adapter -> Hub -> core -> adapter ->
// chat.postMessage -> fake, and, in the same run, through a bare echo bot
// written with slack-go's Socket Mode client against the same fake. Each
// iteration is one message answered.
func BenchmarkSlackThroughput(b *testing.B) {
	b.Run("echo-bot", func(b *testing.B) {
		srv, load := benchLoad()
		defer srv.Close()
		stop := srv.EchoBot()
		defer stop()
		if err := srv.WaitConnected(b.Context(), 1); err != nil {
			b.Fatal(err)
		}
		pipebench.Echo(b, load)
	})
	for _, withCore := range []bool{true, false} {
		name := map[bool]string{true: "haven", false: "adapter+hub"}[withCore]
		b.Run(name, func(b *testing.B) {
			srv, load := benchLoad()
			defer srv.Close()
			pipebench.Haven(b, withCore, func(*sqlite.Store) pipebench.Pipeline {
				a, err := slack.New(slack.Options{BotToken: srv.BotToken(), AppToken: srv.AppToken(), APIURL: srv.APIURL(), Logger: slog.New(slog.DiscardHandler)})
				if err != nil {
					b.Fatal(err)
				}
				return pipebench.Pipeline{Load: load, Adapter: a, Ready: a.Ready()}
			})
		})
	}
}

package discord_test

import (
	"context"
	"fmt"
	"log/slog"
	"testing"

	"github.com/havenbot/haven/adapters/discord"
	"github.com/havenbot/haven/adapters/discord/discordtest"
	"github.com/havenbot/haven/internal/pipebench"
	"github.com/havenbot/haven/memory/sqlite"
)

// benchLoad is a fake Discord with pipebench.People people, each with a
// DM channel.
func benchLoad() (*discordtest.Server, pipebench.Load) {
	srv := discordtest.NewServer(token)
	var authors, dms []string
	for i := range pipebench.People {
		u := srv.AddUser(fmt.Sprintf("P%d", i))
		authors = append(authors, u.ID)
		dms = append(dms, srv.DMChannel(u.ID))
	}
	return srv, pipebench.Load{
		Inject: func(n int) {
			for i := range n {
				p := i % pipebench.People
				srv.Post(srv.NewMessage(dms[p], authors[p], pipebench.Texts[i%len(pipebench.Texts)]))
			}
		},
		WaitSent: func(ctx context.Context, n int) error { _, err := srv.WaitPosts(ctx, n); return err },
	}
}

// BenchmarkDiscordThroughput measures messages per second through
// fake gateway -> discordgo -> adapter -> Hub -> core -> adapter -> fake
// REST, and, in the same run, through a bare discordgo echo bot against
// the same fake. Each iteration is one message answered.
func BenchmarkDiscordThroughput(b *testing.B) {
	b.Run("echo-bot", func(b *testing.B) {
		srv, load := benchLoad()
		defer srv.Close()
		stop, err := srv.EchoBot(token)
		if err != nil {
			b.Fatal(err)
		}
		defer stop()
		pipebench.Echo(b, load)
	})
	for _, withCore := range []bool{true, false} {
		name := map[bool]string{true: "haven", false: "adapter+hub"}[withCore]
		b.Run(name, func(b *testing.B) {
			srv, load := benchLoad()
			defer srv.Close()
			pipebench.Haven(b, withCore, func(*sqlite.Store) pipebench.Pipeline {
				a, err := discord.New(discord.Options{Token: token, APIURL: srv.APIURL(), Logger: slog.New(slog.DiscardHandler)})
				if err != nil {
					b.Fatal(err)
				}
				return pipebench.Pipeline{Load: load, Adapter: a, Ready: a.Ready()}
			})
		})
	}
}

package telegram_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/havenbot/haven/adapters/telegram"
	"github.com/havenbot/haven/adapters/telegram/telegramtest"
	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/internal/pipebench"
	"github.com/havenbot/haven/memory/sqlite"
)

// The SQLite store keeps the adapter's offsets in production.
var _ telegram.OffsetStore = (*sqlite.Store)(nil)

// benchLoad is a fake Bot API whose pipebench.People people write
// direct messages.
func benchLoad() (*telegramtest.Server, pipebench.Load) {
	srv := telegramtest.NewServer(token)
	return srv, pipebench.Load{
		Inject: func(n int) {
			for i := range n {
				u := tgbotapi.User{ID: int64(1000 + i%pipebench.People), FirstName: "P", LanguageCode: "en"}
				srv.Inject(srv.NewMessage(telegramtest.PrivateChat(u), u, pipebench.Texts[i%len(pipebench.Texts)]))
			}
		},
		WaitSent: func(ctx context.Context, n int) error { _, err := srv.WaitSent(ctx, n); return err },
	}
}

// BenchmarkTelegramThroughput measures messages per second through
// fake Bot API -> library -> adapter -> Hub -> core -> adapter -> fake,
// and, in the same run, through a bare echo bot written with the same
// library against the same fake. Each iteration is one message answered.
func BenchmarkTelegramThroughput(b *testing.B) {
	b.Run("echo-bot", func(b *testing.B) {
		srv, load := benchLoad()
		defer srv.Close()
		stopEcho, err := srv.EchoBot(token, 1)
		if err != nil {
			b.Fatal(err)
		}
		defer stopEcho()
		pipebench.Echo(b, load)
	})
	for _, withCore := range []bool{true, false} {
		name := map[bool]string{true: "haven", false: "adapter+hub"}[withCore]
		b.Run(name, func(b *testing.B) {
			srv, load := benchLoad()
			defer srv.Close()
			pipebench.Haven(b, withCore, func(store *sqlite.Store) pipebench.Pipeline {
				a, err := telegram.New(telegram.Options{
					Token: token, APIEndpoint: srv.APIEndpoint(), PollTimeout: time.Second,
					Offsets: store, Logger: slog.New(slog.DiscardHandler),
				})
				if err != nil {
					b.Fatal(err)
				}
				return pipebench.Pipeline{Load: load, Adapter: a, Ready: a.Ready()}
			})
		})
	}
}

// BenchmarkSendFileChart measures one SendFile of an 800x400 PNG chart
// through the library to the fake Bot API: as a photo (its header read
// with image.DecodeConfig, then sendPhoto, the fake reading the header
// again) and, for comparison, the same bytes declared
// application/octet-stream, which go as a document unread.
func BenchmarkSendFileChart(b *testing.B) {
	chart := chartFile(b)
	for _, c := range []struct {
		name  string
		ctype string
	}{{"photo", "image/png"}, {"document", "application/octet-stream"}} {
		b.Run(c.name, func(b *testing.B) {
			srv := telegramtest.NewServer(token)
			defer srv.Close()
			srv.StartPrivate(alice)
			a, err := telegram.New(telegram.Options{Token: token, APIEndpoint: srv.APIEndpoint(), Logger: slog.New(slog.DiscardHandler)})
			if err != nil {
				b.Fatal(err)
			}
			f := &channels.File{Name: chart.Name, ContentType: c.ctype, Data: chart.Data}
			out := channels.Outbound{Conversation: dmConv, Text: "Your mood this month", File: f}
			b.SetBytes(int64(len(f.Data)))
			for b.Loop() {
				if err := a.SendFile(context.Background(), out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPhotoCheck measures deciding whether the 800x400 chart goes as
// a photo: its content type and header (image.DecodeConfig).
func BenchmarkPhotoCheck(b *testing.B) {
	f := chartFile(b)
	for b.Loop() {
		if err := telegram.PhotoCheck(f); err != nil {
			b.Fatal(err)
		}
	}
}

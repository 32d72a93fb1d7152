package discord

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/havenbot/haven/adapters/discord/discordtest"
	"github.com/havenbot/haven/channels"
)

func TestRewriteMovesOnlyDiscordsAPIRoot(t *testing.T) {
	to, _ := url.Parse("http://127.0.0.1:8080/proxy/discord/api/v9/")
	tests := []struct {
		in, want string
	}{
		{"https://discord.com/api/v9/users/@me", "http://127.0.0.1:8080/proxy/discord/api/v9/users/@me"},
		{"https://discord.com/api/v9/channels/1/messages?limit=2", "http://127.0.0.1:8080/proxy/discord/api/v9/channels/1/messages?limit=2"},
		{"https://discord.com/api/v9/webhooks/1/tok%2Fen?wait=true", "http://127.0.0.1:8080/proxy/discord/api/v9/webhooks/1/tok%2Fen?wait=true"},
		{"https://cdn.discordapp.com/avatars/1/a.png", ""},
		{"https://discord.com/oauth2/authorize", ""},
		{"http://discord.com/api/v9/users/@me", ""},
	}
	for _, tt := range tests {
		u, _ := url.Parse(tt.in)
		got, ok := rewrite(u, to)
		if tt.want == "" {
			if ok {
				t.Errorf("rewrite(%s) = %s, want it left alone", tt.in, got)
			}
			continue
		}
		if !ok || got.String() != tt.want {
			t.Errorf("rewrite(%s) = %v, want %s", tt.in, got, tt.want)
		}
	}
}

func TestTheAdapterNeverChangesDiscordgosEndpoints(t *testing.T) {
	srv := discordtest.NewServer("tok")
	defer srv.Close()
	a, err := New(Options{Token: "tok", APIURL: srv.APIURL(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	if discordgo.EndpointAPI != "https://discord.com/api/v9/" || discordgo.EndpointGateway != "https://discord.com/api/v9/gateway" {
		t.Errorf("discordgo's endpoints changed: %s, %s", discordgo.EndpointAPI, discordgo.EndpointGateway)
	}
}

func TestA429LeavesTheLibrarysRateLimiterAwake(t *testing.T) {
	srv := discordtest.NewServer("tok")
	defer srv.Close()
	a, err := New(Options{Token: "tok", APIURL: srv.APIURL(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	u := srv.AddUser("Ana")
	dm := srv.DMChannel(u.ID)
	out := channels.Outbound{Conversation: channels.Conversation{ID: "discord::" + dm, Kind: channels.KindDM}, Text: "hi"}
	for _, global := range []bool{false, true} {
		srv.FailNext(discordtest.OpCreateMessage, discordtest.Failure{Status: 429, RetryAfter: time.Hour, Global: global})
		if err := a.Send(context.Background(), out); channels.RetryAfter(err) != time.Hour {
			t.Fatalf("Send = %v, want a 429 of an hour", err)
		}
		rl := a.session().Ratelimiter
		b := rl.GetBucket(discordgo.EndpointChannelMessages(dm))
		b.Lock()
		wait := rl.GetWaitTime(b, 1)
		b.Unlock()
		if wait != 0 {
			t.Fatalf("global %v: discordgo would sleep %s before the next send (without a context)", global, wait)
		}
	}
}

func TestARequestWithoutAContextGetsRunsContext(t *testing.T) {
	hung := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-hung:
		}
	}))
	defer ts.Close()
	defer close(hung)
	ctx, cancel := context.WithCancel(context.Background())
	tr := &transport{next: http.DefaultTransport, to: mustParse(ts.URL + "/api/v9/"), base: func() context.Context { return ctx }}
	c := &http.Client{Transport: tr}
	errc := make(chan error, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodGet, "https://discord.com/api/v9/gateway", nil) // as discordgo's Open makes it
		resp, err := c.Do(req)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		errc <- err
	}()
	cancel()
	if err := <-errc; err == nil {
		t.Error("a request without a context outlived the adapter's context")
	}
}

package discordtest

import (
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/bwmarrin/discordgo"
)

// HTTPClient returns an HTTP client that sends discordgo's requests for
// Discord's API root (discordgo.EndpointAPI) to the fake, for a bare
// discordgo session: set it as the session's Client. Other URLs go out
// unchanged.
func (s *Server) HTTPClient() *http.Client {
	return &http.Client{Transport: &redirect{from: discordgo.EndpointAPI, to: s.APIURL(), next: http.DefaultTransport}}
}

type redirect struct {
	from, to string
	next     http.RoundTripper
}

func (t *redirect) RoundTrip(r *http.Request) (*http.Response, error) {
	u := r.URL.String()
	if !strings.HasPrefix(u, t.from) {
		return t.next.RoundTrip(r)
	}
	r2, err := http.NewRequestWithContext(r.Context(), r.Method, t.to+strings.TrimPrefix(u, t.from), r.Body)
	if err != nil {
		return nil, err
	}
	r2.Header = r.Header.Clone()
	r2.ContentLength = r.ContentLength
	return t.next.RoundTrip(r2)
}

// EchoBot starts a bare echo bot built the usual way on discordgo against
// s: the library's defaults (a goroutine per event), the three intents a
// message bot needs, and a MESSAGE_CREATE handler that answers every
// person's message in its channel with its content. It is the baseline
// Haven's benchmarks compare with. stop closes the session and waits for
// the answers in flight.
func (s *Server) EchoBot(token string) (stop func(), err error) {
	dg, err := discordgo.New("Bot " + token)
	if err != nil {
		return nil, fmt.Errorf("echo bot: %w", err)
	}
	dg.Client = s.HTTPClient()
	dg.LogLevel = -1
	dg.Identify.Intents = discordgo.IntentsGuildMessages | discordgo.IntentsDirectMessages | discordgo.IntentMessageContent
	var (
		mu       sync.Mutex
		stopped  bool
		inflight sync.WaitGroup
	)
	dg.AddHandler(func(ds *discordgo.Session, m *discordgo.MessageCreate) {
		mu.Lock()
		if stopped {
			mu.Unlock()
			return
		}
		inflight.Add(1)
		mu.Unlock()
		defer inflight.Done()
		if m.Author == nil || m.Author.Bot {
			return
		}
		_, _ = ds.ChannelMessageSend(m.ChannelID, m.Content)
	})
	if err := dg.Open(); err != nil {
		return nil, fmt.Errorf("echo bot: open the gateway: %w", err)
	}
	return func() {
		_ = dg.Close()
		mu.Lock()
		stopped = true
		mu.Unlock()
		inflight.Wait()
	}, nil
}

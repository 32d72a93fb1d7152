package discord_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"

	"github.com/havenbot/haven/adapters/discord"
	"github.com/havenbot/haven/adapters/discord/discordtest"
	"github.com/havenbot/haven/channels"
)

func TestABadTokenStopsRunNamingTheVariable(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a, err := discord.New(discord.Options{Token: "not-the-token", APIURL: w.srv.APIURL(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	err = a.Run(ctxT(t), &recSink{ch: make(chan channels.Inbound, 1)})
	if !errors.Is(err, discord.ErrUnauthorized) || !strings.Contains(err.Error(), "HAVEN_DISCORD_TOKEN") || strings.Contains(err.Error(), "not-the-token") {
		t.Errorf("Run = %v, want ErrUnauthorized naming HAVEN_DISCORD_TOKEN without the token", err)
	}
	if _, err := a.Check(ctxT(t)); !errors.Is(err, discord.ErrUnauthorized) {
		t.Errorf("Check = %v, want ErrUnauthorized", err)
	}
}

func TestWithoutTheMessageContentIntentHavenSaysWhereToSwitchItOnAndGoesOn(t *testing.T) {
	t.Parallel()
	w := newWorld(t, discordtest.WithMessageContentDisabled())
	r := run(t, w, discord.Options{})
	ids := w.srv.Identifies()
	if len(ids) != 2 || ids[0].Intents&int(discordgo.IntentMessageContent) == 0 || ids[1].Intents&int(discordgo.IntentMessageContent) != 0 {
		t.Fatalf("identifies %+v, want one with Message Content (refused with 4014), then one without", ids)
	}
	// DMs and @mentions still carry their text.
	w.dm(w.ana, "a DM")
	if in := r.sink.next(t); in.Text != "a DM" {
		t.Errorf("DM text %q", in.Text)
	}
	w.say(w.general, w.ana, w.mention("a mention"))
	if in := r.sink.next(t); in.Text != "a mention" {
		t.Errorf("mention text %q", in.Text)
	}
	// A reply to Haven without the ping does not: it gets the note.
	mine := w.srv.NewMessage(w.general, w.bot.ID, "earlier")
	w.srv.Post(mine)
	reply := w.srv.NewReply(w.general, w.ana.ID, "words Discord withholds", mine)
	reply.Mentions = nil
	w.srv.Post(reply)
	if p := w.posts(t, 1)[0]; !strings.Contains(p.Content, "couldn't read your message") {
		t.Errorf("note %q", p.Content)
	}
	logs := r.logs.String()
	if n := strings.Count(logs, "MESSAGE CONTENT INTENT"); n != 1 || !containsAll(logs, "4014", "Developer Portal", "Privileged Gateway Intents") {
		t.Errorf("want one log line saying where to switch the intent on; logs:\n%s", logs)
	}
}

func TestOp7ResumesTheSessionAndGoesOn(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	r := run(t, w, discord.Options{})
	established := w.srv.Established()
	if w.srv.Reconnect() != 1 {
		t.Fatal("no connection got op 7")
	}
	if err := w.srv.WaitConnected(ctxT(t), established+1); err != nil {
		t.Fatal(err)
	}
	w.dm(w.ana, "after op 7")
	if in := r.sink.next(t); in.Text != "after op 7" {
		t.Errorf("got %q", in.Text)
	}
	if ids, res := w.srv.Identifies(), w.srv.Resumes(); len(ids) != 1 || res != 1 {
		t.Errorf("%d identifies and %d resumes, want 1 and 1", len(ids), res)
	}
}

func TestAnInvalidSessionIsIdentifiedAgain(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	r := run(t, w, discord.Options{})
	established := w.srv.Established()
	w.srv.InvalidateSession()
	if err := w.srv.WaitConnected(ctxT(t), established+1); err != nil {
		t.Fatal(err)
	}
	w.dm(w.ana, "after op 9")
	if in := r.sink.next(t); in.Text != "after op 9" {
		t.Errorf("got %q", in.Text)
	}
	if ids := w.srv.Identifies(); len(ids) != 2 {
		t.Errorf("%d identifies, want 2", len(ids))
	}
}

func TestAResumeReplayIsAnsweredOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	h := runHub(t, w, discord.Options{}, nil)
	w.dm(w.ana, "only once")
	w.posts(t, 1)
	w.srv.ReplayOnResume(0) // replay everything, "only once" included
	established := w.srv.Established()
	w.srv.DropConnections()
	if err := w.srv.WaitConnected(ctxT(t), established+1); err != nil {
		t.Fatal(err)
	}
	w.dm(w.ana, "marker")
	posts := w.posts(t, 2)
	if len(posts) != 2 || posts[0].Content != "echo: only once" || posts[1].Content != "echo: marker" {
		t.Errorf("posts %+v, want one answer each", posts)
	}
	if n := strings.Count(strings.Join(h.core.Seen(), "\n"), "only once"); n != 1 {
		t.Errorf("the core ran %d turns for one message, want 1", n)
	}
	if w.srv.Resumes() != 1 {
		t.Errorf("%d resumes, want 1", w.srv.Resumes())
	}
}

func TestAZombieConnectionIsReplaced(t *testing.T) {
	t.Parallel()
	// discordgo gives up on a connection after five heartbeat intervals
	// without an ACK; 50 ms makes that a quarter second.
	w := newWorld(t, discordtest.WithHeartbeat(50*time.Millisecond))
	r := run(t, w, discord.Options{})
	if err := w.srv.WaitHeartbeats(ctxT(t), 2); err != nil {
		t.Fatal(err)
	}
	established := w.srv.Established()
	w.srv.StopHeartbeatAcks(true)
	if err := w.srv.WaitConnected(ctxT(t), established+1); err != nil {
		t.Fatal(err)
	}
	w.srv.StopHeartbeatAcks(false)
	w.dm(w.ana, "after the zombie")
	if in := r.sink.next(t); in.Text != "after the zombie" {
		t.Errorf("got %q", in.Text)
	}
	if w.srv.Resumes() < 1 {
		t.Error("the zombie was replaced without a RESUME")
	}
}

func TestLivenessReportsTheHeartbeatAckAgeAndTheLastEvent(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	now := atomic.Pointer[time.Time]{}
	real := time.Now()
	now.Store(&real)
	clock := func() time.Time { return *now.Load() }
	a := newAdapter(t, w.srv, discord.Options{Clock: clock, StaleAfter: time.Minute})
	if l := a.Liveness(); l != (channels.Liveness{}) {
		t.Errorf("Liveness before Run = %+v, want zero", l)
	}
	sink := &recSink{ch: make(chan channels.Inbound, 10)}
	stop := start(t, a, sink)
	l := a.Liveness()
	if !l.Connected || l.LastHeartbeat.IsZero() || !l.LastEvent.IsZero() {
		t.Errorf("Liveness once connected = %+v, want connected with a heartbeat and no event yet", l)
	}
	w.dm(w.ana, "hello")
	sink.next(t)
	if l := a.Liveness(); l.LastEvent.IsZero() {
		t.Error("LastEvent is zero after a message")
	}
	later := real.Add(2 * time.Minute)
	now.Store(&later)
	if l := a.Liveness(); l.Connected {
		t.Errorf("Liveness with the last ACK two minutes old = %+v, want not connected", l)
	}
	now.Store(&real)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if l := a.Liveness(); l.Connected || l.LastHeartbeat.IsZero() {
		t.Errorf("Liveness after Run = %+v, want not connected, the last heartbeat kept", l)
	}
}

func TestAGatewayThatNeverSaysHelloIsCutAndReported(t *testing.T) {
	t.Parallel()
	up := websocket.Upgrader{}
	mux := http.NewServeMux()
	var ts *httptest.Server
	mux.HandleFunc("/api/v9/users/@me", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(discordgo.User{ID: "1", Username: "Haven", Bot: true})
	})
	mux.HandleFunc("/api/v9/gateway", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]string{"url": "ws" + strings.TrimPrefix(ts.URL, "http") + "/ws/"})
	})
	mux.HandleFunc("/ws/", func(w http.ResponseWriter, r *http.Request) {
		c, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer c.Close()
		_, _, _ = c.ReadMessage() // until the client gives up
	})
	ts = httptest.NewServer(mux)
	defer ts.Close()
	a, err := discord.New(discord.Options{Token: token, APIURL: ts.URL + "/api/v9/", OpenTimeout: 50 * time.Millisecond, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	discord.SetSleep(a, func(ctx context.Context, d time.Duration) error { return ctx.Err() })
	err = a.Run(ctxT(t), &recSink{ch: make(chan channels.Inbound, 1)})
	if err == nil || !strings.Contains(err.Error(), "cannot connect to the gateway after 8 attempts") {
		t.Errorf("Run = %v, want it to give up on the gateway", err)
	}
}

func TestRunReturnsWhenItsContextEnds(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	r := run(t, w, discord.Options{})
	if err := r.stop(); err != nil {
		t.Errorf("Run = %v, want nil", err)
	}
	if l := r.a.Liveness(); l.Connected {
		t.Error("still connected after Run returned")
	}
}

// refusingSink refuses everything, as a Hub whose store is broken.
type refusingSink struct{ calls atomic.Int64 }

func (s *refusingSink) Accept(context.Context, channels.Inbound) error {
	s.calls.Add(1)
	return errors.New("store is broken")
}

func TestAHubThatKeepsRefusingStopsRun(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := newAdapter(t, w.srv, discord.Options{})
	sink := &refusingSink{}
	w.dm(w.ana, "hello")
	err := a.Run(ctxT(t), sink)
	if err == nil || !containsAll(err.Error(), "did not accept", "after 8 attempts", "store is broken") || sink.calls.Load() != 8 {
		t.Errorf("Run = %v after %d offers, want it to give up after 8", err, sink.calls.Load())
	}
}

func TestAnAPIURLThatIsNotDiscordsStopsRunAtOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a, err := discord.New(discord.Options{Token: token, APIURL: w.srv.URL() + "/", Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	var waits atomic.Int64
	discord.SetSleep(a, func(ctx context.Context, d time.Duration) error { waits.Add(1); return ctx.Err() })
	err = a.Run(ctxT(t), &recSink{ch: make(chan channels.Inbound, 1)})
	if err == nil || !strings.Contains(err.Error(), "HAVEN_DISCORD_API_URL does not point at Discord's API root") || waits.Load() != 0 {
		t.Errorf("Run = %v after %d retries, want an error naming HAVEN_DISCORD_API_URL at once", err, waits.Load())
	}
}

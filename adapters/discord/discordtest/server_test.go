package discordtest_test

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"

	"github.com/havenbot/haven/adapters/discord/discordtest"
)

const token = "fake.bot.token"

// client is a raw gateway client, to check the protocol itself.
type client struct {
	t  *testing.T
	ws *websocket.Conn
}

func dial(t *testing.T, srv *discordtest.Server) *client {
	t.Helper()
	ws, _, err := websocket.DefaultDialer.Dial(srv.GatewayURL()+"?v=9&encoding=json", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	c := &client{t: t, ws: ws}
	if hello := c.read(); hello.Op != 10 {
		t.Fatalf("first payload op %d, want 10 (HELLO)", hello.Op)
	}
	return c
}

type frame struct {
	Op int             `json:"op"`
	D  json.RawMessage `json:"d"`
	S  int             `json:"s"`
	T  string          `json:"t"`
}

func (c *client) read() frame {
	c.t.Helper()
	_ = c.ws.SetReadDeadline(time.Now().Add(10 * time.Second))
	kind, data, err := c.ws.ReadMessage()
	if err != nil {
		c.t.Fatalf("read: %v", err)
	}
	if kind == websocket.BinaryMessage {
		z, err := zlib.NewReader(bytes.NewReader(data))
		if err != nil {
			c.t.Fatal(err)
		}
		if data, err = io.ReadAll(z); err != nil {
			c.t.Fatal(err)
		}
	}
	var f frame
	if err := json.Unmarshal(data, &f); err != nil {
		c.t.Fatal(err)
	}
	return f
}

// closeCode reads until the server closes, and returns its close code.
func (c *client) closeCode() int {
	c.t.Helper()
	_ = c.ws.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		_, _, err := c.ws.ReadMessage()
		var ce *websocket.CloseError
		if errors.As(err, &ce) {
			return ce.Code
		}
		if err != nil {
			c.t.Fatalf("read: %v, want a close frame", err)
		}
	}
}

func (c *client) send(op int, d any) {
	c.t.Helper()
	if err := c.ws.WriteJSON(map[string]any{"op": op, "d": d}); err != nil {
		c.t.Fatal(err)
	}
}

func (c *client) identify(intents int, compress bool) (sessionID string, seq int) {
	c.t.Helper()
	c.send(2, map[string]any{"token": token, "intents": intents, "compress": compress, "properties": map[string]string{}})
	ready := c.read()
	if ready.T != "READY" {
		c.t.Fatalf("got %s, want READY", ready.T)
	}
	var r struct {
		SessionID string `json:"session_id"`
	}
	_ = json.Unmarshal(ready.D, &r)
	return r.SessionID, ready.S
}

const allIntents = int(discordgo.IntentsGuilds | discordgo.IntentsGuildMessages | discordgo.IntentsDirectMessages | discordgo.IntentMessageContent)

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestIdentifyGetsReadyThenEachGuildCompressedWhenAsked(t *testing.T) {
	srv := discordtest.NewServer(token)
	defer srv.Close()
	g := srv.AddGuild("G")
	c := dial(t, srv)
	c.identify(allIntents, true)
	gc := c.read()
	if gc.T != "GUILD_CREATE" || !strings.Contains(string(gc.D), `"bot_id":"`+srv.Bot().ID+`"`) || !strings.Contains(string(gc.D), g) {
		t.Errorf("after READY got %s %s, want GUILD_CREATE of %s with the bot's tagged role", gc.T, gc.D, g)
	}
	if ids := srv.Identifies(); len(ids) != 1 || ids[0].Intents != allIntents || !ids[0].Compress {
		t.Errorf("Identifies = %+v", ids)
	}
}

func TestIdentifyIsRefusedWithDiscordsCloseCodes(t *testing.T) {
	tests := []struct {
		name    string
		opts    []discordtest.Option
		token   string
		intents int
		want    int
	}{
		{"wrong token", nil, "other", allIntents, 4004},
		{"message content off in the portal", []discordtest.Option{discordtest.WithMessageContentDisabled()}, token, allIntents, 4014},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := discordtest.NewServer(token, tt.opts...)
			defer srv.Close()
			c := dial(t, srv)
			c.send(2, map[string]any{"token": tt.token, "intents": tt.intents})
			if code := c.closeCode(); code != tt.want {
				t.Errorf("close code %d, want %d", code, tt.want)
			}
		})
	}
}

func TestGuildMessagesFollowTheIntents(t *testing.T) {
	srv := discordtest.NewServer(token)
	defer srv.Close()
	g := srv.AddGuild("G")
	ch := srv.AddChannel(g, "general", discordgo.ChannelTypeGuildText)
	u := srv.AddUser("Ana")
	srv.AddMember(g, u.ID)
	c := dial(t, srv)
	c.identify(allIntents&^int(discordgo.IntentMessageContent), false)
	c.read() // GUILD_CREATE
	srv.Post(srv.NewMessage(ch, u.ID, "not for the bot"))
	srv.Post(srv.NewMessage(ch, u.ID, discordtest.Mention(srv.Bot().ID)+" for the bot"))
	srv.Post(srv.NewMessage(srv.DMChannel(u.ID), u.ID, "a DM"))
	for _, want := range []string{`"content":""`, "for the bot", "a DM"} {
		if f := c.read(); f.T != "MESSAGE_CREATE" || !strings.Contains(string(f.D), want) {
			t.Errorf("got %s %s, want a MESSAGE_CREATE with %s", f.T, f.D, want)
		}
	}
}

func TestResumeReplaysWhatWasMissedThenResumed(t *testing.T) {
	srv := discordtest.NewServer(token)
	defer srv.Close()
	u := srv.AddUser("Ana")
	c := dial(t, srv)
	sid, _ := c.identify(allIntents, false)
	first := srv.Post(srv.NewMessage(srv.DMChannel(u.ID), u.ID, "one"))
	if f := c.read(); f.S != first {
		t.Fatalf("got seq %d, want %d", f.S, first)
	}
	srv.DropConnections()
	srv.Post(srv.NewMessage(srv.DMChannel(u.ID), u.ID, "two")) // while away

	for _, tt := range []struct {
		name   string
		replay int // ReplayOnResume; -1 for none
		want   []string
	}{
		{"what was missed", -1, []string{"two"}},
		{"from an earlier point when asked", 0, []string{"READY", "one", "two"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.replay >= 0 {
				srv.ReplayOnResume(tt.replay)
			}
			c := dial(t, srv)
			c.send(6, map[string]any{"token": "Bot " + token, "session_id": sid, "seq": first})
			for _, w := range tt.want {
				if f := c.read(); !strings.Contains(f.T+string(f.D), w) {
					t.Fatalf("got %s %s, want %s", f.T, f.D, w)
				}
			}
			if f := c.read(); f.T != "RESUMED" {
				t.Fatalf("got %s, want RESUMED", f.T)
			}
		})
	}
}

func TestInvalidatedSessionCannotResume(t *testing.T) {
	srv := discordtest.NewServer(token)
	defer srv.Close()
	c := dial(t, srv)
	sid, seq := c.identify(allIntents, false)
	if n := srv.InvalidateSession(); n != 1 {
		t.Fatalf("InvalidateSession reached %d connections", n)
	}
	if f := c.read(); f.Op != 9 || string(f.D) != "false" {
		t.Fatalf("got op %d %s, want 9 false", f.Op, f.D)
	}
	c2 := dial(t, srv)
	c2.send(6, map[string]any{"token": token, "session_id": sid, "seq": seq})
	if f := c2.read(); f.Op != 9 {
		t.Fatalf("RESUME of an invalidated session got op %d, want 9", f.Op)
	}
	c2.identify(allIntents, false) // a new session on the same connection
}

func TestHeartbeatsAreAckedUntilStopped(t *testing.T) {
	srv := discordtest.NewServer(token)
	defer srv.Close()
	u := srv.AddUser("Ana")
	c := dial(t, srv)
	c.identify(allIntents, false)
	c.send(1, nil)
	if f := c.read(); f.Op != 11 {
		t.Fatalf("heartbeat answered with op %d, want 11", f.Op)
	}
	srv.StopHeartbeatAcks(true)
	c.send(1, nil)
	c.send(1, nil)
	if err := srv.WaitHeartbeats(ctxT(t), 3); err != nil {
		t.Fatal(err)
	}
	// Frames are sent in order: an ACK for the two heartbeats would come
	// before this message.
	srv.Post(srv.NewMessage(srv.DMChannel(u.ID), u.ID, "marker"))
	if f := c.read(); f.T != "MESSAGE_CREATE" {
		t.Errorf("got op %d %s, want the marker and no ACK", f.Op, f.T)
	}
}

// session is a bare discordgo session on srv, for the REST checks.
func session(t *testing.T, srv *discordtest.Server) *discordgo.Session {
	t.Helper()
	s, err := discordgo.New("Bot " + token)
	if err != nil {
		t.Fatal(err)
	}
	s.Client = srv.HTTPClient()
	s.ShouldRetryOnRateLimit = false
	s.MaxRestRetries = 0
	return s
}

func TestRESTPostsMessagesAndFailsAsAsked(t *testing.T) {
	srv := discordtest.NewServer(token)
	defer srv.Close()
	u := srv.AddUser("Ana")
	dm := srv.DMChannel(u.ID)
	s := session(t, srv)

	srv.FailNext(discordtest.OpCreateMessage, discordtest.Failure{Status: 429, RetryAfter: 1500 * time.Millisecond, Global: true})
	_, err := s.ChannelMessageSend(dm, "hi")
	var rl *discordgo.RateLimitError
	if !errors.As(err, &rl) || rl.RetryAfter != 1500*time.Millisecond {
		t.Fatalf("after a forced 429: %v, want a RateLimitError of 1.5s", err)
	}
	if _, err := s.ChannelMessageSend(dm, strings.Repeat("é", discordtest.MaxContentLen+1)); err == nil {
		t.Error("content over 2,000 code points was accepted")
	}
	if _, err := s.ChannelMessageSend(dm, strings.Repeat("😀", discordtest.MaxContentLen)); err != nil {
		t.Errorf("2,000 code points (4,000 UTF-16 units) refused: %v", err)
	}
	srv.CloseDMs(u.ID)
	_, err = s.ChannelMessageSend(dm, "hi")
	var re *discordgo.RESTError
	if !errors.As(err, &re) || re.Message == nil || re.Message.Code != 50007 {
		t.Errorf("to closed DMs: %v, want 50007", err)
	}
	bad, _ := discordgo.New("Bot wrong")
	bad.Client = srv.HTTPClient()
	if _, err := bad.User("@me"); !errors.As(err, &re) || re.Response.StatusCode != http.StatusUnauthorized {
		t.Errorf("a wrong token: %v, want 401", err)
	}
	if posts := srv.Posts(); len(posts) != 1 || srv.Calls(discordtest.OpCreateMessage) != 4 {
		t.Errorf("posts %d and calls %d, want 1 of 4 calls", len(posts), srv.Calls(discordtest.OpCreateMessage))
	}
}

func TestInteractionsAreAcknowledgedOnceThenFollowedUp(t *testing.T) {
	srv := discordtest.NewServer(token)
	defer srv.Close()
	g := srv.AddGuild("G")
	ch := srv.AddChannel(g, "general", discordgo.ChannelTypeGuildText)
	u := srv.AddUser("Ana")
	srv.AddMember(g, u.ID)
	s := session(t, srv)
	id := srv.Invoke(discordtest.Invocation{ChannelID: ch, UserID: u.ID, Name: "haven"})
	c := dial(t, srv)
	c.identify(allIntents, false)
	c.read() // GUILD_CREATE
	f := c.read()
	var i discordgo.Interaction
	if err := json.Unmarshal(f.D, &i); f.T != "INTERACTION_CREATE" || err != nil || i.ID != id {
		t.Fatalf("got %s (%v), want the interaction %s", f.T, err, id)
	}
	if i.Member == nil || i.Member.Permissions&discordgo.PermissionAdministrator != 0 {
		t.Errorf("a plain member's interaction says permissions %+v", i.Member)
	}
	if _, err := s.FollowupMessageCreate(&i, true, &discordgo.WebhookParams{Content: "early"}); err == nil {
		t.Error("a follow-up before the callback was accepted")
	}
	deferred := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral}}
	if err := s.InteractionRespond(&i, deferred); err != nil {
		t.Fatal(err)
	}
	if err := s.InteractionRespond(&i, deferred); err == nil {
		t.Error("a second callback was accepted")
	}
	if _, err := s.FollowupMessageCreate(&i, true, &discordgo.WebhookParams{Content: "answer"}); err != nil {
		t.Fatal(err)
	}
	p := srv.Posts()
	if len(p) != 1 || !p[0].Ephemeral || p[0].InteractionID != id || p[0].Content != "answer" {
		t.Errorf("posts %+v, want the ephemeral answer (the deferral was ephemeral)", p)
	}
}

// yesNo is an action row of two buttons.
func yesNo() []discordgo.MessageComponent {
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: "Yes", CustomID: "c:yes", Style: discordgo.PrimaryButton},
		discordgo.Button{Label: "No", CustomID: "c:no", Style: discordgo.SecondaryButton},
	}}}
}

func TestButtonsAreRecordedAndCheckedAsDiscordChecksThem(t *testing.T) {
	srv := discordtest.NewServer(token)
	defer srv.Close()
	u := srv.AddUser("Ana")
	dm := srv.DMChannel(u.ID)
	s := session(t, srv)
	if _, err := s.ChannelMessageSend(dm, "plain"); err != nil {
		t.Fatal(err)
	}
	m, err := s.ChannelMessageSendComplex(dm, &discordgo.MessageSend{Content: "Shall I?", Components: yesNo()})
	if err != nil {
		t.Fatal(err)
	}
	want := []discordtest.Button{{Label: "Yes", CustomID: "c:yes", Style: 1}, {Label: "No", CustomID: "c:no", Style: 2}}
	p := srv.Posts()
	if p[0].Buttons != nil || !slices.Equal(p[1].Buttons, want) || !slices.Equal(srv.Buttons(m.ID), want) {
		t.Errorf("buttons %+v and %+v (now %+v), want none, then %+v", p[0].Buttons, p[1].Buttons, srv.Buttons(m.ID), want)
	}
	bad := []struct {
		name string
		c    []discordgo.MessageComponent
	}{
		{"a button outside a row", []discordgo.MessageComponent{discordgo.Button{Label: "Yes", CustomID: "y", Style: 1}}},
		{"a custom_id twice", []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "A", CustomID: "x", Style: 1}, discordgo.Button{Label: "B", CustomID: "x", Style: 1}}}}},
		{"six buttons in a row", []discordgo.MessageComponent{discordgo.ActionsRow{Components: slices.Repeat([]discordgo.MessageComponent{discordgo.Button{Label: "A", CustomID: "x", Style: 1}}, 6)}}},
		{"a custom_id over 100", []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "A", CustomID: strings.Repeat("x", 101), Style: 1}}}}},
		{"an empty row", []discordgo.MessageComponent{discordgo.ActionsRow{}}},
	}
	for _, b := range bad {
		if _, err := s.ChannelMessageSendComplex(dm, &discordgo.MessageSend{Content: "x", Components: b.c}); err == nil {
			t.Errorf("%s: accepted", b.name)
		}
	}
}

func TestAPressIsAComponentInteractionThatUpdatesItsMessage(t *testing.T) {
	srv := discordtest.NewServer(token)
	defer srv.Close()
	g := srv.AddGuild("G")
	ch := srv.AddChannel(g, "general", discordgo.ChannelTypeGuildText)
	u := srv.AddUser("Ana")
	srv.AddMember(g, u.ID)
	s := session(t, srv)
	m, err := s.ChannelMessageSendComplex(ch, &discordgo.MessageSend{Content: "Shall I?", Components: yesNo()})
	if err != nil {
		t.Fatal(err)
	}
	c := dial(t, srv)
	c.identify(allIntents, false)
	c.read() // GUILD_CREATE
	press := func() discordgo.Interaction {
		t.Helper()
		id := srv.Press(discordtest.Press{Message: m, UserID: u.ID, Label: "No"})
		f := c.read()
		var i discordgo.Interaction
		if err := json.Unmarshal(f.D, &i); f.T != "INTERACTION_CREATE" || err != nil || i.ID != id {
			t.Fatalf("got %s (%v), want the press %s", f.T, err, id)
		}
		return i
	}
	i := press()
	d, ok := i.Data.(discordgo.MessageComponentInteractionData)
	if i.Type != discordgo.InteractionMessageComponent || !ok || d.CustomID != "c:no" || d.ComponentType != discordgo.ButtonComponent ||
		i.Message == nil || i.Message.ID != m.ID || i.Member == nil || i.Member.User.ID != u.ID {
		t.Fatalf("press %+v (data %+v), want Ana's press of c:no on %s", i, i.Data, m.ID)
	}
	if srv.RedeliverInteraction(i.ID); true {
		f := c.read()
		var again discordgo.Interaction
		if err := json.Unmarshal(f.D, &again); err != nil || again.ID != i.ID || again.Token != i.Token {
			t.Errorf("redelivered %s (%v), want the same interaction", f.T, err)
		}
	}
	// discordgo's InteractionResponseData always sends "content": an
	// UPDATE_MESSAGE with its zero value would blank the message.
	blank := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: &discordgo.InteractionResponseData{}}
	var re *discordgo.RESTError
	if err := s.InteractionRespond(&i, blank); !errors.As(err, &re) || re.Message == nil || re.Message.Code != 50006 {
		t.Errorf("an update to empty content: %v, want 50006", err)
	}
	// A null components leaves the buttons; an empty array removes them.
	if _, err := s.RequestWithBucketID("POST", discordgo.EndpointInteractionResponse(i.ID, i.Token),
		json.RawMessage(`{"type":7,"data":{"components":null}}`), "x"); err != nil {
		t.Fatal(err)
	}
	if len(srv.Buttons(m.ID)) != 2 {
		t.Errorf("a null components changed the buttons: %+v", srv.Buttons(m.ID))
	}
	if f := c.read(); f.T != "MESSAGE_UPDATE" {
		t.Errorf("after an update: %s, want MESSAGE_UPDATE", f.T)
	}
	i = press()
	if _, err := s.RequestWithBucketID("POST", discordgo.EndpointInteractionResponse(i.ID, i.Token),
		json.RawMessage(`{"type":7,"data":{"components":[]}}`), "x"); err != nil {
		t.Fatal(err)
	}
	cb := srv.Callbacks()
	if len(srv.Buttons(m.ID)) != 0 || len(cb) != 2 || !cb[1].ButtonsSet || cb[1].Buttons != nil || cb[1].Content != nil {
		t.Errorf("after components []: buttons %+v, callbacks %+v, want none left", srv.Buttons(m.ID), cb)
	}
	if _, err := s.FollowupMessageCreate(&i, true, &discordgo.WebhookParams{Content: "noted"}); err != nil {
		t.Errorf("a follow-up after an update: %v", err)
	}
	// A command takes no update callbacks.
	srv.Invoke(discordtest.Invocation{ChannelID: ch, UserID: u.ID, Name: "haven"})
	c.read() // MESSAGE_UPDATE
	var cmd discordgo.Interaction
	if err := json.Unmarshal(c.read().D, &cmd); err != nil {
		t.Fatal(err)
	}
	ack := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}
	if err := s.InteractionRespond(&cmd, ack); err == nil {
		t.Error("a command accepted DEFERRED_UPDATE_MESSAGE")
	}
}

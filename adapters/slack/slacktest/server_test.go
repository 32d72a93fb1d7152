package slacktest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/slack-go/slack"

	"github.com/havenbot/haven/adapters/slack/slacktest"
)

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// openSocket asks apps.connections.open for a URL and dials it with
// origin, returning the socket (nil when the dial failed) and the
// handshake's status.
func openSocket(t *testing.T, s *slacktest.Server, origin string) (*websocket.Conn, string, int) {
	t.Helper()
	api := slack.New(s.BotToken(), slack.OptionAPIURL(s.APIURL()), slack.OptionAppLevelToken(s.AppToken()))
	_, u, err := api.StartSocketModeContext(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	c, resp, err := websocket.DefaultDialer.DialContext(ctxT(t), u, http.Header{"Origin": {origin}})
	code := 0
	if resp != nil {
		code = resp.StatusCode
	}
	if err != nil {
		return nil, u, code
	}
	t.Cleanup(func() { c.Close() })
	return c, u, code
}

func TestTheSocketWantsSlackGosOriginAndATicketUsedOnce(t *testing.T) {
	s := slacktest.NewServer()
	defer s.Close()
	if c, _, code := openSocket(t, s, "https://evil.example"); c != nil || code != http.StatusForbidden {
		t.Errorf("another Origin: dialled %v, status %d, want 403", c != nil, code)
	}
	c, u, _ := openSocket(t, s, slacktest.SlackOrigin)
	if c == nil {
		t.Fatal("slack-go's Origin was refused")
	}
	if _, resp, err := websocket.DefaultDialer.DialContext(ctxT(t), u, http.Header{"Origin": {slacktest.SlackOrigin}}); err == nil || resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a used ticket: %v, want 401", err)
	}
	var hello struct{ Type string }
	if err := c.ReadJSON(&hello); err != nil || hello.Type != "hello" {
		t.Fatalf("first frame %+v, %v; want hello", hello, err)
	}
}

func TestAnEnvelopeNotAckedIsSentAgainOnTheNextSocket(t *testing.T) {
	s := slacktest.NewServer()
	defer s.Close()
	c, _, _ := openSocket(t, s, slacktest.SlackOrigin)
	ev := s.Message(slacktest.Message{Channel: "D0X", User: "U0X", Text: "hi"})
	var env struct {
		Type         string `json:"type"`
		EnvelopeID   string `json:"envelope_id"`
		RetryAttempt int    `json:"retry_attempt"`
		Payload      struct {
			EventID string `json:"event_id"`
		} `json:"payload"`
	}
	for env.Type != "events_api" {
		if err := c.ReadJSON(&env); err != nil {
			t.Fatal(err)
		}
	}
	if env.Payload.EventID != ev.ID || env.RetryAttempt != 0 {
		t.Fatalf("envelope %+v, want event %s, first attempt", env, ev.ID)
	}
	c.Close() // without an ack
	c2, _, _ := openSocket(t, s, slacktest.SlackOrigin)
	env.Type = ""
	for env.Type != "events_api" {
		if err := c2.ReadJSON(&env); err != nil {
			t.Fatal(err)
		}
	}
	if env.Payload.EventID != ev.ID || env.RetryAttempt != 1 {
		t.Fatalf("envelope %+v, want event %s again, retry 1", env, ev.ID)
	}
	if err := c2.WriteJSON(map[string]string{"envelope_id": env.EnvelopeID}); err != nil {
		t.Fatal(err)
	}
	if err := s.WaitDelivered(ctxT(t)); err != nil {
		t.Fatal(err)
	}
}

func TestWebAPIChecksTokensAndRecordsPosts(t *testing.T) {
	s := slacktest.NewServer()
	defer s.Close()
	s.AddChannel(slacktest.Channel{ID: "C1", Type: slacktest.TypeChannel})
	bad := slack.New("xoxb-wrong", slack.OptionAPIURL(s.APIURL()))
	if _, err := bad.AuthTestContext(ctxT(t)); err == nil || err.Error() != "invalid_auth" {
		t.Errorf("a wrong token: %v, want invalid_auth", err)
	}
	api := slack.New(s.BotToken(), slack.OptionAPIURL(s.APIURL()))
	if _, _, err := api.PostMessageContext(ctxT(t), "C1", slack.MsgOptionText("a &lt;b&gt;", false)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := api.PostMessageContext(ctxT(t), "C404", slack.MsgOptionText("x", false)); err == nil || err.Error() != "channel_not_found" {
		t.Errorf("an unknown channel: %v", err)
	}
	s.FailNext("chat.postMessage", slacktest.Failure{Status: 429, RetryAfter: 1500 * time.Millisecond})
	_, _, err := api.PostMessageContext(ctxT(t), "C1", slack.MsgOptionText("x", false))
	if rl, ok := errors.AsType[*slack.RateLimitedError](err); !ok || rl.RetryAfter != 2*time.Second {
		t.Errorf("a forced 429: %v, want retry after 2s (whole seconds, rounded up)", err)
	}
	if p := s.Posts(); len(p) != 1 || p[0].Plain != "a <b>" {
		t.Errorf("posts %+v", p)
	}
}

func TestEventsAPIRequestsAreSignedAsSlackSignsThem(t *testing.T) {
	got := make(chan *http.Request, 1)
	bodies := make(chan []byte, 1)
	srv := slacktest.NewServer()
	defer srv.Close()
	ts := newRecorder(t, func(r *http.Request, body []byte) int {
		sv, err := slack.NewSecretsVerifier(r.Header, "s3cret")
		if err == nil {
			_, _ = sv.Write(body)
			err = sv.Ensure()
		}
		if err != nil {
			t.Errorf("slack-go does not verify the fake's signature: %v", err)
		}
		got <- r
		bodies <- body
		return http.StatusOK
	})
	srv.SetEventsURL(ts, "s3cret")
	srv.Slash("C1", "U1", "/haven", "pause now")
	r, body := <-got, <-bodies
	form, _ := url.ParseQuery(string(body))
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") || form.Get("command") != "/haven" || form.Get("text") != "pause now" {
		t.Errorf("slash command posted as %s: %v", r.Header.Get("Content-Type"), form)
	}
	srv.Message(slacktest.Message{Channel: "D1", User: "U1", Text: "hi"})
	body = <-bodies
	<-got
	var cb map[string]any
	if err := json.NewDecoder(bytes.NewReader(body)).Decode(&cb); err != nil || cb["type"] != "event_callback" {
		t.Errorf("event posted as %s (%v)", body, err)
	}
}

// newRecorder serves f on a test server until the test ends and returns
// its URL.
func newRecorder(t *testing.T, f func(r *http.Request, body []byte) int) string {
	t.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b bytes.Buffer
		_, _ = b.ReadFrom(r.Body)
		w.WriteHeader(f(r, b.Bytes()))
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}

func TestBlocksAreCheckedButtonsListedAndUpdatesTakeThemOff(t *testing.T) {
	s := slacktest.NewServer()
	defer s.Close()
	s.AddChannel(slacktest.Channel{ID: "C1", Name: "general", Type: slacktest.TypeChannel})
	api := slack.New(s.BotToken(), slack.OptionAPIURL(s.APIURL()))
	button := func(id, label string) slack.BlockElement {
		return slack.NewButtonBlockElement(id, "v-"+id, slack.NewTextBlockObject(slack.PlainTextType, label, false, false))
	}
	section := slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, "Shall I?", false, true), nil, nil)
	_, ts, err := api.PostMessageContext(ctxT(t), "C1", slack.MsgOptionText("Shall I?", false),
		slack.MsgOptionBlocks(section, slack.NewActionBlock("b", button("yes", "Yes"), button("no", "No"))))
	if err != nil {
		t.Fatal(err)
	}
	want := []slacktest.Button{{BlockID: "b", ActionID: "yes", Value: "v-yes", Label: "Yes"}, {BlockID: "b", ActionID: "no", Value: "v-no", Label: "No"}}
	if got := s.Posts()[0].Buttons; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("buttons %+v, want %+v", got, want)
	}
	for name, blocks := range map[string][]slack.Block{
		"the same action_id twice": {slack.NewActionBlock("b", button("x", "X"), button("x", "Y"))},
		"a label over 75":          {slack.NewActionBlock("b", button("x", strings.Repeat("y", 76)))},
		"a section over 3,000":     {slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, strings.Repeat("a", 3001), false, true), nil, nil)},
	} {
		_, _, err := api.PostMessageContext(ctxT(t), "C1", slack.MsgOptionText("x", false), slack.MsgOptionBlocks(blocks...))
		if err == nil || !strings.Contains(err.Error(), "invalid_blocks") {
			t.Errorf("%s: %v, want invalid_blocks", name, err)
		}
	}
	if _, err := s.Press("C1", ts, "U1", "maybe"); err == nil {
		t.Error("pressed a button the message does not have")
	}
	if _, _, _, err := api.UpdateMessageContext(ctxT(t), "C1", ts, slack.MsgOptionBlocks(section)); err != nil {
		t.Fatal(err)
	}
	if u := s.Updates(); len(u) != 1 || len(u[0].Buttons) != 0 || len(s.Posts()[0].Buttons) != 0 {
		t.Errorf("after an update without the actions block: updates %+v, post buttons %+v", u, s.Posts()[0].Buttons)
	}
	if _, err := s.Press("C1", ts, "U1", "yes"); err == nil {
		t.Error("pressed a button an update took off")
	}
	if _, _, _, err := api.UpdateMessageContext(ctxT(t), "C1", "1.2", slack.MsgOptionText("x", false)); err == nil || !strings.Contains(err.Error(), "message_not_found") {
		t.Errorf("update of an unknown message: %v, want message_not_found", err)
	}
}

func TestAResponseURLReplacesAnEphemeralMessageFiveTimesAtMost(t *testing.T) {
	s := slacktest.NewServer()
	defer s.Close()
	s.AddUser(slacktest.User{ID: "U0ANA", Name: "ana"})
	s.AddChannel(slacktest.Channel{ID: "C0GENERAL", Name: "general", Type: slacktest.TypeChannel})
	api := slack.New(s.BotToken(), slack.OptionAPIURL(s.APIURL()))
	button := slack.NewButtonBlockElement("go", "go", slack.NewTextBlockObject(slack.PlainTextType, "Go", false, false))
	ts, err := api.PostEphemeralContext(ctxT(t), "C0GENERAL", "U0ANA", slack.MsgOptionText("pick", false),
		slack.MsgOptionBlocks(slack.NewActionBlock("b", button)))
	if err != nil {
		t.Fatal(err)
	}
	pressed, err := s.Press("C0GENERAL", ts, "U0ANA", "go")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := api.UpdateMessageContext(ctxT(t), "C0GENERAL", ts, slack.MsgOptionText("done", false)); err == nil || !strings.Contains(err.Error(), "cant_update_message") {
		t.Errorf("chat.update of an ephemeral message: %v, want cant_update_message", err)
	}
	for i := range 6 {
		_, _, _, err := api.SendMessageContext(ctxT(t), "", slack.MsgOptionReplaceOriginal(pressed.ResponseURL), slack.MsgOptionText("done", false))
		if (err == nil) != (i < 5) {
			t.Errorf("use %d of the response_url: %v", i+1, err)
		}
	}
	p := s.Posts()[0]
	if p.Plain != "done" || len(p.Buttons) != 0 || len(s.Responses()) != 5 || !s.Responses()[0].ReplaceOriginal {
		t.Errorf("post %+v, responses %+v: want the message replaced five times, its button gone", p, s.Responses())
	}
	if _, _, _, err := api.SendMessageContext(ctxT(t), "", slack.MsgOptionReplaceOriginal(s.URL()+"/actions/nope"), slack.MsgOptionText("x", false)); err == nil {
		t.Error("an unknown response_url was accepted")
	}
}

package main

// Fault tests: `haven serve` as the binary wires it, against the fake Bot
// API and the fake model, with the model, the platform or the events
// misbehaving. They wait on the fakes (WaitSent, WaitCalls), never on
// sleeps.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/havenbot/haven/adapters/telegram/telegramtest"
	"github.com/havenbot/haven/llm/llmtest"
)

const faultToken = "123456:fault-token-abcdefghijklmnopqrstuvwxyz"

// crisisText is a message the crisis gate must always catch.
const crisisText = "I want to kill myself"

// served is a running `haven serve`.
type served struct {
	stop   func() // cancels serve and waits for it to return (drained)
	code   int    // its exit code, once stopped
	stderr bytes.Buffer
}

// startServe runs `haven serve` with env (plus the database in a temp dir)
// until the test calls stop or ends.
func startServe(t *testing.T, env map[string]string) *served {
	t.Helper()
	env["HAVEN_DATABASE_PATH"] = t.TempDir() + "/h.db"
	s := &served{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		var out bytes.Buffer
		done <- run(ctx, []string{"serve"}, stdio{in: strings.NewReader(""), out: &out, err: &s.stderr}, func(k string) (string, bool) {
			v, ok := env[k]
			return v, ok
		})
	}()
	var once sync.Once
	s.stop = func() {
		once.Do(func() {
			cancel()
			s.code = <-done
		})
	}
	t.Cleanup(s.stop)
	return s
}

// waitReplies waits for n messages at the fake and fails the test, with
// Haven's log, when they do not come.
func waitReplies(t *testing.T, srv *telegramtest.Server, s *served, n int) []telegramtest.Sent {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	sent, err := srv.WaitSent(ctx, n)
	if err != nil {
		s.stop()
		t.Fatalf("%v; sent so far %+v; log:\n%s", err, sent, s.stderr.String())
	}
	return sent
}

// perChat counts the messages sent to each chat.
func perChat(sent []telegramtest.Sent) map[int64]int {
	n := map[int64]int{}
	for _, s := range sent {
		n[s.ChatID]++
	}
	return n
}

func namesResource(text string) bool {
	return strings.Contains(text, "988") || strings.Contains(text, "911") || strings.Contains(strings.ToLower(text), "emergency")
}

func TestModelSlowOrDownRepliesFallBackAndCrisisStillAnswered(t *testing.T) {
	tests := []struct {
		name  string
		reply llmtest.Reply
	}{
		{"model answers 500", llmtest.Reply{Status: http.StatusInternalServerError}},
		{"model answers 503 with Retry-After", llmtest.Reply{Status: http.StatusServiceUnavailable, RetryAfter: time.Second}},
		// The turn's own model deadlines (core's defaults, 3 s dispatch and
		// the reply's) bound this one, not llm.timeout: about 10 s.
		{"model never answers", llmtest.Reply{Hang: true}},
		{"model answers garbage", llmtest.Reply{Malformed: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := telegramtest.NewServer(faultToken)
			t.Cleanup(srv.Close)
			model := llmtest.NewServer(t)
			model.SetDefault(tt.reply)
			s := startServe(t, map[string]string{
				"HAVEN_TELEGRAM_TOKEN":      faultToken,
				"HAVEN_TELEGRAM_API_URL":    srv.APIEndpoint(),
				"HAVEN_LLM_BASE_URL":        model.URL(),
				"HAVEN_LLM_MODEL":           llmtest.DefaultModel,
				"HAVEN_LLM_TIMEOUT":         "300ms",
				"HAVEN_SAFETY_LLM_DEADLINE": "500ms",
				"HAVEN_LOG_LEVEL":           "error",
			})
			sam := tgbotapi.User{ID: 42, FirstName: "Sam"}
			kim := tgbotapi.User{ID: 43, FirstName: "Kim"}
			srv.Inject(srv.NewMessage(telegramtest.PrivateChat(sam), sam, "I have been so stressed about work"))
			srv.Inject(srv.NewMessage(telegramtest.PrivateChat(kim), kim, crisisText))
			waitReplies(t, srv, s, 2)
			s.stop()
			if s.code != 0 {
				t.Fatalf("serve exited %d; log:\n%s", s.code, s.stderr.String())
			}
			if len(model.Requests()) == 0 {
				t.Fatal("the model was never asked: the test did not exercise it")
			}
			sent := srv.Sent()
			if n := perChat(sent); n[sam.ID] != 1 || n[kim.ID] != 1 || len(sent) != 2 {
				t.Fatalf("replies per chat %v, want one each: %+v", n, sent)
			}
			for _, m := range sent {
				switch m.ChatID {
				case sam.ID:
					if !strings.Contains(m.Plain, "work") {
						t.Errorf("the scripted fallback %q does not attend to the message", m.Plain)
					}
				case kim.ID:
					if !namesResource(m.Plain) {
						t.Errorf("crisis reply %q names no emergency resource", m.Plain)
					}
				}
			}
		})
	}
}

// TestPlatformErrorBurstsDropNothingAndCrisisGoesFirst makes the fake
// refuse sendMessage in bursts (5xx, an HTML error page, 429s): every
// message is still answered exactly once. Then, while one chat's reply
// waits out a 429, a crisis message from another chat is answered before
// it.
func TestPlatformErrorBurstsDropNothingAndCrisisGoesFirst(t *testing.T) {
	srv := telegramtest.NewServer(faultToken)
	t.Cleanup(srv.Close)
	s := startServe(t, map[string]string{
		"HAVEN_TELEGRAM_TOKEN":   faultToken,
		"HAVEN_TELEGRAM_API_URL": srv.APIEndpoint(),
		"HAVEN_LOG_LEVEL":        "error",
	})
	// A burst of failures ahead of the first replies.
	for _, f := range []telegramtest.Failure{
		{Status: http.StatusInternalServerError},
		{Status: http.StatusBadGateway, Body: "<html><body>502 Bad Gateway</body></html>"},
		{Status: http.StatusTooManyRequests, RetryAfter: time.Second},
		{Status: http.StatusServiceUnavailable},
		{Status: http.StatusInternalServerError},
	} {
		srv.FailNextWith("sendMessage", f)
	}
	people := make([]tgbotapi.User, 5)
	for i := range people {
		people[i] = tgbotapi.User{ID: int64(100 + i), FirstName: "P" + strconv.Itoa(i)}
		srv.Inject(srv.NewMessage(telegramtest.PrivateChat(people[i]), people[i], "I had a long day and feel tired"))
	}
	waitReplies(t, srv, s, len(people))

	// One chat's reply is refused with a long Retry-After; a crisis in
	// another chat must not wait behind it.
	srv.FailNext("sendMessage", http.StatusTooManyRequests, 5*time.Second)
	calls := srv.Calls("sendMessage")
	srv.Inject(srv.NewMessage(telegramtest.PrivateChat(people[0]), people[0], "thanks, that helps a bit"))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := srv.WaitCalls(ctx, "sendMessage", calls+1); err != nil {
		t.Fatal(err)
	}
	kim := tgbotapi.User{ID: 43, FirstName: "Kim"}
	srv.Inject(srv.NewMessage(telegramtest.PrivateChat(kim), kim, crisisText))
	waitReplies(t, srv, s, len(people)+2)
	s.stop()
	if s.code != 0 {
		t.Fatalf("serve exited %d; log:\n%s", s.code, s.stderr.String())
	}
	sent := srv.Sent()
	n := perChat(sent)
	for i, p := range people {
		want := 1
		if i == 0 {
			want = 2
		}
		if n[p.ID] != want {
			t.Errorf("person %d got %d replies, want %d (nothing dropped, nothing twice)", i, n[p.ID], want)
		}
	}
	if n[kim.ID] != 1 || len(sent) != len(people)+2 {
		t.Fatalf("replies per chat %v", n)
	}
	last := sent[len(sent)-1]
	if last.ChatID != people[0].ID {
		t.Errorf("the reply held by a 429 went out before the crisis reply of another chat: last sent to %d", last.ChatID)
	}
	if crisis := sent[len(sent)-2]; crisis.ChatID != kim.ID || !namesResource(crisis.Plain) {
		t.Errorf("crisis reply %+v", crisis)
	}
}

// rawFeed puts a proxy in front of the fake Bot API that hands out raw
// update JSON (bytes the fake's typed Inject cannot produce) on
// getUpdates before the fake's own updates; every other call goes to the
// fake.
type rawFeed struct {
	srv   *telegramtest.Server
	proxy *httptest.Server
	mu    sync.Mutex
	raw   []rawUpdate
}

type rawUpdate struct {
	id   int
	body string
}

func newRawFeed(t *testing.T, srv *telegramtest.Server) *rawFeed {
	f := &rawFeed{srv: srv}
	target, err := url.Parse(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(target)
	rp.ErrorHandler = func(w http.ResponseWriter, _ *http.Request, _ error) { w.WriteHeader(http.StatusBadGateway) } // at shutdown
	f.proxy = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/getUpdates") {
			body, err := io.ReadAll(r.Body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			q, _ := url.ParseQuery(string(body))
			offset, _ := strconv.Atoi(q.Get("offset"))
			if batch := f.take(offset); batch != "" {
				w.Header().Set("Content-Type", "application/json")
				_, _ = io.WriteString(w, `{"ok":true,"result":[`+batch+`]}`)
				return
			}
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(f.proxy.Close)
	return f
}

// add queues a raw update body (without update_id, which add sets).
func (f *rawFeed) add(id int, fields string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.raw = append(f.raw, rawUpdate{id: id, body: fmt.Sprintf(`{"update_id":%d,%s}`, id, fields)})
}

// take drops the raw updates below offset and returns the rest, joined.
func (f *rawFeed) take(offset int) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.raw = slices.DeleteFunc(f.raw, func(u rawUpdate) bool { return u.id < offset })
	bodies := make([]string, len(f.raw))
	for i, u := range f.raw {
		bodies[i] = u.body
	}
	return strings.Join(bodies, ",")
}

func (f *rawFeed) endpoint() string { return f.proxy.URL + "/bot%s/%s" }

func privateMessageJSON(u tgbotapi.User, msgID int, text string) string {
	return fmt.Sprintf(`"message":{"message_id":%d,"date":1700000000,"chat":{"id":%d,"type":"private","first_name":%q},"from":{"id":%d,"is_bot":false,"first_name":%q},"text":"%s"}`,
		msgID, u.ID, u.FirstName, u.ID, u.FirstName, text)
}

// TestHostileEventsAreAnsweredOrSkippedWithoutACrash pushes malformed and
// hostile updates through the fake Bot API into `haven serve`: each is
// answered once or skipped with a log line naming its update, and a
// message after them is still answered.
func TestHostileEventsAreAnsweredOrSkippedWithoutACrash(t *testing.T) {
	srv := telegramtest.NewServer(faultToken)
	t.Cleanup(srv.Close)
	feed := newRawFeed(t, srv)
	user := func(i int) tgbotapi.User { return tgbotapi.User{ID: int64(500 + i), FirstName: "H" + strconv.Itoa(i)} }

	type event struct {
		name     string
		raw      string                                // raw update fields, served by the proxy
		typed    func(u tgbotapi.User) tgbotapi.Update // or a typed update, through the fake
		answered bool                                  // else skipped
	}
	deep := strings.Repeat(`{"a":`, 5000) + "1" + strings.Repeat("}", 5000)
	events := []event{
		{name: "invalid UTF-8 in the text", raw: "caf\xe9 \xff\xfe I feel low", answered: true},
		{name: "escaped lone surrogates and NULs", raw: `\ud800 hi \udfff there \u0000 ok`, answered: true},
		{name: "deeply nested JSON in an unknown field", raw: "DEEP", answered: true},
		{name: "an update with no known field", raw: "NOTHING"},
		{name: "a message with no chat", raw: "NOCHAT"},
		{name: "1 MB of text", answered: true, typed: func(u tgbotapi.User) tgbotapi.Update {
			return tgbotapi.Update{Message: srv.NewMessage(telegramtest.PrivateChat(u), u, strings.Repeat("I feel tired today. ", 1<<20/20))}
		}},
		{name: "control characters and bidi overrides", answered: true, typed: func(u tgbotapi.User) tgbotapi.Update {
			return tgbotapi.Update{Message: srv.NewMessage(telegramtest.PrivateChat(u), u, "\x00\x1b[31mhello\x07\u202egnorw\u202c\r\n\t\x7f")}
		}},
		{name: "a message with no sender", typed: func(u tgbotapi.User) tgbotapi.Update {
			m := srv.NewMessage(telegramtest.PrivateChat(u), u, "who am I")
			m.From = nil
			return tgbotapi.Update{Message: m}
		}},
		{name: "entities pointing past the text", answered: true, typed: func(u tgbotapi.User) tgbotapi.Update {
			m := srv.NewMessage(telegramtest.PrivateChat(u), u, "hi")
			m.Entities = []tgbotapi.MessageEntity{{Type: "mention", Offset: 1, Length: 1 << 30}, {Type: "bot_command", Offset: -5, Length: 3}}
			return tgbotapi.Update{Message: m}
		}},
	}
	// Raw updates come first, with ids 1..k; the fake's updates after them.
	ids := map[string]int{}
	nextRaw := 0
	for i, e := range events {
		if e.raw == "" {
			continue
		}
		u := user(i)
		srv.StartPrivate(u) // the fake lets the bot answer only people who started it
		nextRaw++
		ids[e.name] = nextRaw
		switch e.raw {
		case "DEEP":
			feed.add(nextRaw, `"unknown_future_field":`+deep+`,`+privateMessageJSON(u, 1, "hello from the future"))
		case "NOTHING":
			feed.add(nextRaw, `"some_new_update_kind":{"x":1}`)
		case "NOCHAT":
			feed.add(nextRaw, `"message":{"message_id":1,"date":1700000000,"from":{"id":1,"is_bot":false,"first_name":"X"},"text":"hi"}`)
		default:
			feed.add(nextRaw, privateMessageJSON(u, 1, e.raw))
		}
	}
	first := true
	for i, e := range events {
		if e.typed == nil {
			continue
		}
		u := e.typed(user(i))
		if first {
			u.UpdateID, first = nextRaw+1, false
		}
		ids[e.name] = srv.InjectUpdate(u)
	}
	last := tgbotapi.User{ID: 999, FirstName: "Last"}
	srv.Inject(srv.NewMessage(telegramtest.PrivateChat(last), last, "is anyone there?"))

	s := startServe(t, map[string]string{
		"HAVEN_TELEGRAM_TOKEN":   faultToken,
		"HAVEN_TELEGRAM_API_URL": feed.endpoint(),
		"HAVEN_LOG_LEVEL":        "debug",
		"HAVEN_LOG_FORMAT":       "json",
	})
	want := 1 // the last message
	for _, e := range events {
		if e.answered {
			want++
		}
	}
	waitReplies(t, srv, s, want)
	s.stop()
	if s.code != 0 {
		t.Fatalf("serve exited %d; log:\n%s", s.code, s.stderr.String())
	}
	n := perChat(srv.Sent())
	if n[last.ID] != 1 {
		t.Errorf("the message after the hostile ones got %d replies", n[last.ID])
	}
	logs := s.stderr.String()
	for i, e := range events {
		t.Run(e.name, func(t *testing.T) {
			if e.answered {
				if n[user(i).ID] != 1 {
					t.Errorf("got %d replies, want 1", n[user(i).ID])
				}
				return
			}
			if n[user(i).ID] != 0 {
				t.Errorf("a skipped update got %d replies", n[user(i).ID])
			}
			if !hasLogLine(logs, "telegram update ignored", ids[e.name]) {
				t.Errorf("no log line says update %d was skipped", ids[e.name])
			}
		})
	}
	if t.Failed() {
		t.Logf("log:\n%s", logs)
	}
}

// hasLogLine reports whether the JSON log has a record with msg and
// update_id.
func hasLogLine(logs, msg string, updateID int) bool {
	for line := range strings.Lines(logs) {
		var rec struct {
			Msg      string `json:"msg"`
			UpdateID int    `json:"update_id"`
		}
		if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == msg && rec.UpdateID == updateID {
			return true
		}
	}
	return false
}

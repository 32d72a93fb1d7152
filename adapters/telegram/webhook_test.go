package telegram_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/havenbot/haven/adapters/telegram"
	"github.com/havenbot/haven/adapters/telegram/telegramtest"
)

const secret = "s3cret_Token-1"

func webhookHarness(t *testing.T) (*harness, *httptest.Server) {
	t.Helper()
	h := newHarness(t, nil, func(o *telegram.Options) {
		o.Mode = telegram.ModeWebhook
		o.WebhookSecret = secret
		o.WebhookURL = "https://haven.example/telegram"
		o.MaxWebhookBody = 4096
	}).start(t)
	select {
	case <-h.a.Ready():
	case <-ctxT(t).Done():
		t.Fatal("adapter not ready")
	}
	hook := httptest.NewServer(h.a.Handler())
	t.Cleanup(hook.Close)
	return h, hook
}

func post(t *testing.T, url, secretToken, body string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if secretToken != "" {
		req.Header.Set("X-Telegram-Bot-Api-Secret-Token", secretToken)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func TestWebhookRegistersItselfWithTheSecret(t *testing.T) {
	h, _ := webhookHarness(t)
	url, sec := h.srv.Webhook()
	if url != "https://haven.example/telegram" || sec != secret {
		t.Errorf("setWebhook got url %q secret %q", url, sec)
	}
}

func TestWebhookChecksSecretAndDeliversUpdates(t *testing.T) {
	h, hook := webhookHarness(t)
	update := func(id int, text string) string {
		m := h.srv.NewMessage(telegramtest.PrivateChat(alice), alice, text)
		b, err := json.Marshal(tgbotapi.Update{UpdateID: id, Message: m})
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	cases := []struct {
		name   string
		secret string
		body   string
		status int
		text   string // accepted text, "" for none
	}{
		{"no secret is refused", "", update(1, "one"), http.StatusUnauthorized, ""},
		{"a wrong secret is refused", "s3cret_Token-2", update(2, "two"), http.StatusUnauthorized, ""},
		{"a longer secret is refused", secret + "x", update(3, "three"), http.StatusUnauthorized, ""},
		{"the right secret delivers", secret, update(4, "four"), http.StatusOK, "four"},
		// What cannot decode now never will: 200, so Telegram stops
		// redelivering it; skipped and counted.
		{"truncated JSON is skipped", secret, `{"update_id": 5, "message": {"text": "private words"`, http.StatusOK, ""},
		{"malformed JSON is skipped", secret, `{"update_id": 5 "message": {"text": "private words"}}`, http.StatusOK, ""},
		{"a wrongly typed field is skipped", secret, `{"update_id": "six"}`, http.StatusOK, ""},
		{"a wrongly typed message field is skipped", secret, `{"update_id": 6, "message": {"message_id": 1, "text": ["private words"]}}`, http.StatusOK, ""},
		{"an oversized body is skipped", secret, `{"update_id": 7, "pad": "` + strings.Repeat("x", 5000) + `"}`, http.StatusOK, ""},
		{"the next good update delivers", secret, update(8, "eight"), http.StatusOK, "eight"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := post(t, hook.URL, c.secret, c.body); got != c.status {
				t.Fatalf("status %d, want %d", got, c.status)
			}
			// The handler answers after Accept returned, so the sink
			// already has what it will get.
			select {
			case in := <-h.sink.ch:
				if in.Text != c.text {
					t.Errorf("accepted %q, want %q", in.Text, c.text)
				}
			default:
				if c.text != "" {
					t.Errorf("nothing accepted, want %q", c.text)
				}
			}
		})
	}
	if got := h.a.Stats().Skipped; got != 5 {
		t.Errorf("Stats().Skipped = %d, want the 5 updates that did not decode", got)
	}
	logs := h.logs.String()
	if !containsAll(logs, "skipped a malformed update", "truncated", "invalid JSON at byte", "wrong type", "too large") {
		t.Errorf("log does not explain the malformed updates:\n%s", logs)
	}
	if strings.Contains(logs, "private words") {
		t.Error("the log repeats message text")
	}
}

func TestWebhookRefusesGet(t *testing.T) {
	_, hook := webhookHarness(t)
	req, _ := http.NewRequest(http.MethodGet, hook.URL, nil)
	req.Header.Set("X-Telegram-Bot-Api-Secret-Token", secret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET status %d, want 405", resp.StatusCode)
	}
}

func TestWebhookBeforeRunIsUnavailable(t *testing.T) {
	h := newHarness(t, nil, func(o *telegram.Options) {
		o.Mode = telegram.ModeWebhook
		o.WebhookSecret = secret
	})
	hook := httptest.NewServer(h.a.Handler())
	t.Cleanup(hook.Close)
	body, _ := json.Marshal(tgbotapi.Update{UpdateID: 1})
	if got := post(t, hook.URL, secret, string(body)); got != http.StatusServiceUnavailable {
		t.Errorf("status %d, want 503 so Telegram retries", got)
	}
}

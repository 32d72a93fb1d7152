package slack_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/havenbot/haven/adapters/slack"
	"github.com/havenbot/haven/adapters/slack/slacktest"
)

// eventBody is an event_callback with a DM from Ana.
func eventBody(eventID, ts, text string) []byte {
	b, _ := json.Marshal(map[string]any{
		"type": "event_callback", "team_id": slacktest.DefaultTeam, "api_app_id": slacktest.DefaultAppID, "event_id": eventID,
		"event": map[string]any{"type": "message", "channel": "D0ANA", "channel_type": "im", "user": ana.ID, "text": text, "ts": ts},
	})
	return b
}

// post sends body to the harness's Handler signed with key at at, and
// returns the status and body.
func (h *harness) post(t *testing.T, body []byte, contentType, key string, at time.Time, hdr http.Header) (int, string) {
	t.Helper()
	resp, err := slacktest.PostSigned(ctxT(t), http.DefaultClient, h.hook.URL+"/slack/events", contentType, body, key, at, hdr)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestEventsAPIRefusesUnsignedRequestsWithNothingProcessed(t *testing.T) {
	h := newHarness(t, nil, slack.ModeHTTP, nil).start(t)
	good := eventBody("Ev0GOOD", "1700000000.000100", "good")
	tests := []struct {
		name string
		send func() (int, string)
	}{
		{"wrong secret", func() (int, string) {
			return h.post(t, eventBody("Ev1", "1.1", "forged"), "application/json", "not-the-secret", time.Now(), nil)
		}},
		{"no signature", func() (int, string) {
			return h.post(t, eventBody("Ev2", "1.2", "forged"), "application/json", "", time.Now(), nil)
		}},
		{"stale timestamp", func() (int, string) {
			return h.post(t, eventBody("Ev3", "1.3", "replayed"), "application/json", secret, time.Now().Add(-6*time.Minute), nil)
		}},
		{"body changed after signing", func() (int, string) {
			req, _ := slacktest.NewSignedRequest(ctxT(t), h.hook.URL, "application/json", eventBody("Ev4", "1.4", "original"), secret, time.Now())
			req.Body = io.NopCloser(strings.NewReader(string(eventBody("Ev4", "1.4", "tampered"))))
			req.ContentLength = -1
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			return resp.StatusCode, ""
		}},
		{"slash command with a wrong signature", func() (int, string) {
			return h.post(t, []byte("command=%2Fhaven&text=pause&user_id=U0ANA&channel_id=C0GENERAL&trigger_id=1.2.x"), "application/x-www-form-urlencoded", "nope", time.Now(), nil)
		}},
		{"url verification with a wrong signature", func() (int, string) {
			return h.post(t, []byte(`{"type":"url_verification","challenge":"c"}`), "application/json", "nope", time.Now(), nil)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if code, body := tt.send(); code != http.StatusUnauthorized {
				t.Errorf("answered %d %q, want 401", code, body)
			}
		})
	}
	if code, _ := h.post(t, good, "application/json", secret, time.Now(), nil); code != http.StatusOK {
		t.Fatalf("a signed event got %d", code)
	}
	if in := h.sink.next(t); in.Text != "good" {
		t.Fatalf("accepted %q, want only the signed event", in.Text)
	}
	if n := h.srv.Calls("users.info"); n != 1 {
		t.Errorf("users.info was called %d times, want once (for the signed event only)", n)
	}
	if !containsAll(h.logs.String(), "not signed by Slack", "does not match HAVEN_SLACK_SIGNING_SECRET", "more than five minutes") {
		t.Errorf("the refusals are not logged with their reason:\n%s", h.logs)
	}
	if strings.Contains(h.logs.String(), "forged") || strings.Contains(h.logs.String(), "tampered") {
		t.Error("the log repeats a refused request's content")
	}
}

func TestEventsAPIAnswersTheURLVerificationChallenge(t *testing.T) {
	h := newHarness(t, nil, slack.ModeHTTP, nil)
	// Slack verifies the URL when the app is configured, maybe before Haven
	// runs.
	code, body := h.post(t, []byte(`{"token":"x","challenge":"3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P","type":"url_verification"}`), "application/json", secret, time.Now(), nil)
	if code != http.StatusOK || body != "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P" {
		t.Fatalf("answered %d %q, want 200 and the challenge", code, body)
	}
}

func TestEventsAPIAnswersARetriedDeliveryOnce(t *testing.T) {
	h := newHarness(t, nil, slack.ModeHTTP, nil).start(t)
	body := eventBody("Ev0ONCE", "1700000000.000200", "only once")
	if code, _ := h.post(t, body, "application/json", secret, time.Now(), nil); code != http.StatusOK {
		t.Fatalf("first delivery got %d", code)
	}
	retry := http.Header{"X-Slack-Retry-Num": {"1"}, "X-Slack-Retry-Reason": {"http_timeout"}}
	if code, _ := h.post(t, body, "application/json", secret, time.Now(), retry); code != http.StatusOK {
		t.Fatalf("the retry got %d, want 200 so that Slack stops", code)
	}
	h.marker(t)
	if in := h.sink.next(t); in.Text != "only once" {
		t.Fatalf("accepted %q", in.Text)
	}
	h.expectMarker(t)
	if st := h.a.Stats(); st.Duplicates != 1 {
		t.Errorf("Stats().Duplicates = %d, want 1", st.Duplicates)
	}
}

func TestEventsAPIAsksSlackToRetryWhatItCannotTakeYet(t *testing.T) {
	h := newHarness(t, nil, slack.ModeHTTP, nil)
	body := eventBody("Ev0LATER", "1700000000.000300", "later")
	if code, _ := h.post(t, body, "application/json", secret, time.Now(), nil); code != http.StatusServiceUnavailable {
		t.Errorf("before Run: %d, want 503", code)
	}
	h.sink.failFirst = 1
	h.start(t)
	if code, _ := h.post(t, body, "application/json", secret, time.Now(), nil); code != http.StatusInternalServerError {
		t.Errorf("refused by the hub: %d, want 500", code)
	}
	retry := http.Header{"X-Slack-Retry-Num": {"1"}}
	if code, _ := h.post(t, body, "application/json", secret, time.Now(), retry); code != http.StatusOK {
		t.Errorf("the retry: %d, want 200", code)
	}
	if in := h.sink.next(t); in.Text != "later" {
		t.Fatalf("accepted %q", in.Text)
	}
	huge := make([]byte, 2<<20)
	if code, _ := h.post(t, huge, "application/json", secret, time.Now(), nil); code != http.StatusRequestEntityTooLarge {
		t.Errorf("a 2 MiB body: %d, want 413", code)
	}
	rec := httptest.NewRecorder()
	h.a.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/slack/events", nil))
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("GET: %d, want 405", rec.Code)
	}
}

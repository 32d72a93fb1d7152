package slack_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/havenbot/haven/adapters/slack"
)

// poisons are events Slack could send that slack-go cannot parse, each
// with "private words" in it, which must never reach a log.
var poisons = map[string]string{
	"text of the wrong type":    `{"type":"event_callback","team_id":"T0HAVEN","event_id":"EvP1","event":{"type":"message","channel":"D0ANA","channel_type":"im","user":"U0ANA","text":["private words"],"ts":"1.1"}}`,
	"an event type not known":   `{"type":"event_callback","team_id":"T0HAVEN","event_id":"EvP2","event":{"type":"not_a_slack_event","text":"private words"}}`,
	"a callback without event":  `{"type":"event_callback","team_id":"T0HAVEN","event_id":"EvP3","note":"private words"}`,
	"an event that is a number": `{"type":"event_callback","team_id":"T0HAVEN","event_id":"EvP4","event":7,"x":"private words"}`,
	"channel of the wrong type": `{"type":"event_callback","team_id":"T0HAVEN","event_id":"EvP5","event":{"type":"app_mention","channel":{"private":"words"},"user":"U0ANA","text":"hi","ts":"1.2"}}`,
}

func TestAPoisonEventIsSkippedCountedAndTheNextGoesOn(t *testing.T) {
	for _, mode := range []string{slack.ModeSocket, slack.ModeHTTP} {
		for name, poison := range poisons {
			t.Run(mode+" "+name, func(t *testing.T) {
				h := newHarness(t, nil, mode, nil).start(t)
				env := h.srv.InjectRaw(poison)
				h.marker(t)
				h.expectMarker(t)
				if err := h.srv.WaitDelivered(ctxT(t)); err != nil {
					t.Fatalf("the poison %s was never acked: %v", env, err)
				}
				if got := h.a.Stats().Skipped; got != 1 {
					t.Errorf("Stats().Skipped = %d, want 1", got)
				}
				if d, r := h.srv.HTTPDeliveries(); mode == slack.ModeHTTP && (d != 2 || r != 0) {
					t.Errorf("over HTTP %d deliveries answered 2xx and %d refused, want 2 and 0 (a poison is answered 200 so Slack stops)", d, r)
				}
				logs := h.logs.String()
				if !containsAll(logs, "skipped", "problem=") {
					t.Errorf("the skip is not logged with its problem:\n%s", logs)
				}
				if strings.Contains(logs, "private words") || strings.Contains(logs, "private_words") {
					t.Errorf("the log repeats the event's content:\n%s", logs)
				}
			})
		}
	}
}

func TestAFrameThatIsNotJSONDoesNotStopTheSocket(t *testing.T) {
	h := newHarness(t, nil, slack.ModeSocket, nil).start(t)
	h.srv.InjectFrame(`{"envelope_id": "e1", "type": "events_api", "payload": {private words`)
	h.srv.InjectFrame(`private words`)
	h.marker(t)
	h.expectMarker(t)
	if got := h.a.Stats().Skipped; got != 2 {
		t.Errorf("Stats().Skipped = %d, want 2", got)
	}
	if strings.Contains(h.logs.String(), "private words") {
		t.Errorf("the log repeats the frame's content:\n%s", h.logs)
	}
}

func TestAnEventsAPIBodyThatIsNotJSONIsAnswered200AndSkipped(t *testing.T) {
	h := newHarness(t, nil, slack.ModeHTTP, nil).start(t)
	for _, body := range []string{`{"type": "event_callback", private words`, ``, `[]`} {
		if code, _ := h.post(t, []byte(body), "application/json", secret, time.Now(), nil); code != http.StatusOK {
			t.Errorf("body %q: %d, want 200 (a retry would fail the same way)", body, code)
		}
	}
	if got := h.a.Stats().Skipped; got != 3 {
		t.Errorf("Stats().Skipped = %d, want 3", got)
	}
	if strings.Contains(h.logs.String(), "private words") {
		t.Errorf("the log repeats the body:\n%s", h.logs)
	}
}

package telegram_test

import (
	"strings"
	"testing"

	"github.com/havenbot/haven/adapters/telegram/telegramtest"
)

// A poison update is one the Bot API sends but tgbotapi.Update cannot
// decode. Before, getUpdates failed on the whole batch and the offset
// never moved, so polling stalled for good.
func TestAPoisonUpdateIsSkippedCountedAndPollingGoesOn(t *testing.T) {
	poisons := map[string]string{
		"text of the wrong type":    `{"message": {"message_id": 9, "date": 1, "chat": {"id": 42, "type": "private"}, "from": {"id": 42, "is_bot": false, "first_name": "Alice"}, "text": ["private words"]}}`,
		"chat id of the wrong type": `{"message": {"message_id": 9, "date": 1, "chat": {"id": "42", "type": "private"}, "text": "private words"}}`,
		"message that is a number":  `{"message": 7}`,
	}
	// Where the poison sits in one getUpdates batch of three.
	layouts := []struct {
		name  string
		texts []string // "" is the poison
	}{
		{"between two good updates", []string{"one", "", "two"}},
		{"first of the batch", []string{"", "one", "two"}},
		{"last of the batch", []string{"one", "two", ""}},
	}
	for kind, poison := range poisons {
		for _, l := range layouts {
			t.Run(kind+" "+l.name, func(t *testing.T) {
				h := newHarness(t, nil, nil)
				dm := telegramtest.PrivateChat(alice)
				var poisonID int
				for _, text := range l.texts {
					if text == "" {
						poisonID = h.srv.InjectRaw(poison)
						continue
					}
					h.srv.Inject(h.srv.NewMessage(dm, alice, text))
				}
				h.start(t) // after the injections: the three come in one batch
				for _, want := range []string{"one", "two"} {
					if in := h.sink.next(t); in.Text != want {
						t.Fatalf("accepted %q, want %q", in.Text, want)
					}
				}
				// Polling goes on past the poison.
				h.marker(t)
				h.expectMarker(t)
				if err := h.srv.WaitConfirmed(ctxT(t), poisonID+1); err != nil {
					t.Fatalf("the poison update %d was never confirmed: %v", poisonID, err)
				}
				if got := h.a.Stats().Skipped; got != 1 {
					t.Errorf("Stats().Skipped = %d, want 1", got)
				}
				logs := h.logs.String()
				if !containsAll(logs, "skipped an update that does not decode", "update_id=", "problem=") {
					t.Errorf("the skip is not logged with its id and problem:\n%s", logs)
				}
				if strings.Contains(logs, "private words") {
					t.Error("the log repeats the update's content")
				}
				if n := len(h.sleeps.waits()); n != 0 {
					t.Errorf("the adapter backed off %d times, as if getUpdates had failed", n)
				}
			})
		}
	}
}

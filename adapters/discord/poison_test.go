package discord_test

import (
	"strings"
	"testing"

	"github.com/havenbot/haven/adapters/discord"
)

// A poison event is one Discord sends but that does not decode. It must be
// skipped, counted and logged without its content, and never stop the
// events after it.
func TestPoisonEventsAreSkippedCountedAndTheNextOnesGoOn(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	dm := w.srv.DMChannel(w.ana.ID)
	author := `{"id":"` + w.ana.ID + `","username":"ana"}`
	poisons := []struct {
		name, t, raw string
	}{
		{"content of the wrong type", "MESSAGE_CREATE", `{"id":"9","channel_id":"` + dm + `","author":` + author + `,"content":["private words"]}`},
		{"a message that is a number", "MESSAGE_CREATE", `7`},
		{"a message without an id", "MESSAGE_CREATE", `{"channel_id":"` + dm + `","author":` + author + `,"content":"private words"}`},
		{"an edit with a timestamp that is not one", "MESSAGE_UPDATE", `{"id":"9","channel_id":"` + dm + `","author":` + author + `,"content":"private words","edited_timestamp":"yesterday"}`},
		{"a command without its data", "INTERACTION_CREATE", `{"id":"5","type":2,"token":"t","channel_id":"` + dm + `","user":` + author + `,"data":7}`},
		{"a guild whose roles are a string", "GUILD_CREATE", `{"id":"77","roles":"private words"}`},
	}
	r := run(t, w, discord.Options{})
	for _, p := range poisons {
		t.Run(p.name, func(t *testing.T) {
			before := r.a.Stats().Skipped
			w.srv.DispatchRaw(p.t, p.raw)
			w.dm(w.ana, "marker "+p.name)
			if in := r.sink.next(t); in.Text != "marker "+p.name {
				t.Fatalf("accepted %q, want the marker", in.Text)
			}
			if got := r.a.Stats().Skipped; got != before+1 {
				t.Errorf("Stats().Skipped went from %d to %d, want one more", before, got)
			}
		})
	}
	logs := r.logs.String()
	if n := strings.Count(logs, "skipped an"); n != len(poisons) || !strings.Contains(logs, "problem=") {
		t.Errorf("%d skips logged with their problem, want %d:\n%s", n, len(poisons), logs)
	}
	if strings.Contains(logs, "private words") {
		t.Error("the log repeats an event's content")
	}
}

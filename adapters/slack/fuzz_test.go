package slack

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/slack-go/slack/slackevents"

	"github.com/havenbot/haven/adapters/internal/recent"
	"github.com/havenbot/haven/adapters/slack/slacktest"
	"github.com/havenbot/haven/channels"
)

// texts are message texts from the receive tests, the seeds of the fuzz
// targets below.
var texts = []string{
	"<@UBOT> can you help?", "hey <@UBOT>, how are you", "thanks <@UBOT>!", "<@UBOT|haven> hi",
	"ask <@U0ANA> about it", "see <#C0GENERAL|general>", "<!here> <!subteam^S1|@x>", "<https://a.b/c?d=1&amp;e|x>",
	"1 &lt; 2 &amp;&amp; 3 &gt; 2", "an open < bracket", "<@UBOT", "<>", "<|>", "&amp", "\xff<@UBOT>\xfe",
	"👩\u200d💻 <@UBOT>: 🇫🇷 x", "<@UBOT><@UBOT>!", "```go\nx := <b>\n```",
}

// FuzzRenderText feeds renderText any text. It must not panic; its output
// is trimmed, valid UTF-8 when the input is, and says the bot was
// mentioned exactly when the text holds <@UBOT> or <@UBOT|...>; a text
// without < and & only loses its outer space.
func FuzzRenderText(f *testing.F) {
	for _, s := range texts {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		out, mentioned := renderText(text, "UBOT", func(id string) string { return "Name" })
		if utf8.ValidString(text) && !utf8.ValidString(out) {
			t.Fatalf("renderText(%q) = %q: not valid UTF-8", text, out)
		}
		if out != strings.TrimSpace(out) {
			t.Fatalf("renderText(%q) = %q: not trimmed", text, out)
		}
		if !strings.ContainsAny(text, "<&") && out != strings.TrimSpace(text) {
			t.Fatalf("renderText(%q) = %q, though the text has no markup", text, out)
		}
		if mentioned && !strings.Contains(text, "<@UBOT>") && !strings.Contains(text, "<@UBOT|") {
			t.Fatalf("renderText(%q) says the bot was mentioned", text)
		}
	})
}

// FuzzRenderMrkdwn: whatever Haven says, the rendered text holds no raw
// <, > or &, and decoding Slack's escapes gives the text back (but for a
// fence's language tag).
func FuzzRenderMrkdwn(f *testing.F) {
	for _, s := range texts {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		out := renderMrkdwn(text)
		stripped := strings.NewReplacer("&amp;", "", "&lt;", "", "&gt;", "").Replace(out)
		if strings.ContainsAny(stripped, "<>&") {
			t.Fatalf("renderMrkdwn(%q) = %q: unescaped markup", text, out)
		}
		if back := slacktest.Unescape(out); back != fenceRE.ReplaceAllString(text, "```\n") {
			t.Fatalf("renderMrkdwn(%q) decodes to %q", text, back)
		}
	})
}

// FuzzNormalizeEvent feeds the event path any Events API body, as the
// HTTP handler and the Socket Mode client parse it. It must not panic, and
// what it delivers is a well-formed Inbound.
func FuzzNormalizeEvent(f *testing.F) {
	srv := slacktest.NewServer()
	f.Cleanup(srv.Close)
	srv.AddUser(slacktest.User{ID: "U0ANA", Name: "ana", TZ: "Europe/Paris", Locale: "fr-FR"})
	a, err := New(Options{BotToken: srv.BotToken(), AppToken: srv.AppToken(), APIURL: srv.APIURL(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		f.Fatal(err)
	}
	a.me.Store(&self{team: srv.Team(), user: "UBOT", botID: "BBOT", name: "haven"})
	for i, text := range texts {
		inner := map[string]any{"type": "message", "channel": "C1", "channel_type": "channel", "user": "U0ANA", "text": text, "ts": "1.1"}
		switch i % 4 {
		case 1:
			inner["type"], inner["channel_type"] = "app_mention", nil
		case 2:
			inner["channel"], inner["channel_type"] = "D1", "im"
		case 3:
			inner["thread_ts"], inner["parent_user_id"] = "0.5", "UBOT"
		}
		b, _ := json.Marshal(map[string]any{"type": "event_callback", "team_id": "T1", "event_id": "Ev1", "event": inner})
		f.Add(b)
	}
	f.Add([]byte(`{"type":"event_callback","event":{"type":"message","subtype":"message_changed","message":{"text":"x","edited":{}}}}`))
	f.Add([]byte(`{"type":"event_callback","event":{"type":"message","channel":"C\u0000","user":"U\xff","ts":"","text":"<@UBOT>"}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		ev, err := slackevents.ParseEvent(body, slackevents.OptionNoVerifyToken())
		if err != nil {
			return
		}
		a.events = recent.New(8) // every input is new
		n, _ := a.fromEvent(context.Background(), ev)
		switch n.outcome {
		case ignore:
			if n.reason == "" {
				t.Fatal("ignored without a reason")
			}
		case deliver:
			in := n.in
			for _, id := range []string{in.Conversation.ID, in.MessageID, in.DeliveryKey, in.Author.ID} {
				if p, _, local, ok := channels.SplitID(id); !ok || p != Platform || local == "" {
					t.Fatalf("id %q is not a namespaced slack id", id)
				}
			}
			if in.Conversation.Kind == channels.KindDM && !in.MentionsBot {
				t.Fatal("a DM does not count as addressed to Haven")
			}
			if !utf8.ValidString(in.Text) && utf8.Valid(body) || in.Text != strings.TrimSpace(in.Text) {
				t.Fatalf("text %q is not trimmed valid UTF-8", in.Text)
			}
		default:
			t.Fatalf("unknown outcome %d", n.outcome)
		}
	})
}

// FuzzChoiceActionID checks the action_id of Haven's buttons: bound to
// any Slack user id or to no one, it is within Slack's 255 characters and
// reads back as the same person; and any action_id read back names no one
// or a user id.
func FuzzChoiceActionID(f *testing.F) {
	for _, s := range []struct {
		i     int
		owner string
	}{{0, ""}, {1, "U0ANA"}, {4, "W0123456789ABCDEFGH"}, {0, "ana"}, {2, "U_for_U1"}, {0, "haven_choice_0_for_U1"}, {3, "U"}} {
		f.Add(s.i, s.owner)
	}
	f.Fuzz(func(t *testing.T, i int, person string) {
		if got, ok := parseChoiceActionID(person); ok && got != "" && !isUserID(got) {
			t.Fatalf("action_id %q read as for %q, not a user id", person, got)
		}
		if i < 0 || i >= channels.MaxChoices {
			return
		}
		choicesFor := ""
		if person != "" {
			choicesFor = "slack:T1:" + person
		}
		owner, named := choiceOwner(choicesFor)
		if !named {
			if isUserID(person) && len(person) <= maxUserID {
				t.Fatalf("user id %q not taken as a person", person)
			}
			return
		}
		id := choiceActionID(i, owner)
		if got, ok := parseChoiceActionID(id); !ok || got != person || len(id) > 255 {
			t.Fatalf("action_id %q (%d characters) reads back as for %q (%v), want %q within 255", id, len(id), got, ok, person)
		}
	})
}

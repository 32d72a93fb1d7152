package discord

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/havenbot/haven/channels"

	"github.com/havenbot/haven/adapters/discord/discordtest"
)

const (
	fuzzMe   = "100001"
	fuzzRole = "700"
)

// renderTexts are message contents from the receive tests and worse, the
// seeds of the fuzz targets below.
var renderTexts = []string{
	"  I had a rough day  ", "<@100001> can you help?", "<@!100001>, how are you", "thanks <@&700>!",
	"<@100001> <@42> said <#300> is quiet <:wave:123456>", "so <@100001> what", "<@100001>", "</haven:1> please",
	"<a:dance:99> <@&1> <#1> <@1> <@", "<@100001><@100001>\n<@100001>: hi", "😀🎉 <@100001> listen", "@everyone <@100001>",
	"<@100001>\u200b!", "\xff<@100001>\xfe", "<@123456789012345678901234>", "<:a:1><:b:2>",
}

// FuzzRender feeds the mention renderer any text. It must not panic; its
// text is valid UTF-8 when the input is, and trimmed; without "<" the
// text only loses its outer space; and Haven counts as mentioned only
// when the text names its id or role.
func FuzzRender(f *testing.F) {
	for _, s := range renderTexts {
		f.Add(s)
	}
	r := resolver{
		me:          fuzzMe,
		mentions:    []*discordgo.User{{ID: "42", Username: "ben", GlobalName: "Ben"}},
		botRoles:    map[string]bool{fuzzRole: true},
		roleNames:   map[string]string{"1": "Moderators"},
		channelName: func(id string) string { return map[string]string{"300": "general"}[id] },
	}
	f.Fuzz(func(t *testing.T, text string) {
		out, mentioned := r.render(text)
		if utf8.ValidString(text) && !utf8.ValidString(out) {
			t.Fatalf("render(%q) = %q: not valid UTF-8", text, out)
		}
		if out != strings.TrimSpace(out) {
			t.Fatalf("render(%q) = %q: not trimmed", text, out)
		}
		if !strings.Contains(text, "<") && out != strings.TrimSpace(text) {
			t.Fatalf("render(%q) = %q, though it holds no mention", text, out)
		}
		if mentioned && !strings.Contains(text, fuzzMe) && !strings.Contains(text, fuzzRole) {
			t.Fatalf("render(%q) says Haven was mentioned", text)
		}
	})
}

// FuzzNormalizeMessage feeds the normalizer any MESSAGE_CREATE or
// MESSAGE_UPDATE body, as the gateway delivers it. It must not panic, and
// what it delivers is a well-formed Inbound.
func FuzzNormalizeMessage(f *testing.F) {
	srv := discordtest.NewServer("fuzz-token", discordtest.WithBot(fuzzMe, "Haven"))
	f.Cleanup(srv.Close)
	g := srv.AddGuild("G")
	ch := srv.AddChannel(g, "general", discordgo.ChannelTypeGuildText)
	th := srv.AddThread(ch, "thread", true)
	ana := srv.AddUser("Ana")
	srv.AddMember(g, ana.ID)
	a, err := New(Options{Token: "fuzz-token", APIURL: srv.APIURL(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		f.Fatal(err)
	}
	a.self.Store(&discordgo.User{ID: fuzzMe, Bot: true})
	// What GUILD_CREATE would have told it.
	gj, _ := json.Marshal(map[string]any{"id": g, "owner_id": "1", "roles": []any{
		map[string]any{"id": g, "permissions": "0"}, map[string]any{"id": fuzzRole, "permissions": "8", "tags": map[string]string{"bot_id": fuzzMe}},
	}, "channels": []any{map[string]any{"id": ch, "type": 0, "name": "general"}}, "threads": []any{map[string]any{"id": th, "type": 11, "parent_id": ch}}})
	if err := a.world.apply("GUILD_CREATE", gj, fuzzMe); err != nil {
		f.Fatal(err)
	}
	for i, text := range renderTexts {
		channel := []string{ch, th, srv.DMChannel(ana.ID)}[i%3]
		m := srv.NewMessage(channel, ana.ID, text)
		b, _ := json.Marshal(m)
		f.Add(string(b), i%2 == 0)
	}
	for _, raw := range []string{
		`{}`, `null`, `7`, `{"id":"1","channel_id":"2"}`, `{"id":"1","channel_id":"2","author":null,"content":"x"}`,
		`{"id":"1","channel_id":"` + ch + `","guild_id":"` + g + `","author":{"id":"5"},"content":"/pause","member":{"roles":["` + fuzzRole + `"]}}`,
		`{"id":"1","channel_id":"` + th + `","guild_id":"` + g + `","author":{"id":"5"},"content":"","referenced_message":{"author":{"id":"` + fuzzMe + `"}}}`,
		`{"id":"1","channel_id":"` + ch + `","guild_id":"` + g + `","author":{"id":"5"},"content":"","attachments":[{"id":"1","content_type":"image/gif"}],"mentions":[{"id":"` + fuzzMe + `"}]}`,
		`{"id":"1","channel_id":"2","author":{"id":"5"},"content":"\u0000\ud800 hi","type":19}`,
	} {
		f.Add(raw, false)
	}
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, raw string, edit bool) {
		ev := gwEvent{t: "MESSAGE_CREATE", raw: json.RawMessage(raw)}
		if edit {
			ev.t = "MESSAGE_UPDATE"
		}
		n := a.normalize(ctx, ev)
		if n.outcome != deliver {
			return
		}
		in := n.in
		switch {
		case !strings.HasPrefix(in.DeliveryKey, "discord::"), !strings.HasPrefix(in.MessageID, "discord::"),
			!strings.HasPrefix(in.Conversation.ID, "discord::"), !strings.HasPrefix(in.Author.ID, "discord::"):
			t.Fatalf("ids not namespaced: %+v", in)
		case in.Author.IsBot, in.Author.ID == "discord::"+fuzzMe:
			t.Fatalf("delivered a bot's message: %+v", in)
		case in.Edited != edit:
			t.Fatalf("Edited = %v for an edit %v", in.Edited, edit)
		case in.Text != strings.TrimSpace(in.Text):
			t.Fatalf("text %q not trimmed", in.Text)
		case in.Conversation.Kind == "":
			t.Fatalf("no conversation kind: %+v", in)
		}
		var m struct {
			Content string `json:"content"`
		}
		if json.Unmarshal([]byte(raw), &m) == nil && utf8.ValidString(m.Content) && !utf8.ValidString(in.Text) {
			t.Fatalf("text %q is not valid UTF-8", in.Text)
		}
	})
}

// FuzzChoiceButtons checks that every choice the Hub lets through is a
// button Discord takes (label of 1-80 characters, custom_id of at most
// 100), bound to the person named when one is, whose press says the
// choice's Text again for that person, and that any custom_id read back
// is a text a choice may hold, for anyone or for a Discord user id.
func FuzzChoiceButtons(f *testing.F) {
	for _, s := range [][3]string{{"Yes", "yes", ""}, {"No", "no", ""}, {"", "x", ""}, {"Später", "später", ""}, {"a", "haven:choice:x", ""},
		{"ok", "y\nes", ""}, {"Yes", "yes", "123456789012345678"}, {"No", strings.Repeat("n", channels.MaxChoiceText), "18446744073709551615"},
		{"a", "haven:for:1:yes", ""}, {"a", "haven:for::yes", ""}, {"a", "haven:for:12a:yes", ""}, {"Yes", "yes", "12a"},
		{"Yes", "a:b", "7"}, {"Yes", "yes", "123456789012345678901"}} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, label, text, person string) {
		cs := []channels.Choice{{Label: label, Text: text}}
		choicesFor := ""
		if person != "" {
			choicesFor = "discord::" + person
		}
		rows := choiceComponents(cs, choicesFor)
		owner, named := choiceOwner(choicesFor)
		got, gotOwner, readable := choiceText(customID(owner, text))
		readable = named && readable && got == text && gotOwner == owner
		switch {
		case !channels.ChoicesFit(cs) || !readable:
			if rows != nil {
				t.Fatalf("buttons for a choice that does not fit, is for no Discord user or would not read back: %+v", rows)
			}
		case rows == nil:
			t.Fatalf("no buttons for a choice that fits: %q %q for %q", label, text, person)
		default:
			b := rows[0].(discordgo.ActionsRow).Components[0].(discordgo.Button)
			if n := utf8.RuneCountInString(b.CustomID); n > 100 || utf8.RuneCountInString(b.Label) > 80 || b.Label == "" {
				t.Fatalf("button %+v is over Discord's limits (custom_id of %d)", b, n)
			}
			if got, o, ok := choiceText(b.CustomID); !ok || got != text || o != person {
				t.Fatalf("custom_id %q reads back as %q for %q (%v), want %q for %q", b.CustomID, got, o, ok, text, person)
			}
		}
		if got, o, ok := choiceText(text); ok && (got == "" || len(got) > channels.MaxChoiceText || !utf8.ValidString(got) ||
			(o != "" && !isSnowflake(o))) {
			t.Fatalf("custom_id %q read as text %q for %q", text, got, o)
		}
	})
}

package telegram

import (
	"context"
	"encoding/json"
	"log/slog"
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/havenbot/haven/adapters/telegram/telegramtest"
	"github.com/havenbot/haven/channels"
)

// testToken is the fake Bot API's token.
const testToken = "123456:fuzz-token-abcdefghijklmnopqrstuvwxyz"

// mentionTexts are message texts from the receive tests, the seeds of the
// fuzz targets below.
var mentionTexts = []string{
	"  I had a rough day  ", "@HavenTestBot can you help?", "hey @HavenTestBot, how are you",
	"thanks @haventestbot!", "😀🎉 @HavenTestBot listen", "@alice_l look at this", "Haven what now",
	"/help@HavenTestBot", "/whoami", "/start@OtherBot now", "so @HavenTestBot what", "@HavenTestBot",
	"👩\u200d💻 @HavenTestBot: 🇫🇷 /help@HavenTestBot x",
}

// FuzzMentionOf feeds mentionOf any text with any entities: the entities
// Telegram would attach (telegramtest.Entities, offsets in UTF-16 units)
// and two more with arbitrary offsets, lengths and types. It must not
// panic; its text is valid UTF-8 when the input is, and trimmed; and when
// nothing addresses the bot the text only loses its outer space.
func FuzzMentionOf(f *testing.F) {
	for i, s := range mentionTexts {
		f.Add(s, i, 13, -i, i+1, uint8(i))
	}
	f.Add("a", 1, int(^uint(0)>>1), 0, 0, uint8(0)) // offset+length overflows
	me := &tgbotapi.User{ID: 7, IsBot: true, UserName: "HavenTestBot"}
	types := []string{"mention", "text_mention", "bot_command", "bold"}
	f.Fuzz(func(t *testing.T, text string, off1, len1, off2, len2 int, kinds uint8) {
		ents := telegramtest.Entities(text)
		for i, e := range []tgbotapi.MessageEntity{{Offset: off1, Length: len1}, {Offset: off2, Length: len2}} {
			e.Type = types[int(kinds>>(2*i))%len(types)]
			if kinds&0x10 != 0 {
				e.User = me
			}
			ents = append(ents, e)
		}
		res := mentionOf(text, ents, me)
		if utf8.ValidString(text) && !utf8.ValidString(res.text) {
			t.Fatalf("mentionOf(%q) = %q: not valid UTF-8", text, res.text)
		}
		if res.text != strings.TrimSpace(res.text) {
			t.Fatalf("mentionOf(%q) = %q: not trimmed", text, res.text)
		}
		if !res.mentioned && !res.otherBot && res.text != strings.TrimSpace(text) {
			t.Fatalf("mentionOf(%q) = %q, though nothing addressed the bot", text, res.text)
		}
		if n, m := len(utf16.Encode([]rune(res.text))), len(utf16.Encode([]rune(text))); n > m {
			t.Fatalf("mentionOf(%q) = %q: longer than the text", text, res.text)
		}
	})
}

// FuzzNormalize feeds normalize any update body (messages and button
// presses), as the webhook and the
// poll loop decode it from Telegram's JSON. It must not panic, and what it
// delivers is a well-formed Inbound.
func FuzzNormalize(f *testing.F) {
	srv := telegramtest.NewServer(testToken)
	f.Cleanup(srv.Close)
	a, err := New(Options{Token: testToken, APIEndpoint: srv.APIEndpoint(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		f.Fatal(err)
	}
	me := srv.Bot()
	alice := tgbotapi.User{ID: 42, FirstName: "Alice", UserName: "alice_l", LanguageCode: "en"}
	group := telegramtest.SupergroupChat(-1001234, "Friends")
	bot := srv.NewMessage(group, me, "How are you feeling today?")
	seed := func(u tgbotapi.Update) {
		b, err := json.Marshal(u)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for i, text := range mentionTexts {
		chat := group
		if i%3 == 0 {
			chat = telegramtest.PrivateChat(alice)
		}
		seed(tgbotapi.Update{UpdateID: i + 1, Message: srv.NewMessage(chat, alice, text)})
	}
	seed(tgbotapi.Update{UpdateID: 100, Message: srv.NewReply(group, alice, "not great honestly", bot)})
	seed(tgbotapi.Update{UpdateID: 101, EditedMessage: telegramtest.Edited(srv.NewMessage(group, alice, "@HavenTestBot hi"), "@HavenTestBot hello")})
	seed(tgbotapi.Update{UpdateID: 102, Message: srv.NewPhoto(group, alice, "@HavenTestBot this is my dog")})
	seed(tgbotapi.Update{UpdateID: 103, Message: srv.NewSticker(group, alice)})
	seed(tgbotapi.Update{UpdateID: 104, CallbackQuery: &tgbotapi.CallbackQuery{ID: "5", From: &alice, Message: bot, Data: "hv1:yes"}})
	seed(tgbotapi.Update{UpdateID: 105, CallbackQuery: &tgbotapi.CallbackQuery{ID: "6", From: &alice, Message: bot, Data: "hv1: no "}})
	seed(tgbotapi.Update{UpdateID: 106, CallbackQuery: &tgbotapi.CallbackQuery{ID: "7", From: &alice, Data: "other"}})
	for i, data := range []string{"hv2:42:yes", "hv2:43:no", "hv2:042:yes", "hv2::yes", "hv2:-42:yes", "hv2:42:", "hv2:42",
		"hv2:9223372036854775807:" + strings.Repeat("y", channels.MaxChoiceText), "hv2:9223372036854775808:yes"} {
		seed(tgbotapi.Update{UpdateID: 107 + i, CallbackQuery: &tgbotapi.CallbackQuery{ID: strconv.Itoa(8 + i), From: &alice, Message: bot, Data: data}})
	}
	f.Add([]byte(`{"update_id":1,"message":{"message_id":1,"chat":{"id":1,"type":"private"},"from":{"id":2},"text":"a","entities":[{"type":"mention","offset":1,"length":9223372036854775807}]}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		var u tgbotapi.Update
		if json.Unmarshal(body, &u) != nil {
			return
		}
		n := a.normalize(context.Background(), u, &me)
		switch n.outcome {
		case ignore:
			if n.reason == "" {
				t.Fatal("ignored without a reason")
			}
		case skip:
			if n.reason == "" || n.press == nil {
				t.Fatalf("skipped without a reason or a press: %+v", n)
			}
			if _, owner, ok := choiceText(n.press.Data); n.answer != "" && (!ok || owner == 0 || owner == n.press.From.ID) {
				t.Fatalf("press by its owner or on unbound buttons refused: %+v", n.press)
			}
		case media:
			if n.msg == nil || n.kind == "" {
				t.Fatalf("media without a message or a kind: %+v", n)
			}
		case deliver:
			in := n.in
			for _, id := range []string{in.Conversation.ID, in.MessageID, in.DeliveryKey, in.Author.ID} {
				if p, _, local, ok := channels.SplitID(id); !ok || p != Platform || local == "" {
					t.Fatalf("id %q is not a namespaced telegram id", id)
				}
			}
			if in.Platform != Platform || (in.Conversation.Kind != channels.KindDM && in.Conversation.Kind != channels.KindGroup) {
				t.Fatalf("delivered %+v", in)
			}
			if in.Conversation.Kind == channels.KindDM && !in.MentionsBot {
				t.Fatal("a private message does not count as addressed to Haven")
			}
			if !utf8.ValidString(in.Text) || in.Text != strings.TrimSpace(in.Text) {
				t.Fatalf("text %q is not trimmed valid UTF-8", in.Text)
			}
			if u.CallbackQuery != nil {
				if _, owner, _ := choiceText(u.CallbackQuery.Data); owner != 0 && in.Author.ID != userID(owner) {
					t.Fatalf("a press of %s's buttons delivered as %s's", userID(owner), in.Author.ID)
				}
			}
		default:
			t.Fatalf("unknown outcome %d", n.outcome)
		}
	})
}

// FuzzCallbackData checks the arithmetic of a button's callback data: for
// every choice that fits channels.ChoicesFit, bound to any Telegram user
// id or to no one, the data is 1-64 bytes (Telegram's limit) and reads
// back as the same Text (trimmed, as a press says it) for the same person.
func FuzzCallbackData(f *testing.F) {
	for _, s := range []struct {
		text  string
		owner int64
	}{{"yes", 0}, {"no", 42}, {strings.Repeat("é", channels.MaxChoiceText/2), math.MaxInt64}, {"a:b", 7}, {" y ", 1}, {"hv1:x", 0}} {
		f.Add(s.text, s.owner)
	}
	f.Fuzz(func(t *testing.T, text string, owner int64) {
		if !channels.ChoicesFit([]channels.Choice{{Label: "L", Text: text}}) || owner < 0 {
			return
		}
		data := callbackData(owner, text)
		if len(data) < 1 || len(data) > telegramtest.MaxCallbackData {
			t.Fatalf("callback data %q is %d bytes, over Telegram's %d", data, len(data), telegramtest.MaxCallbackData)
		}
		got, o, ok := choiceText(data)
		want := strings.TrimSpace(text)
		if want == "" || !utf8.ValidString(text) {
			if ok {
				t.Fatalf("data %q read as %q, want it refused", data, got)
			}
			return
		}
		if !ok || got != want || o != owner {
			t.Fatalf("data %q reads back as %q for %d (%v), want %q for %d", data, got, o, ok, want, owner)
		}
	})
}

package telegram_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/havenbot/haven/adapters/telegram"
	"github.com/havenbot/haven/adapters/telegram/telegramtest"
	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/channels/channelstest"
)

var (
	dmConv    = channels.Conversation{ID: "telegram::42", Kind: channels.KindDM}
	groupConv = channels.Conversation{ID: "telegram::-1001234", Kind: channels.KindGroup}
)

func TestRenderHTMLEscapesEverythingItDidNotAdd(t *testing.T) {
	cases := []struct{ in, want string }{
		{"<script>alert('x')</script>", "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"},
		{"Tom & Jerry <b>bold</b>", "Tom &amp; Jerry &lt;b&gt;bold&lt;/b&gt;"},
		{`say "hi"`, "say &#34;hi&#34;"},
		{"run `ls <dir>` now", "run <code>ls &lt;dir&gt;</code> now"},
		{"```go\nfmt.Println(\"<x>\")\n```", "<pre><code class=\"language-go\">fmt.Println(&#34;&lt;x&gt;&#34;)\n</code></pre>"},
		{"```x = 1```", "<pre>x = 1</pre>"},
		{"an unclosed ` stays", "an unclosed ` stays"},
		{"- one\n- two", "- one\n- two"},
	}
	for _, c := range cases {
		if got := telegram.RenderHTML(c.in); got != c.want {
			t.Errorf("RenderHTML(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestSendDeliversEscapedHTML(t *testing.T) {
	h := newHarness(t, nil, nil)
	h.srv.StartPrivate(alice)
	text := "<script>alert('x')</script> & <b>not bold</b> `code`"
	if err := h.a.Send(ctxT(t), channels.Outbound{Platform: "telegram", Conversation: dmConv, Kind: channels.OutReply, Text: text}); err != nil {
		t.Fatal(err)
	}
	s := h.srv.Sent()[0]
	if s.ParseMode != "HTML" || s.ChatID != alice.ID {
		t.Errorf("sent %+v, want HTML to chat 42", s)
	}
	if want := "<script>alert('x')</script> & <b>not bold</b> code"; s.Plain != want {
		t.Errorf("person sees %q, want %q (the tags as literal text)", s.Plain, want)
	}
}

func TestSendRepliesInGroupsOnly(t *testing.T) {
	h := newHarness(t, nil, nil)
	asked := h.srv.NewMessage(group, alice, "@HavenTestBot hi")
	h.srv.Inject(asked)
	dmAsked := h.srv.NewMessage(telegramtest.PrivateChat(alice), alice, "hi")
	h.srv.Inject(dmAsked)
	cases := []struct {
		name    string
		out     channels.Outbound
		chat    int64
		replyTo int
	}{
		{"a group reply quotes the message that asked",
			channels.Outbound{Conversation: groupConv, ReplyTo: fmt.Sprintf("telegram::%d:%d", group.ID, asked.MessageID), Text: "hello"},
			group.ID, asked.MessageID},
		{"a DM reply does not quote",
			channels.Outbound{Conversation: dmConv, ReplyTo: fmt.Sprintf("telegram::42:%d", dmAsked.MessageID), Text: "hello"},
			alice.ID, 0},
		{"a reply to a deleted message is still sent",
			channels.Outbound{Conversation: groupConv, ReplyTo: fmt.Sprintf("telegram::%d:99999", group.ID), Text: "hello"},
			group.ID, 0},
		{"a private note to a group member goes to their DM",
			channels.Outbound{Conversation: groupConv, Private: true, Recipient: "telegram::42", ReplyTo: fmt.Sprintf("telegram::%d:%d", group.ID, asked.MessageID), Kind: channels.OutCrisis, Text: "details"},
			alice.ID, 0},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := h.a.Send(ctxT(t), c.out); err != nil {
				t.Fatal(err)
			}
			s := h.srv.Sent()[i]
			if s.ChatID != c.chat || s.ReplyTo != c.replyTo {
				t.Errorf("sent to chat %d replying to %d, want chat %d replying to %d", s.ChatID, s.ReplyTo, c.chat, c.replyTo)
			}
		})
	}
}

func TestPrivateMessageToAPersonWhoNeverStartedTheBotIsPermanentErrCannotDM(t *testing.T) {
	h := newHarness(t, nil, nil)
	h.srv.AddChat(group)
	out := channels.Outbound{Conversation: groupConv, Private: true, Recipient: "telegram::77", Kind: channels.OutCrisis, Text: "details"}
	err := h.a.Send(ctxT(t), out)
	if !channels.IsPermanent(err) || !errors.Is(err, telegram.ErrCannotDM) {
		t.Fatalf("Send = %v, want a permanent error wrapping ErrCannotDM", err)
	}
	if n := len(h.srv.Sent()); n != 0 {
		t.Errorf("%d messages sent", n)
	}
}

func TestSendErrorsMapToSendError(t *testing.T) {
	cases := []struct {
		name       string
		fail       telegramtest.Failure
		permanent  bool
		retryAfter time.Duration
	}{
		{"429 carries retry_after", telegramtest.Failure{Status: http.StatusTooManyRequests, RetryAfter: 5 * time.Second}, false, 5 * time.Second},
		{"500 is transient", telegramtest.Failure{Status: http.StatusInternalServerError}, false, 0},
		{"502 from a proxy is transient", telegramtest.Failure{Status: http.StatusBadGateway, Body: "<html>bad gateway</html>"}, false, 0},
		{"400 is permanent", telegramtest.Failure{Status: http.StatusBadRequest}, true, 0},
		{"403 (blocked) is permanent", telegramtest.Failure{Status: http.StatusForbidden}, true, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, nil, nil)
			h.srv.StartPrivate(alice)
			h.srv.FailNextWith("sendMessage", c.fail)
			err := h.a.Send(ctxT(t), channels.Outbound{Conversation: dmConv, Text: "hi"})
			var se *channels.SendError
			if !errors.As(err, &se) {
				t.Fatalf("Send = %v, want a *channels.SendError", err)
			}
			if se.Permanent != c.permanent || se.RetryAfter != c.retryAfter || se.Global {
				t.Errorf("SendError permanent=%v retryAfter=%s global=%v, want %v %s and not global (Telegram's 429 is per chat) (%v)",
					se.Permanent, se.RetryAfter, se.Global, c.permanent, c.retryAfter, err)
			}
			if errors.Is(err, telegram.ErrCannotDM) {
				t.Errorf("a DM failure must not claim ErrCannotDM: %v", err)
			}
		})
	}
}

func TestSendNetworkErrorIsTransientAndHidesTheToken(t *testing.T) {
	h := newHarness(t, nil, nil)
	h.srv.Close()
	err := h.a.Send(ctxT(t), channels.Outbound{Conversation: dmConv, Text: "hi"})
	if err == nil || channels.IsPermanent(err) {
		t.Fatalf("Send = %v, want a transient error", err)
	}
	if strings.Contains(err.Error(), token) {
		t.Errorf("error %q shows the token", err)
	}
}

func TestSendRejectsBadOutbound(t *testing.T) {
	h := newHarness(t, nil, nil)
	cases := []channels.Outbound{
		{Platform: "slack", Conversation: dmConv, Text: "hi"},
		{Conversation: channels.Conversation{ID: "telegram::abc", Kind: channels.KindDM}, Text: "hi"},
		{Conversation: groupConv, Private: true, Text: "no recipient"},
		{Conversation: dmConv, Text: "   "},
	}
	for _, out := range cases {
		if err := h.a.Send(ctxT(t), out); !channels.IsPermanent(err) {
			t.Errorf("Send(%+v) = %v, want a permanent error", out, err)
		}
	}
}

func TestSendDeliversUpTo4096CodePointsInOneMessage(t *testing.T) {
	h := newHarness(t, nil, nil)
	h.srv.StartPrivate(alice)
	// 4,096 code points, 8,192 UTF-16 units: Telegram counts code points.
	text := strings.Repeat("💛", 4096)
	if err := h.a.Send(ctxT(t), channels.Outbound{Conversation: dmConv, Text: text}); err != nil {
		t.Fatal(err)
	}
	if s := h.srv.Sent(); len(s) != 1 || s[0].Plain != text {
		t.Errorf("sent %d messages, want the text in one", len(s))
	}
}

func TestSendRefusesTextOverTheLimitWithoutSendingIt(t *testing.T) {
	h := newHarness(t, nil, nil)
	h.srv.StartPrivate(alice)
	err := h.a.Send(ctxT(t), channels.Outbound{Conversation: dmConv, Text: strings.Repeat("a", 4097)})
	if !channels.IsPermanent(err) || !strings.Contains(err.Error(), "4097 runes is over Telegram's 4096 runes") {
		t.Fatalf("Send = %v, want a permanent error naming the length and the limit", err)
	}
	if n := len(h.srv.Sent()); n != 0 {
		t.Errorf("%d messages sent", n)
	}
}

// TestHubSplitsAnEmojiHeavyReplyWithACodeFenceOnceForTelegram runs a reply
// of emoji-heavy lines in a code fence through the Hub, the adapter and
// the real library to the fake Bot API: every message is within Telegram's
// 4,096 code points (though over 4,096 UTF-16 units), holds whole <pre>
// blocks, and together they hold every word.
func TestHubSplitsAnEmojiHeavyReplyWithACodeFenceOnceForTelegram(t *testing.T) {
	h := newHarness(t, nil, nil)
	h.srv.StartPrivate(alice)
	var b strings.Builder
	b.WriteString("Here is a plan for tonight 🌙✨\n\n```\n")
	for i := range 400 {
		fmt.Fprintf(&b, "🌱 breathe in 🌬️ hold 💛 out 🍃 step %d\n", i)
	}
	b.WriteString("```\nTake care 💛")
	text := b.String()
	core := channels.HandlerFunc(func(ctx context.Context, in channels.Inbound) ([]channels.Outbound, error) {
		return []channels.Outbound{{Kind: channels.OutReply, Text: text}}, nil
	})
	hub := channels.NewHub(core, channelstest.NewMemInbox(), channelstest.NewMemOutbox(),
		channels.HubOptions{NoRateLimit: true, Logger: slog.New(slog.DiscardHandler)})
	hub.Register(h.a)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- hub.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	}()
	h.srv.Inject(h.srv.NewMessage(telegramtest.PrivateChat(alice), alice, "a plan please"))
	want := channels.Split(text, h.a.MessageLimit())
	if len(want) < 3 {
		t.Fatalf("the reply splits into %d messages, want several", len(want))
	}
	sent, err := h.srv.WaitSent(ctxT(t), len(want))
	if err != nil {
		t.Fatal(err)
	}
	var plain []string
	overUTF16 := false
	for i, s := range sent {
		if n := utf8.RuneCountInString(s.Plain); n > telegramtest.MaxMessageLen {
			t.Errorf("message %d has %d code points", i, n)
		}
		overUTF16 = overUTF16 || channels.UTF16.Len(s.Plain) > telegramtest.MaxMessageLen
		if strings.Contains(s.Plain, "```") {
			t.Errorf("message %d shows a fence marker: the fence was cut open", i)
		}
		if o, c := strings.Count(s.Text, "<pre>"), strings.Count(s.Text, "</pre>"); o != 1 || c != 1 {
			t.Errorf("message %d holds %d <pre> and %d </pre>, want one whole code block", i, o, c)
		}
		plain = append(plain, s.Plain)
	}
	if !overUTF16 {
		t.Error("no message is over 4,096 UTF-16 units: the test does not show that code points are counted")
	}
	if g, w := strings.Fields(strings.Join(plain, "\n")), strings.Fields(strings.ReplaceAll(text, "```", "")); !slices.Equal(g, w) {
		t.Errorf("the messages hold %d words, want the %d of the reply in order", len(g), len(w))
	}
	if n := len(h.srv.Sent()); n != len(want) {
		t.Errorf("%d messages sent, want the %d of one split", n, len(want))
	}
}

func TestGroupMigrationResendsToTheSupergroup(t *testing.T) {
	h := newHarness(t, nil, nil)
	old := telegramtest.GroupChat(-555, "Old")
	h.srv.AddChat(old)
	h.srv.AddChat(group)
	h.srv.FailNextWith("sendMessage", telegramtest.Failure{Status: http.StatusBadRequest, Description: "Bad Request: group chat was upgraded to a supergroup chat", MigrateToChatID: group.ID})
	if err := h.a.Send(ctxT(t), channels.Outbound{Conversation: channels.Conversation{ID: "telegram::-555", Kind: channels.KindGroup}, Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	if s := h.srv.Sent(); len(s) != 1 || s[0].ChatID != group.ID {
		t.Errorf("sent %+v, want one message to the supergroup", s)
	}
}

func TestTypingSendsChatAction(t *testing.T) {
	h := newHarness(t, nil, nil)
	h.srv.StartPrivate(alice)
	if err := h.a.Typing(ctxT(t), dmConv); err != nil {
		t.Fatal(err)
	}
	if got := h.srv.ChatActions(); len(got) != 1 || got[0] != (telegramtest.ChatAction{ChatID: 42, Action: "typing"}) {
		t.Errorf("chat actions = %+v", got)
	}
	h.srv.FailNext("sendChatAction", http.StatusTooManyRequests, 3*time.Second)
	if err := h.a.Typing(context.Background(), dmConv); channels.RetryAfter(err) != 3*time.Second {
		t.Errorf("Typing under 429 = %v, want retry after 3s", err)
	}
}

func TestRejectedHTMLIsResentAsPlainText(t *testing.T) {
	h := newHarness(t, nil, nil)
	h.srv.StartPrivate(alice)
	h.srv.FailNextWith("sendMessage", telegramtest.Failure{Status: http.StatusBadRequest, Description: `Bad Request: can't parse entities: Unsupported start tag "x" at byte offset 3`})
	text := "a <x> `b`"
	if err := h.a.Send(ctxT(t), channels.Outbound{Conversation: dmConv, Text: text}); err != nil {
		t.Fatal(err)
	}
	s := h.srv.Sent()
	if len(s) != 1 || s[0].ParseMode != "" || s[0].Plain != text {
		t.Errorf("sent %+v, want the text once, as plain text", s)
	}
	if strings.Contains(h.logs.String(), "<x>") {
		t.Error("the log quotes the message")
	}
}

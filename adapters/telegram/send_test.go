package telegram_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/havenbot/haven/adapters/telegram"
	"github.com/havenbot/haven/adapters/telegram/telegramtest"
	"github.com/havenbot/haven/channels"
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
			if se.Permanent != c.permanent || se.RetryAfter != c.retryAfter {
				t.Errorf("SendError permanent=%v retryAfter=%s, want %v %s (%v)", se.Permanent, se.RetryAfter, c.permanent, c.retryAfter, err)
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

func TestSendSplitsTextThatExceedsTheLimitInUTF16(t *testing.T) {
	h := newHarness(t, nil, nil)
	h.srv.StartPrivate(alice)
	// 3,000 runes fit the Hub's 4,096 but are 6,000 UTF-16 units.
	text := strings.Repeat("💛", 3000)
	if err := h.a.Send(ctxT(t), channels.Outbound{Conversation: dmConv, Text: text}); err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	for _, s := range h.srv.Sent() {
		got.WriteString(s.Plain)
	}
	if n := len(h.srv.Sent()); n != 2 || got.String() != text {
		t.Errorf("sent %d parts, joined equal = %v; want 2 parts with nothing lost", n, got.String() == text)
	}
}

func TestSplitUTF16PrefersSpaces(t *testing.T) {
	parts := telegram.SplitUTF16("aaaa bbbb cccc", 9)
	if strings.Join(parts, "|") != "aaaa bbbb|cccc" {
		t.Errorf("parts = %q", parts)
	}
	if p := telegram.SplitUTF16("short", 10); len(p) != 1 || p[0] != "short" {
		t.Errorf("parts = %q", p)
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

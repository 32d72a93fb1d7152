package slack_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/havenbot/haven/adapters/slack"
	"github.com/havenbot/haven/adapters/slack/slacktest"
	"github.com/havenbot/haven/channels"
)

// out is an Outbound in conv, kind the conversation's.
func out(conv string, kind channels.Kind, text string) channels.Outbound {
	return channels.Outbound{Platform: "slack", Conversation: channels.Conversation{ID: ns(conv), Kind: kind}, Kind: channels.OutReply, Text: text}
}

func TestSendEscapesEverythingAndThreadsChannelReplies(t *testing.T) {
	h := newHarness(t, nil, slack.ModeSocket, nil)
	text := "You & me <@U0BEN> <!channel> <https://evil.example|click> *still* `code`\n```go\nx := 1 < 2\n```"
	thread := out(general.ID, channels.KindChannel, "in the thread")
	thread.Conversation.ThreadID = "1700000000.000007"
	thread.ReplyTo = ns(general.ID + ":1700000000.000009")
	tests := []struct {
		name   string
		out    channels.Outbound
		plain  string
		thread string
	}{
		{"a DM", out(h.srv.DM(ana.ID), channels.KindDM, text), strings.Replace(text, "```go\n", "```\n", 1), ""},
		{"a reply to a channel mention", func() channels.Outbound {
			o := out(general.ID, channels.KindChannel, "answer")
			o.ReplyTo = ns(general.ID + ":1700000000.000005")
			return o
		}(), "answer", "1700000000.000005"},
		{"a reply in a thread", thread, "in the thread", "1700000000.000007"},
		{"a reply to another channel's message", func() channels.Outbound {
			o := out(general.ID, channels.KindChannel, "unthreaded")
			o.ReplyTo = ns(private.ID + ":1700000000.000005")
			return o
		}(), "unthreaded", ""},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := h.a.Send(ctxT(t), tt.out); err != nil {
				t.Fatal(err)
			}
			p := h.srv.Posts()[i]
			if p.Plain != tt.plain || p.ThreadTS != tt.thread || p.Ephemeral {
				t.Errorf("posted %q in thread %q (ephemeral %v), want %q in %q", p.Plain, p.ThreadTS, p.Ephemeral, tt.plain, tt.thread)
			}
			if strings.ContainsAny(strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(p.Text, "&amp;", ""), "&lt;", ""), "&gt;", ""), "<>&") {
				t.Errorf("sent %q: a <, > or & is not escaped", p.Text)
			}
			if p.Form.Get("unfurl_links") != "false" || p.Form.Get("unfurl_media") != "false" {
				t.Errorf("links unfurl: %v", p.Form)
			}
		})
	}
}

func TestRenderMrkdwn(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"a < b > c & d", "a &lt; b &gt; c &amp; d"},
		{"<!here> <@U1> <#C1>", "&lt;!here&gt; &lt;@U1&gt; &lt;#C1&gt;"},
		{"&amp; already", "&amp;amp; already"},
		{"```python\nprint(1)\n```", "```\nprint(1)\n```"},
		{"- one\n- two\n\n`x`", "- one\n- two\n\n`x`"},
	}
	for _, tt := range tests {
		if got := slack.RenderMrkdwn(tt.in); got != tt.want {
			t.Errorf("renderMrkdwn(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSendMapsSlackErrors(t *testing.T) {
	tests := []struct {
		name      string
		fail      slacktest.Failure
		permanent bool
		retry     time.Duration
	}{
		{"429", slacktest.Failure{Status: 429, RetryAfter: 3 * time.Second}, false, 3 * time.Second},
		{"channel_not_found", slacktest.Failure{Error: "channel_not_found"}, true, 0},
		{"not_in_channel", slacktest.Failure{Error: "not_in_channel"}, true, 0},
		{"is_archived", slacktest.Failure{Error: "is_archived"}, true, 0},
		{"internal_error", slacktest.Failure{Error: "internal_error"}, false, 0},
		{"503", slacktest.Failure{Status: http.StatusServiceUnavailable}, false, 0},
		{"400", slacktest.Failure{Status: http.StatusBadRequest}, true, 0},
	}
	h := newHarness(t, nil, slack.ModeSocket, nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h.srv.FailNext("chat.postMessage", tt.fail)
			err := h.a.Send(ctxT(t), out(h.srv.DM(ana.ID), channels.KindDM, "hello"))
			var se *channels.SendError
			if !errors.As(err, &se) {
				t.Fatalf("Send = %v, want a *channels.SendError", err)
			}
			if se.Permanent != tt.permanent || se.RetryAfter != tt.retry || se.Global {
				t.Errorf("Send = %+v, want permanent %v, retry after %s, not global", se, tt.permanent, tt.retry)
			}
		})
	}
	if err := h.a.Send(ctxT(t), out(h.srv.DM(ana.ID), channels.KindDM, strings.Repeat("😀", 1501))); !channels.IsPermanent(err) {
		t.Errorf("3,002 UTF-16 units: %v, want a permanent error (the Hub splits first)", err)
	}
	if err := h.a.Send(ctxT(t), out("D0ANA:bad", channels.KindDM, "x")); !channels.IsPermanent(err) {
		t.Errorf("a malformed conversation id: %v, want a permanent error", err)
	}
	if err := h.a.Send(ctxT(t), channels.Outbound{Platform: "telegram", Conversation: channels.Conversation{ID: "telegram::1"}, Text: "x"}); !channels.IsPermanent(err) {
		t.Errorf("another platform's outbound: %v, want a permanent error", err)
	}
}

func TestPrivateMessageInAChannelGoesToTheDMOrEphemerally(t *testing.T) {
	h := newHarness(t, nil, slack.ModeSocket, nil)
	priv := out(general.ID, channels.KindChannel, "just for you")
	priv.Private, priv.Recipient, priv.Kind = true, ns(ana.ID), channels.OutCrisis
	if err := h.a.Send(ctxT(t), priv); err != nil {
		t.Fatal(err)
	}
	if p := h.srv.Posts()[0]; p.Channel != "D0ANA" || p.Ephemeral || p.Plain != "just for you" {
		t.Errorf("posted %+v, want it in Ana's DM", p)
	}
	priv.Recipient = ns(ben.ID)
	h.srv.CannotDM(ben.ID)
	if err := h.a.Send(ctxT(t), priv); err != nil {
		t.Fatal(err)
	}
	if p := h.srv.Posts()[1]; p.Channel != general.ID || !p.Ephemeral || p.User != ben.ID {
		t.Errorf("posted %+v, want it ephemeral to Ben in #general when his DM cannot be opened", p)
	}
	h.srv.FailNext("chat.postEphemeral", slacktest.Failure{Error: "user_not_in_channel"})
	err := h.a.Send(ctxT(t), priv)
	if !errors.Is(err, slack.ErrCannotDM) || !channels.IsPermanent(err) {
		t.Errorf("neither DM nor ephemeral: %v, want a permanent error wrapping ErrCannotDM", err)
	}
	if n := len(h.srv.Posts()); n != 2 {
		t.Errorf("%d posts, want nothing shown to the channel", n)
	}
	priv.Recipient = ""
	if err := h.a.Send(ctxT(t), priv); !channels.IsPermanent(err) {
		t.Errorf("private without a recipient: %v, want a permanent error", err)
	}
}

func TestSlashCommandAnswersAreEphemeral(t *testing.T) {
	h := newHarness(t, nil, slack.ModeSocket, nil)
	answer := out(general.ID, channels.KindChannel, "Only an admin can do that.")
	answer.ReplyTo = ns(general.ID + ":cmd:" + ana.ID + ":123.456.abc")
	if err := h.a.Send(ctxT(t), answer); err != nil {
		t.Fatal(err)
	}
	if p := h.srv.Posts()[0]; !p.Ephemeral || p.User != ana.ID || p.Channel != general.ID {
		t.Errorf("posted %+v, want it ephemeral to Ana in #general", p)
	}
	// Slash commands work in channels Haven is not in: the answer goes to
	// the DM then.
	h.srv.AddChannel(slacktest.Channel{ID: "C0ELSEWHERE", Type: slacktest.TypeChannel, NotMember: true})
	answer.Conversation.ID, answer.ReplyTo = ns("C0ELSEWHERE"), ns("C0ELSEWHERE:cmd:"+ana.ID+":123.457.abc")
	if err := h.a.Send(ctxT(t), answer); err != nil {
		t.Fatal(err)
	}
	if p := h.srv.Posts()[1]; p.Channel != "D0ANA" || p.Ephemeral {
		t.Errorf("posted %+v, want it in Ana's DM", p)
	}
	dm := out("D0ANA", channels.KindDM, "in a DM")
	dm.ReplyTo = ns("D0ANA:cmd:" + ana.ID + ":123.458.abc")
	if err := h.a.Send(ctxT(t), dm); err != nil {
		t.Fatal(err)
	}
	if p := h.srv.Posts()[2]; p.Channel != "D0ANA" || p.Ephemeral {
		t.Errorf("posted %+v, want a plain message in the DM", p)
	}
}

func TestSendFileDeliversPrivatelyAndWhole(t *testing.T) {
	h := newHarness(t, nil, slack.ModeSocket, nil)
	data := []byte(`{"facts": ["likes <tea> & cake"]}`)
	f := out(general.ID, channels.KindChannel, "Here is everything I hold about you: <yours>")
	f.Private, f.Recipient = true, ns(ana.ID)
	f.File = &channels.File{Name: "haven-export.json", ContentType: "application/json", Data: data}
	if err := h.a.SendFile(ctxT(t), f); err != nil {
		t.Fatal(err)
	}
	got := h.srv.Files()[0]
	if got.Channel != "D0ANA" || string(got.Data) != string(data) || got.Name != "haven-export.json" ||
		slacktest.Unescape(got.Comment) != "Here is everything I hold about you: <yours>" || got.Comment == slacktest.Unescape(got.Comment) {
		t.Errorf("shared %+v, want the whole file in Ana's DM with the escaped caption", got)
	}
	thread := out("D0ANA", channels.KindDM, "")
	thread.Conversation.ThreadID = "1700000000.000003"
	thread.File = &channels.File{Name: "notes.txt", Data: []byte("x")}
	if err := h.a.SendFile(ctxT(t), thread); err != nil {
		t.Fatal(err)
	}
	if got := h.srv.Files()[1]; got.ThreadTS != "1700000000.000003" || got.Comment != "" {
		t.Errorf("shared %+v, want it in the DM's thread without a comment", got)
	}
	h.srv.CannotDM(ben.ID)
	f.Recipient = ns(ben.ID)
	if err := h.a.SendFile(ctxT(t), f); !errors.Is(err, slack.ErrCannotDM) || !channels.IsPermanent(err) {
		t.Errorf("a private file for someone who cannot be DMed: %v, want a permanent ErrCannotDM", err)
	}
	if n := len(h.srv.Files()); n != 2 {
		t.Errorf("%d files shared, want none shown to the channel", n)
	}
	h.srv.FailNext("files.completeUploadExternal", slacktest.Failure{Status: 429, RetryAfter: 2 * time.Second})
	if err := h.a.SendFile(ctxT(t), thread); channels.RetryAfter(err) != 2*time.Second {
		t.Errorf("a 429 on the upload: %v, want retry after 2s", err)
	}
	if err := h.a.SendFile(ctxT(t), out("D0ANA", channels.KindDM, "no file")); !channels.IsPermanent(err) {
		t.Errorf("SendFile without a file: %v, want a permanent error", err)
	}
}

func TestCheckSaysWhetherTheTokensWork(t *testing.T) {
	tests := []struct {
		name string
		edit func(*slack.Options)
		want error
		text string
	}{
		{"both work", nil, nil, ""},
		{"bot token refused", func(o *slack.Options) { o.BotToken = "xoxb-nope" }, slack.ErrBotToken, "HAVEN_SLACK_BOT_TOKEN"},
		{"app token refused", func(o *slack.Options) { o.AppToken = "xapp-nope" }, slack.ErrAppToken, "HAVEN_SLACK_APP_TOKEN"},
		{"http mode needs no app token", func(o *slack.Options) { o.AppToken, o.Mode = "", slack.ModeHTTP }, nil, ""},
		{"nothing listens", func(o *slack.Options) { o.APIURL = "http://127.0.0.1:1/api/" }, nil, "HAVEN_SLACK_API_URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, nil, slack.ModeSocket, tt.edit)
			name, err := h.a.Check(context.Background())
			switch {
			case tt.want == nil && tt.text == "":
				if err != nil || name != slacktest.DefaultBotName {
					t.Fatalf("Check = %q, %v", name, err)
				}
			case tt.want != nil && !errors.Is(err, tt.want), err == nil || !strings.Contains(err.Error(), tt.text):
				t.Fatalf("Check = %v, want %v naming %s", err, tt.want, tt.text)
			}
			if err != nil && strings.Contains(err.Error(), "nope") {
				t.Errorf("the error quotes a token: %v", err)
			}
		})
	}
}

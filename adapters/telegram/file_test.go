package telegram_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/havenbot/haven/adapters/telegram"
	"github.com/havenbot/haven/adapters/telegram/telegramtest"
	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/channels/channelstest"
)

func exportFile() *channels.File {
	return &channels.File{Name: "haven-export-2026-01-31.json", ContentType: "application/json",
		Data: []byte("{\n  \"facts\": [\"likes <tea> & cake\"]\n}")}
}

func TestSendFileUploadsTheDocumentWithAnEscapedCaption(t *testing.T) {
	h := newHarness(t, nil, nil)
	h.srv.StartPrivate(alice)
	f := exportFile()
	caption := "Here is everything I hold about you. <b>not bold</b> & `code`"
	if err := h.a.SendFile(ctxT(t), channels.Outbound{Platform: "telegram", Conversation: dmConv, Kind: channels.OutReply, Text: caption, File: f}); err != nil {
		t.Fatal(err)
	}
	docs := h.srv.Documents()
	if len(docs) != 1 {
		t.Fatalf("documents = %+v", docs)
	}
	d := docs[0]
	if d.ChatID != alice.ID || d.FileName != f.Name || !bytes.Equal(d.Data, f.Data) {
		t.Errorf("document to %d named %q with %d bytes, want chat 42, %q, the export", d.ChatID, d.FileName, len(d.Data), f.Name)
	}
	if want := "Here is everything I hold about you. <b>not bold</b> & code"; d.ParseMode != "HTML" || d.CaptionPlain != want {
		t.Errorf("caption %q (%s) seen as %q, want %q", d.Caption, d.ParseMode, d.CaptionPlain, want)
	}
	if n := len(h.srv.Sent()); n != 0 {
		t.Errorf("%d text messages sent besides the document", n)
	}
}

func TestSendFileFollowsTheDeliveryRulesOfSend(t *testing.T) {
	h := newHarness(t, nil, nil)
	h.srv.StartPrivate(alice)
	asked := h.srv.NewMessage(group, alice, "@HavenTestBot /export")
	h.srv.Inject(asked)
	long := strings.Repeat("A caption longer than Telegram allows. ", 40) // 1,560 characters
	cases := []struct {
		name        string
		out         channels.Outbound
		chat        int64
		replyTo     int
		textFirst   string // a message sent before the document
		wantCaption string
	}{
		{"a group file quotes the message that asked",
			channels.Outbound{Conversation: groupConv, ReplyTo: fmt.Sprintf("telegram::%d:%d", group.ID, asked.MessageID), Text: "for the group"},
			group.ID, asked.MessageID, "", "for the group"},
		{"a private file for a group member goes to their DM",
			channels.Outbound{Conversation: groupConv, Private: true, Recipient: "telegram::42", ReplyTo: fmt.Sprintf("telegram::%d:%d", group.ID, asked.MessageID), Text: "yours"},
			alice.ID, 0, "", "yours"},
		{"a caption over 1,024 characters goes first as a message",
			channels.Outbound{Conversation: dmConv, Text: long},
			alice.ID, 0, strings.TrimSpace(long), ""},
		{"no caption", channels.Outbound{Conversation: dmConv}, alice.ID, 0, "", ""},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sentBefore := len(h.srv.Sent())
			c.out.File = exportFile()
			if err := h.a.SendFile(ctxT(t), c.out); err != nil {
				t.Fatal(err)
			}
			d := h.srv.Documents()[i]
			if d.ChatID != c.chat || d.ReplyTo != c.replyTo || d.CaptionPlain != c.wantCaption {
				t.Errorf("document to chat %d replying to %d with caption %q, want chat %d, reply %d, caption %q",
					d.ChatID, d.ReplyTo, d.CaptionPlain, c.chat, c.replyTo, c.wantCaption)
			}
			sent := h.srv.Sent()[sentBefore:]
			var text strings.Builder
			for _, s := range sent {
				if s.ChatID != c.chat {
					t.Errorf("caption message went to chat %d", s.ChatID)
				}
				text.WriteString(s.Plain)
			}
			if strings.TrimSpace(text.String()) != c.textFirst {
				t.Errorf("sent before the document: %q, want %q", text.String(), c.textFirst)
			}
			if c.textFirst != "" && sent[len(sent)-1].Message.MessageID > d.Message.MessageID {
				t.Errorf("the caption message came after the document")
			}
		})
	}
}

func TestSendFileToAPersonWhoNeverStartedTheBotIsPermanentErrCannotDM(t *testing.T) {
	h := newHarness(t, nil, nil)
	h.srv.AddChat(group)
	err := h.a.SendFile(ctxT(t), channels.Outbound{Conversation: groupConv, Private: true, Recipient: "telegram::77", Text: "yours", File: exportFile()})
	if !channels.IsPermanent(err) || !errors.Is(err, telegram.ErrCannotDM) {
		t.Fatalf("SendFile = %v, want a permanent error wrapping ErrCannotDM", err)
	}
	if n := len(h.srv.Documents()); n != 0 {
		t.Errorf("%d documents sent", n)
	}
}

func TestSendFileErrorsMapToSendError(t *testing.T) {
	cases := []struct {
		name       string
		fail       telegramtest.Failure
		permanent  bool
		retryAfter time.Duration
	}{
		{"429 carries retry_after", telegramtest.Failure{Status: http.StatusTooManyRequests, RetryAfter: 7 * time.Second}, false, 7 * time.Second},
		{"500 is transient", telegramtest.Failure{Status: http.StatusInternalServerError}, false, 0},
		{"413 (too large) is permanent", telegramtest.Failure{Status: http.StatusRequestEntityTooLarge}, true, 0},
		{"400 is permanent", telegramtest.Failure{Status: http.StatusBadRequest}, true, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, nil, nil)
			h.srv.StartPrivate(alice)
			h.srv.FailNextWith("sendDocument", c.fail)
			err := h.a.SendFile(ctxT(t), channels.Outbound{Conversation: dmConv, Text: "x", File: exportFile()})
			var se *channels.SendError
			if !errors.As(err, &se) {
				t.Fatalf("SendFile = %v, want a *channels.SendError", err)
			}
			if se.Permanent != c.permanent || se.RetryAfter != c.retryAfter {
				t.Errorf("SendError permanent=%v retryAfter=%s, want %v %s (%v)", se.Permanent, se.RetryAfter, c.permanent, c.retryAfter, err)
			}
			if strings.Contains(err.Error(), token) {
				t.Errorf("error %q shows the token", err)
			}
		})
	}
}

func TestSendFileRejectsBadOutbound(t *testing.T) {
	h := newHarness(t, nil, nil)
	h.srv.StartPrivate(alice)
	cases := []channels.Outbound{
		{Conversation: dmConv, Text: "no file"},
		{Conversation: dmConv, File: &channels.File{Name: "empty.json"}},
		{Conversation: dmConv, File: &channels.File{Name: "../x.json", Data: []byte("{}")}},
		{Platform: "slack", Conversation: dmConv, File: exportFile()},
	}
	for _, out := range cases {
		if err := h.a.SendFile(ctxT(t), out); !channels.IsPermanent(err) {
			t.Errorf("SendFile(%+v) = %v, want a permanent error", out, err)
		}
	}
	if n := len(h.srv.Documents()); n != 0 {
		t.Errorf("%d documents sent", n)
	}
}

func TestRejectedCaptionHTMLIsResentAsPlainText(t *testing.T) {
	h := newHarness(t, nil, nil)
	h.srv.StartPrivate(alice)
	h.srv.FailNextWith("sendDocument", telegramtest.Failure{Status: http.StatusBadRequest, Description: `Bad Request: can't parse entities: Unsupported start tag "x" at byte offset 3`})
	if err := h.a.SendFile(ctxT(t), channels.Outbound{Conversation: dmConv, Text: "a <x>", File: exportFile()}); err != nil {
		t.Fatal(err)
	}
	if d := h.srv.Documents(); len(d) != 1 || d[0].ParseMode != "" || d[0].CaptionPlain != "a <x>" {
		t.Errorf("documents %+v, want the file once with a plain caption", d)
	}
}

// TestHubDeliversAnExportAsADocument runs the whole path: a person asks in a
// group, the Hub delivers the file privately through the real library.
func TestHubDeliversAnExportAsADocument(t *testing.T) {
	h := newHarness(t, nil, nil)
	h.srv.StartPrivate(alice)
	h.srv.AddChat(group)
	// Much larger than one message: a file is never split.
	big := &channels.File{Name: "haven-export-2026-01-31.json", ContentType: "application/json",
		Data: []byte("[" + strings.Repeat(`"a remembered thing",`, 20000) + `"end"]`)}
	core := channels.HandlerFunc(func(ctx context.Context, in channels.Inbound) ([]channels.Outbound, error) {
		return []channels.Outbound{
			{Kind: channels.OutReply, Private: true, Recipient: in.Author.ID, Text: "Here is everything I hold about you.", File: big},
			{Kind: channels.OutNotice, ReplyTo: in.MessageID, Text: "I've answered you privately."},
		}, nil
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
	h.srv.Inject(h.srv.NewMessage(group, alice, "@HavenTestBot /export"))
	docs, err := h.srv.WaitDocuments(ctxT(t), 1)
	if err != nil {
		t.Fatal(err)
	}
	if d := docs[0]; d.ChatID != alice.ID || !bytes.Equal(d.Data, big.Data) || d.CaptionPlain != "Here is everything I hold about you." {
		t.Errorf("document to %d with %d bytes and caption %q", d.ChatID, len(d.Data), d.CaptionPlain)
	}
	sent, err := h.srv.WaitSent(ctxT(t), 1)
	if err != nil {
		t.Fatal(err)
	}
	if sent[0].ChatID != group.ID || strings.Contains(sent[0].Plain, "remembered") {
		t.Errorf("group saw %+v", sent[0])
	}
}

package telegram_test

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/havenbot/haven/adapters/telegram/telegramtest"
	"github.com/havenbot/haven/channels"
)

// chartImage draws a w x h picture like a trend chart: grid lines, a
// shaded band with some grain and a line across it.
func chartImage(w, h int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	seed := uint32(1)
	for y := range h {
		for x := range w {
			c := color.RGBA{R: 255, G: 255, B: 255, A: 255}
			if x%40 == 0 || y%40 == 0 {
				c = color.RGBA{R: 220, G: 220, B: 220, A: 255}
			}
			if mid := h/2 + (x%80 - 40); y > mid-20 && y < mid+20 {
				seed = seed*1664525 + 1013904223
				c = color.RGBA{R: 180 + uint8(seed>>28), G: 200, B: 240 - uint8(seed>>29), A: 255}
			}
			if y == h/2+(x%80-40) {
				c = color.RGBA{R: 40, G: 120, B: 200, A: 255}
			}
			img.Set(x, y, c)
		}
	}
	return img
}

// chartFile is an 800x400 PNG chart as Haven sends it.
func chartFile(t testing.TB) *channels.File {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, chartImage(800, 400)); err != nil {
		t.Fatal(err)
	}
	return &channels.File{Name: "mood-trend.png", ContentType: "image/png", Data: b.Bytes()}
}

func jpegFile(t *testing.T) *channels.File {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, chartImage(640, 480), nil); err != nil {
		t.Fatal(err)
	}
	return &channels.File{Name: "photo.jpg", ContentType: "image/jpeg", Data: b.Bytes()}
}

func TestSendFileShowsAPNGOrJPEGAsAPhotoWithItsCaption(t *testing.T) {
	h := newHarness(t, nil, nil)
	h.srv.StartPrivate(alice)
	h.srv.AddChat(group)
	asked := h.srv.NewMessage(group, alice, "@HavenTestBot /mood")
	h.srv.Inject(asked)
	long := strings.Repeat("A caption longer than Telegram allows. ", 40) // 1,560 characters
	cases := []struct {
		name        string
		file        *channels.File
		out         channels.Outbound
		chat        int64
		replyTo     int
		textFirst   string // a message sent before the photo
		wantCaption string
		w, h        int
	}{
		{"a PNG chart with an escaped caption", chartFile(t),
			channels.Outbound{Conversation: dmConv, Text: "Your week <so far> & `today`"},
			alice.ID, 0, "", "Your week <so far> & today", 800, 400},
		{"a JPEG", jpegFile(t), channels.Outbound{Conversation: dmConv, Text: "a picture"},
			alice.ID, 0, "", "a picture", 640, 480},
		{"a content type with parameters", &channels.File{Name: "c.png", ContentType: "Image/PNG; q=1", Data: chartFile(t).Data},
			channels.Outbound{Conversation: dmConv}, alice.ID, 0, "", "", 800, 400},
		{"a group photo quotes the message that asked", chartFile(t),
			channels.Outbound{Conversation: groupConv, ReplyTo: fmt.Sprintf("telegram::%d:%d", group.ID, asked.MessageID), Text: "for the group"},
			group.ID, asked.MessageID, "", "for the group", 800, 400},
		{"a private photo for a group member goes to their DM", chartFile(t),
			channels.Outbound{Conversation: groupConv, Private: true, Recipient: "telegram::42", ReplyTo: fmt.Sprintf("telegram::%d:%d", group.ID, asked.MessageID), Text: "yours"},
			alice.ID, 0, "", "yours", 800, 400},
		{"a caption over 1,024 characters goes first as a message", chartFile(t),
			channels.Outbound{Conversation: dmConv, Text: long},
			alice.ID, 0, strings.TrimSpace(long), "", 800, 400},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sentBefore := len(h.srv.Sent())
			c.out.Kind, c.out.File = channels.OutReply, c.file
			if err := h.a.SendFile(ctxT(t), c.out); err != nil {
				t.Fatal(err)
			}
			photos := h.srv.Photos()
			if len(photos) != i+1 {
				t.Fatalf("%d photos sent, want %d", len(photos), i+1)
			}
			p := photos[i]
			if p.ChatID != c.chat || p.ReplyTo != c.replyTo || p.CaptionPlain != c.wantCaption || !bytes.Equal(p.Data, c.file.Data) || p.Width != c.w || p.Height != c.h {
				t.Errorf("photo to chat %d replying to %d with caption %q, %d bytes, %dx%d; want chat %d, reply %d, caption %q, the file's %d bytes, %dx%d",
					p.ChatID, p.ReplyTo, p.CaptionPlain, len(p.Data), p.Width, p.Height, c.chat, c.replyTo, c.wantCaption, len(c.file.Data), c.w, c.h)
			}
			if c.wantCaption != "" && p.ParseMode != "HTML" {
				t.Errorf("caption sent in parse mode %q, want HTML", p.ParseMode)
			}
			sent := h.srv.Sent()[sentBefore:]
			var text strings.Builder
			for _, s := range sent {
				text.WriteString(s.Plain)
			}
			if strings.TrimSpace(text.String()) != c.textFirst {
				t.Errorf("sent besides the photo: %q, want %q", text.String(), c.textFirst)
			}
			if c.textFirst != "" && sent[len(sent)-1].Message.MessageID > p.Message.MessageID {
				t.Errorf("the caption message came after the photo")
			}
		})
	}
	if n := len(h.srv.Documents()); n != 0 {
		t.Errorf("%d documents sent besides the photos", n)
	}
}

func TestSendFileSendsWhatIsNotAPhotoAsADocument(t *testing.T) {
	chart := chartFile(t).Data
	var gifData bytes.Buffer
	if err := gif.Encode(&gifData, chartImage(80, 40), nil); err != nil {
		t.Fatal(err)
	}
	thin := func(w, h int) []byte {
		var b bytes.Buffer
		if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	cases := []struct {
		name string
		file *channels.File
	}{
		{"a JSON export", exportFile()},
		{"a PNG not declared as an image", &channels.File{Name: "chart.png", ContentType: "application/octet-stream", Data: chart}},
		{"a PNG without a content type", &channels.File{Name: "chart.png", Data: chart}},
		{"JSON named and declared as a PNG", &channels.File{Name: "chart.png", ContentType: "image/png", Data: exportFile().Data}},
		{"a GIF declared as a PNG", &channels.File{Name: "chart.png", ContentType: "image/png", Data: gifData.Bytes()}},
		{"a GIF", &channels.File{Name: "chart.gif", ContentType: "image/gif", Data: gifData.Bytes()}},
		{"a PNG whose sides add up to over 10,000 pixels", &channels.File{Name: "wide.png", ContentType: "image/png", Data: telegramtest.PNGHeader(9000, 1001)}},
		{"a PNG wider than 20 times its height", &channels.File{Name: "strip.png", ContentType: "image/png", Data: thin(420, 20)}},
		{"a PNG taller than 20 times its width", &channels.File{Name: "strip.png", ContentType: "image/png", Data: thin(20, 420)}},
		{"a PNG over 10 MB", &channels.File{Name: "huge.png", ContentType: "image/png", Data: append(telegramtest.PNGHeader(800, 400), make([]byte, 10_000_000)...)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, nil, nil)
			h.srv.StartPrivate(alice)
			if err := h.a.SendFile(ctxT(t), channels.Outbound{Conversation: dmConv, Text: "yours", File: c.file}); err != nil {
				t.Fatal(err)
			}
			docs := h.srv.Documents()
			if len(docs) != 1 || docs[0].FileName != c.file.Name || !bytes.Equal(docs[0].Data, c.file.Data) || docs[0].CaptionPlain != "yours" {
				t.Fatalf("documents %d, want the file once with its caption", len(docs))
			}
			if n := h.srv.Calls("sendPhoto"); n != 0 {
				t.Errorf("sendPhoto called %d times for a file that is no photo", n)
			}
		})
	}
	// The limits themselves are photos.
	for _, data := range [][]byte{telegramtest.PNGHeader(9000, 1000), thin(400, 20), thin(20, 400)} {
		h := newHarness(t, nil, nil)
		h.srv.StartPrivate(alice)
		err := h.a.SendFile(ctxT(t), channels.Outbound{Conversation: dmConv, File: &channels.File{Name: "edge.png", ContentType: "image/png", Data: data}})
		if n := len(h.srv.Photos()); err != nil || n != 1 {
			t.Errorf("an image at Telegram's limits: SendFile = %v, %d photos, want it sent as a photo", err, n)
		}
	}
}

func TestSendFileSendsARefusedPhotoAsADocument(t *testing.T) {
	cases := []struct {
		name string
		desc string
	}{
		{"invalid dimensions", "Bad Request: PHOTO_INVALID_DIMENSIONS"},
		{"image processing failed", "Bad Request: IMAGE_PROCESS_FAILED"},
		{"save file invalid", "Bad Request: PHOTO_SAVE_FILE_INVALID"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, nil, nil)
			h.srv.StartPrivate(alice)
			f := chartFile(t)
			h.srv.FailNextWith("sendPhoto", telegramtest.Failure{Status: http.StatusBadRequest, Description: c.desc})
			if err := h.a.SendFile(ctxT(t), channels.Outbound{Conversation: dmConv, Text: "your <week>", File: f}); err != nil {
				t.Fatal(err)
			}
			docs := h.srv.Documents()
			if len(docs) != 1 || docs[0].ChatID != alice.ID || !bytes.Equal(docs[0].Data, f.Data) || docs[0].FileName != f.Name || docs[0].CaptionPlain != "your <week>" {
				t.Errorf("documents %d, want the chart once with its caption", len(docs))
			}
			if n := len(h.srv.Photos()); n != 0 {
				t.Errorf("%d photos sent", n)
			}
		})
	}
}

func TestSendFileDoesNotResendAsADocumentWhatWasNotAboutThePhoto(t *testing.T) {
	h := newHarness(t, nil, nil)
	h.srv.StartPrivate(alice)
	h.srv.FailNextWith("sendPhoto", telegramtest.Failure{Status: http.StatusBadRequest, Description: "Bad Request: chat not found"})
	err := h.a.SendFile(ctxT(t), channels.Outbound{Conversation: dmConv, Text: "x", File: chartFile(t)})
	if !channels.IsPermanent(err) {
		t.Errorf("SendFile = %v, want a permanent error", err)
	}
	if n := len(h.srv.Documents()); n != 0 {
		t.Errorf("%d documents sent after a 400 about the chat", n)
	}
}

func TestSendFilePhotoErrorsMapToSendError(t *testing.T) {
	cases := []struct {
		name       string
		fail       telegramtest.Failure
		permanent  bool
		retryAfter time.Duration
	}{
		{"429 is rate limited for retry_after", telegramtest.Failure{Status: http.StatusTooManyRequests, RetryAfter: 7 * time.Second}, false, 7 * time.Second},
		{"500 is transient", telegramtest.Failure{Status: http.StatusInternalServerError}, false, 0},
		{"403 is permanent", telegramtest.Failure{Status: http.StatusForbidden}, true, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, nil, nil)
			h.srv.StartPrivate(alice)
			h.srv.FailNextWith("sendPhoto", c.fail)
			err := h.a.SendFile(ctxT(t), channels.Outbound{Conversation: dmConv, Text: "x", File: chartFile(t)})
			se, ok := errors.AsType[*channels.SendError](err)
			if !ok {
				t.Fatalf("SendFile = %v, want a *channels.SendError", err)
			}
			if se.Permanent != c.permanent || se.RetryAfter != c.retryAfter {
				t.Errorf("SendError permanent=%v retryAfter=%s, want %v %s (%v)", se.Permanent, se.RetryAfter, c.permanent, c.retryAfter, err)
			}
			if !strings.Contains(err.Error(), "send photo") || strings.Contains(err.Error(), token) {
				t.Errorf("error %q does not say it was sending a photo, or shows the token", err)
			}
			if n := len(h.srv.Documents()) + len(h.srv.Photos()); n != 0 {
				t.Errorf("%d files sent after a failure that is no refusal of the photo", n)
			}
		})
	}
}

func TestSendFilePhotoFollowsAMigratedGroupAndResendsARejectedCaptionAsPlainText(t *testing.T) {
	h := newHarness(t, nil, nil)
	old := telegramtest.GroupChat(-555, "Old")
	h.srv.AddChat(old)
	h.srv.AddChat(group)
	oldConv := channels.Conversation{ID: "telegram::-555", Kind: channels.KindGroup}
	migrated := telegramtest.Failure{Status: http.StatusBadRequest, Description: "Bad Request: group chat was upgraded to a supergroup chat", MigrateToChatID: group.ID}

	h.srv.FailNextWith("sendPhoto", migrated)
	if err := h.a.SendFile(ctxT(t), channels.Outbound{Conversation: oldConv, Text: "chart", File: chartFile(t)}); err != nil {
		t.Fatal(err)
	}
	if p := h.srv.Photos(); len(p) != 1 || p[0].ChatID != group.ID {
		t.Errorf("photos %d, want one to the supergroup", len(p))
	}

	// Migrated, then refused: the document goes to the new group.
	h.srv.FailNextWith("sendPhoto", migrated)
	h.srv.FailNextWith("sendPhoto", telegramtest.Failure{Status: http.StatusBadRequest, Description: "Bad Request: PHOTO_INVALID_DIMENSIONS"})
	if err := h.a.SendFile(ctxT(t), channels.Outbound{Conversation: oldConv, Text: "chart", File: chartFile(t)}); err != nil {
		t.Fatal(err)
	}
	if d := h.srv.Documents(); len(d) != 1 || d[0].ChatID != group.ID || d[0].CaptionPlain != "chart" {
		t.Errorf("documents %d, want one to the supergroup with its caption", len(d))
	}

	h.srv.StartPrivate(alice)
	h.srv.FailNextWith("sendPhoto", telegramtest.Failure{Status: http.StatusBadRequest, Description: `Bad Request: can't parse entities: Unsupported start tag "x" at byte offset 3`})
	if err := h.a.SendFile(ctxT(t), channels.Outbound{Conversation: dmConv, Text: "a <x>", File: chartFile(t)}); err != nil {
		t.Fatal(err)
	}
	if p := h.srv.Photos(); len(p) != 2 || p[1].ParseMode != "" || p[1].CaptionPlain != "a <x>" {
		t.Errorf("photos %d, want the chart with a plain caption", len(p))
	}
}

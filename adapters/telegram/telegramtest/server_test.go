package telegramtest_test

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"net/http"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/havenbot/haven/adapters/telegram/telegramtest"
)

const token = "4242:fake-token"

var alice = tgbotapi.User{ID: 42, FirstName: "Alice"}

func newBot(t *testing.T, srv *telegramtest.Server, tok string) (*tgbotapi.BotAPI, error) {
	t.Helper()
	return tgbotapi.NewBotAPIWithAPIEndpoint(tok, srv.APIEndpoint())
}

func start(t *testing.T) (*telegramtest.Server, *tgbotapi.BotAPI) {
	t.Helper()
	srv := telegramtest.NewServer(token, telegramtest.WithBot(4242, "FakeHavenBot"))
	t.Cleanup(srv.Close)
	bot, err := newBot(t, srv, token)
	if err != nil {
		t.Fatalf("NewBotAPI: %v", err)
	}
	return srv, bot
}

func code(err error) int {
	var e *tgbotapi.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return 0
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestGetMeAnswersTheConfiguredBot(t *testing.T) {
	_, bot := start(t)
	if bot.Self.ID != 4242 || bot.Self.UserName != "FakeHavenBot" || !bot.Self.IsBot {
		t.Errorf("Self = %+v", bot.Self)
	}
}

func TestWrongTokenIsUnauthorized(t *testing.T) {
	srv := telegramtest.NewServer(token)
	t.Cleanup(srv.Close)
	_, err := newBot(t, srv, "4242:other")
	if code(err) != http.StatusUnauthorized {
		t.Errorf("err = %v, want 401", err)
	}
}

func TestUnknownMethodIsNotFound(t *testing.T) {
	_, bot := start(t)
	_, err := bot.MakeRequest("launchRocket", nil)
	if code(err) != http.StatusNotFound {
		t.Errorf("err = %v, want 404", err)
	}
}

func TestLongPollWaitsForAnUpdate(t *testing.T) {
	srv, bot := start(t)
	got := make(chan []tgbotapi.Update, 1)
	go func() {
		u, _ := bot.GetUpdates(tgbotapi.UpdateConfig{Timeout: 30})
		got <- u
	}()
	if err := srv.WaitPolling(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	id := srv.Inject(srv.NewMessage(telegramtest.PrivateChat(alice), alice, "hi"))
	select {
	case u := <-got:
		if len(u) != 1 || u[0].UpdateID != id || u[0].Message.Text != "hi" {
			t.Errorf("updates = %+v", u)
		}
	case <-ctxT(t).Done():
		t.Fatal("long poll did not return after an update was injected")
	}
}

func TestZeroTimeoutReturnsAtOnce(t *testing.T) {
	_, bot := start(t)
	u, err := bot.GetUpdates(tgbotapi.UpdateConfig{})
	if err != nil || len(u) != 0 {
		t.Errorf("GetUpdates = %v, %v; want no updates at once", u, err)
	}
}

func TestOffsetConfirmsEarlierUpdates(t *testing.T) {
	srv, bot := start(t)
	dm := telegramtest.PrivateChat(alice)
	first := srv.Inject(srv.NewMessage(dm, alice, "one"))
	second := srv.Inject(srv.NewMessage(dm, alice, "two"))
	u, err := bot.GetUpdates(tgbotapi.UpdateConfig{})
	if err != nil || len(u) != 2 {
		t.Fatalf("GetUpdates = %v, %v", u, err)
	}
	if srv.Pending() != 2 {
		t.Errorf("pending = %d: fetching must not confirm", srv.Pending())
	}
	u, err = bot.GetUpdates(tgbotapi.UpdateConfig{Offset: second})
	if err != nil || len(u) != 1 || u[0].UpdateID != second {
		t.Fatalf("GetUpdates(offset %d) = %v, %v", second, u, err)
	}
	if srv.Pending() != 1 || srv.Confirmed() != second || first >= second {
		t.Errorf("pending = %d, confirmed = %d", srv.Pending(), srv.Confirmed())
	}
}

func TestANewerPollEndsTheOlderWithConflict(t *testing.T) {
	srv, bot := start(t)
	errc := make(chan error, 1)
	go func() {
		_, err := bot.GetUpdates(tgbotapi.UpdateConfig{Timeout: 30})
		errc <- err
	}()
	if err := srv.WaitPolling(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	if _, err := bot.GetUpdates(tgbotapi.UpdateConfig{}); err != nil {
		t.Fatal(err)
	}
	if err := <-errc; code(err) != http.StatusConflict {
		t.Errorf("older poll err = %v, want 409", err)
	}
}

func TestDropConnectionsBreaksWaitingPolls(t *testing.T) {
	srv, bot := start(t)
	errc := make(chan error, 1)
	go func() {
		_, err := bot.GetUpdates(tgbotapi.UpdateConfig{Timeout: 30})
		errc <- err
	}()
	if err := srv.WaitPolling(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	if n := srv.DropConnections(); n != 1 {
		t.Errorf("dropped %d polls, want 1", n)
	}
	if err := <-errc; err == nil || code(err) != 0 {
		t.Errorf("err = %v, want a network error", err)
	}
}

func TestFailNextForcesErrors(t *testing.T) {
	srv, bot := start(t)
	srv.FailNext("getUpdates", http.StatusTooManyRequests, 1500*time.Millisecond)
	_, err := bot.GetUpdates(tgbotapi.UpdateConfig{})
	var e *tgbotapi.Error
	if !errors.As(err, &e) || e.Code != 429 || e.RetryAfter != 2 {
		t.Errorf("err = %#v, want 429 with retry_after 2", err)
	}
	if _, err := bot.GetUpdates(tgbotapi.UpdateConfig{}); err != nil {
		t.Errorf("second call err = %v, want success", err)
	}
}

func TestSendMessageChecksLikeTelegram(t *testing.T) {
	srv, bot := start(t)
	dm := telegramtest.PrivateChat(alice)
	asked := srv.NewMessage(dm, alice, "hi")
	srv.Inject(asked)
	cases := []struct {
		name    string
		cfg     func() tgbotapi.MessageConfig
		code    int
		errText string
		plain   string
	}{
		{"plain text", func() tgbotapi.MessageConfig { return tgbotapi.NewMessage(42, "a < b & c") }, 0, "", "a < b & c"},
		{"HTML with escapes", func() tgbotapi.MessageConfig { return html("&lt;script&gt; <b>bold</b> &amp; &quot;q&quot; &#39;") }, 0, "", `<script> bold & "q" '`},
		{"an unsupported tag", func() tgbotapi.MessageConfig { return html("<script>x</script>") }, 400, `Unsupported start tag "script"`, ""},
		{"a bare ampersand", func() tgbotapi.MessageConfig { return html("a & b") }, 400, "can't parse entities", ""},
		{"an unclosed tag", func() tgbotapi.MessageConfig { return html("<b>x") }, 400, "Can't find end tag", ""},
		{"too long", func() tgbotapi.MessageConfig { return tgbotapi.NewMessage(42, strings.Repeat("a", 4097)) }, 400, "message is too long", ""},
		{"4096 emoji fit: code points are counted, not UTF-16 units", func() tgbotapi.MessageConfig { return tgbotapi.NewMessage(42, strings.Repeat("💛", 4096)) }, 0, "", strings.Repeat("💛", 4096)},
		{"4097 emoji do not", func() tgbotapi.MessageConfig { return tgbotapi.NewMessage(42, strings.Repeat("💛", 4097)) }, 400, "message is too long", ""},
		{"escapes count as the character they stand for", func() tgbotapi.MessageConfig { return html(strings.Repeat("&lt;", 4096)) }, 0, "", strings.Repeat("<", 4096)},
		{"empty after parsing", func() tgbotapi.MessageConfig { return html("<b> </b>") }, 400, "message text is empty", ""},
		{"a person who never started the bot", func() tgbotapi.MessageConfig { return tgbotapi.NewMessage(77, "hi") }, 403, "can't initiate conversation", ""},
		{"an unknown group", func() tgbotapi.MessageConfig { return tgbotapi.NewMessage(-77, "hi") }, 400, "chat not found", ""},
		{"a reply to an unknown message", func() tgbotapi.MessageConfig {
			c := tgbotapi.NewMessage(42, "hi")
			c.ReplyToMessageID = 999
			return c
		}, 400, "replied not found", ""},
		{"a reply to an unknown message, allowed without", func() tgbotapi.MessageConfig {
			c := tgbotapi.NewMessage(42, "hi")
			c.ReplyToMessageID, c.AllowSendingWithoutReply = 999, true
			return c
		}, 0, "", "hi"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := len(srv.Sent())
			m, err := bot.Send(c.cfg())
			if c.code != 0 {
				if code(err) != c.code || !strings.Contains(err.Error(), c.errText) {
					t.Errorf("err = %v, want %d %q", err, c.code, c.errText)
				}
				if len(srv.Sent()) != before {
					t.Error("a refused message was recorded as sent")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			s := srv.Sent()[before]
			if s.Plain != c.plain || m.Text != c.plain || m.From.ID != 4242 {
				t.Errorf("sent plain %q, message %+v; want %q", s.Plain, m, c.plain)
			}
		})
	}
	c := tgbotapi.NewMessage(42, "re")
	c.ReplyToMessageID = asked.MessageID
	if _, err := bot.Send(c); err != nil {
		t.Fatal(err)
	}
	if s := srv.Sent(); s[len(s)-1].ReplyTo != asked.MessageID {
		t.Errorf("reply recorded as %d, want %d", s[len(s)-1].ReplyTo, asked.MessageID)
	}
}

func html(text string) tgbotapi.MessageConfig {
	c := tgbotapi.NewMessage(42, text)
	c.ParseMode = tgbotapi.ModeHTML
	return c
}

func TestEntitiesUseUTF16Offsets(t *testing.T) {
	cases := []struct {
		text string
		want []tgbotapi.MessageEntity
	}{
		{"@HavenBot hi", []tgbotapi.MessageEntity{{Type: "mention", Offset: 0, Length: 9}}},
		{"😀 @HavenBot", []tgbotapi.MessageEntity{{Type: "mention", Offset: 3, Length: 9}}},
		{"/help@HavenBot now", []tgbotapi.MessageEntity{{Type: "bot_command", Offset: 0, Length: 14}}},
		{"mail a@example.com", nil},
		{"@bob is too short", nil},
		{"path/to/file", nil},
	}
	for _, c := range cases {
		got := telegramtest.Entities(c.text)
		if len(got) != len(c.want) {
			t.Errorf("Entities(%q) = %+v, want %+v", c.text, got, c.want)
			continue
		}
		for i := range got {
			if got[i].Type != c.want[i].Type || got[i].Offset != c.want[i].Offset || got[i].Length != c.want[i].Length {
				t.Errorf("Entities(%q)[%d] = %+v, want %+v", c.text, i, got[i], c.want[i])
			}
		}
	}
}

func TestGetChatMemberAnswersConfiguredStatus(t *testing.T) {
	srv, bot := start(t)
	g := telegramtest.GroupChat(-5, "g")
	srv.AddChat(g)
	srv.SetMemberStatus(-5, 42, "creator")
	for user, want := range map[int64]string{42: "creator", 43: "member"} {
		m, err := bot.GetChatMember(tgbotapi.GetChatMemberConfig{ChatConfigWithUser: tgbotapi.ChatConfigWithUser{ChatID: -5, UserID: user}})
		if err != nil || m.Status != want {
			t.Errorf("user %d: %+v, %v; want %s", user, m, err, want)
		}
	}
}

func TestCloseEndsWaitingPolls(t *testing.T) {
	srv := telegramtest.NewServer(token)
	bot, err := newBot(t, srv, token)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		_, _ = bot.GetUpdates(tgbotapi.UpdateConfig{Timeout: 30})
		close(done)
	}()
	if err := srv.WaitPolling(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	srv.Close()
	select {
	case <-done:
	case <-ctxT(t).Done():
		t.Fatal("poll still waiting after Close")
	}
}

func TestSendDocumentRecordsTheUploadAndChecksTheCaption(t *testing.T) {
	srv, bot := start(t)
	srv.StartPrivate(alice)
	doc := tgbotapi.NewDocument(alice.ID, tgbotapi.FileBytes{Name: "export.json", Bytes: []byte(`{"a":1}`)})
	doc.Caption, doc.ParseMode = "<b>yours</b> &amp; mine", "HTML"
	m, err := bot.Send(doc)
	if err != nil {
		t.Fatal(err)
	}
	docs, err := srv.WaitDocuments(ctxT(t), 1)
	if err != nil {
		t.Fatal(err)
	}
	d := docs[0]
	if d.ChatID != alice.ID || d.FileName != "export.json" || string(d.Data) != `{"a":1}` || d.CaptionPlain != "yours & mine" || d.Caption != doc.Caption {
		t.Errorf("document = %+v", d)
	}
	if m.Document == nil || m.Document.FileName != "export.json" || m.Document.FileSize != 7 || m.Caption != "yours & mine" {
		t.Errorf("message = %+v", m)
	}

	cases := []struct {
		name string
		cfg  tgbotapi.DocumentConfig
		code int
		want string
	}{
		{"a caption over 1,024 characters", func() tgbotapi.DocumentConfig {
			c := tgbotapi.NewDocument(alice.ID, tgbotapi.FileBytes{Name: "a.txt", Bytes: []byte("x")})
			c.Caption = strings.Repeat("a", 1025)
			return c
		}(), http.StatusBadRequest, "caption is too long"},
		{"a file id instead of an upload", tgbotapi.NewDocument(alice.ID, tgbotapi.FileID("abc")), http.StatusBadRequest, "uploaded documents only"},
		{"an empty file", tgbotapi.NewDocument(alice.ID, tgbotapi.FileBytes{Name: "a.txt"}), http.StatusBadRequest, "non-empty"},
		{"a person who never started the bot", tgbotapi.NewDocument(77, tgbotapi.FileBytes{Name: "a.txt", Bytes: []byte("x")}), http.StatusForbidden, "initiate"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, err := bot.Request(c.cfg)
			if err == nil || resp == nil || resp.ErrorCode != c.code || !strings.Contains(err.Error(), c.want) {
				t.Errorf("sendDocument = %v (code %v), want %d %q", err, resp, c.code, c.want)
			}
		})
	}
	if n := len(srv.Documents()); n != 1 {
		t.Errorf("%d documents recorded, want only the good one", n)
	}
	srv.FailNext("sendDocument", http.StatusTooManyRequests, 3*time.Second)
	if resp, err := bot.Request(doc); err == nil || resp.ErrorCode != http.StatusTooManyRequests || resp.Parameters == nil || resp.Parameters.RetryAfter != 3 {
		t.Errorf("FailNext(sendDocument): %v %+v", err, resp)
	}
}

func TestOnSendRunsAfterTheMessageIsRecordedAndBeforeTheBotHearsOfIt(t *testing.T) {
	srv, bot := start(t)
	srv.StartPrivate(alice)
	release := make(chan struct{})
	answered := make(chan error, 1)
	inHook := make(chan []telegramtest.Sent, 1)
	srv.OnSend(func(s telegramtest.Sent) {
		if s.Plain == "hello" {
			inHook <- srv.Sent()
			<-release
		}
	})
	go func() {
		_, err := bot.Send(tgbotapi.NewMessage(alice.ID, "hello"))
		answered <- err
	}()
	sent := <-inHook
	select {
	case err := <-answered:
		t.Fatalf("the bot had its answer (%v) while the hook ran", err)
	default:
	}
	if len(sent) != 1 || sent[0].Plain != "hello" {
		t.Fatalf("Sent in the hook = %+v, want the message already recorded", sent)
	}
	close(release)
	if err := <-answered; err != nil {
		t.Fatalf("send after the hook: %v", err)
	}
	srv.OnSend(nil)
	if _, err := bot.Send(tgbotapi.NewMessage(alice.ID, "again")); err != nil {
		t.Fatalf("send without a hook: %v", err)
	}
}

func TestWaitIdleReturnsOnceTheClientsConnectionsAreGone(t *testing.T) {
	srv := telegramtest.NewServer(token)
	t.Cleanup(srv.Close)
	srv.StartPrivate(alice)
	tr := &http.Transport{}
	bot, err := tgbotapi.NewBotAPIWithClient(token, srv.APIEndpoint(), &http.Client{Transport: tr})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bot.Send(tgbotapi.NewMessage(alice.ID, "hi")); err != nil {
		t.Fatal(err)
	}
	// The client keeps its connection open for the next request.
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if err := srv.WaitIdle(done); err == nil || !strings.Contains(err.Error(), "1 connections open") {
		t.Fatalf("WaitIdle with a connection open = %v, want an error counting it", err)
	}
	tr.CloseIdleConnections()
	if err := srv.WaitIdle(ctxT(t)); err != nil {
		t.Fatalf("WaitIdle after the client closed its connection: %v", err)
	}
}

// chartPNG encodes a real PNG of w x h pixels.
func chartPNG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := range w {
		img.Set(x, h/2, color.RGBA{R: 200, A: 255})
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestSendPhotoRecordsThePictureAndRefusesWhatTelegramRefuses(t *testing.T) {
	srv, bot := start(t)
	srv.StartPrivate(alice)
	data := chartPNG(t, 800, 400)
	photo := tgbotapi.NewPhoto(alice.ID, tgbotapi.FileBytes{Name: "mood.png", Bytes: data})
	photo.Caption, photo.ParseMode = "<b>your week</b> &amp; more", "HTML"
	m, err := bot.Send(photo)
	if err != nil {
		t.Fatal(err)
	}
	photos, err := srv.WaitPhotos(ctxT(t), 1)
	if err != nil {
		t.Fatal(err)
	}
	p := photos[0]
	if p.ChatID != alice.ID || p.FileName != "mood.png" || !bytes.Equal(p.Data, data) || p.CaptionPlain != "your week & more" || p.Width != 800 || p.Height != 400 {
		t.Errorf("photo to %d named %q, %d bytes, caption %q, %dx%d", p.ChatID, p.FileName, len(p.Data), p.CaptionPlain, p.Width, p.Height)
	}
	if len(m.Photo) != 1 || m.Photo[0].Width != 800 || m.Photo[0].Height != 400 || m.Caption != "your week & more" || m.Document != nil {
		t.Errorf("message = %+v", m)
	}

	var jpg bytes.Buffer
	if err := jpeg.Encode(&jpg, image.NewGray(image.Rect(0, 0, 30, 10)), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := bot.Send(tgbotapi.NewPhoto(alice.ID, tgbotapi.FileBytes{Name: "a.jpg", Bytes: jpg.Bytes()})); err != nil {
		t.Errorf("a JPEG: %v", err)
	}

	bigPNG := append(telegramtest.PNGHeader(100, 100), make([]byte, telegramtest.MaxPhotoSize)...)
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"sides adding up to over 10,000", telegramtest.PNGHeader(9000, 1001), "PHOTO_INVALID_DIMENSIONS"},
		{"a ratio over 20", telegramtest.PNGHeader(210, 10), "PHOTO_INVALID_DIMENSIONS"},
		{"a tall ratio over 20", telegramtest.PNGHeader(10, 210), "PHOTO_INVALID_DIMENSIONS"},
		{"not an image", []byte(`{"facts":[]}`), "IMAGE_PROCESS_FAILED"},
		{"over 10 MB", bigPNG, "PHOTO_SAVE_FILE_INVALID"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, err := bot.Request(tgbotapi.NewPhoto(alice.ID, tgbotapi.FileBytes{Name: "x.png", Bytes: c.data}))
			if err == nil || resp == nil || resp.ErrorCode != http.StatusBadRequest || !strings.Contains(err.Error(), c.want) {
				t.Errorf("sendPhoto = %v (response %+v), want 400 %q", err, resp, c.want)
			}
		})
	}
	if n := len(srv.Photos()); n != 2 {
		t.Errorf("%d photos recorded, want the PNG and the JPEG", n)
	}
	if n := len(srv.Documents()); n != 0 {
		t.Errorf("%d documents recorded for photos", n)
	}
	srv.FailNext("sendPhoto", http.StatusTooManyRequests, 3*time.Second)
	if resp, err := bot.Request(photo); err == nil || resp.ErrorCode != http.StatusTooManyRequests || resp.Parameters == nil || resp.Parameters.RetryAfter != 3 {
		t.Errorf("FailNext(sendPhoto): %v %+v", err, resp)
	}
}

func TestWaitSentAfterReturnsOnlyTheMessagesAfterThoseSeen(t *testing.T) {
	srv, bot := start(t)
	srv.StartPrivate(alice)
	for _, text := range []string{"one", "two", "three"} {
		if _, err := bot.Send(tgbotapi.NewMessage(alice.ID, text)); err != nil {
			t.Fatalf("send %q: %v", text, err)
		}
	}
	for _, c := range []struct {
		seen int
		want []string
	}{
		{0, []string{"one", "two", "three"}},
		{1, []string{"two", "three"}},
		{2, []string{"three"}},
	} {
		got, err := srv.WaitSentAfter(ctxT(t), c.seen)
		if err != nil {
			t.Fatalf("WaitSentAfter(%d): %v", c.seen, err)
		}
		var texts []string
		for _, s := range got {
			texts = append(texts, s.Text)
		}
		if strings.Join(texts, ",") != strings.Join(c.want, ",") {
			t.Errorf("WaitSentAfter(%d) = %q, want %q", c.seen, texts, c.want)
		}
	}
	// Nothing after the third: it waits until ctx ends, and says so.
	ctx, cancel := context.WithTimeout(context.Background(), 0)
	defer cancel()
	if got, err := srv.WaitSentAfter(ctx, 3); err == nil || len(got) != 0 {
		t.Errorf("WaitSentAfter(3) with nothing more sent = %d messages, %v; want none and an error", len(got), err)
	}
}

package telegram_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/havenbot/haven/adapters/telegram"
	"github.com/havenbot/haven/adapters/telegram/telegramtest"
	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/memory/sqlite"
)

func TestPrivateMessageIsNormalizedToDMInbound(t *testing.T) {
	h := newHarness(t, nil, nil).start(t)
	m := h.srv.NewMessage(telegramtest.PrivateChat(alice), alice, "  I had a rough day  ")
	uid := h.srv.Inject(m)

	in := h.sink.next(t)
	want := channels.Inbound{
		Platform:     "telegram",
		Workspace:    "",
		Conversation: channels.Conversation{ID: "telegram::42", Kind: channels.KindDM},
		MessageID:    fmt.Sprintf("telegram::42:%d", m.MessageID),
		DeliveryKey:  fmt.Sprintf("telegram::update:%d", uid),
		Author:       channels.Author{ID: "telegram::42", Display: "Alice Liddell"},
		MentionsBot:  true,
		Text:         "I had a rough day",
		Locale:       "en-GB",
	}
	if in.ReceivedAt.IsZero() {
		t.Error("ReceivedAt is zero")
	}
	in.ReceivedAt = time.Time{}
	if in != want {
		t.Errorf("inbound\n got %+v\nwant %+v", in, want)
	}
}

func TestStartRegistersCommands(t *testing.T) {
	h := newHarness(t, nil, nil).start(t)
	<-h.a.Ready()
	var got []string
	for _, c := range h.srv.Commands() {
		got = append(got, c.Command)
	}
	if strings.Join(got, ",") != "help,reset,whoami" {
		t.Errorf("commands = %v, want help, reset, whoami", got)
	}
	if h.a.Self() == nil || h.a.Self().UserName != "HavenTestBot" {
		t.Errorf("Self = %+v, want the bot from getMe", h.a.Self())
	}
}

func TestGroupMessagesAreNormalized(t *testing.T) {
	srv := telegramtest.NewServer(token)
	t.Cleanup(srv.Close)
	botMsg := srv.NewMessage(group, srv.Bot(), "How are you feeling today?")
	aliceMsg := srv.NewMessage(group, alice, "earlier")
	otherBot := tgbotapi.User{ID: 999, IsBot: true, FirstName: "Other", UserName: "OtherBot"}

	type want struct {
		text     string
		mentions bool
		edited   bool
	}
	cases := []struct {
		name   string
		inject func() // injects the update under test
		want   *want  // nil: dropped
	}{
		{"a group message without a mention is not addressed to Haven",
			func() { srv.Inject(srv.NewMessage(group, alice, "hello everyone")) },
			&want{text: "hello everyone"}},
		{"a mention at the start is stripped",
			func() { srv.Inject(srv.NewMessage(group, alice, "@HavenTestBot can you help?")) },
			&want{text: "can you help?", mentions: true}},
		{"a mention mid-sentence with a comma is stripped",
			func() { srv.Inject(srv.NewMessage(group, alice, "hey @HavenTestBot, how are you")) },
			&want{text: "hey how are you", mentions: true}},
		{"a mention is matched case-insensitively",
			func() { srv.Inject(srv.NewMessage(group, alice, "thanks @haventestbot!")) },
			&want{text: "thanks!", mentions: true}},
		{"a mention after an emoji is found by UTF-16 offsets",
			func() { srv.Inject(srv.NewMessage(group, alice, "😀🎉 @HavenTestBot listen")) },
			&want{text: "😀🎉 listen", mentions: true}},
		{"a mention of someone else is kept and does not count",
			func() { srv.Inject(srv.NewMessage(group, alice, "@alice_l look at this")) },
			&want{text: "@alice_l look at this"}},
		{"a text_mention of the bot counts",
			func() {
				m := srv.NewMessage(group, alice, "Haven what now")
				me := srv.Bot()
				m.Entities = []tgbotapi.MessageEntity{{Type: "text_mention", Offset: 0, Length: 5, User: &me}}
				srv.Inject(m)
			},
			&want{text: "what now", mentions: true}},
		{"a text_mention of the bot that starts at the space after a mention is cut too",
			func() {
				m := srv.NewMessage(group, alice, "@HavenTestBot Haven what now")
				me := srv.Bot()
				m.Entities = append(m.Entities, tgbotapi.MessageEntity{Type: "text_mention", Offset: 13, Length: 6, User: &me})
				srv.Inject(m)
			},
			&want{text: "what now", mentions: true}},
		{"a reply to Haven's message counts as a mention",
			func() { srv.Inject(srv.NewReply(group, alice, "not great honestly", botMsg)) },
			&want{text: "not great honestly", mentions: true}},
		{"a reply to a person's message does not",
			func() { srv.Inject(srv.NewReply(group, bob, "same here", aliceMsg)) },
			&want{text: "same here"}},
		{"/cmd@OurBot becomes /cmd",
			func() { srv.Inject(srv.NewMessage(group, alice, "/help@HavenTestBot")) },
			&want{text: "/help", mentions: true}},
		{"a bare command is addressed to Haven",
			func() { srv.Inject(srv.NewMessage(group, alice, "/whoami")) },
			&want{text: "/whoami", mentions: true}},
		{"/cmd@OtherBot is not ours",
			func() { srv.Inject(srv.NewMessage(group, alice, "/start@OtherBot now")) },
			nil},
		{"an edited message is flagged",
			func() { srv.InjectEdit(telegramtest.Edited(aliceMsg, "@HavenTestBot edited text")) },
			&want{text: "edited text", mentions: true, edited: true}},
		{"messages from other bots are dropped",
			func() { srv.Inject(srv.NewMessage(group, otherBot, "@HavenTestBot beep")) },
			nil},
		{"Haven's own messages are dropped",
			func() { srv.Inject(srv.NewMessage(group, srv.Bot(), "I said this")) },
			nil},
		{"channel posts are ignored",
			func() {
				ch := telegramtest.ChannelChat(-100777, "News")
				srv.InjectChannelPost(srv.NewMessage(ch, alice, "news"))
			},
			nil},
		{"service messages are ignored",
			func() {
				m := srv.NewMessage(group, alice, "")
				m.NewChatMembers = []tgbotapi.User{bob}
				srv.Inject(m)
			},
			nil},
		{"a photo caption is read as text",
			func() { srv.Inject(srv.NewPhoto(group, alice, "@HavenTestBot this is my dog")) },
			&want{text: "this is my dog", mentions: true}},
	}
	h := newHarness(t, srv, nil).start(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.inject()
			h.marker(t)
			if c.want == nil {
				h.expectMarker(t)
				return
			}
			in := h.sink.next(t)
			if in.Text != c.want.text || in.MentionsBot != c.want.mentions || in.Edited != c.want.edited {
				t.Errorf("got text %q mentions %v edited %v, want %q %v %v", in.Text, in.MentionsBot, in.Edited, c.want.text, c.want.mentions, c.want.edited)
			}
			if in.Conversation != (channels.Conversation{ID: "telegram::-1001234", Kind: channels.KindGroup}) {
				t.Errorf("conversation = %+v", in.Conversation)
			}
			h.expectMarker(t)
		})
	}
}

func TestMediaGetsAKindTextOnlyReply(t *testing.T) {
	h := newHarness(t, nil, nil).start(t)
	botMsg := h.srv.NewMessage(group, h.srv.Bot(), "hi")
	h.srv.Inject(h.srv.NewSticker(group, alice))                        // group, not addressed: no note
	sticker := h.srv.NewSticker(telegramtest.PrivateChat(alice), alice) // DM: note
	voice := h.srv.NewVoice(group, alice)                               // reply to Haven: note
	voice.ReplyToMessage = botMsg
	h.srv.Inject(sticker)
	h.srv.Inject(voice)
	h.marker(t)
	h.expectMarker(t) // no Inbound for any of them

	sent, err := h.srv.WaitSent(ctxT(t), 2)
	if err != nil {
		t.Fatal(err)
	}
	h.stop(t) // waits for background notes
	if n := len(h.srv.Sent()); n != 2 {
		t.Fatalf("sent %d notes, want 2 (none for the unaddressed group sticker)", n)
	}
	byChat := map[int64]telegramtest.Sent{}
	for _, s := range sent {
		byChat[s.ChatID] = s
	}
	dm, grp := byChat[alice.ID], byChat[group.ID]
	if !strings.Contains(dm.Plain, "only read text") || !strings.Contains(dm.Plain, "sticker") || dm.ReplyTo != sticker.MessageID {
		t.Errorf("DM note = %+v, want a text-only note replying to the sticker", dm)
	}
	if !strings.Contains(grp.Plain, "voice message") || grp.ReplyTo != voice.MessageID {
		t.Errorf("group note = %+v, want a text-only note replying to the voice message", grp)
	}
}

func TestOffsetIsSavedAndANewAdapterResumesAfterIt(t *testing.T) {
	// open returns the offset store of one process: the same memory map,
	// or the SQLite file opened anew, as after a restart.
	cases := []struct {
		name string
		open func(t *testing.T) telegram.OffsetStore
	}{
		{"in memory", func() func(t *testing.T) telegram.OffsetStore {
			m := &telegram.MemoryOffsets{}
			return func(*testing.T) telegram.OffsetStore { return m }
		}()},
		{"in a SQLite file", func() func(t *testing.T) telegram.OffsetStore {
			var path string
			var prev *sqlite.Store
			return func(t *testing.T) telegram.OffsetStore {
				if path == "" {
					path = filepath.Join(t.TempDir(), "haven.db")
				}
				// A restart: the old process has let go of the file (a
				// second Store on it would be refused).
				if prev != nil {
					if err := prev.Close(); err != nil {
						t.Fatal(err)
					}
				}
				s, err := sqlite.Open(context.Background(), path)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { s.Close() })
				prev = s
				return s
			}
		}()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := telegramtest.NewServer(token)
			t.Cleanup(srv.Close)
			dm := telegramtest.PrivateChat(alice)
			m1, m2 := srv.NewMessage(dm, alice, "one"), srv.NewMessage(dm, alice, "two")

			offsets := c.open(t)
			h1 := newHarness(t, srv, func(o *telegram.Options) { o.Offsets = offsets }).start(t)
			srv.Inject(m1)
			u2 := srv.Inject(m2)
			for _, want := range []string{"one", "two"} {
				if in := h1.sink.next(t); in.Text != want {
					t.Fatalf("got %q, want %q", in.Text, want)
				}
			}
			h1.stop(t)
			saved, err := offsets.LoadOffset(context.Background(), "telegram:123456")
			if err != nil || saved != int64(u2) {
				t.Fatalf("saved offset = %d, %v; want the last accepted update %d", saved, err, u2)
			}

			// Telegram may still hold the updates the stopped adapter
			// never confirmed: deliver them again, plus a new one.
			srv.InjectUpdate(tgbotapi.Update{UpdateID: u2 - 1, Message: m1})
			srv.InjectUpdate(tgbotapi.Update{UpdateID: u2, Message: m2})
			srv.Inject(srv.NewMessage(dm, alice, "three"))

			reopened := c.open(t)
			h2 := newHarness(t, srv, func(o *telegram.Options) { o.Offsets = reopened }).start(t)
			if in := h2.sink.next(t); in.Text != "three" {
				t.Fatalf("restarted adapter first accepted %q, want \"three\" (no replay, no skip)", in.Text)
			}
		})
	}
}

func TestRefusedUpdateIsNotSavedAndIsFetchedAgain(t *testing.T) {
	srv := telegramtest.NewServer(token)
	t.Cleanup(srv.Close)
	offsets := &telegram.MemoryOffsets{}
	h1 := newHarness(t, srv, func(o *telegram.Options) { o.Offsets = offsets })
	h1.sink.failFirst = 1000
	srv.Inject(srv.NewMessage(telegramtest.PrivateChat(alice), alice, "please keep this"))
	err := h1.a.Run(context.Background(), h1.sink)
	if err == nil || !strings.Contains(err.Error(), "did not accept") {
		t.Fatalf("Run = %v, want an error saying the hub did not accept the update", err)
	}
	if n := len(h1.sleeps.waits()); n == 0 {
		t.Error("the adapter did not back off between attempts")
	}
	if saved, _ := offsets.LoadOffset(context.Background(), "telegram:123456"); saved != 0 {
		t.Fatalf("offset saved as %d for an update the sink refused", saved)
	}

	h2 := newHarness(t, srv, func(o *telegram.Options) { o.Offsets = offsets })
	h2.sink.failFirst = 2 // refuses twice, then takes it
	h2.start(t)
	if in := h2.sink.next(t); in.Text != "please keep this" {
		t.Fatalf("got %q, want the refused message again", in.Text)
	}
}

func TestGetUpdatesRateLimitWaitsRetryAfter(t *testing.T) {
	h := newHarness(t, nil, nil)
	h.srv.FailNext("getUpdates", http.StatusTooManyRequests, 7*time.Second)
	h.start(t)
	h.srv.Inject(h.srv.NewMessage(telegramtest.PrivateChat(alice), alice, "after the limit"))
	if in := h.sink.next(t); in.Text != "after the limit" {
		t.Fatalf("got %q", in.Text)
	}
	waits := h.sleeps.waits()
	if len(waits) != 1 || waits[0] != 7*time.Second {
		t.Errorf("waits = %v, want exactly [7s] (Telegram's retry_after)", waits)
	}
}

func TestGetUpdatesServerErrorsBackOffAndRecover(t *testing.T) {
	h := newHarness(t, nil, nil)
	h.srv.FailNext("getUpdates", http.StatusBadGateway, 0)
	h.srv.FailNext("getUpdates", http.StatusInternalServerError, 0)
	h.srv.FailNextWith("getUpdates", telegramtest.Failure{Status: http.StatusBadGateway, Body: "<html><body>502 Bad Gateway</body></html>"})
	h.start(t)
	h.srv.Inject(h.srv.NewMessage(telegramtest.PrivateChat(alice), alice, "still there?"))
	if in := h.sink.next(t); in.Text != "still there?" {
		t.Fatalf("got %q", in.Text)
	}
	waits := h.sleeps.waits()
	if len(waits) != 3 {
		t.Fatalf("waits = %v, want 3 backoff waits", waits)
	}
	for _, w := range waits {
		if w < 200*time.Millisecond || w > time.Minute {
			t.Errorf("backoff wait %s outside [0.2s, 1m]", w)
		}
	}
	if strings.Contains(h.logs.String(), token) {
		t.Error("the log contains the bot token")
	}
}

func TestGetUpdatesConflictIsReportedAndRetried(t *testing.T) {
	cases := []struct {
		name   string
		setup  func(srv *telegramtest.Server)
		reason string
	}{
		{"another instance polls the same token",
			func(srv *telegramtest.Server) { srv.FailNext("getUpdates", http.StatusConflict, 0) },
			"another instance is polling the same bot token"},
		{"an unexplained conflict is explained by getWebhookInfo",
			func(srv *telegramtest.Server) {
				srv.FailNextWith("getUpdates", telegramtest.Failure{Status: http.StatusConflict, Description: "Conflict"})
			},
			"another instance is polling the same bot token"},
		{"a webhook is set",
			func(srv *telegramtest.Server) { srv.SetWebhook("https://haven.example/hook") },
			"a webhook is set for this bot"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, nil, nil)
			c.setup(h.srv)
			h.start(t)
			// The second getUpdates comes after the first failed and was
			// logged.
			if err := h.srv.WaitCalls(ctxT(t), "getUpdates", 2); err != nil {
				t.Fatal(err)
			}
			h.srv.SetWebhook("") // the operator fixes it
			h.srv.Inject(h.srv.NewMessage(telegramtest.PrivateChat(alice), alice, "hello"))
			if in := h.sink.next(t); in.Text != "hello" {
				t.Fatalf("got %q", in.Text)
			}
			logs := h.logs.String()
			if !containsAll(logs, "level=ERROR", c.reason, "getUpdates conflict") {
				t.Errorf("log does not report the conflict clearly:\n%s", logs)
			}
		})
	}
}

func TestDroppedConnectionReconnectsAndGoesOn(t *testing.T) {
	h := newHarness(t, nil, nil).start(t)
	dm := telegramtest.PrivateChat(alice)
	h.srv.Inject(h.srv.NewMessage(dm, alice, "before"))
	if in := h.sink.next(t); in.Text != "before" {
		t.Fatalf("got %q", in.Text)
	}
	for i := range 3 {
		if err := h.srv.WaitPolling(ctxT(t)); err != nil {
			t.Fatal(err)
		}
		if n := h.srv.DropConnections(); n != 1 {
			t.Fatalf("drop %d broke %d long polls, want 1", i, n)
		}
	}
	h.srv.Inject(h.srv.NewMessage(dm, alice, "after"))
	if in := h.sink.next(t); in.Text != "after" {
		t.Fatalf("got %q, want the message sent after the drops", in.Text)
	}
	if n := len(h.sleeps.waits()); n != 3 {
		t.Errorf("backed off %d times, want 3 (once per drop)", n)
	}
}

func TestRevokedTokenWhilePollingStopsRun(t *testing.T) {
	h := newHarness(t, nil, nil)
	h.srv.FailNext("getUpdates", http.StatusUnauthorized, 0)
	err := h.a.Run(ctxT(t), h.sink)
	if !errors.Is(err, telegram.ErrUnauthorized) || !strings.Contains(err.Error(), "HAVEN_TELEGRAM_TOKEN") {
		t.Fatalf("Run = %v, want ErrUnauthorized naming HAVEN_TELEGRAM_TOKEN", err)
	}
}

func TestInvalidTokenGivesAClearError(t *testing.T) {
	srv := telegramtest.NewServer(token)
	t.Cleanup(srv.Close)
	h := newHarness(t, srv, func(o *telegram.Options) { o.Token = "999:wrong" })
	err := h.a.Run(ctxT(t), h.sink)
	if !errors.Is(err, telegram.ErrUnauthorized) || !strings.Contains(err.Error(), "HAVEN_TELEGRAM_TOKEN") {
		t.Fatalf("Run = %v, want ErrUnauthorized naming HAVEN_TELEGRAM_TOKEN", err)
	}
	if strings.Contains(err.Error(), "999:wrong") {
		t.Errorf("error %q shows the token", err)
	}
}

func TestUnreachableAPIFailsAfterRetries(t *testing.T) {
	srv := telegramtest.NewServer(token)
	ep := srv.APIEndpoint()
	srv.Close()
	h := newHarness(t, srv, func(o *telegram.Options) { o.APIEndpoint = ep })
	err := h.a.Run(ctxT(t), h.sink)
	if err == nil || !containsAll(err.Error(), "cannot reach the Bot API", "HAVEN_TELEGRAM_API_URL") {
		t.Fatalf("Run = %v, want a clear unreachable error", err)
	}
	if strings.Contains(err.Error(), token) {
		t.Errorf("error %q shows the token", err)
	}
	if n := len(h.sleeps.waits()); n != 7 {
		t.Errorf("backed off %d times, want 7 (8 attempts)", n)
	}
}

func TestNewRejectsBadOptions(t *testing.T) {
	cases := []struct {
		name string
		opts telegram.Options
		want string
	}{
		{"no token", telegram.Options{}, "HAVEN_TELEGRAM_TOKEN"},
		{"token with a slash", telegram.Options{Token: "1:a/b"}, "HAVEN_TELEGRAM_TOKEN"},
		{"endpoint without placeholders", telegram.Options{Token: token, APIEndpoint: "http://127.0.0.1:1/"}, "HAVEN_TELEGRAM_API_URL"},
		{"endpoint not http", telegram.Options{Token: token, APIEndpoint: "ftp://x/bot%s/%s"}, "HAVEN_TELEGRAM_API_URL"},
		{"webhook without secret", telegram.Options{Token: token, Mode: telegram.ModeWebhook}, "HAVEN_TELEGRAM_WEBHOOK_SECRET is empty"},
		{"webhook secret with bad characters", telegram.Options{Token: token, Mode: telegram.ModeWebhook, WebhookSecret: "a b"}, "HAVEN_TELEGRAM_WEBHOOK_SECRET must be 1-256 characters"},
		{"unknown mode", telegram.Options{Token: token, Mode: "push"}, `telegram.mode "push" is unknown`},
		{"admin not namespaced", telegram.Options{Token: token, Admins: []string{"12345"}}, `admin "12345"`},
		{"telegram admin not numeric", telegram.Options{Token: token, Admins: []string{"slack:T1:U1", "telegram::bob"}}, `admin "telegram::bob"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := telegram.New(c.opts)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("New = %v, want an error mentioning %q", err, c.want)
			}
		})
	}
}

func TestGroupAdminComesFromGetChatMember(t *testing.T) {
	srv := telegramtest.NewServer(token)
	t.Cleanup(srv.Close)
	carol := tgbotapi.User{ID: 44, FirstName: "Carol"}
	srv.SetMemberStatus(group.ID, alice.ID, "administrator")
	srv.SetMemberStatus(group.ID, carol.ID, "creator")
	h := newHarness(t, srv, func(o *telegram.Options) { o.Admins = []string{"slack:T1:U43", "telegram::43"} }).start(t)

	cases := []struct {
		from  tgbotapi.User
		text  string
		admin bool
		calls int // getChatMember calls so far
	}{
		{alice, "hello", false, 0},                                    // not a command: no lookup
		{alice, "/reset", true, 1},                                    // administrator
		{alice, "/whoami", true, 1},                                   // cached
		{carol, "/reset", true, 2},                                    // creator
		{bob, "/reset", true, 2},                                      // configured admin: no lookup
		{tgbotapi.User{ID: 45, FirstName: "Dan"}, "/reset", false, 3}, // member
	}
	for _, c := range cases {
		srv.Inject(srv.NewMessage(group, c.from, c.text))
		in := h.sink.next(t)
		if in.Author.PlatformAdmin != c.admin {
			t.Errorf("%s %q: PlatformAdmin = %v, want %v", c.from.FirstName, c.text, in.Author.PlatformAdmin, c.admin)
		}
		if n := srv.Calls("getChatMember"); n != c.calls {
			t.Errorf("%s %q: getChatMember calls = %d, want %d", c.from.FirstName, c.text, n, c.calls)
		}
	}
}

func TestTwoInstancesOnOneTokenBothReportTheConflict(t *testing.T) {
	srv := telegramtest.NewServer(token)
	t.Cleanup(srv.Close)
	first := newHarness(t, srv, nil).start(t)
	if err := srv.WaitPolling(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	// The second instance waits for real (until the test ends) after its
	// first failure, so the two do not spin against each other.
	second := newHarness(t, srv, nil)
	blocked := make(chan struct{})
	telegram.SetSleep(second.a, func(ctx context.Context, d time.Duration) error {
		close(blocked)
		<-ctx.Done()
		return ctx.Err()
	})
	second.start(t)
	select {
	case <-blocked:
	case <-ctxT(t).Done():
		t.Fatal("the second instance never failed")
	}
	srv.Inject(srv.NewMessage(telegramtest.PrivateChat(alice), alice, "hello"))
	if in := first.sink.next(t); in.Text != "hello" {
		t.Fatalf("got %q", in.Text)
	}
	for name, h := range map[string]*harness{"first": first, "second": second} {
		if !strings.Contains(h.logs.String(), "another instance is polling the same bot token") {
			t.Errorf("%s instance did not report the conflict:\n%s", name, h.logs.String())
		}
	}
}

func TestLivenessFollowsThePollLoop(t *testing.T) {
	at := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	h := newHarness(t, nil, func(o *telegram.Options) { o.Clock = func() time.Time { return at } })
	if l := h.a.Liveness(); l.Connected || !l.LastEvent.IsZero() || !l.LastHeartbeat.IsZero() {
		t.Fatalf("before Run: %+v, want nothing", l)
	}
	h.start(t)
	h.srv.Inject(h.srv.NewMessage(telegramtest.PrivateChat(alice), alice, "hello"))
	h.sink.next(t)
	if l := h.a.Liveness(); !l.Connected || !l.LastEvent.Equal(at) || !l.LastHeartbeat.Equal(at) {
		t.Fatalf("after an update: %+v, want connected with event and heartbeat at %s", l, at)
	}
	h.stop(t)
	if l := h.a.Liveness(); l.Connected {
		t.Fatalf("after Run returned: %+v, want not connected", l)
	}
}

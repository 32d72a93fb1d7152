package slack_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/havenbot/haven/adapters/slack"
	"github.com/havenbot/haven/adapters/slack/slacktest"
	"github.com/havenbot/haven/channels"
)

func TestMessagesBecomeInboundsByConversationKind(t *testing.T) {
	h := newHarness(t, nil, slack.ModeSocket, nil).start(t)
	root := h.srv.Message(slacktest.Message{Channel: general.ID, User: ben.ID, Text: "a thread"}) // not addressed
	if in := h.sink.next(t); in.MentionsBot {
		t.Fatalf("an unaddressed channel message counts as addressed: %+v", in)
	}
	tests := []struct {
		name    string
		msg     slacktest.Message
		kind    channels.Kind
		text    string
		thread  string
		address bool
	}{
		{"DM", slacktest.Message{Channel: h.srv.DM(ana.ID), User: ana.ID, Text: "I had a rough day"}, channels.KindDM, "I had a rough day", "", true},
		{"channel mention", slacktest.Message{Channel: general.ID, User: ana.ID, Text: mention("can you help?")}, channels.KindChannel, "can you help?", "", true},
		{"private channel mention", slacktest.Message{Channel: private.ID, User: ana.ID, Text: mention("hi")}, channels.KindChannel, "hi", "", true},
		{"group DM mention", slacktest.Message{Channel: mpim.ID, User: ana.ID, Text: mention("hi all")}, channels.KindGroup, "hi all", "", true},
		{"channel message without a mention", slacktest.Message{Channel: general.ID, User: ana.ID, Text: "lunch?"}, channels.KindChannel, "lunch?", "", false},
		{"thread reply with a mention", slacktest.Message{Channel: general.ID, User: ana.ID, Text: mention("and you?"), ThreadTS: root.TS, ParentUser: ben.ID}, channels.KindChannel, "and you?", root.TS, true},
		{"thread reply in a thread Haven started", slacktest.Message{Channel: general.ID, User: ana.ID, Text: "thanks", ThreadTS: "1700000000.999999", ParentUser: slacktest.DefaultBotUser}, channels.KindChannel, "thanks", "1700000000.999999", true},
		{"thread reply in another's thread", slacktest.Message{Channel: general.ID, User: ana.ID, Text: "agreed", ThreadTS: root.TS, ParentUser: ben.ID}, channels.KindChannel, "agreed", root.TS, false},
		{"escapes decoded", slacktest.Message{Channel: h.srv.DM(ana.ID), User: ana.ID, Text: slacktest.Escape("a <b> & c")}, channels.KindDM, "a <b> & c", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev := h.srv.Message(tt.msg)
			in := h.sink.next(t)
			want := channels.Inbound{
				Platform: "slack", Workspace: slacktest.DefaultTeam,
				Conversation: channels.Conversation{ID: ns(tt.msg.Channel), Kind: tt.kind, ThreadID: tt.thread},
				MessageID:    ns(tt.msg.Channel + ":" + ev.TS),
				DeliveryKey:  ns("msg:" + tt.msg.Channel + ":" + ev.TS),
				Author:       channels.Author{ID: ns(ana.ID), Display: "Ana"},
				MentionsBot:  tt.address, Text: tt.text, Locale: "en-US", TimeZone: ana.TZ,
			}
			if !tt.address {
				want.Author.Display, want.Locale, want.TimeZone = "", "", "" // users.info is not asked for messages Haven ignores
			}
			in.ReceivedAt = time.Time{}
			if in != want {
				t.Errorf("accepted\n%+v\nwant\n%+v", in, want)
			}
			if ev.MentionID != "" {
				// The app_mention twin has the same delivery key.
				if twin := h.sink.next(t); twin.DeliveryKey != want.DeliveryKey || twin.Conversation.Kind != tt.kind {
					t.Errorf("the app_mention twin gave %+v, want the same delivery key %s and kind %s", twin, want.DeliveryKey, tt.kind)
				}
			}
		})
	}
}

func TestNonHumanMessagesAreDropped(t *testing.T) {
	h := newHarness(t, nil, slack.ModeSocket, nil).start(t)
	robot := slacktest.User{ID: "U0ROBOT", Name: "robot", IsBot: true}
	h.srv.AddUser(robot)
	drops := []slacktest.Message{
		{Channel: h.srv.DM(ana.ID), User: ana.ID, Text: "from an app", BotID: "B0OTHER"},
		{Channel: general.ID, User: h.srv.BotUser(), Text: mention("Haven's own words"), BotID: h.srv.BotID()},
		{Channel: general.ID, User: h.srv.BotUser(), Text: mention("Haven's own words, no bot_id")},
		{Channel: general.ID, User: ana.ID, Text: mention("joined"), Subtype: "channel_join"},
		{Channel: general.ID, User: ana.ID, Text: mention("gone"), Subtype: "message_deleted"},
		{Channel: h.srv.DM(ana.ID), User: ana.ID, Text: "legacy bot", Subtype: "bot_message"},
		{Channel: h.srv.DM(robot.ID), User: robot.ID, Text: "a bot user without bot_id"},
	}
	for _, m := range drops {
		h.srv.Message(m)
	}
	dm := h.srv.Message(slacktest.Message{Channel: h.srv.DM(ana.ID), User: ana.ID, Text: "first"})
	if in := h.sink.next(t); in.Text != "first" {
		t.Fatalf("accepted %q, want only the person's message", in.Text)
	}
	h.srv.Edit(dm, ana.ID, "first, edited")
	h.marker(t)
	h.expectMarker(t)
}

func TestAppMentionAndItsMessageTwinGetOneTurn(t *testing.T) {
	h := newHarness(t, nil, slack.ModeSocket, nil)
	core := &echoCore{}
	run := runHub(t, h, core, nil, nil)
	ev := h.srv.Message(slacktest.Message{Channel: general.ID, User: ana.ID, Text: mention("just once")})
	if ev.MentionID == "" {
		t.Fatal("the fake sent no app_mention twin")
	}
	h.marker(t)
	posts, err := h.srv.WaitPosts(ctxT(t), 2)
	if err != nil {
		t.Fatal(err)
	}
	var inGeneral []slacktest.Post
	for _, p := range posts {
		if p.Channel == general.ID {
			inGeneral = append(inGeneral, p)
		}
	}
	if len(inGeneral) != 1 || inGeneral[0].Plain != "echo: just once" || inGeneral[0].ThreadTS != ev.TS {
		t.Errorf("posted %+v, want one threaded answer to the mention (and the marker's in its DM)", posts)
	}
	if n := core.count("just once"); n != 1 {
		t.Errorf("the core ran %d turns for a message and its app_mention twin, want 1", n)
	}
	if st := run.hub.Stats(); st.Duplicates != 1 {
		t.Errorf("hub duplicates = %d, want 1 (the twin)", st.Duplicates)
	}
}

func TestThreadMentionIsAnsweredInItsThread(t *testing.T) {
	h := newHarness(t, nil, slack.ModeSocket, nil)
	runHub(t, h, &echoCore{}, nil, nil)
	root := h.srv.Message(slacktest.Message{Channel: general.ID, User: ben.ID, Text: "what does everyone think?"})
	h.srv.Message(slacktest.Message{Channel: general.ID, User: ana.ID, Text: mention("what do you think?"), ThreadTS: root.TS, ParentUser: ben.ID})
	dm := h.srv.DM(ana.ID)
	h.srv.Message(slacktest.Message{Channel: dm, User: ana.ID, Text: "in a DM thread", ThreadTS: "1700000000.000001"})
	posts, err := h.srv.WaitPosts(ctxT(t), 2)
	if err != nil {
		t.Fatal(err)
	}
	if posts[0].Channel != general.ID {
		posts[0], posts[1] = posts[1], posts[0] // two conversations: either may be first
	}
	if p := posts[0]; p.Channel != general.ID || p.ThreadTS != root.TS || p.Plain != "echo: what do you think?" {
		t.Errorf("posted %+v, want the answer in the thread %s", p, root.TS)
	}
	if p := posts[1]; p.Channel != dm || p.ThreadTS != "1700000000.000001" {
		t.Errorf("posted %+v, want the DM answer in the DM's thread", p)
	}
}

func TestRedeliveredEventIDIsDroppedBeforeTheHub(t *testing.T) {
	h := newHarness(t, nil, slack.ModeSocket, nil).start(t)
	ev := h.srv.Message(slacktest.Message{Channel: h.srv.DM(ana.ID), User: ana.ID, Text: "once"})
	h.sink.next(t)
	h.srv.Redeliver(ev.ID)
	h.marker(t)
	h.expectMarker(t)
	if st := h.a.Stats(); st.Duplicates != 1 {
		t.Errorf("Stats().Duplicates = %d, want 1", st.Duplicates)
	}
}

func TestEnvelopesAreAckedBeforeTheHubTakesThem(t *testing.T) {
	h := newHarness(t, nil, slack.ModeSocket, nil)
	h.sink.block = make(chan struct{})
	h.start(t)
	h.srv.Message(slacktest.Message{Channel: h.srv.DM(ana.ID), User: ana.ID, Text: "hello"})
	h.srv.Slash(general.ID, ana.ID, "/haven", "status")
	// The sink is holding the first event: the acks came anyway.
	if err := h.srv.WaitDelivered(ctxT(t)); err != nil {
		t.Fatalf("%v; %d envelopes still waiting for their ack", err, h.srv.Pending())
	}
	close(h.sink.block)
	if in := h.sink.next(t); in.Text != "hello" {
		t.Fatalf("accepted %q", in.Text)
	}
	if in := h.sink.next(t); in.Text != "/haven status" {
		t.Fatalf("accepted %q", in.Text)
	}
}

func TestSocketReconnectsWithAFreshURL(t *testing.T) {
	tests := []struct {
		name  string
		brk   func(*slacktest.Server)
		fresh bool // the fake must have pinged first
	}{
		{"after a disconnect envelope", (*slacktest.Server).Disconnect, false},
		{"after the socket drops", func(s *slacktest.Server) { s.DropConnections() }, false},
		{"after pings stop", (*slacktest.Server).Silence, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newFake(t, slacktest.WithPingInterval(20*time.Millisecond))
			h := newHarness(t, srv, slack.ModeSocket, func(o *slack.Options) { o.PingTimeout = 300 * time.Millisecond }).start(t)
			h.srv.Message(slacktest.Message{Channel: h.srv.DM(ana.ID), User: ana.ID, Text: "before"})
			if in := h.sink.next(t); in.Text != "before" {
				t.Fatalf("accepted %q", in.Text)
			}
			tt.brk(h.srv)
			if err := h.srv.WaitConnected(ctxT(t), 2); err != nil {
				t.Fatal(err)
			}
			h.srv.Message(slacktest.Message{Channel: h.srv.DM(ana.ID), User: ana.ID, Text: "after"})
			if in := h.sink.next(t); in.Text != "after" {
				t.Fatalf("accepted %q after the reconnect", in.Text)
			}
			if n := h.srv.ConnectionsOpened(); n < 2 {
				t.Errorf("apps.connections.open was called %d times, want a fresh URL for the new socket", n)
			}
			if !h.a.Liveness().Connected {
				t.Error("Liveness().Connected is false on a working socket")
			}
		})
	}
}

func TestAnEnvelopeNotAckedBeforeTheSocketDropsIsTakenOnceFromItsRetry(t *testing.T) {
	h := newHarness(t, nil, slack.ModeSocket, nil).start(t)
	ev := h.srv.Message(slacktest.Message{Channel: h.srv.DM(ana.ID), User: ana.ID, Text: "once"})
	h.sink.next(t)
	h.srv.Redeliver(ev.ID) // as Slack does after a socket drops before the ack arrives
	h.srv.DropConnections()
	h.marker(t)
	h.expectMarker(t)
}

func TestBadTokensStopRunNamingTheVariable(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(*slack.Options)
		want  error
		names string
	}{
		{"bot token", func(o *slack.Options) { o.BotToken = "xoxb-wrong" }, slack.ErrBotToken, "HAVEN_SLACK_BOT_TOKEN"},
		{"app token", func(o *slack.Options) { o.AppToken = "xapp-wrong" }, slack.ErrAppToken, "HAVEN_SLACK_APP_TOKEN"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, nil, slack.ModeSocket, tt.edit)
			err := h.a.Run(ctxT(t), h.sink)
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.names) {
				t.Fatalf("Run = %v, want %v naming %s", err, tt.want, tt.names)
			}
			if strings.Contains(err.Error(), "wrong") {
				t.Errorf("the error quotes the token: %v", err)
			}
		})
	}
}

func TestLocaleHintsNameThePersonsCountry(t *testing.T) {
	h := newHarness(t, nil, slack.ModeSocket, nil).start(t)
	tests := []struct {
		user slacktest.User
		want string
	}{
		{ana, "en-US"}, // en-US, America/Chicago
		{ben, "en-GB"}, // en-US, Europe/London: the time zone says where he is
		{cy, ""},       // neither
	}
	for _, tt := range tests {
		h.srv.Message(slacktest.Message{Channel: h.srv.DM(tt.user.ID), User: tt.user.ID, Text: "hi"})
		if in := h.sink.next(t); in.Locale != tt.want {
			t.Errorf("%s: Locale %q, want %q", tt.user.Name, in.Locale, tt.want)
		}
	}
}

func TestAdminFlagComesFromUsersInfoOrTheAdminListAndFailsClosed(t *testing.T) {
	dana := slacktest.User{ID: "U0DANA", Name: "dana", IsOwner: true}
	eve := slacktest.User{ID: "U0EVE", Name: "eve", IsAdmin: true}
	h := newHarness(t, nil, slack.ModeSocket, func(o *slack.Options) {
		o.Admins = []string{"telegram::42", ns(cy.ID)}
	})
	h.srv.AddUser(dana)
	h.srv.AddUser(eve)
	h.start(t)
	tests := []struct {
		name  string
		user  string
		fail  bool
		admin bool
	}{
		{"a member", ana.ID, false, false},
		{"a workspace owner", dana.ID, false, true},
		{"an admin whose users.info fails", eve.ID, true, false},
		{"a configured admin whose users.info fails", cy.ID, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.fail {
				h.srv.FailNext("users.info", slacktest.Failure{Status: 500})
			}
			h.srv.Slash(general.ID, tt.user, "/haven", "pause")
			in := h.sink.next(t)
			if in.Author.ID != ns(tt.user) || in.Author.PlatformAdmin != tt.admin {
				t.Errorf("author %+v, want %s with PlatformAdmin %v", in.Author, ns(tt.user), tt.admin)
			}
		})
	}
	if !strings.Contains(h.logs.String(), "users.info failed") {
		t.Error("the failed lookup is not logged")
	}
}

func TestSlashCommandReachesTheCoreAsAnAdminCommand(t *testing.T) {
	for _, mode := range []string{slack.ModeSocket, slack.ModeHTTP} {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, nil, mode, nil).start(t)
			h.srv.Slash(general.ID, ana.ID, "/other", "not ours")
			trigger := h.srv.Slash(general.ID, ana.ID, "/haven", "  pause   now ")
			in := h.sink.next(t)
			want := channels.Inbound{
				Platform: "slack", Workspace: slacktest.DefaultTeam,
				Conversation: channels.Conversation{ID: ns(general.ID), Kind: channels.KindChannel},
				MessageID:    ns(general.ID + ":cmd:" + ana.ID + ":" + trigger),
				DeliveryKey:  ns("cmd:" + trigger),
				Author:       channels.Author{ID: ns(ana.ID), Display: "Ana"},
				MentionsBot:  true, Text: "/haven pause now", Locale: "en-US", TimeZone: ana.TZ,
			}
			in.ReceivedAt = time.Time{}
			if in != want {
				t.Errorf("accepted\n%+v\nwant\n%+v", in, want)
			}
			h.srv.Slash(h.srv.DM(ben.ID), ben.ID, "/haven", "")
			if in := h.sink.next(t); in.Text != "/haven" || in.Conversation.Kind != channels.KindDM {
				t.Errorf("a bare /haven in a DM gave %+v", in)
			}
		})
	}
}

func TestLivenessFollowsTheSocketAndItsPings(t *testing.T) {
	srv := newFake(t, slacktest.WithPingInterval(10*time.Millisecond))
	// A clock that moves one second a call and says when it was read: the
	// adapter reads it for every sign of life.
	base := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	var calls atomic.Int64
	reads := make(chan time.Time, 1000)
	clock := func() time.Time {
		now := base.Add(time.Duration(calls.Add(1)) * time.Second)
		select {
		case reads <- now:
		default:
		}
		return now
	}
	h := newHarness(t, srv, slack.ModeSocket, func(o *slack.Options) { o.Clock = clock })
	if l := h.a.Liveness(); l.Connected || !l.LastEvent.IsZero() || !l.LastHeartbeat.IsZero() {
		t.Fatalf("Liveness before Run = %+v, want zero", l)
	}
	h.start(t)
	first := h.a.Liveness()
	if !first.Connected || first.LastHeartbeat.IsZero() || !first.LastEvent.IsZero() {
		t.Fatalf("Liveness after hello = %+v, want connected, heard, no event", first)
	}
	// With no event at all, the pings keep the heartbeat moving. Each clock
	// read is a sign of life being recorded; the store lands just after
	// the read, so check again at each later read until it shows.
	timeout := time.After(10 * time.Second)
	for moved := false; !moved; {
		select {
		case <-reads:
			moved = h.a.Liveness().LastHeartbeat.After(first.LastHeartbeat)
		case <-timeout:
			t.Fatalf("LastHeartbeat stayed %v while Slack pinged", first.LastHeartbeat)
		}
	}
	if !h.a.Liveness().LastEvent.IsZero() {
		t.Fatal("a ping counted as an event")
	}
	h.srv.Message(slacktest.Message{Channel: h.srv.DM(ana.ID), User: ana.ID, Text: "hi"})
	h.sink.next(t)
	if h.a.Liveness().LastEvent.IsZero() {
		t.Error("LastEvent is zero after an event")
	}
	h.stop(t)
	if h.a.Liveness().Connected {
		t.Error("Liveness().Connected after Run returned")
	}
}

func TestRunRefusesASecondRunAndANilSink(t *testing.T) {
	h := newHarness(t, nil, slack.ModeSocket, nil)
	if err := h.a.Run(context.Background(), nil); err == nil {
		t.Error("Run(nil sink) = nil")
	}
	h.start(t)
	if err := h.a.Run(context.Background(), h.sink); err == nil || !strings.Contains(err.Error(), "already running") {
		t.Errorf("a second Run = %v", err)
	}
}

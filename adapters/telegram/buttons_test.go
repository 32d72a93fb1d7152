package telegram_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/havenbot/haven/adapters/telegram"
	"github.com/havenbot/haven/adapters/telegram/telegramtest"
	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/channels/channelstest"
)

var yesNo = []channels.Choice{{Label: "Yes", Text: "yes"}, {Label: "No", Text: "no"}}

const question = "Shall I remind you to take a walk at 6? Reply yes or no."

func TestSendRendersChoicesAsInlineButtons(t *testing.T) {
	h := newHarness(t, nil, nil)
	h.srv.StartPrivate(alice)
	cases := []struct {
		name    string
		choices []channels.Choice
		want    string // telegramtest.DescribeButtons
	}{
		{"yes and no share a row", yesNo, "[Yes=hv1:yes No=hv1:no]"},
		{"more than three choices go one to a row",
			[]channels.Choice{{Label: "1", Text: "1"}, {Label: "2", Text: "2"}, {Label: "3", Text: "3"}, {Label: "4", Text: "4"}},
			"[1=hv1:1][2=hv1:2][3=hv1:3][4=hv1:4]"},
		{"a long label gets a row of its own",
			[]channels.Choice{{Label: "Yes, remind me every day", Text: "yes"}, {Label: "No", Text: "no"}},
			"[Yes, remind me every day=hv1:yes][No=hv1:no]"},
		{"no choices send no reply_markup at all", nil, ""},
		{"choices that do not fit are left off, the text still goes",
			[]channels.Choice{{Label: "Yes", Text: "yes"}, {Label: "Also yes", Text: "yes"}}, ""},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := channels.Outbound{Platform: "telegram", Conversation: dmConv, Kind: channels.OutReply, Text: question, Choices: c.choices}
			if err := h.a.Send(ctxT(t), out); err != nil {
				t.Fatal(err)
			}
			s := h.srv.Sent()[i]
			if got := telegramtest.DescribeButtons(s.Buttons); got != c.want {
				t.Errorf("buttons %s, want %s", got, c.want)
			}
			if c.want == "" && s.ReplyMarkup != "" {
				t.Errorf("reply_markup %q sent for a message without buttons", s.ReplyMarkup)
			}
			if s.Plain != question {
				t.Errorf("text %q, want the question", s.Plain)
			}
		})
	}
}

func TestSendFileCarriesChoicesUnderTheFile(t *testing.T) {
	h := newHarness(t, nil, nil)
	h.srv.StartPrivate(alice)
	out := channels.Outbound{Conversation: dmConv, Text: "Your mood chart. Keep it?", File: chartFile(t), Choices: yesNo}
	if err := h.a.SendFile(ctxT(t), out); err != nil {
		t.Fatal(err)
	}
	doc := &channels.File{Name: "export.json", ContentType: "application/json", Data: []byte(`{}`)}
	out.File = doc
	if err := h.a.SendFile(ctxT(t), out); err != nil {
		t.Fatal(err)
	}
	out.Choices = nil
	if err := h.a.SendFile(ctxT(t), out); err != nil {
		t.Fatal(err)
	}
	ps, ds := h.srv.Photos(), h.srv.Documents()
	if len(ps) != 1 || len(ds) != 2 {
		t.Fatalf("%d photos and %d documents, want 1 and 2", len(ps), len(ds))
	}
	for name, b := range map[string][][]tgbotapi.InlineKeyboardButton{"photo": ps[0].Buttons, "document": ds[0].Buttons} {
		if got := telegramtest.DescribeButtons(b); got != "[Yes=hv1:yes No=hv1:no]" {
			t.Errorf("%s buttons %s", name, got)
		}
	}
	if ds[1].Buttons != nil {
		t.Errorf("a file without choices has buttons %v", ds[1].Buttons)
	}
}

// sendQuestion has the adapter send the approval question with Yes / No
// and returns the message Telegram made of it.
func sendQuestion(t *testing.T, h *harness, out channels.Outbound) *tgbotapi.Message {
	t.Helper()
	n := len(h.srv.Sent())
	out.Text, out.Choices = question, yesNo
	if err := h.a.Send(ctxT(t), out); err != nil {
		t.Fatal(err)
	}
	return h.srv.Sent()[n].Message
}

func TestAPressInADMIsOneInboundAcknowledgedFirstAndItsButtonsGo(t *testing.T) {
	h := newHarness(t, nil, nil)
	h.srv.StartPrivate(alice)
	answered := make(chan int, 10) // answers Telegram had when the sink got the press
	h.sink.before = func(channels.Inbound) { answered <- len(h.srv.CallbackAnswers()) }
	h.start(t)
	<-h.a.Ready()
	q := sendQuestion(t, h, channels.Outbound{Conversation: dmConv, Kind: channels.OutReply})

	_, qid, err := h.srv.Press(alice, q, "Yes")
	if err != nil {
		t.Fatal(err)
	}
	in := h.sink.next(t)
	if n := <-answered; n != 1 {
		t.Errorf("the sink got the press with %d callback answers, want it answered first", n)
	}
	want := channels.Inbound{
		Platform:     "telegram",
		Conversation: channels.Conversation{ID: "telegram::42", Kind: channels.KindDM},
		MessageID:    fmt.Sprintf("telegram::42:%d", q.MessageID),
		DeliveryKey:  "telegram::callback:" + qid,
		Author:       channels.Author{ID: "telegram::42", Display: "Alice Liddell"},
		MentionsBot:  true,
		Text:         "yes",
		Locale:       "en-GB",
	}
	if in.ReceivedAt.IsZero() {
		t.Error("ReceivedAt is zero")
	}
	in.ReceivedAt = time.Time{}
	if in != want {
		t.Errorf("inbound\n got %+v\nwant %+v", in, want)
	}
	if a := h.srv.CallbackAnswers(); len(a) != 1 || a[0].QueryID != qid || a[0].Text != "" {
		t.Errorf("callback answers %+v, want one silent answer to %s", a, qid)
	}
	if err := h.srv.WaitButtonsGone(ctxT(t), alice.ID, q.MessageID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := h.srv.Press(alice, q, "No"); err == nil {
		t.Error("the other button could still be pressed")
	}
}

func TestAPressInAGroupIsFromThePresserAndKeepsButtonsForTheOneAsked(t *testing.T) {
	h := newHarness(t, nil, func(o *telegram.Options) { o.Admins = []string{"telegram::43"} })
	h.start(t)
	<-h.a.Ready()
	asked := h.srv.NewMessage(group, alice, "@HavenTestBot remind me to walk at 6")
	h.srv.Inject(asked)
	h.sink.next(t)
	q := sendQuestion(t, h, channels.Outbound{Conversation: groupConv, Kind: channels.OutReply,
		ReplyTo: fmt.Sprintf("telegram::%d:%d", group.ID, asked.MessageID)})

	// Bob, a configured admin, presses first: his "no" goes to the Hub as
	// his, and the buttons stay for Alice.
	if _, _, err := h.srv.Press(bob, q, "No"); err != nil {
		t.Fatal(err)
	}
	in := h.sink.next(t)
	conv := channels.Conversation{ID: fmt.Sprintf("telegram::%d", group.ID), Kind: channels.KindGroup}
	if in.Author.ID != "telegram::43" || !in.Author.PlatformAdmin || in.Conversation != conv || in.Text != "no" || !in.MentionsBot || in.Locale != "de" {
		t.Errorf("Bob's press became %+v", in)
	}
	// Presses are handled in order: Alice's is pressable only if Bob's
	// left the buttons.
	_, qid, err := h.srv.Press(alice, q, "Yes")
	if err != nil {
		t.Fatalf("after a bystander's press: %v", err)
	}
	in = h.sink.next(t)
	if in.Author.ID != "telegram::42" || in.Author.PlatformAdmin || in.Conversation != conv || in.Text != "yes" || !in.MentionsBot ||
		in.DeliveryKey != "telegram::callback:"+qid || in.MessageID != fmt.Sprintf("telegram::%d:%d", group.ID, q.MessageID) {
		t.Errorf("Alice's press became %+v", in)
	}
	if err := h.srv.WaitButtonsGone(ctxT(t), group.ID, q.MessageID); err != nil {
		t.Fatal(err)
	}
	if n := len(h.srv.CallbackAnswers()); n != 2 {
		t.Errorf("%d callback answers, want both presses answered", n)
	}
}

func TestARedeliveredPressKeepsItsDeliveryKey(t *testing.T) {
	h := newHarness(t, nil, nil)
	h.srv.StartPrivate(alice)
	h.start(t)
	<-h.a.Ready()
	q := sendQuestion(t, h, channels.Outbound{Conversation: dmConv, Kind: channels.OutReply})
	// Telegram sends the same callback query again (the bot restarted
	// before confirming it): a new update id, the same query.
	data := "hv1:yes"
	press := &tgbotapi.CallbackQuery{ID: "777", From: &alice, Message: q, Data: data, ChatInstance: "ci"}
	h.srv.InjectUpdate(tgbotapi.Update{CallbackQuery: press})
	h.srv.InjectUpdate(tgbotapi.Update{CallbackQuery: press})
	first, second := h.sink.next(t), h.sink.next(t)
	if first.DeliveryKey != "telegram::callback:777" || second.DeliveryKey != first.DeliveryKey {
		t.Errorf("delivery keys %q and %q, want both telegram::callback:777 so the Hub makes one turn", first.DeliveryKey, second.DeliveryKey)
	}
}

func TestAPressOnAButtonHavenDidNotMakeIsSkipped(t *testing.T) {
	h := newHarness(t, nil, nil)
	h.srv.StartPrivate(alice)
	h.start(t)
	<-h.a.Ready()
	q := sendQuestion(t, h, channels.Outbound{Conversation: dmConv, Kind: channels.OutReply})
	notHavens := h.srv.NewMessage(telegramtest.PrivateChat(alice), alice, "mine")
	skipped := []struct {
		name string
		msg  *tgbotapi.Message
		data string
	}{
		{"data of another bot or version", q, "vote:42"},
		{"the prefix alone", q, "hv1:"},
		{"a text longer than a choice's", q, "hv1:" + strings.Repeat("y", 33)},
		{"no data (a game button)", q, ""},
		{"no message (inline mode)", nil, "hv1:yes"},
		{"a message someone else sent", notHavens, "hv1:yes"},
	}
	for _, c := range skipped {
		h.srv.InjectCallback(alice, c.msg, c.data)
	}
	// A press by a bot is not malformed, only not a person's: ignored.
	h.srv.InjectCallback(tgbotapi.User{ID: 999, IsBot: true, FirstName: "Other"}, q, "hv1:yes")
	h.marker(t)
	h.expectMarker(t)
	if got := h.a.Stats().Skipped; got != uint64(len(skipped)) {
		t.Errorf("Stats().Skipped = %d, want %d", got, len(skipped))
	}
	if n := len(h.srv.CallbackAnswers()); n != len(skipped)+1 {
		t.Errorf("%d callback answers, want every press answered (%d) so no spinner is left", n, len(skipped)+1)
	}
	if h.srv.Buttons(alice.ID, q.MessageID) == nil {
		t.Error("a foreign press removed Haven's buttons")
	}
}

func TestPollingAndTheWebhookAskForButtonPresses(t *testing.T) {
	h := newHarness(t, nil, nil).start(t)
	if err := h.srv.WaitPolling(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	if got := h.srv.AllowedUpdates(); !slices.Contains(got, "callback_query") || !slices.Contains(got, "message") {
		t.Errorf("getUpdates allowed_updates = %v, want messages and callback_query", got)
	}
	wh, _ := webhookHarness(t)
	if got := wh.srv.AllowedUpdates(); !slices.Equal(got, []string{"message", "edited_message", "callback_query"}) {
		t.Errorf("setWebhook allowed_updates = %v", got)
	}
}

func TestAWebhookPressIsAnsweredDeliveredAndItsRedeliveryKeepsTheKey(t *testing.T) {
	h, hook := webhookHarness(t)
	h.srv.StartPrivate(alice)
	q := sendQuestion(t, h, channels.Outbound{Conversation: dmConv, Kind: channels.OutReply})
	_, qid := h.srv.InjectCallback(alice, q, "hv1:no")
	body, err := json.Marshal(tgbotapi.Update{UpdateID: 9, CallbackQuery: &tgbotapi.CallbackQuery{ID: qid, From: &alice, Message: q, Data: "hv1:no"}})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for range 2 { // Telegram resends what it was not sure was taken
		if got := post(t, hook.URL, secret, string(body)); got != http.StatusOK {
			t.Fatalf("status %d", got)
		}
		in := h.sink.next(t)
		if in.Text != "no" || in.Author.ID != "telegram::42" {
			t.Errorf("accepted %+v", in)
		}
		keys = append(keys, in.DeliveryKey)
	}
	if keys[0] != "telegram::callback:"+qid || keys[1] != keys[0] {
		t.Errorf("delivery keys %v, want both telegram::callback:%s", keys, qid)
	}
	if a := h.srv.CallbackAnswers(); len(a) != 1 || a[0].QueryID != qid {
		t.Errorf("callback answers %+v, want the one answer Telegram takes", a)
	}
	if err := h.srv.WaitButtonsGone(ctxT(t), alice.ID, q.MessageID); err != nil {
		t.Fatal(err)
	}
}

func TestThroughTheHubButtonsGoUnderTheLastPieceAndARedeliveredPressIsOneTurn(t *testing.T) {
	h := newHarness(t, nil, nil)
	h.srv.StartPrivate(alice)
	long := strings.Repeat("Here is what I would remind you of. ", 150) + "\n\n" + question // over 4,096: two pieces
	var mu sync.Mutex
	var said []string
	core := channels.HandlerFunc(func(ctx context.Context, in channels.Inbound) ([]channels.Outbound, error) {
		mu.Lock()
		said = append(said, in.Text)
		mu.Unlock()
		if in.Text == "remind me to walk" {
			return []channels.Outbound{{Kind: channels.OutReply, Text: long, Choices: yesNo}}, nil
		}
		return []channels.Outbound{{Kind: channels.OutReply, Text: "ok: " + in.Text}}, nil
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

	h.srv.Inject(h.srv.NewMessage(telegramtest.PrivateChat(alice), alice, "remind me to walk"))
	sent, err := h.srv.WaitSent(ctxT(t), 2)
	if err != nil {
		t.Fatal(err)
	}
	if sent[0].Buttons != nil || sent[0].ReplyMarkup != "" {
		t.Errorf("the first piece has buttons %v", sent[0].Buttons)
	}
	if got := telegramtest.DescribeButtons(sent[1].Buttons); got != "[Yes=hv1:yes No=hv1:no]" {
		t.Fatalf("the last piece has buttons %s", got)
	}
	q := sent[1].Message
	_, qid, err := h.srv.Press(alice, q, "Yes")
	if err != nil {
		t.Fatal(err)
	}
	// Telegram delivers the same press again, then Alice writes.
	h.srv.InjectUpdate(tgbotapi.Update{CallbackQuery: &tgbotapi.CallbackQuery{ID: qid, From: &alice, Message: q, Data: "hv1:yes"}})
	h.srv.Inject(h.srv.NewMessage(telegramtest.PrivateChat(alice), alice, "thanks"))
	sent, err = h.srv.WaitSent(ctxT(t), 4)
	if err != nil {
		t.Fatal(err)
	}
	if sent[2].Plain != "ok: yes" || sent[3].Plain != "ok: thanks" {
		t.Errorf("replies %q, %q; want the press answered once, then the message", sent[2].Plain, sent[3].Plain)
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(said, []string{"remind me to walk", "yes", "thanks"}) {
		t.Errorf("core was told %q, want the press once", said)
	}
}

func TestBoundButtonsAnswerOnlyForThePersonTheyAreFor(t *testing.T) {
	logs := &channelstest.LogBuffer{}
	h := newHarness(t, nil, func(o *telegram.Options) {
		o.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	h.srv.StartPrivate(bob)
	h.srv.AddChat(group)
	h.start(t)
	<-h.a.Ready()
	groupOf := fmt.Sprintf("telegram::%d", group.ID)
	tests := []struct {
		name       string
		choicesFor string
		buttons    string // telegramtest.DescribeButtons
		who        tgbotapi.User
		data       string // pressed instead of the Yes button (an old one)
		answers    bool   // the press is an Inbound saying yes
	}{
		{"Bob presses Alice's buttons", "telegram::42", "[Yes=hv2:42:yes No=hv2:42:no]", bob, "", false},
		{"Alice presses her own buttons", "telegram::42", "[Yes=hv2:42:yes No=hv2:42:no]", alice, "", true},
		{"Bob presses an old button, made before buttons named a person", "", "[Yes=hv1:yes No=hv1:no]", bob, "hv1:yes", true},
		{"Bob presses Alice's buttons with data naming her id with a leading zero", "telegram::42", "[Yes=hv2:42:yes No=hv2:42:no]", bob, "hv2:042:yes", false},
	}
	skipped := uint64(0)
	for _, tt := range tests {
		q := sendQuestion(t, h, channels.Outbound{Conversation: channels.Conversation{ID: groupOf, Kind: channels.KindGroup},
			Kind: channels.OutReply, ChoicesFor: tt.choicesFor})
		if got := telegramtest.DescribeButtons(h.srv.Sent()[len(h.srv.Sent())-1].Buttons); got != tt.buttons {
			t.Fatalf("%s: buttons %s, want %s", tt.name, got, tt.buttons)
		}
		var qid string
		if tt.data != "" {
			_, qid = h.srv.InjectCallback(tt.who, q, tt.data)
		} else {
			var err error
			if _, qid, err = h.srv.Press(tt.who, q, "Yes"); err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
		}
		if tt.answers {
			if in := h.sink.next(t); in.Text != "yes" || in.Author.ID != fmt.Sprintf("telegram::%d", tt.who.ID) || in.DeliveryKey != "telegram::callback:"+qid {
				t.Errorf("%s: inbound %+v, want yes from the presser", tt.name, in)
			}
		} else {
			h.marker(t)
			h.expectMarker(t)
			skipped++
			if h.srv.Buttons(group.ID, q.MessageID) == nil {
				t.Errorf("%s: the refused press removed the buttons", tt.name)
			}
		}
		if got := h.a.Stats().Skipped; got != skipped {
			t.Errorf("%s: Stats().Skipped = %d, want %d", tt.name, got, skipped)
		}
		answers := h.srv.CallbackAnswers()
		i := slices.IndexFunc(answers, func(a telegramtest.CallbackAnswer) bool { return a.QueryID == qid })
		want := ""
		if !tt.answers && tt.data == "" {
			want = channels.NotYourChoices
		}
		if i < 0 || answers[i].Text != want || answers[i].ShowAlert {
			t.Errorf("%s: callback answers %+v, want %s answered with %q shown to the presser alone", tt.name, answers, qid, want)
		}
		if tt.answers && tt.who.ID == alice.ID {
			if err := h.srv.WaitButtonsGone(ctxT(t), group.ID, q.MessageID); err != nil {
				t.Errorf("%s: %v", tt.name, err)
			}
		}
	}
	if l := logs.String(); strings.Count(l, "press by someone the buttons are not for") != 1 || strings.Contains(l, "Bob") || strings.Contains(l, question) {
		t.Errorf("logs:\n%s\nwant the refused press logged once, without names or text", l)
	}
}

func TestABoundButtonFitsTelegramsCallbackDataWithTheLongestIDAndText(t *testing.T) {
	h := newHarness(t, nil, nil)
	longest := tgbotapi.User{ID: math.MaxInt64, FirstName: "Max"} // 19 digits: no user id is longer
	h.srv.StartPrivate(longest)
	h.start(t)
	<-h.a.Ready()
	text := strings.Repeat("y", channels.MaxChoiceText)
	choices := []channels.Choice{{Label: "Yes", Text: text}, {Label: "No", Text: "no"}}
	dm := channels.Conversation{ID: fmt.Sprintf("telegram::%d", longest.ID), Kind: channels.KindDM}
	if err := h.a.Send(ctxT(t), channels.Outbound{Conversation: dm, Kind: channels.OutReply, Text: question, Choices: choices,
		ChoicesFor: fmt.Sprintf("telegram::%d", longest.ID)}); err != nil {
		t.Fatalf("the fake Bot API refused the longest callback data: %v", err)
	}
	s := h.srv.Sent()[0]
	data := s.Buttons[0][0].CallbackData
	if data == nil || *data != fmt.Sprintf("hv2:%d:%s", longest.ID, text) || len(*data) > telegramtest.MaxCallbackData {
		t.Fatalf("callback data %v, want hv2:<id>:<text> within %d bytes", data, telegramtest.MaxCallbackData)
	}
	if _, _, err := h.srv.Press(longest, s.Message, "Yes"); err != nil {
		t.Fatal(err)
	}
	if in := h.sink.next(t); in.Text != text || in.Author.ID != dm.ID {
		t.Errorf("inbound %+v, want %q from the person at the limit", in, text)
	}
}

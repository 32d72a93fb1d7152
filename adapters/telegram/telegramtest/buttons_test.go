package telegramtest_test

import (
	"strings"
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/havenbot/haven/adapters/telegram/telegramtest"
)

func yesNo() tgbotapi.InlineKeyboardMarkup {
	return tgbotapi.NewInlineKeyboardMarkup(tgbotapi.NewInlineKeyboardRow(
		tgbotapi.NewInlineKeyboardButtonData("Yes", "d:yes"),
		tgbotapi.NewInlineKeyboardButtonData("No", "d:no"),
	))
}

// askAlice starts the fake and the bot, and sends Alice, in her private
// chat, "Shall I?" with the yesNo buttons.
func askAlice(t *testing.T) (*telegramtest.Server, *tgbotapi.BotAPI, tgbotapi.Message) {
	t.Helper()
	srv, bot := start(t)
	srv.StartPrivate(alice)
	msg := tgbotapi.NewMessage(alice.ID, "Shall I?")
	msg.ReplyMarkup = yesNo()
	m, err := bot.Send(msg)
	if err != nil {
		t.Fatal(err)
	}
	return srv, bot, m
}

func TestSentButtonsAreRecordedAndCheckedLikeTelegram(t *testing.T) {
	srv, bot, m := askAlice(t)
	s := srv.Sent()[0]
	if got := telegramtest.DescribeButtons(s.Buttons); got != "[Yes=d:yes No=d:no]" {
		t.Errorf("Sent.Buttons = %s", got)
	}
	if got := telegramtest.DescribeButtons(srv.Buttons(alice.ID, m.MessageID)); got != "[Yes=d:yes No=d:no]" {
		t.Errorf("Buttons = %s", got)
	}
	if m.ReplyMarkup == nil || len(m.ReplyMarkup.InlineKeyboard[0]) != 2 {
		t.Errorf("the returned message has no keyboard: %+v", m.ReplyMarkup)
	}
	if _, err := bot.Send(tgbotapi.NewMessage(alice.ID, "plain")); err != nil {
		t.Fatal(err)
	}
	if b := srv.Sent()[1].Buttons; b != nil {
		t.Errorf("a message sent without a keyboard records %v", b)
	}

	long := tgbotapi.NewMessage(alice.ID, "too long")
	long.ReplyMarkup = tgbotapi.NewInlineKeyboardMarkup(tgbotapi.NewInlineKeyboardRow(
		tgbotapi.NewInlineKeyboardButtonData("X", strings.Repeat("x", 65))))
	if _, err := bot.Send(long); err == nil || !strings.Contains(err.Error(), "BUTTON_DATA_INVALID") {
		t.Errorf("65 bytes of callback data: err = %v, want BUTTON_DATA_INVALID", err)
	}
	if len(srv.Sent()) != 2 {
		t.Error("a refused message was recorded")
	}
}

func TestPressQueuesACallbackThatIsAnsweredOnce(t *testing.T) {
	srv, bot, m := askAlice(t)
	if _, _, err := srv.Press(alice, &m, "Maybe"); err == nil {
		t.Error("pressing a button the message does not have succeeded")
	}
	uid, qid, err := srv.Press(alice, &m, "No")
	if err != nil {
		t.Fatal(err)
	}
	us, err := bot.GetUpdates(tgbotapi.UpdateConfig{})
	if err != nil || len(us) != 1 {
		t.Fatalf("GetUpdates = %v, %v", us, err)
	}
	q := us[0].CallbackQuery
	if us[0].UpdateID != uid || q == nil || q.ID != qid || q.Data != "d:no" || q.From.ID != alice.ID ||
		q.Message == nil || q.Message.MessageID != m.MessageID || q.Message.From.ID != srv.Bot().ID {
		t.Fatalf("update = %+v, query %+v", us[0], q)
	}
	if _, err := bot.Request(tgbotapi.NewCallback(qid, "")); err != nil {
		t.Fatalf("answer: %v", err)
	}
	if _, err := bot.Request(tgbotapi.NewCallback(qid, "")); err == nil || !strings.Contains(err.Error(), "query is too old") {
		t.Errorf("a second answer: err = %v, want Telegram's invalid query", err)
	}
	if _, err := bot.Request(tgbotapi.NewCallback("nope", "")); err == nil {
		t.Error("an unknown query id was answered")
	}
	if a := srv.CallbackAnswers(); len(a) != 1 || a[0].QueryID != qid {
		t.Errorf("CallbackAnswers = %+v", a)
	}
}

func TestEditMessageReplyMarkupRemovesButtonsOnlyWithAnEmptyKeyboard(t *testing.T) {
	srv, bot, m := askAlice(t)
	// The zero InlineKeyboardMarkup is {"inline_keyboard":null}: no change.
	if _, err := bot.Request(tgbotapi.NewEditMessageReplyMarkup(alice.ID, m.MessageID, tgbotapi.InlineKeyboardMarkup{})); err == nil || !strings.Contains(err.Error(), "not modified") {
		t.Errorf("null keyboard: err = %v, want message is not modified", err)
	}
	if srv.Buttons(alice.ID, m.MessageID) == nil {
		t.Fatal("a null keyboard removed the buttons")
	}
	empty := tgbotapi.InlineKeyboardMarkup{InlineKeyboard: [][]tgbotapi.InlineKeyboardButton{}}
	if _, err := bot.Request(tgbotapi.NewEditMessageReplyMarkup(alice.ID, m.MessageID, empty)); err != nil {
		t.Fatalf("empty keyboard: %v", err)
	}
	if b := srv.Buttons(alice.ID, m.MessageID); b != nil {
		t.Errorf("buttons still there: %v", b)
	}
	if _, _, err := srv.Press(alice, &m, "Yes"); err == nil {
		t.Error("a removed button could be pressed")
	}
	if _, err := bot.Request(tgbotapi.NewEditMessageReplyMarkup(alice.ID, m.MessageID, empty)); err == nil || !strings.Contains(err.Error(), "not modified") {
		t.Errorf("second removal: err = %v, want message is not modified", err)
	}
	if _, err := bot.Request(tgbotapi.NewEditMessageReplyMarkup(alice.ID, 999, empty)); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("unknown message: err = %v, want message to edit not found", err)
	}
}

func TestCallbacksAreDroppedWhenAllowedUpdatesLeaveThemOut(t *testing.T) {
	srv, bot := start(t)
	srv.StartPrivate(alice)
	m, err := bot.Send(tgbotapi.NewMessage(alice.ID, "hi"))
	if err != nil {
		t.Fatal(err)
	}
	srv.InjectCallback(alice, &m, "d:yes")
	us, err := bot.GetUpdates(tgbotapi.UpdateConfig{AllowedUpdates: []string{"message"}})
	if err != nil || len(us) != 0 {
		t.Errorf("allowed_updates [message]: got %v, %v; want no callback", us, err)
	}
	srv.InjectCallback(alice, &m, "d:yes")
	us, err = bot.GetUpdates(tgbotapi.UpdateConfig{AllowedUpdates: []string{"message", "callback_query"}})
	if err != nil || len(us) != 1 || us[0].CallbackQuery == nil {
		t.Errorf("allowed_updates with callback_query: got %v, %v", us, err)
	}
	if got := srv.AllowedUpdates(); strings.Join(got, ",") != "message,callback_query" {
		t.Errorf("AllowedUpdates = %v", got)
	}
}

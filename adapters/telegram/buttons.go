package telegram

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/havenbot/haven/channels"
)

// callbackPrefix starts the callback data of every button Haven makes; the
// choice's Text follows it. Telegram allows 1-64 bytes of callback data,
// and a choice's Text is at most channels.MaxChoiceText (32) bytes. Data
// without the prefix is not Haven's (a button of another version, or data
// a client forged) and is ignored.
const callbackPrefix = "hv1:"

// maxRowChoices and maxRowLabel decide the layout: up to this many short
// labels share one row (Yes | No); otherwise each button has a row of its
// own, so that a long label is not cut on a phone.
const (
	maxRowChoices = 3
	maxRowLabel   = 12
)

// keyboard renders cs as an inline keyboard, nil when there are none. cs
// fit channels.ChoicesFit (the caller checks).
func keyboard(cs []channels.Choice) *tgbotapi.InlineKeyboardMarkup {
	if len(cs) == 0 {
		return nil
	}
	oneRow := len(cs) <= maxRowChoices
	for _, c := range cs {
		if utf8.RuneCountInString(c.Label) > maxRowLabel {
			oneRow = false
		}
	}
	var rows [][]tgbotapi.InlineKeyboardButton
	for _, c := range cs {
		b := tgbotapi.NewInlineKeyboardButtonData(c.Label, callbackPrefix+c.Text)
		if oneRow && len(rows) == 1 {
			rows[0] = append(rows[0], b)
			continue
		}
		rows = append(rows, []tgbotapi.InlineKeyboardButton{b})
	}
	return &tgbotapi.InlineKeyboardMarkup{InlineKeyboard: rows}
}

// choicesMarkup is the reply markup for out's choices: nil (no
// reply_markup at all, so a message without choices is sent as before)
// when it has none, or when they do not fit what every platform shows (the
// Hub drops those; a direct caller gets the message without buttons, which
// loses nothing: the text says what to type).
func (a *Adapter) choicesMarkup(out channels.Outbound) *tgbotapi.InlineKeyboardMarkup {
	if len(out.Choices) == 0 {
		return nil
	}
	if !channels.ChoicesFit(out.Choices) {
		a.log.Warn("telegram: choices do not fit; sending the message without buttons", slog.Int("choices", len(out.Choices)))
		return nil
	}
	return keyboard(out.Choices)
}

// choiceText reads the choice's Text from a button's callback data,
// trimmed as a typed message's text is; ok is false for data Haven did not
// make.
func choiceText(data string) (string, bool) {
	text, ok := strings.CutPrefix(data, callbackPrefix)
	if !ok || len(text) > channels.MaxChoiceText || !utf8.ValidString(text) {
		return "", false
	}
	text = strings.TrimSpace(text)
	return text, text != ""
}

// pressKey is the Hub's dedupe key for a button press: the callback query
// id, the same however often Telegram delivers the update.
func pressKey(queryID string) string {
	return channels.NamespacedID(Platform, "", "callback:"+queryID)
}

// normalizePress turns a callback query (a press of a button under one of
// Haven's messages) into an Inbound saying the choice's Text, as if the
// person who pressed had typed it where the message is.
func (a *Adapter) normalizePress(ctx context.Context, q *tgbotapi.CallbackQuery, me *tgbotapi.User) normalized {
	n := normalized{press: q}
	switch {
	case q.From == nil:
		n.outcome, n.reason = ignore, "press without a sender"
		return n
	case q.From.IsBot:
		n.outcome, n.reason = ignore, "press by a bot"
		return n
	}
	text, ok := choiceText(q.Data)
	if !ok || q.ID == "" {
		n.outcome, n.reason = skip, "press of a button Haven did not make"
		return n
	}
	m := q.Message
	if m == nil || m.Chat == nil {
		// An inline-mode message: Haven sends none.
		n.outcome, n.reason = skip, "press on a message Haven did not send"
		return n
	}
	if m.From != nil && m.From.ID != me.ID {
		n.outcome, n.reason = skip, "press on a message Haven did not send"
		return n
	}
	kind, ok := chatKind(m.Chat.Type)
	if !ok {
		n.outcome, n.reason = ignore, "press in chat type "+m.Chat.Type
		return n
	}
	n.outcome, n.msg = deliver, m
	n.in = channels.Inbound{
		Platform:     Platform,
		Conversation: channels.Conversation{ID: conversationID(m.Chat.ID), Kind: kind},
		// The message the button is under: a reply quotes Haven's question.
		MessageID:   messageID(m.Chat.ID, m.MessageID),
		DeliveryKey: pressKey(q.ID),
		Author:      a.author(ctx, kind, m.Chat.ID, q.From, text),
		MentionsBot: true, // a press on Haven's own message is addressed to it
		Text:        text,
		Locale:      q.From.LanguageCode,
		ReceivedAt:  a.now(),
	}
	return n
}

// answerPress acknowledges a press to Telegram (answerCallbackQuery), which
// stops the spinner on the person's button. It is done at once, before the
// sink, for every callback query, Haven's or not. A failure (the query is
// too old, as for a press delivered again) is logged and changes nothing.
func (a *Adapter) answerPress(ctx context.Context, q *tgbotapi.CallbackQuery) {
	if q == nil || q.ID == "" {
		return
	}
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := a.api(cctx).Request(tgbotapi.NewCallback(q.ID, "")); err != nil && ctx.Err() == nil {
		a.log.Debug("telegram answerCallbackQuery failed", slog.Any("err", a.redact(err)))
	}
}

// clearButtons removes the buttons from the message a press was on
// (editMessageReplyMarkup with an empty keyboard: the library's zero
// InlineKeyboardMarkup is {"inline_keyboard":null}, which Telegram reads as
// "no change"), in the background, so that the question cannot be answered
// twice. In a group the buttons stay when someone other than the person
// the question answered pressed: that person may still want to. Run waits
// for it before returning.
func (a *Adapter) clearButtons(ctx context.Context, n normalized) {
	m := n.msg
	if n.press == nil || m == nil || m.Chat == nil {
		return
	}
	if n.in.Conversation.Kind != channels.KindDM && m.ReplyToMessage != nil && m.ReplyToMessage.From != nil &&
		m.ReplyToMessage.From.ID != n.press.From.ID {
		a.log.Debug("telegram: buttons kept: pressed by someone the question was not for")
		return
	}
	chatID, msgID := m.Chat.ID, m.MessageID
	a.background(func() {
		cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		empty := tgbotapi.InlineKeyboardMarkup{InlineKeyboard: [][]tgbotapi.InlineKeyboardButton{}}
		_, err := a.api(cctx).Request(tgbotapi.NewEditMessageReplyMarkup(chatID, msgID, empty))
		switch te := apiError(err); {
		case err == nil, errors.Is(err, context.Canceled):
		case te != nil && strings.Contains(te.Message, "message is not modified"):
			a.log.Debug("telegram: buttons already gone", slog.Int64("chat", chatID), slog.Int("message", msgID))
		default:
			a.log.Warn("telegram: cannot remove the buttons of a pressed message", slog.Int64("chat", chatID), slog.Int("message", msgID), slog.Any("err", a.redact(err)))
		}
	})
}

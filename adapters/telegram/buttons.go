package telegram

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/havenbot/haven/channels"
)

// callbackPrefix starts the callback data of a button anyone may press;
// the choice's Text follows it. Telegram allows 1-64 bytes of callback
// data, and a choice's Text is at most channels.MaxChoiceText (32) bytes.
// Data with neither prefix is not Haven's (a button of another version,
// or data a client forged) and is ignored.
const callbackPrefix = "hv1:"

// boundPrefix starts the callback data of a button only one person may
// press: their user id in decimal, a colon, the choice's Text. At its
// longest, "hv2:" (4) + the largest user id (9223372036854775807, 19
// digits) + ":" (1) + channels.MaxChoiceText (32) = 56 bytes, within
// Telegram's 64.
const boundPrefix = "hv2:"

// callbackData is the callback data of the button for text, bound to the
// user id owner unless owner is 0.
func callbackData(owner int64, text string) string {
	if owner == 0 {
		return callbackPrefix + text
	}
	return boundPrefix + strconv.FormatInt(owner, 10) + ":" + text
}

// choiceOwner is the Telegram user id the buttons of an Outbound whose
// ChoicesFor is choicesFor are bound to: 0 (anyone) when it names no one.
// ok is false when it names someone who is not a Telegram user.
func choiceOwner(choicesFor string) (owner int64, ok bool) {
	if choicesFor == "" {
		return 0, true
	}
	platform, _, local, ok := channels.SplitID(choicesFor)
	if !ok || platform != Platform {
		return 0, false
	}
	return parseUserID(local)
}

// parseUserID reads a user id as Haven writes it: a positive decimal
// without sign or leading zeros.
func parseUserID(s string) (int64, bool) {
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id <= 0 || strconv.FormatInt(id, 10) != s {
		return 0, false
	}
	return id, true
}

// maxRowChoices and maxRowLabel decide the layout: up to this many short
// labels share one row (Yes | No); otherwise each button has a row of its
// own, so that a long label is not cut on a phone.
const (
	maxRowChoices = 3
	maxRowLabel   = 12
)

// keyboard renders cs as an inline keyboard, its buttons bound to the
// user id owner (0: anyone), nil when there are none. cs fit
// channels.ChoicesFit (the caller checks).
func keyboard(cs []channels.Choice, owner int64) *tgbotapi.InlineKeyboardMarkup {
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
		b := tgbotapi.NewInlineKeyboardButtonData(c.Label, callbackData(owner, c.Text))
		if oneRow && len(rows) == 1 {
			rows[0] = append(rows[0], b)
			continue
		}
		rows = append(rows, []tgbotapi.InlineKeyboardButton{b})
	}
	return &tgbotapi.InlineKeyboardMarkup{InlineKeyboard: rows}
}

// choicesMarkup is the reply markup for out's choices, bound to the
// person out.ChoicesFor names: nil (no reply_markup at all, so a message
// without choices is sent as before) when it has none, when they do not
// fit what every platform shows (the Hub drops those), or when
// ChoicesFor names no Telegram user (a button that answered for the wrong
// person, or for anyone, would be worse than none). Without buttons the
// message loses nothing: the text says what to type.
func (a *Adapter) choicesMarkup(out channels.Outbound) *tgbotapi.InlineKeyboardMarkup {
	if len(out.Choices) == 0 {
		return nil
	}
	if !channels.ChoicesFit(out.Choices) {
		a.log.Warn("telegram: choices do not fit; sending the message without buttons", slog.Int("choices", len(out.Choices)))
		return nil
	}
	owner, ok := choiceOwner(out.ChoicesFor)
	if !ok {
		a.log.Warn("telegram: choices are for someone who is not a Telegram user; sending the message without buttons")
		return nil
	}
	return keyboard(out.Choices, owner)
}

// choiceText reads the choice's Text from a button's callback data,
// trimmed as a typed message's text is, and the user id of the one person
// who may press it (0: anyone); ok is false for data Haven did not make.
func choiceText(data string) (text string, owner int64, ok bool) {
	if rest, bound := strings.CutPrefix(data, boundPrefix); bound {
		id, t, found := strings.Cut(rest, ":")
		if owner, ok = parseUserID(id); !found || !ok {
			return "", 0, false
		}
		text = t
	} else if text, ok = strings.CutPrefix(data, callbackPrefix); !ok {
		return "", 0, false
	}
	if len(text) > channels.MaxChoiceText || !utf8.ValidString(text) {
		return "", 0, false
	}
	text = strings.TrimSpace(text)
	if text == "" {
		return "", 0, false
	}
	return text, owner, true
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
	text, owner, ok := choiceText(q.Data)
	if !ok || q.ID == "" {
		n.outcome, n.reason = skip, "press of a button Haven did not make"
		return n
	}
	if owner != 0 && owner != q.From.ID {
		// The buttons answer for someone else: they stay, nothing is
		// said, and the presser alone is told why (answerPress).
		n.outcome, n.reason, n.answer = skip, "press by someone the buttons are not for", channels.NotYourChoices
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
// stops the spinner on the person's button, with n.answer as the text
// Telegram shows the presser alone (none for most presses). It is done at
// once, before the sink, for every callback query, Haven's or not. A
// failure (the query is too old, as for a press delivered again) is
// logged and changes nothing.
func (a *Adapter) answerPress(ctx context.Context, n normalized) {
	q := n.press
	if q == nil || q.ID == "" {
		return
	}
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := a.api(cctx).Request(tgbotapi.NewCallback(q.ID, n.answer)); err != nil && ctx.Err() == nil {
		a.log.Debug("telegram answerCallbackQuery failed", slog.Any("err", a.redact(err)))
	}
}

// clearButtons removes the buttons from the message a press was on
// (editMessageReplyMarkup with an empty keyboard: the library's zero
// InlineKeyboardMarkup is {"inline_keyboard":null}, which Telegram reads as
// "no change"), in the background, so that the question cannot be answered
// twice. Buttons bound to a person are pressed here only by them (other
// presses are skipped); on unbound ones (made before buttons named a
// person) the buttons stay in a group when someone other than the person
// the question answered pressed: that person may still want to. Run
// waits for it before returning.
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

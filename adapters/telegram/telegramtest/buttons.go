package telegramtest

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// MaxCallbackData is the Bot API's limit on a button's callback_data:
// 1-64 bytes. Longer or empty data is refused with BUTTON_DATA_INVALID.
const MaxCallbackData = 64

// errQueryInvalid is what answerCallbackQuery answers for a query id it
// does not know or already answered.
const errQueryInvalid = "query is too old and response timeout expired or query ID is invalid"

// errNotModified is what editMessageReplyMarkup answers when the markup
// would not change.
const errNotModified = "message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message"

// CallbackAnswer is one answerCallbackQuery call the server accepted.
type CallbackAnswer struct {
	// QueryID is the callback query answered.
	QueryID string
	// Text is the notification shown to the person ("" for none).
	Text string
	// ShowAlert is true when the text is shown as an alert.
	ShowAlert bool
}

// parseMarkup reads a send or edit method's reply_markup. Only inline
// keyboards are accepted (the fake has no reply keyboards). Each button
// needs a text and callback_data of 1-64 bytes or a url, as Telegram
// requires. present is false when there is no reply_markup at all; kb is
// nil for {"inline_keyboard":null}, which Telegram reads as "no change" in
// an edit, and empty for {"inline_keyboard":[]}.
func parseMarkup(p map[string]string) (kb [][]tgbotapi.InlineKeyboardButton, present bool, err error) {
	raw, ok := p["reply_markup"]
	if !ok || raw == "" {
		return nil, false, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		return nil, true, badRequest("can't parse reply keyboard markup JSON object")
	}
	ik, ok := m["inline_keyboard"]
	if !ok {
		return nil, true, badRequest("this fake supports inline keyboards only")
	}
	if string(ik) == "null" {
		return nil, true, nil
	}
	if err := json.Unmarshal(ik, &kb); err != nil {
		return nil, true, badRequest("can't parse inline keyboard button: field \"inline_keyboard\" must be an Array of Arrays")
	}
	for _, row := range kb {
		for _, b := range row {
			switch {
			case b.Text == "":
				return nil, true, badRequest("text buttons are unallowed in the inline keyboard")
			case b.CallbackData != nil:
				if n := len(*b.CallbackData); n < 1 || n > MaxCallbackData {
					return nil, true, badRequest("BUTTON_DATA_INVALID")
				}
			case b.URL != nil:
			default:
				return nil, true, badRequest("text buttons are unallowed in the inline keyboard")
			}
		}
	}
	if kb == nil {
		kb = [][]tgbotapi.InlineKeyboardButton{}
	}
	return kb, true, nil
}

// markupOf is the reply markup a message carries for kb, nil for none.
func markupOf(kb [][]tgbotapi.InlineKeyboardButton) *tgbotapi.InlineKeyboardMarkup {
	if len(kb) == 0 {
		return nil
	}
	return &tgbotapi.InlineKeyboardMarkup{InlineKeyboard: kb}
}

// buttonsOf is what Sent.Buttons records for kb: nil for no buttons.
func buttonsOf(kb [][]tgbotapi.InlineKeyboardButton) [][]tgbotapi.InlineKeyboardButton {
	if len(kb) == 0 {
		return nil
	}
	return cloneKeyboard(kb)
}

type msgKey struct {
	chat int64
	id   int
}

// keepBotMessageLocked remembers a message the bot sent, for presses and
// edits. s.mu is held.
func (s *Server) keepBotMessageLocked(m *tgbotapi.Message) {
	if s.botMsgs == nil {
		s.botMsgs = map[msgKey]*tgbotapi.Message{}
	}
	s.botMsgs[msgKey{m.Chat.ID, m.MessageID}] = m
}

// Buttons returns the inline keyboard the bot's message id in chat
// carries now (after any editMessageReplyMarkup), nil for none or for a
// message the bot did not send.
func (s *Server) Buttons(chatID int64, messageID int) [][]tgbotapi.InlineKeyboardButton {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.botMsgs[msgKey{chatID, messageID}]
	if m == nil || m.ReplyMarkup == nil {
		return nil
	}
	return cloneKeyboard(m.ReplyMarkup.InlineKeyboard)
}

func cloneKeyboard(kb [][]tgbotapi.InlineKeyboardButton) [][]tgbotapi.InlineKeyboardButton {
	out := make([][]tgbotapi.InlineKeyboardButton, len(kb))
	for i, row := range kb {
		out[i] = append([]tgbotapi.InlineKeyboardButton(nil), row...)
	}
	return out
}

// Press has from press the button labelled label under the bot's message
// msg, as a Telegram client does: it queues a callback_query update
// carrying the button's callback_data and the message as it is now, and
// returns the update id and the callback query id. It fails when the
// message carries no such button (never sent with one, or removed by
// editMessageReplyMarkup): a person cannot press what is not shown.
func (s *Server) Press(from tgbotapi.User, msg *tgbotapi.Message, label string) (updateID int, queryID string, err error) {
	if msg == nil || msg.Chat == nil {
		return 0, "", fmt.Errorf("press %q: no message", label)
	}
	s.mu.Lock()
	m := s.botMsgs[msgKey{msg.Chat.ID, msg.MessageID}]
	var data *string
	if m != nil && m.ReplyMarkup != nil {
		for _, row := range m.ReplyMarkup.InlineKeyboard {
			for _, b := range row {
				if b.Text == label && b.CallbackData != nil && data == nil {
					data = b.CallbackData
				}
			}
		}
	}
	s.mu.Unlock()
	if data == nil {
		return 0, "", fmt.Errorf("press %q: message %d in chat %d has no such button", label, msg.MessageID, msg.Chat.ID)
	}
	id, q := s.InjectCallback(from, msg, *data)
	return id, q, nil
}

// InjectCallback queues a callback_query from from on msg carrying data as
// it is, whatever buttons msg has: a press of a button the bot made in an
// earlier version, or data a client forged. The message in the query is
// the bot's message as it is now when the server knows it, else msg. It
// returns the update id and the new callback query id, which
// answerCallbackQuery accepts once.
func (s *Server) InjectCallback(from tgbotapi.User, msg *tgbotapi.Message, data string) (updateID int, queryID string) {
	s.mu.Lock()
	s.nextQuery++
	queryID = strconv.FormatInt(4_000_000_000+int64(s.nextQuery), 10)
	if s.queries == nil {
		s.queries = map[string]bool{}
	}
	s.queries[queryID] = false
	var m *tgbotapi.Message
	if msg != nil && msg.Chat != nil {
		if cur := s.botMsgs[msgKey{msg.Chat.ID, msg.MessageID}]; cur != nil {
			msg = cur
		}
		c := *msg
		if c.ReplyMarkup != nil {
			c.ReplyMarkup = &tgbotapi.InlineKeyboardMarkup{InlineKeyboard: cloneKeyboard(c.ReplyMarkup.InlineKeyboard)}
		}
		m = &c
	}
	s.mu.Unlock()
	f := from
	q := &tgbotapi.CallbackQuery{ID: queryID, From: &f, Message: m, Data: data}
	if m != nil {
		q.ChatInstance = "ci" + strconv.FormatInt(m.Chat.ID, 10)
	}
	return s.InjectUpdate(tgbotapi.Update{CallbackQuery: q}), queryID
}

// CallbackAnswers returns the answerCallbackQuery calls accepted so far,
// in order.
func (s *Server) CallbackAnswers() []CallbackAnswer {
	return snapshot(s, &s.answers)
}

// AllowedUpdates returns the allowed_updates last given to getUpdates or
// setWebhook (nil when never given). Like Telegram, the server drops a
// callback_query while the list names other types but not it.
func (s *Server) AllowedUpdates() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.allowed...)
}

// setAllowedLocked applies an allowed_updates parameter. s.mu is held.
func (s *Server) setAllowedLocked(p map[string]string) error {
	raw, ok := p["allowed_updates"]
	if !ok || raw == "" {
		return nil
	}
	var list []string
	if err := json.Unmarshal([]byte(raw), &list); err != nil {
		return badRequest("can't parse allowed updates JSON object")
	}
	s.allowed = list
	return nil
}

// callbacksBlockedLocked reports whether allowed_updates leaves
// callback_query out. s.mu is held.
func (s *Server) callbacksBlockedLocked() bool {
	if len(s.allowed) == 0 {
		return false // empty or never set: every usual type
	}
	for _, t := range s.allowed {
		if t == "callback_query" {
			return false
		}
	}
	return true
}

// answerCallbackQuery accepts one answer per query id the server issued.
func (s *Server) answerCallbackQuery(p map[string]string) (any, error) {
	id := p["callback_query_id"]
	s.mu.Lock()
	defer s.mu.Unlock()
	answered, known := s.queries[id]
	if !known || answered {
		return nil, badRequest(errQueryInvalid)
	}
	s.queries[id] = true
	s.answers = append(s.answers, CallbackAnswer{QueryID: id, Text: p["text"], ShowAlert: p["show_alert"] == "true"})
	s.cond.Broadcast()
	return true, nil
}

// editMessageReplyMarkup changes the inline keyboard of one of the bot's
// messages. No reply_markup or {"inline_keyboard":[]} removes it;
// {"inline_keyboard":null} leaves it as it is. A change to nothing new is
// refused with Telegram's "message is not modified".
func (s *Server) editMessageReplyMarkup(p map[string]string) (any, error) {
	if p["inline_message_id"] != "" {
		return nil, badRequest("this fake does not keep inline messages")
	}
	chatID, err := s.chatParam(p)
	if err != nil {
		return nil, err
	}
	msgID, ok, err := intParam(p, "message_id")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, badRequest("message identifier is not specified")
	}
	kb, present, err := parseMarkup(p)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.botMsgs[msgKey{chatID, int(msgID)}]
	if m == nil {
		if s.messages[chatID][int(msgID)] {
			return nil, badRequest("message can't be edited")
		}
		return nil, badRequest("message to edit not found")
	}
	next := m.ReplyMarkup
	if !present || kb != nil {
		next = markupOf(kb)
	}
	if reflect.DeepEqual(next, m.ReplyMarkup) {
		return nil, badRequest(errNotModified)
	}
	c := *m
	c.ReplyMarkup = next
	c.EditDate = int(time.Now().Unix())
	s.botMsgs[msgKey{chatID, int(msgID)}] = &c
	s.cond.Broadcast()
	out := c
	return &out, nil
}

// WaitButtonsGone blocks until the bot's message id in chat carries no
// inline keyboard, or ctx is done.
func (s *Server) WaitButtonsGone(ctx context.Context, chatID int64, messageID int) error {
	gone := func() bool {
		m := s.botMsgs[msgKey{chatID, messageID}]
		return m == nil || m.ReplyMarkup == nil
	}
	if err := s.cond.Wait(ctx, gone); err != nil {
		return fmt.Errorf("wait for the buttons of message %d in chat %d to go: %w", messageID, chatID, err)
	}
	return nil
}

// WaitCallbackAnswers blocks until at least n callback queries were
// answered, or ctx is done, and returns the answers so far.
func (s *Server) WaitCallbackAnswers(ctx context.Context, n int) ([]CallbackAnswer, error) {
	return waitCount(ctx, s, &s.answers, n, "callback answers")
}

// DescribeButtons is a compact form of a keyboard for test messages: one
// "[Label=data ...]" per row ("[Yes=hv1:yes No=hv1:no]"), "" for none.
func DescribeButtons(kb [][]tgbotapi.InlineKeyboardButton) string {
	var b strings.Builder
	for _, row := range kb {
		b.WriteString("[")
		for i, btn := range row {
			if i > 0 {
				b.WriteString(" ")
			}
			b.WriteString(btn.Text)
			if btn.CallbackData != nil {
				b.WriteString("=" + *btn.CallbackData)
			}
		}
		b.WriteString("]")
	}
	return b.String()
}

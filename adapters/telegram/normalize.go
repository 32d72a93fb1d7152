package telegram

import (
	"context"
	"log/slog"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/havenbot/haven/channels"
)

// outcome says what to do with an update.
type outcome int

const (
	// deliver hands the Inbound to the sink.
	deliver outcome = iota
	// ignore drops the update (not for Haven, or nothing to answer).
	ignore
	// media answers with the kind note that Haven reads text only.
	media
	// skip drops a malformed update and counts it (Stats().Skipped): a
	// press of a button Haven did not make.
	skip
)

// normalized is an update turned into what Haven does with it.
type normalized struct {
	in      channels.Inbound
	outcome outcome
	reason  string                  // why it is ignored, for debug logs
	msg     *tgbotapi.Message       // the message, for the media note
	kind    string                  // what the media is ("sticker", "photo", ...)
	press   *tgbotapi.CallbackQuery // the button press, for a callback query
	// answer is what answerCallbackQuery shows the presser alone: for a
	// press of buttons that are for someone else, channels.NotYourChoices.
	answer string
}

func conversationID(chatID int64) string {
	return channels.NamespacedID(Platform, "", strconv.FormatInt(chatID, 10))
}

func userID(id int64) string {
	return channels.NamespacedID(Platform, "", strconv.FormatInt(id, 10))
}

func messageID(chatID int64, msgID int) string {
	return channels.NamespacedID(Platform, "", strconv.FormatInt(chatID, 10)+":"+strconv.Itoa(msgID))
}

// deliveryKey is the Hub's dedupe key for an update.
func deliveryKey(updateID int) string {
	return channels.NamespacedID(Platform, "", "update:"+strconv.Itoa(updateID))
}

// normalize turns an update into an Inbound, or says why there is none.
// me is the bot's own user.
func (a *Adapter) normalize(ctx context.Context, u tgbotapi.Update, me *tgbotapi.User) normalized {
	if u.CallbackQuery != nil {
		return a.normalizePress(ctx, u.CallbackQuery, me)
	}
	msg, edited := u.Message, false
	if msg == nil && u.EditedMessage != nil {
		msg, edited = u.EditedMessage, true
	}
	if msg == nil {
		return normalized{outcome: ignore, reason: "not a message update"}
	}
	if msg.Chat == nil {
		return normalized{outcome: ignore, reason: "message without a chat"}
	}
	kind, ok := chatKind(msg.Chat.Type)
	if !ok {
		return normalized{outcome: ignore, reason: "chat type " + msg.Chat.Type}
	}
	if msg.From == nil {
		return normalized{outcome: ignore, reason: "no sender"}
	}
	if msg.From.IsBot || msg.From.ID == me.ID {
		// Other bots, Haven itself, and anonymous group admins (who post as
		// the GroupAnonymousBot account).
		return normalized{outcome: ignore, reason: "sent by a bot"}
	}

	text, entities := msg.Text, msg.Entities
	if text == "" && msg.Caption != "" {
		text, entities = msg.Caption, msg.CaptionEntities
	}
	mention := mentionOf(text, entities, me)
	if mention.otherBot {
		return normalized{outcome: ignore, reason: "command for another bot"}
	}
	repliesToBot := msg.ReplyToMessage != nil && msg.ReplyToMessage.From != nil && msg.ReplyToMessage.From.ID == me.ID
	mentions := kind == channels.KindDM || mention.mentioned || repliesToBot

	if text == "" {
		k := mediaKind(msg)
		switch {
		case k == "":
			return normalized{outcome: ignore, reason: "service message"}
		case edited:
			return normalized{outcome: ignore, reason: "edited media"}
		case !mentions:
			return normalized{outcome: ignore, reason: "media not addressed to Haven"}
		}
		return normalized{outcome: media, msg: msg, kind: k}
	}

	author := a.author(ctx, kind, msg.Chat.ID, msg.From, mention.text)
	return normalized{outcome: deliver, msg: msg, in: channels.Inbound{
		Platform:     Platform,
		Conversation: channels.Conversation{ID: conversationID(msg.Chat.ID), Kind: kind},
		MessageID:    messageID(msg.Chat.ID, msg.MessageID),
		DeliveryKey:  deliveryKey(u.UpdateID),
		Author:       author,
		MentionsBot:  mentions,
		Text:         mention.text,
		Locale:       msg.From.LanguageCode,
		Edited:       edited,
		ReceivedAt:   a.now(),
	}}
}

// author is from as the Author of text said in chat: PlatformAdmin for
// the configured admins, and in a group for a command from one of the
// group's administrators (getChatMember is asked only then).
func (a *Adapter) author(ctx context.Context, kind channels.Kind, chatID int64, from *tgbotapi.User, text string) channels.Author {
	author := channels.Author{
		ID:      userID(from.ID),
		Display: strings.TrimSpace(from.FirstName + " " + from.LastName),
	}
	switch {
	case a.admins[from.ID]:
		author.PlatformAdmin = true
	case kind == channels.KindGroup && strings.HasPrefix(text, "/"):
		author.PlatformAdmin = a.chatAdmin(ctx, chatID, from.ID)
	}
	return author
}

// mediaKind names what a message without text carries, or "" for service
// messages (members joining, pins, title changes).
func mediaKind(m *tgbotapi.Message) string {
	switch {
	case m.Sticker != nil:
		return "sticker"
	case len(m.Photo) > 0:
		return "photo"
	case m.Voice != nil:
		return "voice message"
	case m.VideoNote != nil:
		return "video message"
	case m.Video != nil:
		return "video"
	case m.Animation != nil:
		return "GIF"
	case m.Audio != nil:
		return "audio file"
	case m.Document != nil:
		return "file"
	case m.Location != nil, m.Venue != nil:
		return "location"
	case m.Contact != nil:
		return "contact"
	case m.Poll != nil:
		return "poll"
	case m.Dice != nil:
		return "dice"
	}
	return ""
}

// mentionResult is what mentionOf found.
type mentionResult struct {
	text      string // the text with Haven's mentions removed
	mentioned bool   // Haven was mentioned, or a command was addressed to it
	otherBot  bool   // the message is a command for another bot
}

// mentionOf finds and removes Haven's mentions in text: @username mentions
// and text_mentions of the bot, and the "@Bot" of "/cmd@Bot". A command at
// the start of the message counts as addressed to Haven unless it names
// another bot, in which case the message is not Haven's. Entity offsets are
// in UTF-16 code units, as Telegram sends them.
func mentionOf(text string, entities []tgbotapi.MessageEntity, me *tgbotapi.User) mentionResult {
	units := utf16.Encode([]rune(text))
	type span struct{ start, end int }
	var cuts []span
	res := mentionResult{}
	ents := append([]tgbotapi.MessageEntity(nil), entities...)
	sort.SliceStable(ents, func(i, j int) bool { return ents[i].Offset < ents[j].Offset })
	last := 0
	for _, e := range ents {
		// e.Offset >= last >= 0, so the subtraction cannot overflow where
		// e.Offset+e.Length could.
		if e.Offset < last || e.Length <= 0 || e.Length > len(units)-e.Offset {
			continue // overlapping or out of range: leave the text alone
		}
		s := string(utf16.Decode(units[e.Offset : e.Offset+e.Length]))
		switch e.Type {
		case "mention":
			if me.UserName != "" && strings.EqualFold(s, "@"+me.UserName) {
				res.mentioned = true
				cuts = append(cuts, span{e.Offset, e.Offset + e.Length})
				last = e.Offset + e.Length
			}
		case "text_mention":
			if e.User != nil && e.User.ID == me.ID {
				res.mentioned = true
				cuts = append(cuts, span{e.Offset, e.Offset + e.Length})
				last = e.Offset + e.Length
			}
		case "bot_command":
			cmd, target, hasTarget := strings.Cut(s, "@")
			switch {
			case hasTarget && strings.EqualFold(target, me.UserName):
				res.mentioned = true
				at := e.Offset + len(utf16.Encode([]rune(cmd)))
				cuts = append(cuts, span{at, e.Offset + e.Length})
				last = e.Offset + e.Length
			case hasTarget && e.Offset == 0:
				res.otherBot = true
				return res
			case !hasTarget && e.Offset == 0:
				res.mentioned = true
			}
		}
	}
	if len(cuts) == 0 {
		res.text = strings.TrimSpace(text)
		return res
	}
	out := make([]uint16, 0, len(units))
	pos := 0
	for _, c := range cuts {
		// The spaces skipped after the previous cut may reach into this
		// one ("@Haven" then a text_mention starting at the space).
		out = append(out, units[pos:max(pos, c.start)]...)
		pos = max(pos, c.end)
		if len(out) == 0 || isSpace(out[len(out)-1]) {
			// "@Haven, hi" -> "hi"; "so @Haven what" -> "so what".
			for pos < len(units) && (isSpace(units[pos]) || units[pos] == ',' || units[pos] == ':') {
				pos++
			}
			if len(out) > 0 && pos < len(units) && strings.ContainsRune(".!?", rune(units[pos])) {
				out = out[:len(out)-1] // "thanks @Haven!" -> "thanks!"
			}
		}
	}
	out = append(out, units[pos:]...)
	res.text = strings.TrimSpace(string(utf16.Decode(out)))
	return res
}

func isSpace(u uint16) bool { return u == ' ' || u == '\n' || u == '\t' || u == '\r' }

// chatAdmin reports whether Telegram says user administers chat, asking
// getChatMember at most once per AdminCacheTTL. Failures count as "no".
func (a *Adapter) chatAdmin(ctx context.Context, chatID, user int64) bool {
	key := [2]int64{chatID, user}
	now := a.now()
	a.adminMu.Lock()
	if e, ok := a.adminCache[key]; ok && now.Before(e.expires) {
		a.adminMu.Unlock()
		return e.admin
	}
	a.adminMu.Unlock()

	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	m, err := a.api(cctx).GetChatMember(tgbotapi.GetChatMemberConfig{ChatConfigWithUser: tgbotapi.ChatConfigWithUser{ChatID: chatID, UserID: user}})
	if err != nil {
		a.log.Warn("telegram getChatMember failed; treating the person as not a group admin", slog.Any("err", a.redact(err)))
		return false
	}
	admin := m.Status == "creator" || m.Status == "administrator"
	a.adminMu.Lock()
	defer a.adminMu.Unlock()
	for k, e := range a.adminCache { // keep the cache small
		if !now.Before(e.expires) {
			delete(a.adminCache, k)
		}
	}
	a.adminCache[key] = adminEntry{admin: admin, expires: now.Add(a.opts.AdminCacheTTL)}
	return admin
}

// chatKind is the conversation kind of a Telegram chat type; ok is false
// for a chat Haven does not talk in (a channel).
func chatKind(chatType string) (kind channels.Kind, ok bool) {
	switch chatType {
	case "private":
		return channels.KindDM, true
	case "group", "supergroup":
		return channels.KindGroup, true
	}
	return "", false
}

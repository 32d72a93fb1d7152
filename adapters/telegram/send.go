package telegram

import (
	"context"
	"errors"
	"fmt"
	"html"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/havenbot/haven/channels"
)

// sendTimeout bounds one API call made for Send or Typing when the caller's
// context has no deadline.
const sendTimeout = 30 * time.Second

// target is where one Outbound goes.
type target struct {
	chatID  int64
	replyTo int  // message id to reply to, 0 for none
	private bool // a private message to a group member, sent to their DM
}

// resolve finds the chat and reply of out. Its errors are permanent.
func resolve(out channels.Outbound) (target, error) {
	if out.Platform != "" && out.Platform != Platform {
		return target{}, fmt.Errorf("outbound for platform %q, not telegram", out.Platform)
	}
	chatID, err := localInt(out.Conversation.ID)
	if err != nil {
		return target{}, fmt.Errorf("conversation id: %w", err)
	}
	if out.Private && out.Conversation.Kind != channels.KindDM {
		if out.Recipient == "" {
			return target{}, errors.New("private message for a group without a recipient")
		}
		uid, err := localInt(out.Recipient)
		if err != nil {
			return target{}, fmt.Errorf("recipient: %w", err)
		}
		// A private chat's id is the person's user id.
		return target{chatID: uid, private: true}, nil
	}
	t := target{chatID: chatID}
	if out.ReplyTo != "" && out.Conversation.Kind != channels.KindDM {
		p, _, local, ok := channels.SplitID(out.ReplyTo)
		chat, msg, ok2 := strings.Cut(local, ":")
		id, err := strconv.Atoi(msg)
		if ok && ok2 && p == Platform && err == nil && chat == strconv.FormatInt(chatID, 10) {
			t.replyTo = id
		}
	}
	return t, nil
}

// localInt parses the local part of a namespaced Telegram id.
func localInt(id string) (int64, error) {
	p, _, local, ok := channels.SplitID(id)
	if !ok || p != Platform {
		return 0, fmt.Errorf("%q is not a namespaced telegram id", id)
	}
	n, err := strconv.ParseInt(local, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a telegram chat or user id", id)
	}
	return n, nil
}

// Send delivers out in HTML parse mode, with the text escaped. In a group
// it replies to out.ReplyTo; a Private message for a group member goes to
// the member's private chat. Errors are *channels.SendError: rate limits
// carry Telegram's retry_after and hold back only their chat (Telegram's
// 429 is per chat; its response does not say when a bot-wide limit was
// hit, so none is Global); 400/401/403/404 are permanent; a Private
// message the person cannot receive (they never started the bot) wraps
// ErrCannotDM; 5xx and network failures are transient. out.Choices, when
// set, go as an inline keyboard under the message (a press comes back
// through the sink as the choice's Text); without them no reply_markup is
// sent at all.
func (a *Adapter) Send(ctx context.Context, out channels.Outbound) error {
	t, err := resolve(out)
	if err != nil {
		return channels.Permanent(fmt.Errorf("telegram: send: %w", err))
	}
	if strings.TrimSpace(out.Text) == "" {
		return channels.Permanent(errors.New("telegram: send: empty message"))
	}
	if err := fits(out.Text); err != nil {
		return channels.Permanent(fmt.Errorf("telegram: send: %w", err))
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, sendTimeout)
		defer cancel()
	}
	return a.sendPart(ctx, t, t.replyTo, out.Text, a.choicesMarkup(out))
}

// inReply makes c a reply to message replyTo (sent anyway if that message
// is gone) with markup (an inline keyboard) under it unless markup is nil:
// a nil pointer set as ReplyMarkup would go out as "null".
func inReply(c *tgbotapi.BaseChat, replyTo int, markup *tgbotapi.InlineKeyboardMarkup) {
	c.ReplyToMessageID = replyTo
	c.AllowSendingWithoutReply = true
	if markup != nil {
		c.ReplyMarkup = markup
	}
}

// fits checks that text fits MessageLimit, as the Hub makes sure it does.
func fits(text string) error {
	if !messageLimit.Fits(text) {
		return fmt.Errorf("text of %d %s is over Telegram's %s: split it at MessageLimit first", messageLimit.Measure.Len(text), messageLimit.Measure, messageLimit)
	}
	return nil
}

// sendPart sends one piece of text that fits Telegram's limit, with
// markup (an inline keyboard) under it unless markup is nil.
func (a *Adapter) sendPart(ctx context.Context, t target, replyTo int, text string, markup *tgbotapi.InlineKeyboardMarkup) error {
	cfg := tgbotapi.NewMessage(t.chatID, renderHTML(text))
	inReply(&cfg.BaseChat, replyTo, markup)
	cfg.ParseMode = tgbotapi.ModeHTML
	cfg.DisableWebPagePreview = true
	_, err := a.api(ctx).Send(cfg)
	if err == nil {
		return nil
	}
	te := apiError(err)
	switch {
	case te != nil && te.Code == http.StatusBadRequest && te.MigrateToChatID != 0:
		// The group became a supergroup with a new id.
		a.log.Info("telegram group migrated; sending to its new id", slog.Int64("chat", t.chatID), slog.Int64("new_chat", te.MigrateToChatID))
		cfg.ChatID, cfg.ReplyToMessageID = te.MigrateToChatID, 0
		_, err = a.api(ctx).Send(cfg)
	case te != nil && te.Code == http.StatusBadRequest && strings.Contains(te.Message, "can't parse entities"):
		// Our markup was rejected: send the words as plain text rather
		// than lose them.
		// Telegram's description may quote the text: it is not logged.
		a.log.Warn("telegram rejected the HTML of a message; sending it as plain text", slog.Int("code", te.Code))
		cfg.Text, cfg.ParseMode = text, ""
		_, err = a.api(ctx).Send(cfg)
	}
	if err == nil {
		return nil
	}
	return a.sendError("send message", err, t.private)
}

// maxCaptionLen is Telegram's limit on a caption after entity parsing:
// 1,024 characters. It is checked in UTF-16 units, which are never fewer
// than code points: that the caption is counted like the message text, in
// code points, is not verified in TDLib's source, and a caption counted
// too long only goes as a message of its own.
const maxCaptionLen = 1024

// fileTimeout bounds one upload made for SendFile when the caller's context
// has no deadline: a file may be up to channels.MaxFileSize.
const fileTimeout = 2 * time.Minute

// SendFile delivers out.File, whole, with out.Text as its caption in HTML
// parse mode, escaped like Send. A PNG or JPEG within Telegram's photo
// limits (ContentType image/png or image/jpeg, and the data's header says
// so: the name is not trusted) goes as a photo (sendPhoto), shown in the
// chat; anything else goes as a document (sendDocument), and so does a
// photo Telegram refuses with a 400 that names the photo
// (PHOTO_INVALID_DIMENSIONS and the like), so that nothing is lost. A
// caption longer than Telegram's 1,024 characters is sent first as a
// message and the file follows without one. Chats, replies, private
// delivery (a Private message for a group member goes to their DM; a
// person who never started the bot gives a permanent error wrapping
// ErrCannotDM) and errors are as for Send. out.Choices go as an inline
// keyboard under the file's message (under the file, not the text, when a
// long caption went first as a message of its own).
func (a *Adapter) SendFile(ctx context.Context, out channels.Outbound) error {
	t, err := resolve(out)
	if err != nil {
		return channels.Permanent(fmt.Errorf("telegram: send file: %w", err))
	}
	if err := out.File.Check(); err != nil {
		return channels.Permanent(fmt.Errorf("telegram: send file: %w", err))
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, fileTimeout)
		defer cancel()
	}
	caption, replyTo := out.Text, t.replyTo
	if strings.TrimSpace(caption) == "" {
		caption = ""
	}
	if err := fits(caption); err != nil {
		return channels.Permanent(fmt.Errorf("telegram: send file: caption: %w", err))
	}
	if channels.UTF16.Len(caption) > maxCaptionLen {
		if err := a.sendPart(ctx, t, replyTo, caption, nil); err != nil {
			return err
		}
		caption, replyTo = "", 0
	}
	f, markup := out.File, a.choicesMarkup(out)
	why := photoCheck(f)
	if why != nil {
		a.log.Debug("telegram file goes as a document", slog.String("reason", why.Error()))
		return a.sendDocument(ctx, t, replyTo, caption, f, markup)
	}
	chat, err := a.sendMedia(ctx, t, replyTo, caption, func(chatID int64, replyTo int, caption, mode string) tgbotapi.Chattable {
		cfg := tgbotapi.NewPhoto(chatID, tgbotapi.FileBytes{Name: f.Name, Bytes: f.Data})
		cfg.Caption, cfg.ParseMode = caption, mode
		inReply(&cfg.BaseChat, replyTo, markup)
		return cfg
	})
	if err == nil {
		return nil
	}
	name := photoRefused(err)
	if name == "" {
		return a.sendError("send photo", err, t.private)
	}
	a.log.Warn("telegram refused a photo; sending it as a document", slog.String("error", name), slog.Int("bytes", len(f.Data)))
	if chat != t.chatID {
		t.chatID, replyTo = chat, 0
	}
	return a.sendDocument(ctx, t, replyTo, caption, f, markup)
}

// sendDocument uploads f as a document with a caption that fits Telegram's
// limit, and markup (an inline keyboard) unless it is nil.
func (a *Adapter) sendDocument(ctx context.Context, t target, replyTo int, caption string, f *channels.File, markup *tgbotapi.InlineKeyboardMarkup) error {
	_, err := a.sendMedia(ctx, t, replyTo, caption, func(chatID int64, replyTo int, caption, mode string) tgbotapi.Chattable {
		cfg := tgbotapi.NewDocument(chatID, tgbotapi.FileBytes{Name: f.Name, Bytes: f.Data})
		cfg.Caption, cfg.ParseMode = caption, mode
		inReply(&cfg.BaseChat, replyTo, markup)
		return cfg
	})
	if err != nil {
		return a.sendError("send document", err, t.private)
	}
	return nil
}

// mediaCall builds the upload of one file to chatID, replying to replyTo
// (0 for none), with caption in parse mode mode ("" for none).
type mediaCall func(chatID int64, replyTo int, caption, mode string) tgbotapi.Chattable

// sendMedia makes the upload mk builds, with caption (fitting Telegram's
// limit) rendered as HTML. When Telegram answers that the group moved to a
// new id it is made once more there; when it rejects the caption's HTML,
// once more with the caption as plain text. It returns the chat it sent to
// last and the error of the last call, unmapped.
func (a *Adapter) sendMedia(ctx context.Context, t target, replyTo int, caption string, mk mediaCall) (int64, error) {
	rendered, mode := "", ""
	if caption != "" {
		rendered, mode = renderHTML(caption), tgbotapi.ModeHTML
	}
	chat := t.chatID
	err := a.upload(ctx, mk(chat, replyTo, rendered, mode))
	if err == nil {
		return chat, nil
	}
	te := apiError(err)
	switch {
	case te != nil && te.Code == http.StatusBadRequest && te.MigrateToChatID != 0:
		a.log.Info("telegram group migrated; sending to its new id", slog.Int64("chat", t.chatID), slog.Int64("new_chat", te.MigrateToChatID))
		chat = te.MigrateToChatID
		err = a.upload(ctx, mk(chat, 0, rendered, mode))
	case te != nil && te.Code == http.StatusBadRequest && strings.Contains(te.Message, "can't parse entities"):
		a.log.Warn("telegram rejected the HTML of a caption; sending it as plain text", slog.Int("code", te.Code))
		err = a.upload(ctx, mk(chat, replyTo, caption, ""))
	}
	return chat, err
}

// upload makes a call that uploads a file. The library leaves the error
// code out of the *tgbotapi.Error of an upload (UploadFiles, v5.5.1); it is
// put back from the response so that errors map as for other calls.
func (a *Adapter) upload(ctx context.Context, c tgbotapi.Chattable) error {
	resp, err := a.api(ctx).Request(c)
	if te := apiError(err); te != nil && te.Code == 0 && resp != nil {
		te.Code = resp.ErrorCode
	}
	return err
}

// Typing shows "typing..." in conv for about five seconds.
func (a *Adapter) Typing(ctx context.Context, conv channels.Conversation) error {
	chatID, err := localInt(conv.ID)
	if err != nil {
		return channels.Permanent(fmt.Errorf("telegram: typing: conversation id: %w", err))
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, sendTimeout)
		defer cancel()
	}
	if _, err := a.api(ctx).Request(tgbotapi.NewChatAction(chatID, tgbotapi.ChatTyping)); err != nil {
		return a.sendError("send typing", err, false)
	}
	return nil
}

// sendError maps a failed call to a *channels.SendError.
func (a *Adapter) sendError(op string, err error, private bool) error {
	err = a.redact(err)
	te := apiError(err)
	if te == nil {
		return &channels.SendError{Err: fmt.Errorf("telegram: %s: %w", op, err)}
	}
	switch {
	case te.Code == http.StatusTooManyRequests:
		d := time.Duration(te.RetryAfter) * time.Second
		if d <= 0 {
			d = time.Second
		}
		return channels.RateLimited(fmt.Errorf("telegram: %s: %w", op, err), d)
	case te.Code == http.StatusForbidden && private:
		return channels.Permanent(fmt.Errorf("telegram: %s: %w: %w", op, ErrCannotDM, err))
	case te.Code >= 500:
		return &channels.SendError{Err: fmt.Errorf("telegram: %s: %w", op, err)}
	case te.Code >= 400 && te.Code < 500 && te.Code != http.StatusConflict:
		return channels.Permanent(fmt.Errorf("telegram: %s: %d: %w", op, te.Code, err))
	default:
		return &channels.SendError{Err: fmt.Errorf("telegram: %s: %d: %w", op, te.Code, err)}
	}
}

var (
	fenceRE  = regexp.MustCompile("(?s)```(?:([A-Za-z0-9_+-]+)\n)?\n?(.*?)```")
	inlineRE = regexp.MustCompile("`([^`\n]+)`")
)

// renderHTML renders Haven's neutral text for Telegram's HTML parse mode.
// Every character of the text is escaped first; the only markup in the
// result is what this function adds itself: <pre> for ``` fenced blocks and
// <code> for `inline code`, around text that is already escaped.
func renderHTML(text string) string {
	esc := html.EscapeString(text)
	var b strings.Builder
	last := 0
	for _, m := range fenceRE.FindAllStringSubmatchIndex(esc, -1) {
		b.WriteString(inlineRE.ReplaceAllString(esc[last:m[0]], "<code>$1</code>"))
		body := esc[m[4]:m[5]]
		if m[2] >= 0 {
			lang := esc[m[2]:m[3]]
			fmt.Fprintf(&b, `<pre><code class="language-%s">%s</code></pre>`, lang, body)
		} else {
			b.WriteString("<pre>" + body + "</pre>")
		}
		last = m[1]
	}
	b.WriteString(inlineRE.ReplaceAllString(esc[last:], "<code>$1</code>"))
	return b.String()
}

var (
	_ channels.Adapter    = (*Adapter)(nil)
	_ channels.Typer      = (*Adapter)(nil)
	_ channels.FileSender = (*Adapter)(nil)
)

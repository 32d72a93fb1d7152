package slack

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"time"

	slackgo "github.com/slack-go/slack"

	"github.com/havenbot/haven/channels"
)

// sendTimeout bounds one Send when the caller's context has no deadline.
const sendTimeout = 30 * time.Second

// fileTimeout bounds one SendFile when the caller's context has no
// deadline: a file may be up to channels.MaxFileSize.
const fileTimeout = 2 * time.Minute

// target is where one Outbound goes.
type target struct {
	team, channel string
	kind          channels.Kind
	threadTS      string
	// dmUser: deliver in this person's DM (a Private message in a shared
	// conversation); when the DM cannot be opened, ephemerally in channel.
	dmUser string
	// ephemeralUser: deliver with chat.postEphemeral to this person in
	// channel (the answer to their slash command); when Slack refuses
	// (Haven is not in the channel), in their DM.
	ephemeralUser string
}

// private reports whether only one person may see what goes to t.
func (t target) private() bool { return t.dmUser != "" || t.ephemeralUser != "" }

// resolve finds where out goes. Its errors are permanent.
func resolve(out channels.Outbound) (target, error) {
	if out.Platform != "" && out.Platform != Platform {
		return target{}, fmt.Errorf("outbound for platform %q, not slack", out.Platform)
	}
	p, team, channel, ok := channels.SplitID(out.Conversation.ID)
	if !ok || p != Platform || strings.Contains(channel, ":") {
		return target{}, fmt.Errorf("conversation id %q is not a namespaced slack channel id", out.Conversation.ID)
	}
	t := target{team: team, channel: channel, kind: out.Conversation.Kind}
	if t.kind == "" {
		t.kind = kindFromID(channel)
	}
	if out.Private && t.kind != channels.KindDM {
		if out.Recipient == "" {
			return target{}, errors.New("private message for a shared conversation without a recipient")
		}
		rp, _, user, ok := channels.SplitID(out.Recipient)
		if !ok || rp != Platform || !isUserID(user) {
			return target{}, fmt.Errorf("recipient %q is not a namespaced slack user id", out.Recipient)
		}
		t.dmUser = user
		return t, nil
	}
	t.threadTS = out.Conversation.ThreadID
	if out.ReplyTo == "" {
		return t, nil
	}
	rp, rteam, local, ok := channels.SplitID(out.ReplyTo)
	rch, rest, ok2 := strings.Cut(local, ":")
	if !ok || !ok2 || rp != Platform || rteam != team || rch != channel {
		return t, nil // not a message of this conversation: no threading
	}
	if cmd, ok := strings.CutPrefix(rest, "cmd:"); ok {
		user, _, _ := strings.Cut(cmd, ":")
		if t.kind != channels.KindDM && isUserID(user) {
			t.ephemeralUser = user
		}
		return t, nil
	}
	if t.threadTS == "" && t.kind != channels.KindDM {
		t.threadTS = rest // answer a channel mention in its thread
	}
	return t, nil
}

// kindFromID guesses a conversation's kind from its id's first letter.
func kindFromID(channel string) channels.Kind {
	switch {
	case strings.HasPrefix(channel, "D"):
		return channels.KindDM
	case strings.HasPrefix(channel, "G"):
		return channels.KindGroup
	default:
		return channels.KindChannel
	}
}

// Send delivers out as mrkdwn with everything Haven says escaped (see
// renderMrkdwn), links not unfurled:
//
//   - in a DM, in the DM (in its thread when the person wrote in one);
//   - in a shared conversation, in the thread of the message it answers
//     (a reply to a mention starts a thread under it; a reply to a
//     message in a thread stays in that thread);
//   - the answer to a slash command, with chat.postEphemeral to the person
//     who typed it (in their DM if Haven is not in that channel);
//   - a Private message in a shared conversation, in the person's DM
//     (conversations.open), and when the DM cannot be opened, ephemerally
//     to them in the conversation; when neither works, a permanent error
//     wrapping ErrCannotDM.
//
// Choices become buttons under the message (see choiceBlocks) wherever
// it goes, an ephemeral message (a slash command's answer, a private
// message whose DM cannot be opened) included; a message whose choices
// do not fit (channels.ChoicesFit) or are for someone who is not a Slack
// user (ChoicesFor) goes without them: its text says what to type. A
// message without Choices carries no blocks at all.
//
// Errors are *channels.SendError: a 429 carries Slack's Retry-After and
// holds back only its conversation (Slack limits posting per channel);
// channel_not_found, not_in_channel, is_archived and other refusals that
// cannot change are permanent; 5xx and network failures are transient.
func (a *Adapter) Send(ctx context.Context, out channels.Outbound) error {
	t, err := resolve(out)
	if err != nil {
		return channels.Permanent(fmt.Errorf("slack: send: %w", err))
	}
	if strings.TrimSpace(out.Text) == "" {
		return channels.Permanent(errors.New("slack: send: empty message"))
	}
	if !messageLimit.Fits(out.Text) {
		return channels.Permanent(fmt.Errorf("slack: send: text of %d %s is over Slack's %s: split it at MessageLimit first", messageLimit.Measure.Len(out.Text), messageLimit.Measure, messageLimit))
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, sendTimeout)
		defer cancel()
	}
	text := renderMrkdwn(out.Text)
	blocks := a.buttonBlocks(out, text, "message")
	switch {
	case t.dmUser != "":
		ch, err := a.openDM(ctx, t.team, t.dmUser)
		if err == nil {
			return a.post(ctx, ch, "", text, blocks, true)
		}
		if !channels.IsPermanent(err) {
			return err
		}
		a.log.Info("slack cannot open a DM; answering ephemerally in the conversation instead", slog.String("conversation", out.Conversation.ID), slog.Any("err", err))
		if err := a.postEphemeral(ctx, t.channel, t.dmUser, t.threadTS, text, blocks); err != nil {
			return cannotDM(err)
		}
		return nil
	case t.ephemeralUser != "":
		err := a.postEphemeral(ctx, t.channel, t.ephemeralUser, "", text, blocks)
		if err == nil || !channels.IsPermanent(err) {
			return err
		}
		a.log.Info("slack cannot answer ephemerally in the conversation; answering in the person's DM", slog.String("conversation", out.Conversation.ID), slog.Any("err", err))
		ch, derr := a.openDM(ctx, t.team, t.ephemeralUser)
		if derr != nil {
			return cannotDM(derr)
		}
		return a.post(ctx, ch, "", text, blocks, true)
	default:
		return a.post(ctx, t.channel, t.threadTS, text, blocks, false)
	}
}

// cannotDM marks a permanent error as the person being unreachable
// privately.
func cannotDM(err error) error {
	if channels.IsPermanent(err) {
		return channels.Permanent(fmt.Errorf("%w: %w", ErrCannotDM, err))
	}
	return err
}

// post sends rendered text with chat.postMessage, with blocks when there
// are any (buttons: see choiceBlocks) and none otherwise. A thread Slack
// does not know (its first message was deleted) is dropped and the text
// posted in the conversation rather than lost.
func (a *Adapter) post(ctx context.Context, channel, threadTS, text string, blocks []slackgo.Block, private bool) error {
	opts := []slackgo.MsgOption{
		slackgo.MsgOptionText(text, false),
		slackgo.MsgOptionDisableLinkUnfurl(),
		slackgo.MsgOptionDisableMediaUnfurl(),
	}
	if len(blocks) > 0 {
		opts = append(opts, slackgo.MsgOptionBlocks(blocks...))
	}
	unthreaded := len(opts)
	if threadTS != "" {
		opts = append(opts, slackgo.MsgOptionTS(threadTS))
	}
	_, _, err := a.api.PostMessageContext(ctx, channel, opts...)
	if code := slackCode(err); threadTS != "" && (code == "thread_not_found" || code == "invalid_thread_ts") {
		a.log.Info("slack thread not found; posting in the conversation", slog.String("channel", channel))
		_, _, err = a.api.PostMessageContext(ctx, channel, opts[:unthreaded]...)
	}
	if err != nil {
		return a.sendError("chat.postMessage", err, private)
	}
	return nil
}

// postEphemeral shows rendered text to user only, in channel, with blocks
// when there are any (buttons: see choiceBlocks). Slack keeps no copy of
// an ephemeral message, and a press on it does not carry it: the text of
// one with buttons is remembered (see maxEphemerals) so that a press can
// take the buttons off and leave the text.
func (a *Adapter) postEphemeral(ctx context.Context, channel, user, threadTS, text string, blocks []slackgo.Block) error {
	opts := []slackgo.MsgOption{slackgo.MsgOptionText(text, false)}
	if len(blocks) > 0 {
		opts = append(opts, slackgo.MsgOptionBlocks(blocks...))
	}
	if threadTS != "" {
		opts = append(opts, slackgo.MsgOptionTS(threadTS))
	}
	ts, err := a.api.PostEphemeralContext(ctx, channel, user, opts...)
	if err != nil {
		return a.sendError("chat.postEphemeral", err, true)
	}
	if len(blocks) > 0 && ts != "" {
		a.ephemerals.Put(ephemeralKey(channel, ts), text)
	}
	return nil
}

// openDM returns the id of the bot's DM with user (conversations.open,
// remembered).
func (a *Adapter) openDM(ctx context.Context, team, user string) (string, error) {
	key := [2]string{team, user}
	if ch, ok := a.dms.Load(key); ok {
		return ch.(string), nil
	}
	c, _, _, err := a.api.OpenConversationContext(ctx, &slackgo.OpenConversationParameters{Users: []string{user}})
	if err != nil {
		return "", a.sendError("conversations.open", err, true)
	}
	if c == nil || c.ID == "" {
		return "", channels.Permanent(errors.New("slack: conversations.open returned no channel"))
	}
	a.dms.Store(key, c.ID)
	return c.ID, nil
}

// SendFile delivers out.File whole (files.getUploadURLExternal, the
// upload, files.completeUploadExternal: slack-go's UploadFileContext) with
// out.Text, rendered as for Send, as its comment. Files are never
// ephemeral: a file that must reach one person only (a Private message,
// or the answer to a slash command, in a shared conversation) goes to
// their DM, and when the DM cannot be opened SendFile fails permanently
// with ErrCannotDM rather than show it to the conversation. Otherwise it
// goes where Send would put the text, in the same thread. Slack's file
// upload takes no blocks, so out.Choices (when they fit and are for a
// Slack user, as for Send) come as a small message of their own right
// after the file, in the same place (the DM, or the conversation and
// thread): its text is only the choices' labels, never the caption,
// which may be private, and its buttons work as Send's do. When that
// message cannot be posted the file has still arrived: the failure is
// logged and SendFile succeeds (a retry would upload the file again),
// since the caption says what to type. Errors are as for Send.
func (a *Adapter) SendFile(ctx context.Context, out channels.Outbound) error {
	t, err := resolve(out)
	if err != nil {
		return channels.Permanent(fmt.Errorf("slack: send file: %w", err))
	}
	if err := out.File.Check(); err != nil {
		return channels.Permanent(fmt.Errorf("slack: send file: %w", err))
	}
	if !messageLimit.Fits(out.Text) {
		return channels.Permanent(fmt.Errorf("slack: send file: caption of %d %s is over Slack's %s", messageLimit.Measure.Len(out.Text), messageLimit.Measure, messageLimit))
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, fileTimeout)
		defer cancel()
	}
	channel, threadTS := t.channel, t.threadTS
	if t.private() {
		user := t.dmUser + t.ephemeralUser
		ch, err := a.openDM(ctx, t.team, user)
		if err != nil {
			return cannotDM(err)
		}
		channel, threadTS = ch, ""
	}
	comment := ""
	if strings.TrimSpace(out.Text) != "" {
		comment = renderMrkdwn(out.Text)
	}
	_, err = a.api.UploadFileContext(ctx, slackgo.UploadFileParameters{
		Reader:          bytes.NewReader(out.File.Data),
		FileSize:        len(out.File.Data),
		Filename:        out.File.Name,
		Title:           out.File.Name,
		Channel:         channel,
		ThreadTimestamp: threadTS,
		InitialComment:  comment,
	})
	if err != nil {
		return a.sendError("upload file", err, t.private())
	}
	if text, blocks := a.fileChoices(out); len(blocks) > 0 {
		if err := a.post(ctx, channel, threadTS, text, blocks, t.private()); err != nil {
			a.log.Info("slack sent a file but not the buttons that go with it; its caption says what to type", slog.String("conversation", out.Conversation.ID), slog.Any("err", err))
		}
	}
	return nil
}

// fileChoices returns the message that carries a file's buttons: its
// rendered text (the choices' labels, and nothing of the caption) and its
// blocks; no blocks when out has no choices to show (see Send).
func (a *Adapter) fileChoices(out channels.Outbound) (string, []slackgo.Block) {
	if len(out.Choices) == 0 {
		return "", nil
	}
	labels := make([]string, len(out.Choices))
	for i, c := range out.Choices {
		labels[i] = c.Label
	}
	text := renderMrkdwn(strings.Join(labels, " / "))
	return text, a.buttonBlocks(out, text, "file")
}

// buttonBlocks returns the blocks of a message whose rendered text is
// text with out.Choices as buttons (choiceBlocks), or none when out has
// no choices, or choices that do not fit (channels.ChoicesFit) or are for
// someone who is not a Slack user (ChoicesFor): a button that answered
// for the wrong person, or for anyone, would be worse than none. what
// names what goes without them, for the log.
func (a *Adapter) buttonBlocks(out channels.Outbound, text, what string) []slackgo.Block {
	if len(out.Choices) == 0 {
		return nil
	}
	owner, named := choiceOwner(out.ChoicesFor)
	switch {
	case !channels.ChoicesFit(out.Choices):
		a.log.Warn("slack: choices that do not fit; sending the "+what+" without buttons", slog.Int("choices", len(out.Choices)))
		return nil
	case !named:
		a.log.Warn("slack: choices for someone who is not a Slack user; sending the " + what + " without buttons")
		return nil
	}
	return choiceBlocks(text, out.Choices, owner)
}

// permanentCodes are the Slack errors that no retry can change.
var permanentCodes = map[string]bool{
	"channel_not_found": true, "not_in_channel": true, "is_archived": true, "msg_too_long": true,
	"no_text": true, "invalid_blocks": true, "restricted_action": true, "user_not_in_channel": true,
	"cannot_dm_bot": true, "user_not_found": true, "user_disabled": true, "user_not_visible": true,
	"not_allowed_token_type": true, "missing_scope": true, "invalid_arguments": true, "invalid_auth": true,
	"not_authed": true, "account_inactive": true, "token_revoked": true, "token_expired": true,
	"channel_is_archived": true, "team_access_not_granted": true, "ekm_access_denied": true,
	"as_user_not_supported": true, "duplicate_channel_not_found": true, "messages_tab_disabled": true,
	"restricted_action_read_only_channel": true, "restricted_action_thread_only_channel": true,
	"restricted_action_non_threadable_channel": true, "too_many_attachments": true, "file_not_found": true,
	"file_uploads_disabled": true, "file_upload_size_restricted": true, "invalid_channel": true,
	"method_deprecated": true, "not_allowed": true, "users_list_not_supplied": true,
}

// slackCode returns the Slack error code in err, "" for none.
func slackCode(err error) string {
	if err == nil {
		return ""
	}
	if se, ok := errors.AsType[slackgo.SlackErrorResponse](err); ok {
		return se.Err
	}
	return ""
}

// sendError maps a failed call to a *channels.SendError.
func (a *Adapter) sendError(op string, err error, private bool) error {
	wrapped := fmt.Errorf("slack: %s: %w", op, err)
	if rl, ok := errors.AsType[*slackgo.RateLimitedError](err); ok {
		d := rl.RetryAfter
		if d <= 0 {
			d = time.Second
		}
		return channels.RateLimited(wrapped, d)
	}
	if code := slackCode(err); code != "" {
		if permanentCodes[code] {
			return channels.Permanent(wrapped)
		}
		return &channels.SendError{Err: wrapped} // internal_error, fatal_error, service_unavailable, ...
	}
	if sc, ok := errors.AsType[slackgo.StatusCodeError](err); ok {
		if sc.Code >= 500 || sc.Code == http.StatusRequestTimeout {
			return &channels.SendError{Err: wrapped}
		}
		return channels.Permanent(wrapped)
	}
	return &channels.SendError{Err: wrapped}
}

var (
	fenceRE  = regexp.MustCompile("(?s)```[A-Za-z0-9_+-]*\n")
	escapeMD = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
)

// renderMrkdwn renders Haven's neutral text as Slack mrkdwn. Every &, <
// and > is escaped, so nothing in it can become a mention, a channel-wide
// notification (<!channel>) or a link with a hidden target; Slack shows
// `code` and ``` fences as it would; a fence's language tag, which Slack
// would print, is dropped.
func renderMrkdwn(text string) string {
	return escapeMD.Replace(fenceRE.ReplaceAllString(text, "```\n"))
}

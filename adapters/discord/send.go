package discord

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/havenbot/haven/channels"
)

// sendTimeout bounds one Send or Typing whose context has no deadline.
const sendTimeout = 30 * time.Second

// fileTimeout bounds one SendFile whose context has no deadline: a file
// may be up to channels.MaxFileSize.
const fileTimeout = 2 * time.Minute

// errInteractionGone says an interaction's token no longer takes
// follow-ups (its deferral failed, or it expired); the answer goes by DM.
var errInteractionGone = errors.New("discord: the interaction no longer takes answers")

// outMsg is what one Send or SendFile posts.
type outMsg struct {
	text string
	file *channels.File
	// components are the buttons under it (choiceComponents); nil for
	// none, which sends the message exactly as without buttons.
	components []discordgo.MessageComponent
}

// replyTarget is a parsed Outbound.ReplyTo: a message in a channel, or an
// interaction (its channel, id and invoker).
type replyTarget struct {
	channel, message     string
	interaction, invoker string
}

func parseReplyTo(id string) replyTarget {
	p, _, local, ok := channels.SplitID(id)
	if !ok || p != Platform {
		return replyTarget{}
	}
	parts := strings.Split(local, ":")
	switch {
	case len(parts) == 2 && isSnowflake(parts[0]) && isSnowflake(parts[1]):
		return replyTarget{channel: parts[0], message: parts[1]}
	case len(parts) == 4 && parts[1] == "interaction" && isSnowflake(parts[0]) && isSnowflake(parts[2]) && isSnowflake(parts[3]):
		return replyTarget{channel: parts[0], interaction: parts[2], invoker: parts[3]}
	}
	return replyTarget{}
}

func isSnowflake(s string) bool { return checkSnowflake("", "", s) == nil }

// localID is the Discord id in a namespaced id.
func localID(id, what string) (string, error) {
	p, _, local, ok := channels.SplitID(id)
	if !ok || p != Platform || !isSnowflake(local) {
		return "", fmt.Errorf("%s %q is not a namespaced Discord id", what, id)
	}
	return local, nil
}

// targetChannel is the channel a conversation's messages go to: its
// thread, or the channel itself.
func targetChannel(c channels.Conversation) (string, error) {
	if c.ThreadID != "" {
		if !isSnowflake(c.ThreadID) {
			return "", fmt.Errorf("thread id %q is not a Discord id", c.ThreadID)
		}
		return c.ThreadID, nil
	}
	return localID(c.ID, "conversation")
}

// noPings is the allowed_mentions of everything Haven posts: nobody is
// notified, not even the author of the message it answers, whatever the
// text holds (an echoed "@everyone", a mention rendered by the model).
func noPings() *discordgo.MessageAllowedMentions {
	return &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}}
}

// Send delivers one piece of out, as Discord markdown (Haven's neutral
// text is Discord markdown as it is), pinging nobody and without link
// previews:
//
//   - In a guild channel, thread or forum post, it replies to out.ReplyTo
//     with a message_reference (no ping; sent anyway if that message is
//     gone). In a DM it does not reference.
//   - An answer to an interaction (a /haven command) goes only to the
//     person who ran it: as a follow-up on the interaction's token,
//     ephemeral (flag 64) in a guild, or by DM once the token is gone.
//   - A Private message in a guild goes to the Recipient's DM (opened with
//     POST /users/@me/channels), or, when the person's last word in the
//     conversation was a command still taking answers, under it,
//     ephemerally. A crisis message always goes to the DM, so that it
//     stays with the person. When Discord refuses the DM (50007) and the
//     person has a live command in the conversation, it goes there,
//     ephemerally; otherwise the error is permanent and wraps ErrCannotDM
//     (the core's public note already tells them how to reach Haven).
//
// Errors are *channels.SendError: a 429 carries retry_after and is
// Global for Discord's global (or Cloudflare's) limit, else it holds back
// only its conversation; Missing Access, Unknown Channel, Missing
// Permissions, 50007 and other 4xx are permanent; 5xx and network
// failures are transient.
func (a *Adapter) Send(ctx context.Context, out channels.Outbound) error {
	if out.File != nil {
		return channels.Permanent(errors.New("discord: send: the message carries a file: use SendFile"))
	}
	return a.deliver(ctx, out, outMsg{text: out.Text, components: choiceComponents(out.Choices, out.ChoicesFor)}, sendTimeout)
}

// SendFile delivers out.File as an attachment, whole, with out.Text as
// the message's content, to where Send would deliver out (privately for
// a Private message: the export of what Haven remembers goes to the
// person's DM, or ephemerally to the interaction that asked for it).
func (a *Adapter) SendFile(ctx context.Context, out channels.Outbound) error {
	if err := out.File.Check(); err != nil {
		return channels.Permanent(fmt.Errorf("discord: send file: %w", err))
	}
	return a.deliver(ctx, out, outMsg{text: out.Text, file: out.File, components: choiceComponents(out.Choices, out.ChoicesFor)}, fileTimeout)
}

func (a *Adapter) deliver(ctx context.Context, out channels.Outbound, msg outMsg, timeout time.Duration) error {
	if out.Platform != "" && out.Platform != Platform {
		return channels.Permanent(fmt.Errorf("discord: send: outbound for platform %q", out.Platform))
	}
	channelID, err := targetChannel(out.Conversation)
	if err != nil {
		return channels.Permanent(fmt.Errorf("discord: send: %w", err))
	}
	if strings.TrimSpace(msg.text) == "" {
		if msg.file == nil {
			return channels.Permanent(errors.New("discord: send: empty message"))
		}
		msg.text = ""
	}
	if !messageLimit.Fits(msg.text) {
		return channels.Permanent(fmt.Errorf("discord: send: text of %d runes is over Discord's %s: split it at MessageLimit first", messageLimit.Measure.Len(msg.text), messageLimit))
	}
	private := out.Private && out.Conversation.Kind != channels.KindDM
	var recipient string
	if private {
		if recipient, err = localID(out.Recipient, "recipient"); err != nil {
			return channels.Permanent(fmt.Errorf("discord: send: private message: %w", err))
		}
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	now := a.now()
	rt := parseReplyTo(out.ReplyTo)
	crisis := out.Kind == channels.OutCrisis
	if rt.interaction != "" && !(private && crisis) {
		// An answer to a command: to its invoker only.
		if p := a.inter.get(rt.interaction, now); p != nil {
			if err := a.followup(ctx, p, msg); !errors.Is(err, errInteractionGone) {
				return err
			}
		}
		to := rt.invoker
		if private {
			to = recipient
		}
		return a.sendDM(ctx, to, msg)
	}
	if private {
		// The answer to a command the person just ran goes under it; a
		// crisis message, and anything else, to their DM.
		if p := a.inter.latest(out.Conversation.ID, recipient, now, false); p != nil && !crisis {
			if err := a.followup(ctx, p, msg); !errors.Is(err, errInteractionGone) {
				return err
			}
		}
		err := a.sendDM(ctx, recipient, msg)
		if errors.Is(err, ErrCannotDM) {
			// Refused: any command of theirs here still reaches them alone.
			if p := a.inter.latest(out.Conversation.ID, recipient, now, true); p != nil {
				if ferr := a.followup(ctx, p, msg); ferr == nil {
					return nil
				}
			}
		}
		return err
	}
	ref := ""
	if out.Conversation.Kind != channels.KindDM && rt.message != "" && rt.channel == channelID {
		ref = rt.message
	}
	return a.sendChannel(ctx, channelID, ref, msg)
}

// files is msg's file as discordgo uploads it.
func (m outMsg) files() []*discordgo.File {
	if m.file == nil {
		return nil
	}
	ct := m.file.ContentType
	if ct == "" {
		ct = "application/octet-stream"
	}
	return []*discordgo.File{{Name: m.file.Name, ContentType: ct, Reader: bytes.NewReader(m.file.Data)}}
}

// sendChannel posts msg in channelID, replying to message ref when set.
func (a *Adapter) sendChannel(ctx context.Context, channelID, ref string, msg outMsg) error {
	data := &discordgo.MessageSend{Content: msg.text, AllowedMentions: noPings(), Flags: discordgo.MessageFlagsSuppressEmbeds, Files: msg.files(),
		Components: msg.components}
	if ref != "" {
		no := false
		data.Reference = &discordgo.MessageReference{MessageID: ref, ChannelID: channelID, FailIfNotExists: &no}
	}
	cctx, info := withRateInfo(ctx)
	if _, err := a.session().ChannelMessageSendComplex(channelID, data, discordgo.WithContext(cctx)); err != nil {
		return a.sendError("send message", err, info)
	}
	return nil
}

// sendDM posts msg in the DM channel with user.
func (a *Adapter) sendDM(ctx context.Context, user string, msg outMsg) error {
	ch, err := a.dmChannel(ctx, user)
	if err != nil {
		return err
	}
	return a.sendChannel(ctx, ch, "", msg)
}

// maxDMChannels bounds the DM channel cache.
const maxDMChannels = 100000

// dmChannel returns the DM channel with user, opening it if need be.
func (a *Adapter) dmChannel(ctx context.Context, user string) (string, error) {
	a.dmMu.Lock()
	ch, ok := a.dms[user]
	a.dmMu.Unlock()
	if ok {
		return ch, nil
	}
	cctx, info := withRateInfo(ctx)
	c, err := a.session().UserChannelCreate(user, discordgo.WithContext(cctx))
	if err != nil {
		return "", a.sendError("open a DM", err, info)
	}
	a.dmMu.Lock()
	defer a.dmMu.Unlock()
	if len(a.dms) >= maxDMChannels {
		a.dms = map[string]string{}
	}
	a.dms[user] = c.ID
	return c.ID, nil
}

// followup answers interaction p with msg, ephemerally in a guild. It
// returns an error wrapping errInteractionGone when p no longer takes
// answers.
func (a *Adapter) followup(ctx context.Context, p *pendingInteraction, msg outMsg) error {
	if err := p.wait(ctx); err != nil {
		if ctx.Err() != nil {
			return &channels.SendError{Err: fmt.Errorf("discord: answer an interaction: %w", ctx.Err())}
		}
		return fmt.Errorf("%w: %w", errInteractionGone, err)
	}
	params := &discordgo.WebhookParams{Content: msg.text, AllowedMentions: noPings(), Flags: discordgo.MessageFlagsSuppressEmbeds, Files: msg.files(),
		Components: msg.components}
	if p.ephemeral {
		params.Flags |= discordgo.MessageFlagsEphemeral
	}
	cctx, info := withRateInfo(ctx)
	_, err := a.session().FollowupMessageCreate(p.i, true, params, discordgo.WithContext(cctx))
	if err == nil {
		return nil
	}
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Response != nil && re.Response.StatusCode == http.StatusNotFound {
		return fmt.Errorf("%w: %w", errInteractionGone, a.redact(err, p.i.Token))
	}
	return a.sendError("answer an interaction", err, info, p.i.Token)
}

// Typing shows "Haven is typing..." in conv for about ten seconds.
func (a *Adapter) Typing(ctx context.Context, conv channels.Conversation) error {
	ch, err := targetChannel(conv)
	if err != nil {
		return channels.Permanent(fmt.Errorf("discord: typing: %w", err))
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, sendTimeout)
		defer cancel()
	}
	cctx, info := withRateInfo(ctx)
	if err := a.session().ChannelTyping(ch, discordgo.WithContext(cctx)); err != nil {
		return a.sendError("send typing", err, info)
	}
	return nil
}

// Discord's JSON error codes the adapter names.
const (
	codeUnknownChannel     = 10003
	codeMissingAccess      = 50001
	codeCannotDM           = 50007
	codeMissingPermissions = 50013
)

// sendError maps a failed call to a *channels.SendError; secrets (an
// interaction's token) are removed from its text.
func (a *Adapter) sendError(op string, err error, info *rateInfo, secrets ...string) error {
	err = a.redact(err, secrets...)
	limited, global, wait := info.get()
	var rl *discordgo.RateLimitError
	if errors.As(err, &rl) && rl.RateLimit != nil && rl.TooManyRequests != nil && rl.RetryAfter > 0 {
		limited, wait = true, rl.RetryAfter
	}
	if limited {
		if wait <= 0 {
			wait = time.Second
		}
		e := fmt.Errorf("discord: %s: rate limited: %w", op, err)
		if global {
			return channels.RateLimitedGlobal(e, wait)
		}
		return channels.RateLimited(e, wait)
	}
	var re *discordgo.RESTError
	if !errors.As(err, &re) || re.Response == nil {
		return &channels.SendError{Err: fmt.Errorf("discord: %s: %w", op, err)}
	}
	code, status := 0, re.Response.StatusCode
	if re.Message != nil {
		code = re.Message.Code
	}
	switch {
	case code == codeCannotDM:
		return channels.Permanent(fmt.Errorf("discord: %s: %w: %w", op, ErrCannotDM, err))
	case status == http.StatusUnauthorized:
		return channels.Permanent(fmt.Errorf("discord: %s: %w: %w", op, ErrUnauthorized, err))
	case code == codeMissingAccess, code == codeUnknownChannel, code == codeMissingPermissions:
		return channels.Permanent(fmt.Errorf("discord: %s: %s (%d): %w", op, re.Message.Message, code, err))
	case status >= 500, status == http.StatusRequestTimeout, status == http.StatusConflict:
		return &channels.SendError{Err: fmt.Errorf("discord: %s: %w", op, err)}
	case status >= 400:
		return channels.Permanent(fmt.Errorf("discord: %s: %d: %w", op, status, err))
	}
	return &channels.SendError{Err: fmt.Errorf("discord: %s: %w", op, err)}
}

// sendNote posts a short note in reply to a message, in the background
// (Run waits for it before returning).
func (a *Adapter) sendNote(ctx context.Context, n normalized) {
	a.background(func() {
		cctx, cancel := context.WithTimeout(ctx, sendTimeout)
		defer cancel()
		if err := a.sendChannel(cctx, n.noteChannel, n.noteReplyTo, outMsg{text: n.noteText}); err != nil && cctx.Err() == nil {
			a.log.Warn("discord: cannot send a note", slog.String("channel", n.noteChannel), slog.Any("err", err))
		}
	})
}

package discordtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"mime/multipart"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// The operations FailNext and Calls name.
const (
	OpGateway       = "gateway"        // GET /gateway, /gateway/bot
	OpMe            = "users_me"       // GET /users/@me
	OpCreateDM      = "create_dm"      // POST /users/@me/channels
	OpGetChannel    = "get_channel"    // GET /channels/{id}
	OpGetGuild      = "get_guild"      // GET /guilds/{id}, /guilds/{id}/roles
	OpCreateMessage = "create_message" // POST /channels/{id}/messages
	OpTyping        = "typing"         // POST /channels/{id}/typing
	OpCallback      = "callback"       // POST /interactions/{id}/{token}/callback
	OpFollowup      = "followup"       // POST /webhooks/{app}/{token}
	OpCommands      = "commands"       // PUT or GET /applications/{app}[/guilds/{id}]/commands
)

// MaxUploadSize is the fake's limit on one request's uploaded files
// (Discord's for a bot in a guild without boosts is lower; the fake takes
// what channels.MaxFileSize allows).
const MaxUploadSize = 25 << 20

// Failure is a forced failure of one REST call.
type Failure struct {
	// Status is the HTTP status.
	Status int
	// Code is Discord's JSON error code (50007, 10003, ...); 0 for none.
	Code int
	// Message replaces the default message.
	Message string
	// RetryAfter, for a 429, is the wait asked for: retry_after in the
	// body (seconds, with milliseconds) and the Retry-After header (whole
	// seconds, rounded up).
	RetryAfter time.Duration
	// Global, for a 429, marks the bot-wide limit (X-RateLimit-Global,
	// X-RateLimit-Scope: global, "global": true).
	Global bool
	// Body, when set, is written verbatim instead of a JSON error, like
	// the HTML page Cloudflare answers with when it bans an address.
	Body string
}

// Well-known failures.
var (
	// CannotDM is 50007: the person does not accept DMs from the bot.
	CannotDM = Failure{Status: http.StatusForbidden, Code: 50007, Message: "Cannot send messages to this user"}
	// MissingAccess is 50001: the bot cannot see the channel.
	MissingAccess = Failure{Status: http.StatusForbidden, Code: 50001, Message: "Missing Access"}
	// UnknownChannel is 10003: the channel does not exist (any more).
	UnknownChannel = Failure{Status: http.StatusNotFound, Code: 10003, Message: "Unknown Channel"}
	// MissingPermissions is 50013: the bot lacks a permission there.
	MissingPermissions = Failure{Status: http.StatusForbidden, Code: 50013, Message: "Missing Permissions"}
)

// File is a file the bot uploaded.
type File struct {
	Name        string
	ContentType string
	Data        []byte
}

// Post is one message the bot posted: in a channel (POST
// /channels/{id}/messages) or as an interaction follow-up.
type Post struct {
	// ChannelID is the channel it appeared in (the DM channel for a DM;
	// the interaction's channel for a follow-up).
	ChannelID string
	// Content is the content as sent.
	Content string
	// ReplyTo is the id of the message it references (message_reference),
	// "" for none.
	ReplyTo string
	// AllowedMentions is allowed_mentions as sent, nil when absent (then
	// Discord pings whatever the content mentions).
	AllowedMentions *discordgo.MessageAllowedMentions
	// Flags are the message flags as sent.
	Flags discordgo.MessageFlags
	// InteractionID is set for a follow-up: the interaction it answers.
	InteractionID string
	// Ephemeral is true for a follow-up only its invoker sees.
	Ephemeral bool
	// Files are the uploaded files, in order.
	Files []File
	// Buttons are the buttons it was sent with, in order; nil for none
	// (Buttons tells what the message carries now).
	Buttons []Button
	// Message is the message as Discord created it; give it to NewReply
	// to have a person reply to the bot.
	Message *discordgo.Message
}

// Pings reports whether Discord would notify anyone of p: it had no
// allowed_mentions limiting it and its content mentions someone, or it
// allowed parsing some mentions, or it pings the author of the message it
// replies to.
func (p Post) Pings() bool {
	am := p.AllowedMentions
	if am == nil {
		return userMentionRE.MatchString(p.Content) || roleMentionRE.MatchString(p.Content) ||
			strings.Contains(p.Content, "@everyone") || strings.Contains(p.Content, "@here") || p.ReplyTo != ""
	}
	return len(am.Parse) > 0 || len(am.Users) > 0 || len(am.Roles) > 0 || (am.RepliedUser && p.ReplyTo != "")
}

// Callback is one interaction callback (the initial response).
type Callback struct {
	InteractionID string
	Type          discordgo.InteractionResponseType
	Flags         discordgo.MessageFlags
	// Content is the content an UPDATE_MESSAGE (7) set, nil when it left
	// the content as it was.
	Content *string
	// Buttons, for an UPDATE_MESSAGE that set components, are the buttons
	// the message carries after it (none: it removed them); ButtonsSet
	// says whether it set them.
	Buttons    []Button
	ButtonsSet bool
	// After is how long after the interaction was made the callback came.
	After time.Duration
}

// FailNext makes the next call of operation op fail with f; several
// calls queue several failures.
func (s *Server) FailNext(op string, f Failure) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failures[op] = append(s.failures[op], f)
}

// Calls is how many calls of operation op were made (failed ones too).
func (s *Server) Calls(op string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[op]
}

// WaitCalls blocks until n calls of op were made or ctx is done.
func (s *Server) WaitCalls(ctx context.Context, op string, n int) error {
	return s.cond.Wait(ctx, func() bool { return s.calls[op] >= n })
}

// Posts returns the bot's messages so far, in order.
func (s *Server) Posts() []Post {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.posts)
}

// WaitPosts blocks until the bot has posted at least n messages or ctx is
// done, and returns them all.
func (s *Server) WaitPosts(ctx context.Context, n int) ([]Post, error) {
	err := s.cond.Wait(ctx, func() bool { return len(s.posts) >= n })
	return s.Posts(), err
}

// Callbacks returns the interaction callbacks so far, in order.
func (s *Server) Callbacks() []Callback {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.callbacks)
}

// WaitCallbacks blocks until n interaction callbacks were accepted or ctx
// is done.
func (s *Server) WaitCallbacks(ctx context.Context, n int) ([]Callback, error) {
	err := s.cond.Wait(ctx, func() bool { return len(s.callbacks) >= n })
	return s.Callbacks(), err
}

// Commands returns the application commands registered for guildID (""
// for the global ones).
func (s *Server) Commands(guildID string) []*discordgo.ApplicationCommand {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.commands[guildID])
}

// Typing returns the channels the bot showed typing in, in order.
func (s *Server) Typing() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.typing)
}

// apiError is an error Discord answers with.
type apiError struct {
	status int
	code   int
	msg    string
}

func (e *apiError) Error() string { return e.msg }

func newAPIError(status, code int, msg string) *apiError {
	return &apiError{status: status, code: code, msg: msg}
}

var (
	errUnauthorized = newAPIError(http.StatusUnauthorized, 0, "401: Unauthorized")
	errNotFound     = newAPIError(http.StatusNotFound, 0, "404: Not Found")
)

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	// Discord's bucket headers on every answer; the bucket is never
	// exhausted here.
	w.Header().Set("X-RateLimit-Limit", "5")
	w.Header().Set("X-RateLimit-Remaining", "4")
	w.Header().Set("X-RateLimit-Reset-After", "5.000")
	w.Header().Set("X-RateLimit-Bucket", "fakebucket")
	w.WriteHeader(status)
	if v != nil {
		_ = json.NewEncoder(w).Encode(v)
	}
}

func writeError(w http.ResponseWriter, e *apiError) {
	writeJSON(w, e.status, map[string]any{"message": e.msg, "code": e.code})
}

func writeFailure(w http.ResponseWriter, f Failure) {
	if f.Body != "" {
		w.Header().Set("Content-Type", "text/html")
		if f.RetryAfter > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(f.RetryAfter.Seconds()))))
		}
		w.WriteHeader(f.Status)
		_, _ = io.WriteString(w, f.Body)
		return
	}
	if f.Status == http.StatusTooManyRequests {
		secs := f.RetryAfter.Seconds()
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(secs))))
		scope := "user"
		if f.Global {
			scope = "global"
			w.Header().Set("X-RateLimit-Global", "true")
		} else {
			w.Header().Set("X-RateLimit-Limit", "5")
			w.Header().Set("X-RateLimit-Remaining", "0")
			w.Header().Set("X-RateLimit-Reset-After", strconv.FormatFloat(secs, 'f', 3, 64))
			w.Header().Set("X-RateLimit-Bucket", "fakebucket")
		}
		w.Header().Set("X-RateLimit-Scope", scope)
		w.WriteHeader(http.StatusTooManyRequests)
		msg := f.Message
		if msg == "" {
			msg = "You are being rate limited."
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"message": msg, "retry_after": secs, "global": f.Global, "code": 0})
		return
	}
	msg := f.Message
	if msg == "" {
		msg = fmt.Sprintf("%d: %s", f.Status, http.StatusText(f.Status))
	}
	writeError(w, newAPIError(f.Status, f.Code, msg))
}

// serveREST serves /api/v9/...
func (s *Server) serveREST(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimPrefix(r.URL.Path, "/api/v"+APIVersion)
	parts := strings.Split(strings.Trim(path, "/"), "/")
	op, handler := s.route(r.Method, parts)
	if handler == nil {
		writeError(w, errNotFound)
		return
	}
	webhook := op == OpCallback || op == OpFollowup
	if !webhook && r.Header.Get("Authorization") != "Bot "+s.token {
		writeError(w, errUnauthorized)
		return
	}
	s.mu.Lock()
	s.calls[op]++
	var fail *Failure
	if fs := s.failures[op]; len(fs) > 0 {
		fail, s.failures[op] = &fs[0], fs[1:]
	}
	s.cond.Broadcast()
	s.mu.Unlock()
	if fail != nil {
		writeFailure(w, *fail)
		return
	}
	status, v, err := handler(r, parts)
	var ae *apiError
	switch {
	case errors.As(err, &ae):
		writeError(w, ae)
	case err != nil:
		writeError(w, newAPIError(http.StatusBadRequest, 50035, "Invalid Form Body: "+err.Error()))
	case status == http.StatusNoContent:
		w.WriteHeader(http.StatusNoContent)
	default:
		writeJSON(w, status, v)
	}
}

type restHandler func(r *http.Request, parts []string) (int, any, error)

// route finds the operation and handler of a REST call.
func (s *Server) route(method string, p []string) (string, restHandler) {
	n := len(p)
	switch {
	case method == http.MethodGet && n >= 1 && p[0] == "gateway":
		return OpGateway, s.getGateway
	case method == http.MethodGet && n == 2 && p[0] == "users" && p[1] == "@me":
		return OpMe, s.getMe
	case method == http.MethodPost && n == 3 && p[0] == "users" && p[1] == "@me" && p[2] == "channels":
		return OpCreateDM, s.createDM
	case method == http.MethodGet && n == 2 && p[0] == "channels":
		return OpGetChannel, s.getChannel
	case method == http.MethodPost && n == 3 && p[0] == "channels" && p[2] == "messages":
		return OpCreateMessage, s.createMessage
	case method == http.MethodPost && n == 3 && p[0] == "channels" && p[2] == "typing":
		return OpTyping, s.typingCall
	case method == http.MethodGet && (n == 2 || n == 3 && p[2] == "roles") && p[0] == "guilds":
		return OpGetGuild, s.getGuild
	case method == http.MethodPost && n == 4 && p[0] == "interactions" && p[3] == "callback":
		return OpCallback, s.callback
	case method == http.MethodPost && n == 3 && p[0] == "webhooks":
		return OpFollowup, s.followup
	case (method == http.MethodPut || method == http.MethodGet) && p[0] == "applications" &&
		(n == 3 && p[2] == "commands" || n == 5 && p[2] == "guilds" && p[4] == "commands"):
		return OpCommands, s.commandsCall
	}
	return "", nil
}

func (s *Server) getGateway(r *http.Request, p []string) (int, any, error) {
	v := map[string]any{"url": s.GatewayURL()}
	if len(p) == 2 && p[1] == "bot" {
		v["shards"] = 1
		v["session_start_limit"] = map[string]any{"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
	}
	return http.StatusOK, v, nil
}

func (s *Server) getMe(*http.Request, []string) (int, any, error) {
	return http.StatusOK, s.bot, nil
}

func (s *Server) createDM(r *http.Request, _ []string) (int, any, error) {
	var body struct {
		RecipientID string `json:"recipient_id"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		return 0, nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.users[body.RecipientID]; !ok {
		return 0, nil, newAPIError(http.StatusBadRequest, 50033, "Invalid Recipient(s)")
	}
	id := s.dmLocked(body.RecipientID)
	return http.StatusOK, s.channels[id], nil
}

func (s *Server) getChannel(_ *http.Request, p []string) (int, any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.channels[p[1]]
	if !ok {
		return 0, nil, newAPIError(http.StatusNotFound, 10003, "Unknown Channel")
	}
	return http.StatusOK, c, nil
}

func (s *Server) getGuild(_ *http.Request, p []string) (int, any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.guilds[p[1]]
	if !ok {
		return 0, nil, newAPIError(http.StatusNotFound, 10004, "Unknown Guild")
	}
	j := s.guildJSONLocked(g)
	if len(p) == 3 {
		return http.StatusOK, j["roles"], nil
	}
	delete(j, "channels")
	delete(j, "threads")
	delete(j, "members")
	return http.StatusOK, j, nil
}

func (s *Server) typingCall(_ *http.Request, p []string) (int, any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.channels[p[1]]; !ok {
		return 0, nil, newAPIError(http.StatusNotFound, 10003, "Unknown Channel")
	}
	s.typing = append(s.typing, p[1])
	s.cond.Broadcast()
	return http.StatusNoContent, nil, nil
}

// messageBody is the part of a create-message or follow-up body the fake
// reads.
type messageBody struct {
	Content         string                            `json:"content"`
	Reference       *discordgo.MessageReference       `json:"message_reference"`
	AllowedMentions *discordgo.MessageAllowedMentions `json:"allowed_mentions"`
	Flags           discordgo.MessageFlags            `json:"flags"`
	Components      json.RawMessage                   `json:"components"`
	Data            *callbackData                     `json:"data"` // interaction callbacks
	Type            discordgo.InteractionResponseType `json:"type"` // interaction callbacks
}

// callbackData is the data of an interaction callback. Content is nil
// when the field is absent (an UPDATE_MESSAGE then keeps the message's
// content).
type callbackData struct {
	Content         *string                           `json:"content"`
	AllowedMentions *discordgo.MessageAllowedMentions `json:"allowed_mentions"`
	Flags           discordgo.MessageFlags            `json:"flags"`
	Components      json.RawMessage                   `json:"components"`
}

// readNewMessage reads the body of a message the bot creates (a channel
// message or an interaction follow-up) and checks it as Discord does: its
// content and files, then its buttons.
func readNewMessage(r *http.Request) (messageBody, []File, []Button, error) {
	b, files, err := readMessageBody(r)
	if err != nil {
		return b, nil, nil, err
	}
	if err := checkContent(b.Content, files); err != nil {
		return b, nil, nil, err
	}
	buttons, _, err := parseButtons(b.Components)
	if err != nil {
		return b, nil, nil, err
	}
	return b, files, buttons, nil
}

// readMessageBody reads a JSON body, or a multipart one with
// payload_json and files[n].
func readMessageBody(r *http.Request) (messageBody, []File, error) {
	var b messageBody
	mt, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt != "multipart/form-data" {
		err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&b)
		return b, nil, err
	}
	mr := multipart.NewReader(io.LimitReader(r.Body, MaxUploadSize+1<<20), params["boundary"])
	var files []File
	total := 0
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return b, nil, err
		}
		data, err := io.ReadAll(part)
		if err != nil {
			return b, nil, err
		}
		switch name := part.FormName(); {
		case name == "payload_json":
			if err := json.Unmarshal(data, &b); err != nil {
				return b, nil, err
			}
		case strings.HasPrefix(name, "files["):
			total += len(data)
			if total > MaxUploadSize {
				return b, nil, newAPIError(http.StatusRequestEntityTooLarge, 40005, "Request entity too large")
			}
			files = append(files, File{Name: part.FileName(), ContentType: part.Header.Get("Content-Type"), Data: data})
		}
	}
	return b, files, nil
}

// checkContent applies Discord's content rules to a new message.
func checkContent(content string, files []File) error {
	switch {
	case content == "" && len(files) == 0:
		return newAPIError(http.StatusBadRequest, 50006, "Cannot send an empty message")
	case utf8.RuneCountInString(content) > MaxContentLen:
		return newAPIError(http.StatusBadRequest, 50035, "Invalid Form Body: content: Must be 2000 or fewer in length.")
	}
	return nil
}

func (s *Server) createMessage(r *http.Request, p []string) (int, any, error) {
	b, files, buttons, err := readNewMessage(r)
	if err != nil {
		return 0, nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.channels[p[1]]
	if !ok {
		return 0, nil, newAPIError(http.StatusNotFound, 10003, "Unknown Channel")
	}
	switch c.Type {
	case discordgo.ChannelTypeGuildForum, discordgo.ChannelTypeGuildMedia, discordgo.ChannelTypeGuildCategory:
		return 0, nil, newAPIError(http.StatusBadRequest, 50024, "Cannot execute action on this channel type")
	case discordgo.ChannelTypeDM:
		if s.dmClosed[c.Recipients[0].ID] {
			return 0, nil, newAPIError(CannotDM.Status, CannotDM.Code, CannotDM.Message)
		}
	}
	post := Post{ChannelID: c.ID, Content: b.Content, AllowedMentions: b.AllowedMentions, Flags: b.Flags, Files: files, Buttons: buttons}
	m := s.botMessageLocked(c, b.Content, files)
	s.setButtonsLocked(m, buttons)
	if ref := b.Reference; ref != nil && ref.MessageID != "" {
		to, ok := s.messages[ref.MessageID]
		switch {
		case ok && to.ChannelID == c.ID:
			post.ReplyTo = to.ID
			m.Type = discordgo.MessageTypeReply
			m.MessageReference = &discordgo.MessageReference{MessageID: to.ID, ChannelID: c.ID, GuildID: c.GuildID}
		case ref.FailIfNotExists == nil || *ref.FailIfNotExists:
			return 0, nil, newAPIError(http.StatusBadRequest, 50035, "Invalid Form Body: message_reference: Unknown message")
		}
	}
	post.Message = m
	s.messages[m.ID] = m
	s.posts = append(s.posts, post)
	s.cond.Broadcast()
	return http.StatusOK, m, nil
}

// botMessageLocked is a message the bot posts in c.
func (s *Server) botMessageLocked(c *discordgo.Channel, content string, files []File) *discordgo.Message {
	bot := s.bot
	m := &discordgo.Message{ID: s.newIDLocked(), ChannelID: c.ID, GuildID: c.GuildID, Content: content,
		Timestamp: time.Now().UTC(), Author: &bot, Type: discordgo.MessageTypeDefault, Mentions: []*discordgo.User{}}
	for _, f := range files {
		m.Attachments = append(m.Attachments, &discordgo.MessageAttachment{ID: s.newIDLocked(), Filename: f.Name, ContentType: f.ContentType, Size: len(f.Data)})
	}
	return m
}

func (s *Server) callback(r *http.Request, p []string) (int, any, error) {
	b, _, err := readMessageBody(r)
	if err != nil {
		return 0, nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	it, ok := s.interactions[p[1]]
	if !ok || it.token != p[2] || time.Since(it.created) > InteractionDeadline {
		return 0, nil, newAPIError(http.StatusNotFound, 10062, "Unknown interaction")
	}
	if it.acked {
		return 0, nil, newAPIError(http.StatusBadRequest, 40060, "Interaction has already been acknowledged.")
	}
	var data callbackData
	if b.Data != nil {
		data = *b.Data
	}
	cb := Callback{InteractionID: it.id, Type: b.Type, Flags: data.Flags}
	component := it.typ == discordgo.InteractionMessageComponent
	switch b.Type {
	case discordgo.InteractionResponseChannelMessageWithSource:
		if b.Data == nil {
			return 0, nil, newAPIError(http.StatusBadRequest, 50035, "Invalid Form Body: data: required")
		}
		content := ""
		if data.Content != nil {
			content = *data.Content
		}
		if err := checkContent(content, nil); err != nil {
			return 0, nil, err
		}
		buttons, _, err := parseButtons(data.Components)
		if err != nil {
			return 0, nil, err
		}
		c := s.channels[it.channelID]
		m := s.botMessageLocked(c, content, nil)
		s.setButtonsLocked(m, buttons)
		s.messages[m.ID] = m
		s.posts = append(s.posts, Post{ChannelID: c.ID, Content: content, AllowedMentions: data.AllowedMentions,
			Flags: data.Flags, InteractionID: it.id, Ephemeral: data.Flags&discordgo.MessageFlagsEphemeral != 0, Buttons: buttons, Message: m})
	case discordgo.InteractionResponseDeferredChannelMessageWithSource:
	case discordgo.InteractionResponseDeferredMessageUpdate:
		if !component {
			return 0, nil, newAPIError(http.StatusBadRequest, 50035, fmt.Sprintf("Invalid Form Body: type: %d is only valid for a component interaction", b.Type))
		}
	case discordgo.InteractionResponseUpdateMessage:
		if !component {
			return 0, nil, newAPIError(http.StatusBadRequest, 50035, fmt.Sprintf("Invalid Form Body: type: %d is only valid for a component interaction", b.Type))
		}
		if err := s.updateMessageLocked(it, data); err != nil {
			return 0, nil, err
		}
		cb.Content = data.Content
		if _, set, _ := parseButtons(data.Components); set {
			cb.ButtonsSet, cb.Buttons = true, slices.Clone(s.buttons[it.messageID])
		}
	default:
		return 0, nil, newAPIError(http.StatusBadRequest, 50035, fmt.Sprintf("Invalid Form Body: type: %d is not a valid interaction callback type here", b.Type))
	}
	it.acked, it.ackType, it.ackFlags = true, b.Type, data.Flags
	cb.After = time.Since(it.created)
	s.callbacks = append(s.callbacks, cb)
	s.cond.Broadcast()
	return http.StatusNoContent, nil, nil
}

func (s *Server) followup(r *http.Request, p []string) (int, any, error) {
	b, files, buttons, err := readNewMessage(r)
	if err != nil {
		return 0, nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	it, ok := s.byToken[p[2]]
	if !ok || p[1] != s.appID || !it.acked || time.Since(it.created) > TokenLifetime {
		return 0, nil, newAPIError(http.StatusNotFound, 10015, "Unknown Webhook")
	}
	ephemeral := b.Flags&discordgo.MessageFlagsEphemeral != 0
	if it.followups == 0 && it.ackType == discordgo.InteractionResponseDeferredChannelMessageWithSource {
		// The first follow-up replaces the "thinking" message the deferral
		// showed, and keeps its visibility.
		ephemeral = it.ackFlags&discordgo.MessageFlagsEphemeral != 0
	}
	it.followups++
	c := s.channels[it.channelID]
	m := s.botMessageLocked(c, b.Content, files)
	m.WebhookID = s.appID
	if ephemeral {
		m.Flags |= discordgo.MessageFlagsEphemeral
	}
	s.setButtonsLocked(m, buttons)
	s.messages[m.ID] = m
	s.posts = append(s.posts, Post{ChannelID: c.ID, Content: b.Content, AllowedMentions: b.AllowedMentions, Flags: b.Flags,
		InteractionID: it.id, Ephemeral: ephemeral, Files: files, Buttons: buttons, Message: m})
	s.cond.Broadcast()
	if r.URL.Query().Get("wait") != "true" {
		return http.StatusNoContent, nil, nil
	}
	return http.StatusOK, m, nil
}

func (s *Server) commandsCall(r *http.Request, p []string) (int, any, error) {
	if p[1] != s.appID {
		return 0, nil, newAPIError(http.StatusForbidden, 50001, "Missing Access")
	}
	guildID := ""
	if len(p) == 5 {
		guildID = p[3]
	}
	if r.Method == http.MethodGet {
		s.mu.Lock()
		defer s.mu.Unlock()
		return http.StatusOK, s.commands[guildID], nil
	}
	var cmds []*discordgo.ApplicationCommand
	if err := json.NewDecoder(r.Body).Decode(&cmds); err != nil {
		return 0, nil, err
	}
	for _, c := range cmds {
		if c.Name == "" || c.Name != strings.ToLower(c.Name) || len(c.Name) > 32 || c.Description == "" || len(c.Description) > 100 {
			return 0, nil, newAPIError(http.StatusBadRequest, 50035, "Invalid Form Body: name or description")
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if guildID != "" {
		if _, ok := s.guilds[guildID]; !ok {
			return 0, nil, newAPIError(http.StatusForbidden, 50001, "Missing Access")
		}
	}
	for _, c := range cmds {
		c.ID, c.ApplicationID, c.GuildID, c.Version = s.newIDLocked(), s.appID, guildID, "1"
	}
	s.commands[guildID] = cmds
	s.cond.Broadcast()
	return http.StatusOK, cmds, nil
}

// WaitCommands blocks until commands are registered for guildID ("" for
// global) or ctx is done, and returns them.
func (s *Server) WaitCommands(ctx context.Context, guildID string) ([]*discordgo.ApplicationCommand, error) {
	err := s.cond.Wait(ctx, func() bool { return len(s.commands[guildID]) > 0 })
	return s.Commands(guildID), err
}

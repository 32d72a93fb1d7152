package telegramtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // sendPhoto decodes JPEG headers
	_ "image/png"  // and PNG headers
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/havenbot/haven/internal/waitcond"
)

// MaxMessageLen is the Bot API's limit on a message's text: Unicode code
// points after entity parsing, as TDLib (which the Bot API server runs)
// counts them with utf8_length in create_input_message_content
// (td/telegram/MessageContent.cpp). Entity offsets are in UTF-16 units.
const MaxMessageLen = 4096

// Sent is one message the bot sent through sendMessage.
type Sent struct {
	// ChatID is the chat the message went to.
	ChatID int64
	// Text is the text exactly as the bot sent it (with HTML markup, if any).
	Text string
	// Plain is the text a person sees: Text after parse-mode parsing.
	Plain string
	// ParseMode is the parse_mode the bot asked for ("" for none).
	ParseMode string
	// ReplyTo is the message id the bot replied to (reply_to_message_id or
	// reply_parameters.message_id), zero for none.
	ReplyTo int
	// Buttons is the inline keyboard the message was sent with, nil for
	// none (Server.Buttons says what it carries now).
	Buttons [][]tgbotapi.InlineKeyboardButton
	// ReplyMarkup is the reply_markup parameter exactly as the bot sent
	// it, "" when there was none.
	ReplyMarkup string
	// Message is the message as Telegram created it; pass it to NewReply to
	// have a person reply to the bot, or to Press to press a button.
	Message *tgbotapi.Message
}

// MaxCaptionLen is the Bot API's limit on a caption after entity parsing.
// The fake counts it in UTF-16 units, the stricter reading, as the adapter
// does: that Telegram counts captions in code points like message text is
// not verified in TDLib's source.
const MaxCaptionLen = 1024

// MaxUploadSize is the Bot API's limit on a file a bot uploads (50 MB).
const MaxUploadSize = 50 << 20

// Document is one file the bot sent through sendDocument.
type Document struct {
	// ChatID is the chat the document went to.
	ChatID int64
	// FileName is the name of the uploaded file, as the multipart part
	// gave it.
	FileName string
	// ContentType is the uploaded part's Content-Type.
	ContentType string
	// Data is the file's content.
	Data []byte
	// Caption is the caption exactly as the bot sent it ("" for none).
	Caption string
	// CaptionPlain is the caption a person sees, after parse-mode parsing.
	CaptionPlain string
	// ParseMode is the parse_mode the bot asked for.
	ParseMode string
	// ReplyTo is the message id the bot replied to, zero for none.
	ReplyTo int
	// Buttons is the inline keyboard the message was sent with, nil for
	// none.
	Buttons [][]tgbotapi.InlineKeyboardButton
	// Message is the message as Telegram created it.
	Message *tgbotapi.Message
}

// ChatAction is one sendChatAction call.
type ChatAction struct {
	ChatID int64
	Action string
}

// Failure is a forced failure of one API call.
type Failure struct {
	// Status is the HTTP status and Bot API error_code.
	Status int
	// RetryAfter becomes parameters.retry_after (whole seconds, rounded up).
	RetryAfter time.Duration
	// Description replaces the default description for Status.
	Description string
	// MigrateToChatID becomes parameters.migrate_to_chat_id, as when a
	// group was upgraded to a supergroup.
	MigrateToChatID int64
	// Body, when set, is written verbatim instead of a JSON error, like the
	// HTML error pages a proxy in front of the API returns.
	Body string
}

// Option configures a Server.
type Option func(*Server)

// WithBot sets the bot's user id and username (default: the number before
// the colon in the token, and "HavenTestBot").
func WithBot(id int64, username string) Option {
	return func(s *Server) { s.bot.ID, s.bot.UserName = id, username }
}

// Server is a fake Bot API server. Its methods are safe for concurrent use.
type Server struct {
	ts    *httptest.Server
	token string
	bot   tgbotapi.User

	mu        sync.Mutex
	cond      *waitcond.Cond // over mu: wakes waiters at every change
	drop      chan struct{}  // closed and replaced by DropConnections
	closed    bool
	updates   []tgbotapi.Update       // not yet confirmed, by update id
	raw       map[int]json.RawMessage // served instead of the update of that id (InjectRaw)
	nextID    int
	confirmed int // highest offset a getUpdates call confirmed
	pollGen   int // the newest getUpdates call; older ones end with 409
	polling   int // getUpdates calls waiting now
	calls     map[string]int
	failures  map[string][]Failure
	sent      []Sent
	documents []Document
	photos    []Photo
	actions   []ChatAction
	commands  []tgbotapi.BotCommand
	members   map[[2]int64]string
	chats     map[int64]tgbotapi.Chat
	messages  map[int64]map[int]bool
	nextMsg   map[int64]int
	webhook   string
	secret    string
	conns     int                          // client connections open now
	onSend    func(Sent)                   // OnSend's hook, nil for none
	authors   map[msgKey]tgbotapi.User     // who wrote each known message
	botMsgs   map[msgKey]*tgbotapi.Message // the bot's messages as they are now
	queries   map[string]bool              // callback query ids issued: answered?
	nextQuery int
	answers   []CallbackAnswer
	allowed   []string // the last allowed_updates
}

// NewServer starts a fake Bot API server for token on 127.0.0.1. Close it
// when done (t.Cleanup(s.Close)).
func NewServer(token string, opts ...Option) *Server {
	s := &Server{
		token:    token,
		bot:      tgbotapi.User{IsBot: true, FirstName: "Haven", UserName: "HavenTestBot", CanJoinGroups: true},
		drop:     make(chan struct{}),
		nextID:   100000,
		calls:    map[string]int{},
		failures: map[string][]Failure{},
		members:  map[[2]int64]string{},
		chats:    map[int64]tgbotapi.Chat{},
		messages: map[int64]map[int]bool{},
		nextMsg:  map[int64]int{},
	}
	s.cond = waitcond.New(&s.mu)
	if id, _, ok := strings.Cut(token, ":"); ok {
		s.bot.ID, _ = strconv.ParseInt(id, 10, 64)
	}
	if s.bot.ID == 0 {
		s.bot.ID = 100
	}
	for _, o := range opts {
		o(s)
	}
	s.ts = httptest.NewUnstartedServer(http.HandlerFunc(s.serve))
	s.ts.Config.ConnState = s.connState
	s.ts.Start()
	return s
}

// connState counts the open client connections (WaitIdle).
func (s *Server) connState(_ net.Conn, state http.ConnState) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch state {
	case http.StateNew:
		s.conns++
	case http.StateClosed, http.StateHijacked: // a hijacked one is closed by hangUp
		s.conns--
	default:
		return
	}
	s.cond.Broadcast()
}

// URL is the server's base URL, "http://127.0.0.1:port".
func (s *Server) URL() string { return s.ts.URL }

// APIEndpoint is the endpoint in the library's form,
// "http://127.0.0.1:port/bot%s/%s".
func (s *Server) APIEndpoint() string { return s.ts.URL + "/bot%s/%s" }

// Token is the token the server accepts.
func (s *Server) Token() string { return s.token }

// Bot is the bot's own user, as getMe returns it.
func (s *Server) Bot() tgbotapi.User { return s.bot }

// Close ends every waiting long poll and shuts the server down.
func (s *Server) Close() {
	s.mu.Lock()
	s.closed = true
	s.cond.Broadcast()
	s.mu.Unlock()
	s.ts.CloseClientConnections()
	s.ts.Close()
}

// PrivateChat is the private chat between the bot and u (its id is u's id).
func PrivateChat(u tgbotapi.User) tgbotapi.Chat {
	return tgbotapi.Chat{ID: u.ID, Type: "private", FirstName: u.FirstName, LastName: u.LastName, UserName: u.UserName}
}

// GroupChat is a basic group; id must be negative, as Telegram's are.
func GroupChat(id int64, title string) tgbotapi.Chat {
	return tgbotapi.Chat{ID: id, Type: "group", Title: title}
}

// SupergroupChat is a supergroup; id must be negative (Telegram's start
// with -100).
func SupergroupChat(id int64, title string) tgbotapi.Chat {
	return tgbotapi.Chat{ID: id, Type: "supergroup", Title: title}
}

// ChannelChat is a broadcast channel; id must be negative.
func ChannelChat(id int64, title string) tgbotapi.Chat {
	return tgbotapi.Chat{ID: id, Type: "channel", Title: title}
}

// NewMessage builds a text message from from in chat, with the next
// message id of the chat, the current date and the entities Telegram's
// servers would attach (mentions, commands). It is not delivered until
// passed to Inject.
func (s *Server) NewMessage(chat tgbotapi.Chat, from tgbotapi.User, text string) *tgbotapi.Message {
	s.mu.Lock()
	id := s.nextMsgIDLocked(chat.ID)
	s.mu.Unlock()
	f := from
	c := chat
	return &tgbotapi.Message{
		MessageID: id,
		From:      &f,
		Chat:      &c,
		Date:      int(time.Now().Unix()),
		Text:      text,
		Entities:  Entities(text),
	}
}

// NewReply builds a text message that replies to to.
func (s *Server) NewReply(chat tgbotapi.Chat, from tgbotapi.User, text string, to *tgbotapi.Message) *tgbotapi.Message {
	m := s.NewMessage(chat, from, text)
	m.ReplyToMessage = to
	return m
}

// NewSticker builds a sticker message.
func (s *Server) NewSticker(chat tgbotapi.Chat, from tgbotapi.User) *tgbotapi.Message {
	m := s.NewMessage(chat, from, "")
	m.Sticker = &tgbotapi.Sticker{FileID: fmt.Sprintf("sticker-%d", m.MessageID), FileUniqueID: "s", Width: 512, Height: 512, Emoji: "🙂"}
	return m
}

// NewPhoto builds a photo message with an optional caption.
func (s *Server) NewPhoto(chat tgbotapi.Chat, from tgbotapi.User, caption string) *tgbotapi.Message {
	m := s.NewMessage(chat, from, "")
	m.Photo = []tgbotapi.PhotoSize{{FileID: fmt.Sprintf("photo-%d", m.MessageID), FileUniqueID: "p", Width: 90, Height: 90}}
	if caption != "" {
		m.Caption, m.CaptionEntities = caption, Entities(caption)
	}
	return m
}

// NewVoice builds a voice message.
func (s *Server) NewVoice(chat tgbotapi.Chat, from tgbotapi.User) *tgbotapi.Message {
	m := s.NewMessage(chat, from, "")
	m.Voice = &tgbotapi.Voice{FileID: fmt.Sprintf("voice-%d", m.MessageID), FileUniqueID: "v", Duration: 3}
	return m
}

// Edited returns a copy of m as Telegram sends it after an edit: the same
// message id, the new text and entities, and an edit date.
func Edited(m *tgbotapi.Message, text string) *tgbotapi.Message {
	e := *m
	e.Text, e.Entities = text, Entities(text)
	e.EditDate = int(time.Now().Unix())
	return &e
}

// Inject queues m as a new message update and returns its update id.
func (s *Server) Inject(m *tgbotapi.Message) int {
	return s.InjectUpdate(tgbotapi.Update{Message: m})
}

// InjectEdit queues m as an edited_message update and returns its update id.
func (s *Server) InjectEdit(m *tgbotapi.Message) int {
	return s.InjectUpdate(tgbotapi.Update{EditedMessage: m})
}

// InjectChannelPost queues m as a channel_post update.
func (s *Server) InjectChannelPost(m *tgbotapi.Message) int {
	return s.InjectUpdate(tgbotapi.Update{ChannelPost: m})
}

// InjectUpdate queues u for getUpdates. A zero UpdateID gets the next id;
// ids must increase. The chat of a message in u becomes known to the server
// (a private chat means the person has started the bot). It returns the
// update id.
func (s *Server) InjectUpdate(u tgbotapi.Update) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if u.UpdateID == 0 {
		s.nextID++
		u.UpdateID = s.nextID
	} else if u.UpdateID > s.nextID {
		s.nextID = u.UpdateID
	}
	for _, m := range []*tgbotapi.Message{u.Message, u.EditedMessage, u.ChannelPost, u.EditedChannelPost} {
		if m != nil && m.Chat != nil {
			s.chats[m.Chat.ID] = *m.Chat
			s.rememberLocked(m.Chat.ID, m.MessageID)
			if m.From != nil {
				s.authorLocked(m.Chat.ID, m.MessageID, *m.From)
			}
		}
	}
	s.updates = append(s.updates, u)
	sort.SliceStable(s.updates, func(i, j int) bool { return s.updates[i].UpdateID < s.updates[j].UpdateID })
	s.cond.Broadcast()
	return u.UpdateID
}

// InjectRaw queues an update whose fields are the JSON object fields, as
// they are, with the next update id added: an update the Bot API could
// send but tgbotapi.Update may not decode (a field of the wrong type, say).
// It returns the update id. fields must be a JSON object without
// update_id.
func (s *Server) InjectRaw(fields string) int {
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(fields), &m); err != nil {
		panic("telegramtest: InjectRaw needs a JSON object: " + err.Error())
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	id := s.nextID
	m["update_id"] = json.RawMessage(strconv.Itoa(id))
	b, err := json.Marshal(m)
	if err != nil {
		panic("telegramtest: InjectRaw: " + err.Error())
	}
	if s.raw == nil {
		s.raw = map[int]json.RawMessage{}
	}
	s.raw[id] = b
	s.updates = append(s.updates, tgbotapi.Update{UpdateID: id})
	s.cond.Broadcast()
	return id
}

// StartPrivate records that u has started the bot, so the bot may message
// u privately. Injecting a private message from u does the same.
func (s *Server) StartPrivate(u tgbotapi.User) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.chats[u.ID] = PrivateChat(u)
}

// AddChat makes chat known to the server (the bot is a member), so the bot
// may send to it before anyone has written there.
func (s *Server) AddChat(chat tgbotapi.Chat) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.chats[chat.ID] = chat
}

// SetMemberStatus sets what getChatMember answers for user in chat
// ("creator", "administrator", "member", "restricted", "left", "kicked").
// The default is "member".
func (s *Server) SetMemberStatus(chatID, userID int64, status string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.members[[2]int64{chatID, userID}] = status
}

// SetWebhook sets a webhook as if another deployment had registered one;
// getUpdates then fails with 409 until deleteWebhook.
func (s *Server) SetWebhook(url string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.webhook = url
	s.cond.Broadcast()
}

// Webhook returns the webhook URL and secret token set, if any.
func (s *Server) Webhook() (url, secret string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.webhook, s.secret
}

// FailNext makes the next call of method fail with status; retryAfter is
// sent as parameters.retry_after (used with 429).
func (s *Server) FailNext(method string, status int, retryAfter time.Duration) {
	s.FailNextWith(method, Failure{Status: status, RetryAfter: retryAfter})
}

// FailNextWith queues f for the next call of method. Queued failures are
// used one per call, in order.
func (s *Server) FailNextWith(method string, f Failure) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := strings.ToLower(method)
	s.failures[m] = append(s.failures[m], f)
}

// DropConnections breaks every connection to the server, including the ones
// of waiting long polls, as a network failure would: the clients see their
// requests fail without a response. It returns the number of long polls it
// broke.
func (s *Server) DropConnections() int {
	s.mu.Lock()
	n := s.polling
	s.polling = 0 // the broken polls no longer count
	close(s.drop)
	s.drop = make(chan struct{})
	s.mu.Unlock()
	s.ts.CloseClientConnections()
	return n
}

// OnSend makes f run for every message sendMessage accepts, after Sent
// has it and before the response is written: at the moment Telegram has
// taken the message and the bot has not yet heard so. A test can stop the
// bot there (the send the bot can never know went out). f runs on the
// request's goroutine, which waits for it; nil removes the hook.
func (s *Server) OnSend(f func(Sent)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.onSend = f
}

// WaitIdle blocks until no client connection to the server is open, or ctx
// is done. Once a client process has died and WaitIdle has returned, every
// request that client sent has been handled: what it sent is in Sent.
func (s *Server) WaitIdle(ctx context.Context) error {
	if err := s.cond.Wait(ctx, func() bool { return s.conns == 0 }); err != nil {
		s.mu.Lock()
		n := s.conns
		s.mu.Unlock()
		return fmt.Errorf("wait for the clients to disconnect (%d connections open): %w", n, err)
	}
	return nil
}

// snapshot returns a copy of *list, read under s.mu.
func snapshot[T any](s *Server, list *[]T) []T {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]T(nil), (*list)...)
}

// waitCount blocks until *list holds at least n items or ctx is done, and
// returns a copy of it; what names the items in the error.
func waitCount[T any](ctx context.Context, s *Server, list *[]T, n int, what string) ([]T, error) {
	if err := s.cond.Wait(ctx, func() bool { return len(*list) >= n }); err != nil {
		got := snapshot(s, list)
		return got, fmt.Errorf("wait for %d %s (have %d): %w", n, what, len(got), err)
	}
	return snapshot(s, list), nil
}

// Sent returns what the bot has sent so far, in order.
func (s *Server) Sent() []Sent {
	return snapshot(s, &s.sent)
}

// WaitSent blocks until the bot has sent at least n messages or ctx is done,
// and returns everything sent so far.
func (s *Server) WaitSent(ctx context.Context, n int) ([]Sent, error) {
	return waitCount(ctx, s, &s.sent, n, "sent messages")
}

// WaitSentAfter blocks until the bot has sent more than seen messages or
// ctx is done, and returns a copy of those after the first seen, in
// order: a watcher that keeps count copies each message once, not the
// whole list at every wake.
func (s *Server) WaitSentAfter(ctx context.Context, seen int) ([]Sent, error) {
	seen = max(seen, 0)
	err := s.cond.Wait(ctx, func() bool { return len(s.sent) > seen })
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Sent
	if len(s.sent) > seen {
		out = append(out, s.sent[seen:]...)
	}
	if err != nil {
		return out, fmt.Errorf("wait for more than %d sent messages (have %d): %w", seen, len(s.sent), err)
	}
	return out, nil
}

// Documents returns the documents the bot has sent so far, in order.
func (s *Server) Documents() []Document {
	return snapshot(s, &s.documents)
}

// WaitDocuments blocks until the bot has sent at least n documents or ctx
// is done, and returns every document sent so far.
func (s *Server) WaitDocuments(ctx context.Context, n int) ([]Document, error) {
	return waitCount(ctx, s, &s.documents, n, "sent documents")
}

// Photos returns the photos the bot has sent so far, in order.
func (s *Server) Photos() []Photo {
	return snapshot(s, &s.photos)
}

// WaitPhotos blocks until the bot has sent at least n photos or ctx is
// done, and returns every photo sent so far.
func (s *Server) WaitPhotos(ctx context.Context, n int) ([]Photo, error) {
	return waitCount(ctx, s, &s.photos, n, "sent photos")
}

// ChatActions returns the sendChatAction calls so far.
func (s *Server) ChatActions() []ChatAction {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]ChatAction(nil), s.actions...)
}

// Commands returns the commands last set with setMyCommands.
func (s *Server) Commands() []tgbotapi.BotCommand {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]tgbotapi.BotCommand(nil), s.commands...)
}

// Calls returns how many requests for method the server has received
// (with any token).
func (s *Server) Calls(method string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[strings.ToLower(method)]
}

// WaitCalls blocks until method has been called at least n times.
func (s *Server) WaitCalls(ctx context.Context, method string, n int) error {
	m := strings.ToLower(method)
	if err := s.cond.Wait(ctx, func() bool { return s.calls[m] >= n }); err != nil {
		return fmt.Errorf("wait for %d %s calls (have %d): %w", n, method, s.Calls(method), err)
	}
	return nil
}

// WaitPolling blocks until a getUpdates call is waiting for updates.
func (s *Server) WaitPolling(ctx context.Context) error {
	if err := s.cond.Wait(ctx, func() bool { return s.polling > 0 }); err != nil {
		return fmt.Errorf("wait for a long poll: %w", err)
	}
	return nil
}

// Pending returns how many updates have not been confirmed yet.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.updates)
}

// Confirmed returns the highest offset a getUpdates call has passed: every
// update below it is confirmed and gone.
func (s *Server) Confirmed() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.confirmed
}

// WaitConfirmed blocks until every update below offset is confirmed.
func (s *Server) WaitConfirmed(ctx context.Context, offset int) error {
	if err := s.cond.Wait(ctx, func() bool { return s.confirmed >= offset }); err != nil {
		return fmt.Errorf("wait for offset %d to be confirmed: %w", offset, err)
	}
	return nil
}

// authorLocked records who wrote message id in chat, for the
// reply_to_message of a reply to it. s.mu is held.
func (s *Server) authorLocked(chat int64, id int, from tgbotapi.User) {
	if s.authors == nil {
		s.authors = map[msgKey]tgbotapi.User{}
	}
	s.authors[msgKey{chat, id}] = from
}

func (s *Server) nextMsgIDLocked(chat int64) int {
	s.nextMsg[chat]++
	return s.nextMsg[chat]
}

func (s *Server) rememberLocked(chat int64, id int) {
	if s.messages[chat] == nil {
		s.messages[chat] = map[int]bool{}
	}
	s.messages[chat][id] = true
	if id > s.nextMsg[chat] {
		s.nextMsg[chat] = id
	}
}

// apiError is an error answer of the Bot API.
type apiError struct {
	status     int
	desc       string
	retryAfter int
	migrateTo  int64
}

func (e *apiError) Error() string { return e.desc }

func badRequest(format string, args ...any) *apiError {
	return &apiError{status: http.StatusBadRequest, desc: "Bad Request: " + fmt.Sprintf(format, args...)}
}

// defaultDescription is the Bot API's description for an error status.
func defaultDescription(status int, retryAfter int) string {
	switch status {
	case http.StatusTooManyRequests:
		return fmt.Sprintf("Too Many Requests: retry after %d", retryAfter)
	case http.StatusConflict:
		return "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running"
	case http.StatusUnauthorized:
		return "Unauthorized"
	case http.StatusForbidden:
		return "Forbidden: bot was blocked by the user"
	case http.StatusBadRequest:
		return "Bad Request: forced failure"
	case http.StatusNotFound:
		return "Not Found"
	default:
		return http.StatusText(status)
	}
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	rest, ok := strings.CutPrefix(r.URL.Path, "/bot")
	token, method, ok2 := strings.Cut(rest, "/")
	if !ok || !ok2 || method == "" || strings.Contains(method, "/") {
		writeError(w, &apiError{status: http.StatusNotFound, desc: "Not Found"})
		return
	}
	method = strings.ToLower(method)
	s.mu.Lock()
	s.calls[method]++
	s.cond.Broadcast()
	s.mu.Unlock()
	if token != s.token {
		writeError(w, &apiError{status: http.StatusUnauthorized, desc: "Unauthorized"})
		return
	}
	params, err := readParams(r)
	if err != nil {
		writeError(w, badRequest("%v", err))
		return
	}
	if f, ok := s.takeFailure(method); ok {
		writeFailure(w, f)
		return
	}
	var result any
	switch method {
	case "getme":
		result = s.bot
	case "getupdates":
		var done bool
		result, done, err = s.getUpdates(w, r, params)
		if done {
			return
		}
	case "sendmessage":
		result, err = s.sendMessage(params)
	case "senddocument":
		result, err = s.sendDocument(r, params)
	case "sendphoto":
		result, err = s.sendPhoto(r, params)
	case "sendchataction":
		result, err = s.sendChatAction(params)
	case "setmycommands":
		result, err = s.setMyCommands(params)
	case "getchatmember":
		result, err = s.getChatMember(params)
	case "setwebhook":
		s.mu.Lock()
		s.webhook, s.secret = params["url"], params["secret_token"]
		err = s.setAllowedLocked(params)
		s.mu.Unlock()
		result = true
	case "answercallbackquery":
		result, err = s.answerCallbackQuery(params)
	case "editmessagereplymarkup":
		result, err = s.editMessageReplyMarkup(params)
	case "deletewebhook":
		s.mu.Lock()
		s.webhook, s.secret = "", ""
		if params["drop_pending_updates"] == "true" {
			s.updates = nil
		}
		s.cond.Broadcast()
		s.mu.Unlock()
		result = true
	case "getwebhookinfo":
		s.mu.Lock()
		result = tgbotapi.WebhookInfo{URL: s.webhook, PendingUpdateCount: len(s.updates)}
		s.mu.Unlock()
	default:
		err = &apiError{status: http.StatusNotFound, desc: "Not Found: method not found"}
	}
	if err != nil {
		if ae, ok := errors.AsType[*apiError](err); ok {
			writeError(w, ae)
		} else {
			writeError(w, badRequest("%v", err))
		}
		return
	}
	writeResult(w, result)
}

func (s *Server) takeFailure(method string) (Failure, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := s.failures[method]
	if len(q) == 0 {
		return Failure{}, false
	}
	s.failures[method] = q[1:]
	return q[0], true
}

// readParams reads a request's parameters the ways the Bot API accepts
// them: URL query, form (urlencoded or multipart) or a JSON object.
func readParams(r *http.Request) (map[string]string, error) {
	out := map[string]string{}
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		var m map[string]json.RawMessage
		body, err := io.ReadAll(io.LimitReader(r.Body, 10<<20))
		if err != nil {
			return nil, fmt.Errorf("read body: %w", err)
		}
		if len(body) > 0 {
			if err := json.Unmarshal(body, &m); err != nil {
				return nil, fmt.Errorf("can't parse JSON object: %w", err)
			}
		}
		for k, v := range m {
			var s string
			if json.Unmarshal(v, &s) == nil {
				out[k] = s
			} else {
				out[k] = string(v)
			}
		}
		for k, v := range r.URL.Query() {
			out[k] = v[0]
		}
		return out, nil
	}
	if err := r.ParseMultipartForm(10 << 20); err != nil && !errors.Is(err, http.ErrNotMultipart) {
		return nil, fmt.Errorf("can't parse request: %w", err)
	}
	for k, v := range r.Form {
		if len(v) > 0 {
			out[k] = v[0]
		}
	}
	return out, nil
}

func writeResult(w http.ResponseWriter, result any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(struct {
		OK     bool `json:"ok"`
		Result any  `json:"result"`
	}{true, result})
}

func writeError(w http.ResponseWriter, e *apiError) {
	type params struct {
		RetryAfter      int   `json:"retry_after,omitempty"`
		MigrateToChatID int64 `json:"migrate_to_chat_id,omitempty"`
	}
	body := struct {
		OK          bool    `json:"ok"`
		ErrorCode   int     `json:"error_code"`
		Description string  `json:"description"`
		Parameters  *params `json:"parameters,omitempty"`
	}{false, e.status, e.desc, nil}
	if e.retryAfter > 0 || e.migrateTo != 0 {
		body.Parameters = &params{RetryAfter: e.retryAfter, MigrateToChatID: e.migrateTo}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(e.status)
	_ = json.NewEncoder(w).Encode(body)
}

func writeFailure(w http.ResponseWriter, f Failure) {
	if f.Body != "" {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(f.Status)
		_, _ = io.WriteString(w, f.Body)
		return
	}
	ra := int(math.Ceil(f.RetryAfter.Seconds()))
	desc := f.Description
	if desc == "" {
		desc = defaultDescription(f.Status, ra)
	}
	writeError(w, &apiError{status: f.Status, desc: desc, retryAfter: ra, migrateTo: f.MigrateToChatID})
}

func intParam(p map[string]string, name string) (int64, bool, error) {
	v, ok := p[name]
	if !ok || v == "" {
		return 0, false, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, true, badRequest("invalid %s %q", name, v)
	}
	return n, true, nil
}

// getUpdates answers a long poll. done is true when the response was
// already handled (the connection was dropped or the poll replaced).
func (s *Server) getUpdates(w http.ResponseWriter, r *http.Request, p map[string]string) (any, bool, error) {
	offset, _, err := intParam(p, "offset")
	if err != nil {
		return nil, false, err
	}
	limit, hasLimit, err := intParam(p, "limit")
	if err != nil {
		return nil, false, err
	}
	if !hasLimit || limit <= 0 || limit > 100 {
		limit = 100
	}
	timeout, _, err := intParam(p, "timeout")
	if err != nil {
		return nil, false, err
	}
	deadline := time.Now().Add(time.Duration(timeout) * time.Second)

	s.mu.Lock()
	if s.webhook != "" {
		s.mu.Unlock()
		return nil, false, &apiError{status: http.StatusConflict, desc: "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first"}
	}
	if err := s.setAllowedLocked(p); err != nil {
		s.mu.Unlock()
		return nil, false, err
	}
	s.pollGen++
	gen := s.pollGen
	s.cond.Broadcast() // an older waiting poll ends with 409
	s.confirmLocked(int(offset))
	s.mu.Unlock()

	var timer <-chan time.Time
	for {
		s.mu.Lock()
		switch {
		case s.closed:
			s.mu.Unlock()
			return []tgbotapi.Update{}, false, nil
		case gen != s.pollGen:
			s.mu.Unlock()
			return nil, false, &apiError{status: http.StatusConflict, desc: defaultDescription(http.StatusConflict, 0)}
		}
		if s.webhook != "" {
			s.mu.Unlock()
			return nil, false, &apiError{status: http.StatusConflict, desc: "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first"}
		}
		if s.callbacksBlockedLocked() {
			// Telegram does not keep the types a bot did not ask for.
			kept := s.updates[:0]
			for _, u := range s.updates {
				if u.CallbackQuery == nil {
					kept = append(kept, u)
				}
			}
			s.updates = kept
		}
		if len(s.updates) > 0 || timeout <= 0 || !time.Now().Before(deadline) {
			n := min(int(limit), len(s.updates))
			out := make([]any, n)
			for i, u := range s.updates[:n] {
				if raw, ok := s.raw[u.UpdateID]; ok {
					out[i] = raw
				} else {
					out[i] = u
				}
			}
			s.mu.Unlock()
			return out, false, nil
		}
		s.polling++
		s.cond.Broadcast()
		ch, drop := s.cond.Changed(), s.drop
		s.mu.Unlock()
		if timer == nil {
			t := time.NewTimer(time.Until(deadline))
			defer t.Stop()
			timer = t.C
		}
		var dropped bool
		select {
		case <-ch:
		case <-timer:
		case <-drop:
			dropped = true
		case <-r.Context().Done():
			dropped = true
		}
		s.mu.Lock()
		if drop == s.drop { // not already uncounted by DropConnections
			s.polling--
		}
		s.cond.Broadcast()
		s.mu.Unlock()
		if dropped {
			hangUp(w)
			return nil, true, nil
		}
	}
}

// confirmLocked applies a getUpdates offset: updates below a positive
// offset are confirmed and forgotten; a negative offset keeps only the last
// -offset updates.
func (s *Server) confirmLocked(offset int) {
	switch {
	case offset > 0:
		i := 0
		for i < len(s.updates) && s.updates[i].UpdateID < offset {
			delete(s.raw, s.updates[i].UpdateID)
			i++
		}
		s.updates = s.updates[i:]
		if offset > s.confirmed {
			s.confirmed = offset
		}
	case offset < 0:
		if n := -offset; n < len(s.updates) {
			s.updates = s.updates[len(s.updates)-n:]
		}
	}
	s.cond.Broadcast()
}

// hangUp closes the connection without a response.
func hangUp(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			_ = conn.Close()
			return
		}
	}
	panic(http.ErrAbortHandler)
}

func (s *Server) chatParam(p map[string]string) (int64, error) {
	v := p["chat_id"]
	if v == "" {
		return 0, badRequest("chat_id is empty")
	}
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, badRequest("chat not found")
	}
	s.mu.Lock()
	_, known := s.chats[id]
	s.mu.Unlock()
	if !known {
		if id > 0 {
			return 0, &apiError{status: http.StatusForbidden, desc: "Forbidden: bot can't initiate conversation with a user"}
		}
		return 0, badRequest("chat not found")
	}
	return id, nil
}

func (s *Server) sendMessage(p map[string]string) (any, error) {
	chatID, err := s.chatParam(p)
	if err != nil {
		return nil, err
	}
	text, mode := p["text"], p["parse_mode"]
	plain := text
	switch strings.ToLower(mode) {
	case "":
	case "html":
		if plain, err = parseHTML(text); err != nil {
			return nil, badRequest("%v", err)
		}
	default:
		return nil, badRequest("unsupported parse_mode %q in this fake", mode)
	}
	if strings.TrimFunc(plain, unicode.IsSpace) == "" {
		return nil, badRequest("message text is empty")
	}
	if utf8.RuneCountInString(plain) > MaxMessageLen {
		return nil, badRequest("message is too long")
	}
	rp, err := replyParams(p)
	if err != nil {
		return nil, err
	}
	kb, _, err := parseMarkup(p)
	if err != nil {
		return nil, err
	}

	s.mu.Lock()
	replyTo, reply, err := s.replyLocked(chatID, rp)
	if err != nil {
		s.mu.Unlock()
		return nil, err
	}
	id := s.nextMsgIDLocked(chatID)
	s.rememberLocked(chatID, id)
	bot := s.bot
	msg := &tgbotapi.Message{
		MessageID:      id,
		From:           &bot,
		Chat:           ptr(s.chats[chatID]),
		Date:           int(time.Now().Unix()),
		Text:           plain,
		ReplyToMessage: reply,
		ReplyMarkup:    markupOf(kb),
	}
	s.authorLocked(chatID, id, bot)
	s.keepBotMessageLocked(msg) // never changed in place: an edit keeps a new copy
	sent := Sent{ChatID: chatID, Text: text, Plain: plain, ParseMode: mode, ReplyTo: int(replyTo), Buttons: buttonsOf(kb), ReplyMarkup: p["reply_markup"], Message: msg}
	s.sent = append(s.sent, sent)
	s.cond.Broadcast()
	hook := s.onSend
	s.mu.Unlock()
	if hook != nil {
		hook(sent)
	}
	return msg, nil
}

func ptr[T any](v T) *T { return &v }

// replyParam is what a send asked to reply to.
type replyParam struct {
	to           int64
	allowWithout bool
}

// replyParams reads reply_to_message_id, allow_sending_without_reply and
// reply_parameters.
func replyParams(p map[string]string) (replyParam, error) {
	replyTo, _, err := intParam(p, "reply_to_message_id")
	if err != nil {
		return replyParam{}, err
	}
	rp := replyParam{to: replyTo, allowWithout: p["allow_sending_without_reply"] == "true"}
	if raw := p["reply_parameters"]; raw != "" {
		var v struct {
			MessageID                int   `json:"message_id"`
			ChatID                   any   `json:"chat_id"`
			AllowSendingWithoutReply *bool `json:"allow_sending_without_reply"`
		}
		if err := json.Unmarshal([]byte(raw), &v); err != nil {
			return replyParam{}, badRequest("can't parse reply parameters JSON object")
		}
		rp.to = int64(v.MessageID)
		if v.AllowSendingWithoutReply != nil {
			rp.allowWithout = *v.AllowSendingWithoutReply
		}
	}
	return rp, nil
}

// replyLocked resolves rp in chatID: the message id replied to (zero when
// the message is gone and that is allowed) and the replied message.
// s.mu is held.
func (s *Server) replyLocked(chatID int64, rp replyParam) (int64, *tgbotapi.Message, error) {
	if rp.to == 0 {
		return 0, nil, nil
	}
	if !s.messages[chatID][int(rp.to)] {
		if !rp.allowWithout {
			return 0, nil, badRequest("message to be replied not found")
		}
		return 0, nil, nil
	}
	reply := &tgbotapi.Message{MessageID: int(rp.to), Chat: ptr(s.chats[chatID])}
	if from, ok := s.authors[msgKey{chatID, int(rp.to)}]; ok {
		reply.From = &from
	}
	return rp.to, reply, nil
}

// upload is one file a send method took, checked and parsed.
type upload struct {
	chatID   int64
	fileName string
	ctype    string
	data     []byte
	caption  string
	plain    string
	mode     string
	rp       replyParam
	kb       [][]tgbotapi.InlineKeyboardButton
}

// readUpload reads the multipart part named part of a send method's request
// and checks its caption and size as Telegram does. A file_id or URL
// instead of an upload is refused: the fake keeps no files.
func (s *Server) readUpload(r *http.Request, p map[string]string, part string) (upload, error) {
	chatID, err := s.chatParam(p)
	if err != nil {
		return upload{}, err
	}
	if r.MultipartForm == nil || len(r.MultipartForm.File[part]) == 0 {
		if p[part] != "" {
			return upload{}, badRequest("this fake accepts uploaded %ss only, not a file_id or URL", part)
		}
		return upload{}, badRequest("there is no %s in the request", part)
	}
	fh := r.MultipartForm.File[part][0]
	if fh.Size > MaxUploadSize {
		return upload{}, &apiError{status: http.StatusRequestEntityTooLarge, desc: "Request Entity Too Large"}
	}
	f, err := fh.Open()
	if err != nil {
		return upload{}, fmt.Errorf("read %s: %w", part, err)
	}
	data, err := io.ReadAll(f)
	f.Close()
	if err != nil {
		return upload{}, fmt.Errorf("read %s: %w", part, err)
	}
	if len(data) == 0 {
		return upload{}, badRequest("file must be non-empty")
	}
	caption, mode := p["caption"], p["parse_mode"]
	plain := caption
	switch strings.ToLower(mode) {
	case "":
	case "html":
		if plain, err = parseHTML(caption); err != nil {
			return upload{}, badRequest("%v", err)
		}
	default:
		return upload{}, badRequest("unsupported parse_mode %q in this fake", mode)
	}
	if utf16Len(plain) > MaxCaptionLen {
		return upload{}, badRequest("message caption is too long")
	}
	rp, err := replyParams(p)
	if err != nil {
		return upload{}, err
	}
	kb, _, err := parseMarkup(p)
	if err != nil {
		return upload{}, err
	}
	return upload{chatID: chatID, fileName: fh.Filename, ctype: fh.Header.Get("Content-Type"), data: data,
		caption: caption, plain: plain, mode: mode, rp: rp, kb: kb}, nil
}

// newUploadMessageLocked creates the message of an accepted upload and the
// Document record of it, with the message's media left to the caller.
func (s *Server) newUploadMessageLocked(u upload) (Document, error) {
	replyTo, reply, err := s.replyLocked(u.chatID, u.rp)
	if err != nil {
		return Document{}, err
	}
	id := s.nextMsgIDLocked(u.chatID)
	s.rememberLocked(u.chatID, id)
	bot := s.bot
	msg := &tgbotapi.Message{
		MessageID:      id,
		From:           &bot,
		Chat:           ptr(s.chats[u.chatID]),
		Date:           int(time.Now().Unix()),
		Caption:        u.plain,
		ReplyToMessage: reply,
		ReplyMarkup:    markupOf(u.kb),
	}
	s.authorLocked(u.chatID, id, bot)
	return Document{
		ChatID: u.chatID, FileName: u.fileName, ContentType: u.ctype, Data: u.data,
		Caption: u.caption, CaptionPlain: u.plain, ParseMode: u.mode, ReplyTo: int(replyTo),
		Buttons: buttonsOf(u.kb), Message: msg,
	}, nil
}

// sendDocument takes an uploaded document (multipart part "document").
func (s *Server) sendDocument(r *http.Request, p map[string]string) (any, error) {
	u, err := s.readUpload(r, p, "document")
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d, err := s.newUploadMessageLocked(u)
	if err != nil {
		return nil, err
	}
	id := d.Message.MessageID
	d.Message.Document = &tgbotapi.Document{
		FileID:       fmt.Sprintf("doc-%d-%d", u.chatID, id),
		FileUniqueID: fmt.Sprintf("u-%d-%d", u.chatID, id),
		FileName:     u.fileName,
		MimeType:     u.ctype,
		FileSize:     len(u.data),
	}
	s.keepBotMessageLocked(d.Message)
	s.documents = append(s.documents, d)
	s.cond.Broadcast()
	return d.Message, nil
}

// MaxPhotoSize is the Bot API's limit on an uploaded photo: 10 MB, read as
// 10,000,000 bytes, the stricter reading.
const MaxPhotoSize = 10_000_000

// Photo is one picture the bot sent through sendPhoto: the upload as for a
// document, and the size the fake read from the image's header.
type Photo struct {
	Document
	// Width and Height are the image's size in pixels.
	Width, Height int
}

// checkPhoto refuses data as Telegram refuses a photo: a PNG or JPEG (the
// formats this fake decodes) of at most MaxPhotoSize bytes whose width and
// height add up to at most 10,000 and whose sides differ by a ratio of at
// most 20. The descriptions are Telegram's.
func checkPhoto(data []byte) (image.Config, error) {
	if len(data) > MaxPhotoSize {
		return image.Config{}, badRequest("Bad Request: PHOTO_SAVE_FILE_INVALID")
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || (format != "png" && format != "jpeg") {
		return image.Config{}, badRequest("Bad Request: IMAGE_PROCESS_FAILED")
	}
	w, h := cfg.Width, cfg.Height
	if w <= 0 || h <= 0 || w+h > 10000 || w > 20*h || h > 20*w {
		return image.Config{}, badRequest("Bad Request: PHOTO_INVALID_DIMENSIONS")
	}
	return cfg, nil
}

// sendPhoto takes an uploaded photo (multipart part "photo"), checked as
// checkPhoto says.
func (s *Server) sendPhoto(r *http.Request, p map[string]string) (any, error) {
	u, err := s.readUpload(r, p, "photo")
	if err != nil {
		return nil, err
	}
	cfg, err := checkPhoto(u.data)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d, err := s.newUploadMessageLocked(u)
	if err != nil {
		return nil, err
	}
	id := d.Message.MessageID
	d.Message.Photo = []tgbotapi.PhotoSize{{
		FileID:       fmt.Sprintf("photo-%d-%d", u.chatID, id),
		FileUniqueID: fmt.Sprintf("u-%d-%d", u.chatID, id),
		Width:        cfg.Width,
		Height:       cfg.Height,
		FileSize:     len(u.data),
	}}
	s.keepBotMessageLocked(d.Message)
	s.photos = append(s.photos, Photo{Document: d, Width: cfg.Width, Height: cfg.Height})
	s.cond.Broadcast()
	return d.Message, nil
}

var chatActions = map[string]bool{
	"typing": true, "upload_photo": true, "record_video": true, "upload_video": true,
	"record_voice": true, "upload_voice": true, "upload_document": true, "choose_sticker": true,
	"find_location": true, "record_video_note": true, "upload_video_note": true,
}

func (s *Server) sendChatAction(p map[string]string) (any, error) {
	chatID, err := s.chatParam(p)
	if err != nil {
		return nil, err
	}
	action := p["action"]
	if !chatActions[action] {
		return nil, badRequest("wrong parameter action in request")
	}
	s.mu.Lock()
	s.actions = append(s.actions, ChatAction{ChatID: chatID, Action: action})
	s.cond.Broadcast()
	s.mu.Unlock()
	return true, nil
}

func (s *Server) setMyCommands(p map[string]string) (any, error) {
	var cmds []tgbotapi.BotCommand
	if err := json.Unmarshal([]byte(p["commands"]), &cmds); err != nil {
		return nil, badRequest("can't parse commands JSON object")
	}
	if len(cmds) > 100 {
		return nil, badRequest("too many commands")
	}
	for _, c := range cmds {
		if len(c.Command) < 1 || len(c.Command) > 32 {
			return nil, badRequest("command must be 1-32 characters")
		}
		for _, r := range c.Command {
			if !(r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
				return nil, badRequest("command can contain only lowercase English letters, digits and underscores")
			}
		}
		if n := len([]rune(c.Description)); n < 1 || n > 256 {
			return nil, badRequest("command description must be 1-256 characters")
		}
	}
	s.mu.Lock()
	s.commands = cmds
	s.cond.Broadcast()
	s.mu.Unlock()
	return true, nil
}

func (s *Server) getChatMember(p map[string]string) (any, error) {
	chatID, err := s.chatParam(p)
	if err != nil {
		return nil, err
	}
	userID, ok, err := intParam(p, "user_id")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, badRequest("user_id is empty")
	}
	s.mu.Lock()
	status, ok := s.members[[2]int64{chatID, userID}]
	s.mu.Unlock()
	if !ok {
		status = "member"
	}
	return tgbotapi.ChatMember{User: &tgbotapi.User{ID: userID}, Status: status}, nil
}

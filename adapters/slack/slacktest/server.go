package slacktest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/havenbot/haven/internal/waitcond"
)

// MaxTextLen is where Slack truncates a message's text (40,000
// characters); the fake refuses longer text with msg_too_long, so that a
// test notices a message that would have been cut.
const MaxTextLen = 40000

// The default identities of a Server.
const (
	DefaultBotToken = "xoxb-0000-fake-bot-token"
	DefaultAppToken = "xapp-1-A0HAVEN-0000-fake-app-token"
	DefaultTeam     = "T0HAVEN"
	DefaultBotUser  = "U0HAVEN"
	DefaultBotID    = "B0HAVEN"
	DefaultBotName  = "haven"
	// DefaultAppID is the app's id, in events and in the hello envelope.
	DefaultAppID = "A0HAVEN"
)

// User is a person (or bot) in the fake workspace, as users.info shows
// them.
type User struct {
	ID          string
	Name        string // the handle
	RealName    string
	DisplayName string
	TZ          string // IANA time zone, e.g. America/Chicago
	Locale      string // e.g. en-US; sent only with include_locale
	IsAdmin     bool
	IsOwner     bool
	IsBot       bool
}

// The conversation types, as channel_type in message events.
const (
	TypeChannel = "channel" // public channel
	TypeGroup   = "group"   // private channel
	TypeMPIM    = "mpim"    // multi-person DM
	TypeIM      = "im"      // DM with the bot
)

// Channel is a conversation in the fake workspace.
type Channel struct {
	ID       string
	Name     string
	Type     string // TypeChannel, TypeGroup, TypeMPIM or TypeIM
	Archived bool
	// NotMember: the bot is not in it (chat.postMessage and
	// chat.postEphemeral answer not_in_channel).
	NotMember bool
}

// Post is one message the bot posted.
type Post struct {
	// Method is chat.postMessage, chat.postEphemeral, or response_url
	// for a new message sent to a press's response_url.
	Method string
	// Channel is the conversation id it went to.
	Channel string
	// TS is its timestamp (postEphemeral: the message_ts Slack returns).
	TS string
	// ThreadTS is the thread it was posted in, "" for none.
	ThreadTS string
	// Text is the text as the bot sent it (mrkdwn, escaped).
	Text string
	// Plain is the text as people see it: Slack's three escapes
	// (&amp; &lt; &gt;) decoded.
	Plain string
	// Ephemeral is true for chat.postEphemeral: only User sees it.
	Ephemeral bool
	// User is the one person an ephemeral message is shown to.
	User string
	// Form is every field of the request except the token.
	Form url.Values
	// Blocks is the message's Block Kit blocks as JSON, "" when it has
	// none; chat.update changes it.
	Blocks string
	// Buttons are the buttons in its actions blocks, in order; chat.update
	// and a response_url that replaces it change them.
	Buttons []Button
	// Deleted is set when a response_url deleted it.
	Deleted bool
}

// File is one file the bot shared with files.completeUploadExternal.
type File struct {
	ID       string
	Channel  string
	ThreadTS string
	Name     string
	Title    string
	// Comment is the initial_comment as sent (mrkdwn).
	Comment string
	Data    []byte
}

// Failure is a forced failure of one Web API call.
type Failure struct {
	// Status is the HTTP status; 429 sends Retry-After. 0 means 200 with
	// ok:false and Error.
	Status int
	// RetryAfter is sent in Retry-After (whole seconds, at least 1) with 429.
	RetryAfter time.Duration
	// Error is the Slack error code of an ok:false answer
	// ("channel_not_found", "not_in_channel", "is_archived").
	Error string
}

// Option configures a Server.
type Option func(*Server)

// WithPingInterval sets how often the Socket Mode socket sends a
// WebSocket ping (default 1 s). slack-go reconnects when it hears none for
// its ping timeout (30 s unless its client says otherwise).
func WithPingInterval(d time.Duration) Option { return func(s *Server) { s.pingInterval = d } }

// WithoutTwins makes a channel message that mentions the bot arrive once,
// as message only; by default it also arrives as app_mention, as for an
// app subscribed to both (Haven's manifest is).
func WithoutTwins() Option { return func(s *Server) { s.twins = false } }

// WithTokens sets the bot and app-level tokens the fake accepts.
func WithTokens(bot, app string) Option {
	return func(s *Server) { s.botToken, s.appToken = bot, app }
}

// Server is a fake Slack. Its methods are safe for concurrent use.
type Server struct {
	ts           *httptest.Server
	botToken     string
	appToken     string
	team         string
	pingInterval time.Duration
	twins        bool
	ctx          context.Context
	cancel       context.CancelFunc
	wg           sync.WaitGroup

	mu        sync.Mutex
	cond      *waitcond.Cond // over mu: wakes waiters at every change
	seq       int
	users     map[string]User
	channels  map[string]Channel
	cannotDM  map[string]bool
	posts     []Post
	files     []File
	updates   []Update
	hooks     map[string]*hook // response_url id (a press's trigger) -> what it answers
	responses []Response
	uploads   map[string][]byte // file id -> uploaded bytes
	upNames   map[string]string // file id -> name
	failures  map[string][]Failure
	calls     map[string]int
	tickets   map[string]bool
	opens     int
	conns     map[*wsConn]bool
	accepted  int // sockets accepted, ever
	hellos    int // hellos sent, ever
	queue     []*envelope
	events    map[string]*envelope // by event id, the latest delivery
	acks      int
	eventsURL string
	secret    string
	delivered int // HTTP deliveries answered 2xx
	refused   int // HTTP deliveries given up after the retries
	closed    bool
}

// NewServer starts a fake Slack on 127.0.0.1. Close it when done.
func NewServer(opts ...Option) *Server {
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{
		botToken: DefaultBotToken, appToken: DefaultAppToken, team: DefaultTeam,
		pingInterval: time.Second, twins: true, ctx: ctx, cancel: cancel,
		users: map[string]User{}, channels: map[string]Channel{},
		cannotDM: map[string]bool{}, uploads: map[string][]byte{}, upNames: map[string]string{},
		failures: map[string][]Failure{}, calls: map[string]int{}, tickets: map[string]bool{},
		conns: map[*wsConn]bool{}, events: map[string]*envelope{}, hooks: map[string]*hook{},
	}
	s.cond = waitcond.New(&s.mu)
	for _, o := range opts {
		o(s)
	}
	s.users[DefaultBotUser] = User{ID: DefaultBotUser, Name: DefaultBotName, RealName: "Haven", IsBot: true}
	mux := http.NewServeMux()
	mux.HandleFunc("/api/{method}", s.api)
	mux.HandleFunc("/upload/{id}", s.upload)
	mux.HandleFunc("/actions/{trigger}", s.respond)
	mux.HandleFunc("/socket", s.socket)
	s.ts = httptest.NewServer(mux)
	s.wg.Go(s.deliverHTTP)
	return s
}

// URL is the server's base URL, "http://127.0.0.1:port".
func (s *Server) URL() string { return s.ts.URL }

// APIURL is the Web API root with its trailing slash, for slack-go's
// OptionAPIURL (and HAVEN_SLACK_API_URL).
func (s *Server) APIURL() string { return s.ts.URL + "/api/" }

// BotToken is the xoxb- token the server accepts.
func (s *Server) BotToken() string { return s.botToken }

// AppToken is the xapp- token the server accepts for apps.connections.open.
func (s *Server) AppToken() string { return s.appToken }

// Team is the workspace id.
func (s *Server) Team() string { return s.team }

// BotUser is the bot's user id, as <@BotUser> mentions it.
func (s *Server) BotUser() string { return DefaultBotUser }

// BotID is the bot's bot id, set on every message it posts.
func (s *Server) BotID() string { return DefaultBotID }

// Close ends every socket and delivery and shuts the server down.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	for c := range s.conns {
		c.close()
	}
	s.cond.Broadcast()
	s.mu.Unlock()
	s.cancel()
	s.ts.CloseClientConnections()
	s.ts.Close()
	s.wg.Wait()
}

// nextSeq returns a number no other call of it returns.
func (s *Server) nextSeqLocked() int {
	s.seq++
	return s.seq
}

// tsLocked returns a new message timestamp, increasing.
func (s *Server) tsLocked() string {
	return fmt.Sprintf("1700000000.%06d", s.nextSeqLocked())
}

// AddUser adds or replaces a person.
func (s *Server) AddUser(u User) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.users[u.ID] = u
	s.cond.Broadcast()
}

// SetAdmin makes users.info say whether user is a workspace admin.
func (s *Server) SetAdmin(user string, admin bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.users[user]
	u.ID, u.IsAdmin = user, admin
	s.users[user] = u
	s.cond.Broadcast()
}

// AddChannel adds or replaces a conversation.
func (s *Server) AddChannel(c Channel) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.channels[c.ID] = c
	s.cond.Broadcast()
}

// DM returns the id of the bot's DM with user, creating it.
func (s *Server) DM(user string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dmLocked(user)
}

func (s *Server) dmLocked(user string) string {
	id := "D" + strings.TrimPrefix(user, "U")
	if _, ok := s.channels[id]; !ok {
		s.channels[id] = Channel{ID: id, Type: TypeIM}
	}
	return id
}

// CannotDM makes conversations.open refuse to open a DM with user
// (cannot_dm_bot), as Slack does when a workspace or person forbids it.
func (s *Server) CannotDM(user string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cannotDM[user] = true
}

// FailNext makes the next call of method fail as f says. Queued
// failures are used one per call, in order.
func (s *Server) FailNext(method string, f Failure) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failures[method] = append(s.failures[method], f)
}

// Calls returns how many times method was called.
func (s *Server) Calls(method string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[method]
}

// Posts returns the messages the bot posted, ephemeral ones included, in
// order.
func (s *Server) Posts() []Post {
	return records(s, &s.posts)
}

// WaitPosts blocks until the bot has posted at least n messages or ctx is
// done, and returns what it posted.
func (s *Server) WaitPosts(ctx context.Context, n int) ([]Post, error) {
	return waitRecords(ctx, s, &s.posts, n, "posts")
}

// waitRecords blocks until *field (a record list of s, guarded by s.mu)
// holds at least n entries or ctx is done, and returns a copy of it; what
// names the records in the error.
func waitRecords[T any](ctx context.Context, s *Server, field *[]T, n int, what string) ([]T, error) {
	err := s.cond.Wait(ctx, func() bool { return len(*field) >= n })
	if err != nil {
		err = fmt.Errorf("wait for %d %s: %w", n, what, err)
	}
	return records(s, field), err
}

// records returns a copy of *field, a record list of s guarded by s.mu.
func records[T any](s *Server, field *[]T) []T {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(*field)
}

// Files returns the files the bot shared, in order.
func (s *Server) Files() []File {
	return records(s, &s.files)
}

// WaitFiles blocks until the bot has shared at least n files or ctx is
// done, and returns them.
func (s *Server) WaitFiles(ctx context.Context, n int) ([]File, error) {
	return waitRecords(ctx, s, &s.files, n, "files")
}

// apiResponse writes a Web API answer.
func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	_ = json.NewEncoder(w).Encode(v)
}

func slackError(w http.ResponseWriter, code string) {
	writeJSON(w, map[string]any{"ok": false, "error": code})
}

// token returns the token of a Web API request: the Authorization header
// or the token form field.
func token(r *http.Request) string {
	if t, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		return t
	}
	return r.PostFormValue("token")
}

// api serves /api/{method}.
func (s *Server) api(w http.ResponseWriter, r *http.Request) {
	method := r.PathValue("method")
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct == "application/x-www-form-urlencoded" || r.Method == http.MethodGet {
		if err := r.ParseForm(); err != nil {
			http.Error(w, "bad form", http.StatusBadRequest)
			return
		}
	}
	s.mu.Lock()
	s.calls[method]++
	var fail *Failure
	if q := s.failures[method]; len(q) > 0 {
		fail, s.failures[method] = &q[0], q[1:]
	}
	s.cond.Broadcast()
	s.mu.Unlock()

	want := s.botToken
	if method == "apps.connections.open" {
		want = s.appToken
	}
	if token(r) != want {
		slackError(w, "invalid_auth")
		return
	}
	if fail != nil {
		switch {
		case fail.Status == http.StatusTooManyRequests:
			secs := max(1, int((fail.RetryAfter+time.Second-1)/time.Second))
			w.Header().Set("Retry-After", strconv.Itoa(secs))
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = io.WriteString(w, `{"ok":false,"error":"ratelimited"}`)
		case fail.Status != 0 && fail.Status != http.StatusOK:
			http.Error(w, http.StatusText(fail.Status), fail.Status)
		default:
			slackError(w, fail.Error)
		}
		return
	}
	switch method {
	case "auth.test":
		writeJSON(w, map[string]any{"ok": true, "url": "https://haven-test.slack.com/", "team": "Haven Test",
			"user": DefaultBotName, "team_id": s.team, "user_id": DefaultBotUser, "bot_id": DefaultBotID})
	case "apps.connections.open":
		s.mu.Lock()
		s.opens++
		ticket := fmt.Sprintf("ticket-%d", s.nextSeqLocked())
		s.tickets[ticket] = true
		s.mu.Unlock()
		writeJSON(w, map[string]any{"ok": true, "url": "ws" + strings.TrimPrefix(s.ts.URL, "http") + "/socket?ticket=" + ticket})
	case "users.info":
		s.usersInfo(w, r)
	case "chat.postMessage", "chat.postEphemeral":
		s.post(w, r, method)
	case "chat.update":
		s.update(w, r)
	case "conversations.open":
		s.conversationsOpen(w, r)
	case "files.getUploadURLExternal":
		s.getUploadURL(w, r)
	case "files.completeUploadExternal":
		s.completeUpload(w, r)
	default:
		slackError(w, "unknown_method")
	}
}

func (s *Server) usersInfo(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	u, ok := s.users[r.Form.Get("user")]
	s.mu.Unlock()
	if !ok {
		slackError(w, "user_not_found")
		return
	}
	user := map[string]any{
		"id": u.ID, "team_id": s.team, "name": u.Name, "real_name": u.RealName, "tz": u.TZ,
		"is_admin": u.IsAdmin, "is_owner": u.IsOwner, "is_primary_owner": false, "is_bot": u.IsBot,
		"profile": map[string]any{"real_name": u.RealName, "display_name": u.DisplayName},
	}
	if r.Form.Get("include_locale") == "true" && u.Locale != "" {
		user["locale"] = u.Locale
	}
	writeJSON(w, map[string]any{"ok": true, "user": user})
}

// Unescape decodes Slack's three escapes, giving the text people see.
func Unescape(s string) string {
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&").Replace(s)
}

func (s *Server) post(w http.ResponseWriter, r *http.Request, method string) {
	ch, text, thread := r.Form.Get("channel"), r.Form.Get("text"), r.Form.Get("thread_ts")
	blocks, buttons, berr := checkBlocks(r.Form.Get("blocks"))
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.channels[ch]
	switch {
	case !ok:
		slackError(w, "channel_not_found")
		return
	case c.Archived:
		slackError(w, "is_archived")
		return
	case c.NotMember:
		slackError(w, "not_in_channel")
		return
	case berr != nil:
		slackError(w, "invalid_blocks")
		return
	case strings.TrimSpace(text) == "" && blocks == "":
		slackError(w, "no_text")
		return
	case len([]rune(text)) > MaxTextLen:
		slackError(w, "msg_too_long")
		return
	}
	form := url.Values{}
	for k, v := range r.Form {
		if k != "token" {
			form[k] = v
		}
	}
	p := Post{Method: method, Channel: ch, ThreadTS: thread, Text: text, Plain: Unescape(text), Form: form, TS: s.tsLocked(),
		Blocks: blocks, Buttons: buttons}
	if method == "chat.postEphemeral" {
		p.Ephemeral, p.User = true, r.Form.Get("user")
		if _, ok := s.users[p.User]; !ok {
			slackError(w, "user_not_in_channel")
			return
		}
	}
	s.posts = append(s.posts, p)
	s.cond.Broadcast()
	if p.Ephemeral {
		writeJSON(w, map[string]any{"ok": true, "message_ts": p.TS})
		return
	}
	writeJSON(w, map[string]any{"ok": true, "channel": ch, "ts": p.TS,
		"message": map[string]any{"type": "message", "text": text, "user": DefaultBotUser, "bot_id": DefaultBotID, "ts": p.TS, "thread_ts": thread}})
}

func (s *Server) conversationsOpen(w http.ResponseWriter, r *http.Request) {
	users := strings.Split(r.Form.Get("users"), ",")
	if len(users) != 1 || users[0] == "" {
		slackError(w, "users_list_not_supplied")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.users[users[0]]; !ok {
		slackError(w, "user_not_found")
		return
	}
	if s.cannotDM[users[0]] {
		slackError(w, "cannot_dm_bot")
		return
	}
	writeJSON(w, map[string]any{"ok": true, "channel": map[string]any{"id": s.dmLocked(users[0])}})
}

func (s *Server) getUploadURL(w http.ResponseWriter, r *http.Request) {
	name, length := r.Form.Get("filename"), r.Form.Get("length")
	if n, err := strconv.Atoi(length); name == "" || err != nil || n <= 0 {
		slackError(w, "invalid_arguments")
		return
	}
	s.mu.Lock()
	id := fmt.Sprintf("F%06d", s.nextSeqLocked())
	s.upNames[id] = name
	s.mu.Unlock()
	writeJSON(w, map[string]any{"ok": true, "upload_url": s.ts.URL + "/upload/" + id, "file_id": id})
}

// upload serves the upload URL: a multipart POST with the file's bytes.
func (s *Server) upload(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	s.mu.Lock()
	_, ok := s.upNames[id]
	s.mu.Unlock()
	if !ok || r.Method != http.MethodPost {
		http.Error(w, "unknown upload", http.StatusNotFound)
		return
	}
	ct, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || ct != "multipart/form-data" {
		http.Error(w, "want multipart/form-data", http.StatusBadRequest)
		return
	}
	mr := multipart.NewReader(r.Body, params["boundary"])
	var data []byte
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			http.Error(w, "bad multipart body", http.StatusBadRequest)
			return
		}
		if part.FormName() == "file" {
			if data, err = io.ReadAll(part); err != nil {
				http.Error(w, "bad file part", http.StatusBadRequest)
				return
			}
		}
	}
	if data == nil {
		http.Error(w, "no file part", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.uploads[id] = data
	s.mu.Unlock()
	_, _ = io.WriteString(w, "OK - "+strconv.Itoa(len(data)))
}

func (s *Server) completeUpload(w http.ResponseWriter, r *http.Request) {
	var files []struct {
		ID    string `json:"id"`
		Title string `json:"title"`
	}
	if err := json.Unmarshal([]byte(r.Form.Get("files")), &files); err != nil || len(files) != 1 {
		slackError(w, "invalid_arguments")
		return
	}
	ch := r.Form.Get("channel_id")
	s.mu.Lock()
	defer s.mu.Unlock()
	data, ok := s.uploads[files[0].ID]
	if !ok {
		slackError(w, "file_not_found")
		return
	}
	if ch != "" {
		c, ok := s.channels[ch]
		switch {
		case !ok:
			slackError(w, "channel_not_found")
			return
		case c.NotMember:
			slackError(w, "not_in_channel")
			return
		}
	}
	s.files = append(s.files, File{ID: files[0].ID, Channel: ch, ThreadTS: r.Form.Get("thread_ts"),
		Name: s.upNames[files[0].ID], Title: files[0].Title, Comment: r.Form.Get("initial_comment"), Data: data})
	s.cond.Broadcast()
	writeJSON(w, map[string]any{"ok": true, "files": []map[string]any{{"id": files[0].ID, "title": files[0].Title}}})
}

package discordtest

import (
	"bytes"
	"compress/zlib"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// Identify is one IDENTIFY (op 2) a client sent.
type Identify struct {
	// Token is the token as sent (Discord accepts it with or without the
	// "Bot " prefix).
	Token string `json:"token"`
	// Intents is the intents bit set asked for.
	Intents int `json:"intents"`
	// Compress asks for zlib payload compression of large payloads.
	Compress bool `json:"compress"`
	// LargeThreshold is the member count above which a guild is "large".
	LargeThreshold int `json:"large_threshold"`
}

// gatewayState is the gateway's part of the server; it is guarded by
// Server.mu.
type gatewayState struct {
	sessions    map[string]*session
	current     *session // the most recently identified
	identified  bool     // some session was ever identified
	pending     []event  // people's events from before any session existed
	conns       map[*conn]bool
	acksOff     bool
	replayFrom  int // the next RESUME replays after this seq; -1 for the client's own
	identifies  []Identify
	resumes     int
	established int // READY or RESUMED sent
	heartbeats  int
	quiet       bool // Quietly: world events are not dispatched
}

func (g *gatewayState) init() {
	g.sessions = map[string]*session{}
	g.conns = map[*conn]bool{}
	g.replayFrom = -1
}

func (g *gatewayState) allConnsLocked() []*conn {
	out := make([]*conn, 0, len(g.conns))
	for c := range g.conns {
		out = append(out, c)
	}
	return out
}

// event is a dispatch before it has a sequence number.
type event struct {
	t string
	d json.RawMessage
}

// seqEvent is a dispatch in a session's log.
type seqEvent struct {
	seq int
	event
}

// session is one gateway session, which outlives its connections.
type session struct {
	id       string
	intents  int
	compress bool
	seq      int
	log      []seqEvent
	conn     *conn // the connection receiving it, nil while none does
	invalid  bool  // InvalidateSession: a RESUME gets op 9
}

// frame is one thing a connection's writer does.
type frame struct {
	kind int // websocket.TextMessage, BinaryMessage or CloseMessage
	data []byte
}

// conn is one gateway WebSocket connection.
type conn struct {
	ws   *websocket.Conn
	out  chan frame
	quit chan struct{}
	once sync.Once
	sess *session // guarded by Server.mu
	live bool     // READY or RESUMED sent; guarded by Server.mu
}

// outBuffer bounds the frames queued for one connection; a client that
// falls that far behind is disconnected, as Discord does.
const outBuffer = 1 << 16

func (c *conn) send(f frame) {
	select {
	case c.out <- f:
	case <-c.quit:
	default:
		c.drop()
	}
}

// drop cuts the connection without a close frame.
func (c *conn) drop() {
	c.once.Do(func() {
		close(c.quit)
		_ = c.ws.NetConn().Close()
	})
}

func (c *conn) writeLoop() {
	for {
		select {
		case f := <-c.out:
			_ = c.ws.SetWriteDeadline(time.Now().Add(10 * time.Second))
			if err := c.ws.WriteMessage(f.kind, f.data); err != nil || f.kind == websocket.CloseMessage {
				c.drop()
				return
			}
		case <-c.quit:
			return
		}
	}
}

// closeWith sends a close frame with code and ends the connection.
func (c *conn) closeWith(code int, text string) {
	c.send(frame{kind: websocket.CloseMessage, data: websocket.FormatCloseMessage(code, text)})
}

type payload struct {
	Op int             `json:"op"`
	D  json.RawMessage `json:"d"`
	S  *int            `json:"s"`
	T  *string         `json:"t"`
}

func opFrame(op int, d any) frame {
	b, _ := json.Marshal(map[string]any{"op": op, "d": d, "s": nil, "t": nil})
	return frame{kind: websocket.TextMessage, data: b}
}

// dispatchFrame is a dispatch (op 0); compressed as Discord's payload
// compression sends it (one zlib stream per message) when asked.
func dispatchFrame(e seqEvent, compress bool) frame {
	b, _ := json.Marshal(map[string]any{"op": 0, "d": e.d, "s": e.seq, "t": e.t})
	if !compress {
		return frame{kind: websocket.TextMessage, data: b}
	}
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	_, _ = w.Write(b)
	_ = w.Close()
	return frame{kind: websocket.BinaryMessage, data: z.Bytes()}
}

func stripBot(token string) string { return strings.TrimPrefix(token, "Bot ") }

// serveGateway serves one gateway WebSocket connection.
func (s *Server) serveGateway(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		http.Error(w, "closed", http.StatusServiceUnavailable)
		return
	}
	s.wg.Add(1)
	s.mu.Unlock()
	defer s.wg.Done()
	ws, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	c := &conn{ws: ws, out: make(chan frame, outBuffer), quit: make(chan struct{})}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		c.drop()
		return
	}
	s.gw.conns[c] = true
	s.wg.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.wg.Done()
		c.writeLoop()
	}()
	defer func() {
		c.drop()
		s.mu.Lock()
		delete(s.gw.conns, c)
		if c.sess != nil && c.sess.conn == c {
			c.sess.conn = nil
		}
		s.cond.Broadcast()
		s.mu.Unlock()
	}()
	c.send(opFrame(10, map[string]any{"heartbeat_interval": s.heartbeat.Milliseconds()}))
	for {
		_, data, err := ws.ReadMessage()
		if err != nil {
			return
		}
		var p payload
		if err := json.Unmarshal(data, &p); err != nil {
			c.closeWith(4002, "Error while decoding payload.")
			continue
		}
		switch p.Op {
		case 1:
			s.mu.Lock()
			s.gw.heartbeats++
			if !s.gw.acksOff {
				c.send(opFrame(11, nil))
			}
			s.cond.Broadcast()
			s.mu.Unlock()
		case 2:
			s.identify(c, p.D)
		case 6:
			s.resume(c, p.D)
		case 3, 4, 8:
			// Presence, voice state and member requests: not modelled.
		default:
			c.closeWith(4001, "Unknown opcode.")
		}
	}
}

func newSessionID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// identify starts a session on c: READY, then GUILD_CREATE per guild.
func (s *Server) identify(c *conn, d json.RawMessage) {
	var id Identify
	if err := json.Unmarshal(d, &id); err != nil {
		c.closeWith(4002, "Error while decoding payload.")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.cond.Broadcast()
	s.gw.identifies = append(s.gw.identifies, id)
	switch {
	case c.live:
		c.closeWith(4005, "Already authenticated.")
		return
	case stripBot(id.Token) != s.token:
		c.closeWith(4004, "Authentication failed.")
		return
	case id.Intents&intentMessageContent != 0 && s.contentOff:
		c.closeWith(4014, "Disallowed intent(s).")
		return
	}
	sess := &session{id: newSessionID(), intents: id.Intents, compress: id.Compress, conn: c}
	s.gw.sessions[sess.id] = sess
	s.gw.current = sess
	c.sess, c.live = sess, true
	guilds := make([]any, len(s.gorder))
	for i, gid := range s.gorder {
		guilds[i] = map[string]any{"id": gid, "unavailable": true}
	}
	bot := s.bot
	s.deliverLocked(sess, event{t: "READY", d: mustJSON(map[string]any{
		"v": 9, "user": bot, "guilds": guilds, "session_id": sess.id, "resume_gateway_url": s.GatewayURL(),
		"application": map[string]any{"id": s.appID, "flags": 0}, "private_channels": []any{},
		"user_settings": map[string]any{}, "relationships": []any{}, "presences": []any{}, "shard": []int{0, 1},
	})})
	for _, gid := range s.gorder {
		s.deliverLocked(sess, event{t: "GUILD_CREATE", d: mustJSON(s.guildJSONLocked(s.guilds[gid]))})
	}
	s.gw.established++
	if !s.gw.identified {
		s.gw.identified = true
		for _, e := range s.gw.pending {
			s.deliverLocked(sess, e)
		}
		s.gw.pending = nil
	}
}

// resume reattaches c to a session and replays what it missed.
func (s *Server) resume(c *conn, d json.RawMessage) {
	var r struct {
		Token     string `json:"token"`
		SessionID string `json:"session_id"`
		Seq       int    `json:"seq"`
	}
	if err := json.Unmarshal(d, &r); err != nil {
		c.closeWith(4002, "Error while decoding payload.")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.cond.Broadcast()
	s.gw.resumes++
	sess, ok := s.gw.sessions[r.SessionID]
	if !ok || sess.invalid || stripBot(r.Token) != s.token {
		c.send(opFrame(9, false))
		return
	}
	if old := sess.conn; old != nil && old != c {
		old.drop()
	}
	sess.conn, c.sess, c.live = c, sess, true
	from := r.Seq
	if s.gw.replayFrom >= 0 {
		from, s.gw.replayFrom = s.gw.replayFrom, -1
	}
	for _, e := range sess.log {
		if e.seq > from {
			c.send(dispatchFrame(e, false))
		}
	}
	sess.seq++
	c.send(dispatchFrame(seqEvent{seq: sess.seq, event: event{t: "RESUMED", d: json.RawMessage(`{}`)}}, false))
	s.gw.established++
}

func mustJSON(v any) json.RawMessage {
	if raw, ok := v.(json.RawMessage); ok {
		return raw
	}
	b, err := json.Marshal(v)
	if err != nil {
		panic("discordtest: " + err.Error())
	}
	return b
}

// worldEvents describe the world rather than something a person did: a
// session learns them from GUILD_CREATE when it starts, so they are not
// held for a session that does not exist yet.
var worldEvents = map[string]bool{
	"GUILD_CREATE": true, "GUILD_ROLE_CREATE": true, "CHANNEL_CREATE": true, "THREAD_CREATE": true,
}

// dispatchLocked sends an event to the current session. People's events
// from before the first session are held for it (a convenience of the
// fake: Discord drops them), so that tests need not wait for the bot to
// connect before they write.
func (s *Server) dispatchLocked(t string, d any) {
	if s.gw.quiet && worldEvents[t] {
		return
	}
	e := event{t: t, d: mustJSON(d)}
	if !s.gw.identified {
		if !worldEvents[t] {
			s.gw.pending = append(s.gw.pending, e)
		}
		return
	}
	s.deliverLocked(s.gw.current, e)
}

// deliverLocked gives e the session's next sequence number, keeps it for
// RESUME, and sends it when the session has a connection. What the
// session's intents exclude is not sent at all.
func (s *Server) deliverLocked(sess *session, e event) {
	d, ok := s.filterLocked(sess, e)
	if !ok {
		return
	}
	sess.seq++
	se := seqEvent{seq: sess.seq, event: event{t: e.t, d: d}}
	sess.log = append(sess.log, se)
	if c := sess.conn; c != nil && c.live {
		c.send(dispatchFrame(se, sess.compress && (e.t == "READY" || e.t == "GUILD_CREATE")))
	}
	s.cond.Broadcast()
}

// filterLocked applies the session's intents to an event, as Discord
// does.
func (s *Server) filterLocked(sess *session, e event) (json.RawMessage, bool) {
	switch e.t {
	case "GUILD_CREATE", "GUILD_ROLE_CREATE", "CHANNEL_CREATE", "THREAD_CREATE":
		return e.d, sess.intents&intentGuilds != 0
	case "MESSAGE_CREATE", "MESSAGE_UPDATE":
	default:
		return e.d, true
	}
	var m map[string]any
	if json.Unmarshal(e.d, &m) != nil {
		return e.d, true // a raw event that is not an object: sent as it is
	}
	if gid, _ := m["guild_id"].(string); gid == "" {
		return e.d, sess.intents&intentDirectMessages != 0
	}
	if sess.intents&intentGuildMessages == 0 {
		return nil, false
	}
	if sess.intents&intentMessageContent != 0 || mentionsUser(m, s.bot.ID) || authorIs(m, s.bot.ID) {
		return e.d, true
	}
	// Without MESSAGE_CONTENT, a guild message that does not mention the
	// bot comes without what it says.
	m["content"], m["attachments"], m["embeds"], m["components"] = "", []any{}, []any{}, []any{}
	return mustJSON(m), true
}

func mentionsUser(m map[string]any, id string) bool {
	ms, _ := m["mentions"].([]any)
	for _, u := range ms {
		if um, ok := u.(map[string]any); ok && um["id"] == id {
			return true
		}
	}
	return false
}

func authorIs(m map[string]any, id string) bool {
	a, _ := m["author"].(map[string]any)
	return a != nil && a["id"] == id
}

// Dispatch sends an event of type t with data d (any value that marshals
// to the event's JSON) to the current session, and returns its sequence
// number (0 when it is held for the first session or excluded by the
// session's intents).
func (s *Server) Dispatch(t string, d any) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	before := 0
	if s.gw.current != nil {
		before = s.gw.current.seq
	}
	s.dispatchLocked(t, d)
	if s.gw.current != nil && s.gw.current.seq != before {
		return s.gw.current.seq
	}
	return 0
}

// Quietly runs f, which changes the world (AddGuild, AddChannel, ...),
// without telling the connected session: as when the bot joined a guild
// or a channel was made while it was away. A new session learns of it in
// GUILD_CREATE. Do not change the world from elsewhere meanwhile.
func (s *Server) Quietly(f func()) {
	s.mu.Lock()
	s.gw.quiet = true
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.gw.quiet = false
		s.mu.Unlock()
	}()
	f()
}

// DispatchRaw sends an event whose data is raw, verbatim: malformed
// events for poison tests.
func (s *Server) DispatchRaw(t, raw string) int { return s.Dispatch(t, json.RawMessage(raw)) }

// WaitConnected blocks until n connections have been established (READY
// or RESUMED sent) in the server's life, or ctx is done.
func (s *Server) WaitConnected(ctx context.Context, n int) error {
	return s.cond.Wait(ctx, func() bool { return s.gw.established >= n })
}

// Established is how many connections got READY or RESUMED so far.
func (s *Server) Established() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gw.established
}

// Identifies returns every IDENTIFY received, in order.
func (s *Server) Identifies() []Identify {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Identify(nil), s.gw.identifies...)
}

// Resumes is how many RESUMEs were received (accepted or not).
func (s *Server) Resumes() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gw.resumes
}

// Heartbeats is how many heartbeats (op 1) were received.
func (s *Server) Heartbeats() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gw.heartbeats
}

// WaitHeartbeats blocks until n heartbeats were received or ctx is done.
func (s *Server) WaitHeartbeats(ctx context.Context, n int) error {
	return s.cond.Wait(ctx, func() bool { return s.gw.heartbeats >= n })
}

// liveConnsLocked are the connections that got READY or RESUMED.
func (s *Server) liveConnsLocked() []*conn {
	var out []*conn
	for c := range s.gw.conns {
		if c.live {
			out = append(out, c)
		}
	}
	return out
}

// WaitLive blocks until some gateway connection is established (READY
// or RESUMED sent and not yet closed) or ctx is done.
func (s *Server) WaitLive(ctx context.Context) error {
	return s.cond.Wait(ctx, func() bool { return len(s.liveConnsLocked()) > 0 })
}

// DropConnections cuts every established gateway connection without a
// close frame, as a broken network does, and returns how many it cut.
// Their sessions stay resumable.
func (s *Server) DropConnections() int {
	s.mu.Lock()
	cs := s.liveConnsLocked()
	s.mu.Unlock()
	for _, c := range cs {
		c.drop()
	}
	return len(cs)
}

// Reconnect sends op 7 (reconnect) on every established connection: the
// client should close and RESUME. It returns how many got it.
func (s *Server) Reconnect() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	cs := s.liveConnsLocked()
	for _, c := range cs {
		c.send(opFrame(7, nil))
	}
	return len(cs)
}

// InvalidateSession sends op 9 (invalid session, not resumable) on every
// established connection and forgets their sessions: the client must
// IDENTIFY again, and events not yet sent are lost, as on Discord. It
// returns how many got it.
func (s *Server) InvalidateSession() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	cs := s.liveConnsLocked()
	for _, c := range cs {
		if c.sess != nil {
			c.sess.invalid = true
		}
		c.live = false
		c.send(opFrame(9, false))
	}
	return len(cs)
}

// ReplayOnResume makes the next accepted RESUME replay every event after
// sequence number seq (0: the whole session), whatever the client says it
// has, as when a client's acknowledgement of what it processed lags.
func (s *Server) ReplayOnResume(seq int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gw.replayFrom = seq
}

// StopHeartbeatAcks stops (or restarts) answering heartbeats: the
// connection becomes a zombie, which a client must notice and replace.
func (s *Server) StopHeartbeatAcks(stop bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gw.acksOff = stop
}

// Seq is the current session's latest sequence number.
func (s *Server) Seq() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.gw.current == nil {
		return 0
	}
	return s.gw.current.seq
}

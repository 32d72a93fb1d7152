package slacktest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

// SlackOrigin is the Origin header slack-go's Socket Mode client sends;
// the fake's socket refuses any other, as a reminder that it is checked.
const SlackOrigin = "https://api.slack.com"

// envelope is one delivery of an event or a slash command, over the
// socket or over HTTP.
type envelope struct {
	id      string          // envelope_id
	typ     string          // events_api, slash_commands or interactive
	payload json.RawMessage // the socket envelope's payload; the JSON body over HTTP
	form    string          // the form body over HTTP (slash command, interaction)
	frame   string          // when set, sent on the socket as it is, never acked
	eventID string
	retry   int
	sentOn  *wsConn // the socket it is out on, waiting for its ack
	http    bool    // being delivered over HTTP
	done    bool
}

// wsConn is one Socket Mode connection.
type wsConn struct {
	conn       *websocket.Conn
	done       chan struct{}
	once       sync.Once
	silent     atomic.Bool
	disconnect chan struct{}
}

func (c *wsConn) close() {
	c.once.Do(func() {
		close(c.done)
		_ = c.conn.Close()
	})
}

// socket serves the Socket Mode WebSocket for a ticket from
// apps.connections.open.
func (s *Server) socket(w http.ResponseWriter, r *http.Request) {
	ticket := r.URL.Query().Get("ticket")
	s.mu.Lock()
	ok := s.tickets[ticket]
	delete(s.tickets, ticket)
	closed := s.closed
	if ok && !closed {
		s.wg.Add(1)
	}
	s.mu.Unlock()
	if !ok || closed {
		http.Error(w, "invalid or used ticket", http.StatusUnauthorized)
		return
	}
	defer s.wg.Done()
	up := websocket.Upgrader{CheckOrigin: func(r *http.Request) bool { return r.Header.Get("Origin") == SlackOrigin }}
	conn, err := up.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader has answered
	}
	c := &wsConn{conn: conn, done: make(chan struct{}), disconnect: make(chan struct{}, 1)}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		c.close()
		return
	}
	s.conns[c] = true
	s.accepted++
	s.cond.Broadcast()
	s.mu.Unlock()

	var reader sync.WaitGroup
	reader.Go(func() { s.read(c) })
	s.write(c)
	c.close()
	reader.Wait()

	s.mu.Lock()
	delete(s.conns, c)
	for _, e := range s.queue {
		if e.sentOn == c && !e.done {
			// Not acked: Slack sends it again on the next socket.
			e.sentOn = nil
			e.retry++
		}
	}
	s.cond.Broadcast()
	s.mu.Unlock()
}

// read takes the client's acks until the socket ends.
func (s *Server) read(c *wsConn) {
	defer c.close()
	for {
		_, data, err := c.conn.ReadMessage()
		if err != nil {
			return
		}
		var ack struct {
			EnvelopeID string `json:"envelope_id"`
		}
		if json.Unmarshal(data, &ack) == nil && ack.EnvelopeID != "" {
			s.ack(ack.EnvelopeID)
		}
	}
}

func (s *Server) ack(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := slices.IndexFunc(s.queue, func(e *envelope) bool { return e.id == id })
	if i < 0 {
		return
	}
	s.queue[i].done = true
	s.queue = slices.Delete(s.queue, i, i+1)
	s.acks++
	s.cond.Broadcast()
}

// write sends hello, then the queued envelopes and pings, until the
// socket ends.
func (s *Server) write(c *wsConn) {
	hello := fmt.Sprintf(`{"type":"hello","num_connections":1,"debug_info":{"host":"slacktest","approximate_connection_time":18060},"connection_info":{"app_id":%q}}`, DefaultAppID)
	if c.conn.WriteMessage(websocket.TextMessage, []byte(hello)) != nil {
		return
	}
	s.mu.Lock()
	s.hellos++
	s.cond.Broadcast()
	s.mu.Unlock()
	ping := time.NewTicker(s.pingInterval)
	defer ping.Stop()
	for {
		frame, ch := s.nextFrame(c)
		if frame != nil {
			if c.conn.WriteMessage(websocket.TextMessage, frame) != nil {
				return
			}
			continue
		}
		select {
		case <-c.done:
			return
		case <-ping.C:
			if !c.silent.Load() && c.conn.WriteControl(websocket.PingMessage, []byte("slacktest"), time.Now().Add(5*time.Second)) != nil {
				return
			}
		case <-c.disconnect:
			msg := `{"type":"disconnect","reason":"refresh_requested","debug_info":{"host":"slacktest"}}`
			if c.conn.WriteMessage(websocket.TextMessage, []byte(msg)) != nil {
				return
			}
		case <-ch:
		}
	}
}

// nextFrame takes the next envelope waiting for a socket and returns its
// frame, or nil and the channel that says when to look again.
func (s *Server) nextFrame(c *wsConn) ([]byte, <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.eventsURL != "" {
		return nil, s.cond.Changed()
	}
	for i, e := range s.queue {
		if e.done || e.sentOn != nil || e.http {
			continue
		}
		if e.frame != "" {
			e.done = true
			s.queue = slices.Delete(s.queue, i, i+1)
			s.cond.Broadcast()
			return []byte(e.frame), nil
		}
		e.sentOn = c
		reason := ""
		if e.retry > 0 {
			reason = "timeout"
		}
		b, _ := json.Marshal(map[string]any{
			"envelope_id": e.id, "type": e.typ, "payload": e.payload,
			"accepts_response_payload": e.typ == "slash_commands",
			"retry_attempt":            e.retry, "retry_reason": reason,
		})
		return b, nil
	}
	return nil, s.cond.Changed()
}

// Disconnect sends a disconnect envelope on every open socket, as Slack
// does before it moves a connection; the client should open a new one.
func (s *Server) Disconnect() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.conns {
		select {
		case c.disconnect <- struct{}{}:
		default:
		}
	}
}

// DropConnections closes every open socket abruptly, without a close
// frame, as a broken network would, and returns how many it closed.
func (s *Server) DropConnections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.conns {
		c.close()
	}
	return len(s.conns)
}

// DropHTTPConnections closes the Web API connections clients hold open
// (keep-alive), as a broken network would.
func (s *Server) DropHTTPConnections() { s.ts.CloseClientConnections() }

// Silence stops the pings on every open socket while keeping it open: a
// dead connection the client has to notice by itself.
func (s *Server) Silence() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.conns {
		c.silent.Store(true)
	}
}

// Connections returns how many sockets have been sent hello so far.
func (s *Server) Connections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hellos
}

// OpenSockets returns how many sockets are open now.
func (s *Server) OpenSockets() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}

// ConnectionsOpened returns how many apps.connections.open calls succeeded.
func (s *Server) ConnectionsOpened() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.opens
}

// WaitConnected blocks until at least n sockets have been sent hello and
// one is open, or ctx is done.
func (s *Server) WaitConnected(ctx context.Context, n int) error {
	err := s.cond.Wait(ctx, func() bool { return s.hellos >= n && len(s.conns) > 0 })
	if err != nil {
		return fmt.Errorf("wait for socket connection %d: %w", n, err)
	}
	return nil
}

// Acks returns how many envelopes the client has acked.
func (s *Server) Acks() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.acks
}

// Pending returns how many deliveries are not yet acked (socket) or
// answered (HTTP).
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue)
}

// WaitDelivered blocks until every queued delivery is acked or answered,
// or ctx is done.
func (s *Server) WaitDelivered(ctx context.Context) error {
	err := s.cond.Wait(ctx, func() bool { return len(s.queue) == 0 })
	if err != nil {
		return fmt.Errorf("wait for every delivery to be acked: %w", err)
	}
	return nil
}

package slacktest

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// VerificationToken is the deprecated verification token the fake puts
// in payloads, as Slack still does.
const VerificationToken = "fake-verification-token"

// Message is something a person (or a bot) says in a conversation.
type Message struct {
	// Channel is the conversation id.
	Channel string
	// User is the author's user id.
	User string
	// Text is the text as Slack sends it: <@U…> mentions, &amp; &lt; &gt;
	// escapes (see Escape).
	Text string
	// ThreadTS makes it a reply in the thread of that message.
	ThreadTS string
	// ParentUser is the user who started the thread (parent_user_id).
	ParentUser string
	// Subtype is the message subtype ("" for a plain message).
	Subtype string
	// BotID marks a message posted by an app or bot.
	BotID string
}

// Event says what the fake delivered for one message.
type Event struct {
	// ID is the message event's event_id.
	ID string
	// MentionID is the event_id of its app_mention twin, "" when none was
	// sent.
	MentionID string
	// Channel and TS identify the message.
	Channel, TS string
}

// Escape applies Slack's three escapes to text a person typed, as Slack
// does before it sends it in an event.
func Escape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// callbackLocked wraps an inner event as an event_callback payload.
func (s *Server) callbackLocked(eventID string, inner map[string]any) json.RawMessage {
	b, _ := json.Marshal(map[string]any{
		"token": VerificationToken, "team_id": s.team, "api_app_id": DefaultAppID, "type": "event_callback",
		"event_id": eventID, "event_time": 1700000000 + s.seq, "event": inner, "is_ext_shared_channel": false,
		"authorizations": []map[string]any{{"team_id": s.team, "user_id": DefaultBotUser, "is_bot": true}},
	})
	return b
}

// enqueueLocked queues a delivery of payload.
func (s *Server) enqueueLocked(typ, eventID string, payload json.RawMessage, form string) *envelope {
	e := &envelope{id: fmt.Sprintf("env-%d", s.nextSeqLocked()), typ: typ, payload: payload, form: form, eventID: eventID}
	s.queue = append(s.queue, e)
	if eventID != "" {
		s.events[eventID] = e
	}
	s.cond.Broadcast()
	return e
}

func (s *Server) channelTypeLocked(ch string) string {
	if c, ok := s.channels[ch]; ok && c.Type != "" {
		return c.Type
	}
	return TypeChannel
}

// humanSubtype reports whether a message of this subtype is one a person
// wrote, the only kind Slack sends an app_mention for.
func humanSubtype(s string) bool {
	return s == "" || s == "thread_broadcast" || s == "file_share" || s == "me_message"
}

// Message makes m happen: a message event, and in a conversation other
// than a DM, when a person's text mentions the bot, its app_mention twin
// first (unless WithoutTwins). It returns the event ids and the message's ts.
func (s *Server) Message(m Message) Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	ts := s.tsLocked()
	ev := Event{Channel: m.Channel, TS: ts}
	typ := s.channelTypeLocked(m.Channel)
	if s.twins && typ != TypeIM && humanSubtype(m.Subtype) && strings.Contains(m.Text, "<@"+DefaultBotUser) {
		inner := map[string]any{"type": "app_mention", "user": m.User, "text": m.Text, "ts": ts,
			"channel": m.Channel, "event_ts": ts, "team": s.team}
		if m.ThreadTS != "" {
			inner["thread_ts"] = m.ThreadTS
		}
		if m.BotID != "" {
			inner["bot_id"] = m.BotID
		}
		ev.MentionID = fmt.Sprintf("Ev%08d", s.nextSeqLocked())
		s.enqueueLocked("events_api", ev.MentionID, s.callbackLocked(ev.MentionID, inner), "")
	}
	inner := map[string]any{"type": "message", "user": m.User, "text": m.Text, "ts": ts,
		"channel": m.Channel, "channel_type": typ, "event_ts": ts, "team": s.team}
	if m.ThreadTS != "" {
		inner["thread_ts"] = m.ThreadTS
		if m.ParentUser != "" {
			inner["parent_user_id"] = m.ParentUser
		}
	}
	if m.Subtype != "" {
		inner["subtype"] = m.Subtype
	}
	if m.BotID != "" {
		inner["bot_id"] = m.BotID
	}
	ev.ID = fmt.Sprintf("Ev%08d", s.nextSeqLocked())
	s.enqueueLocked("events_api", ev.ID, s.callbackLocked(ev.ID, inner), "")
	return ev
}

// Edit makes the author of the message ev change its text to text: a
// message_changed event.
func (s *Server) Edit(ev Event, user, text string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	ts := s.tsLocked()
	inner := map[string]any{"type": "message", "subtype": "message_changed", "hidden": true,
		"channel": ev.Channel, "channel_type": s.channelTypeLocked(ev.Channel), "ts": ts, "event_ts": ts,
		"message":          map[string]any{"type": "message", "user": user, "text": text, "ts": ev.TS, "edited": map[string]any{"user": user, "ts": ts}},
		"previous_message": map[string]any{"type": "message", "user": user, "ts": ev.TS},
	}
	id := fmt.Sprintf("Ev%08d", s.nextSeqLocked())
	s.enqueueLocked("events_api", id, s.callbackLocked(id, inner), "")
	return id
}

// Redeliver delivers the event with id again, with the same event_id and
// its retry attempt raised, as Slack does when an ack or answer was late.
func (s *Server) Redeliver(eventID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	old, ok := s.events[eventID]
	if !ok {
		panic("slacktest: Redeliver of unknown event " + eventID)
	}
	e := s.enqueueLocked(old.typ, eventID, old.payload, old.form)
	e.retry = old.retry + 1
}

// Slash makes user run the slash command (for example "/haven") with
// text in channel, and returns its trigger_id.
func (s *Server) Slash(channel, user, command, text string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	trigger := fmt.Sprintf("%d.%d.trigger", 1700000000, s.nextSeqLocked())
	name := "general"
	if c, ok := s.channels[channel]; ok {
		switch {
		case c.Type == TypeIM:
			name = "directmessage"
		case c.Type == TypeGroup || c.Type == TypeMPIM:
			name = "privategroup"
		case c.Name != "":
			name = c.Name
		}
	}
	fields := map[string]string{
		"token": VerificationToken, "team_id": s.team, "team_domain": "haven-test", "channel_id": channel,
		"channel_name": name, "user_id": user, "user_name": s.users[user].Name, "command": command, "text": text,
		"api_app_id": DefaultAppID, "is_enterprise_install": "false", "trigger_id": trigger,
		"response_url": s.ts.URL + "/commands/" + trigger,
	}
	payload, _ := json.Marshal(fields)
	form := url.Values{}
	for k, v := range fields {
		form.Set(k, v)
	}
	s.enqueueLocked("slash_commands", "", payload, form.Encode())
	return trigger
}

// InjectRaw delivers payload as an events_api envelope's payload (over
// HTTP: as the request body), whatever it holds, and returns the
// envelope id. Over the socket payload must be valid JSON; use
// InjectFrame for a frame that is not.
func (s *Server) InjectRaw(payload string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.enqueueLocked("events_api", "", json.RawMessage(payload), "").id
}

// InjectFrame sends frame on the socket as it is, once: it is never
// acked nor sent again.
func (s *Server) InjectFrame(frame string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.enqueueLocked("", "", nil, "")
	e.frame = frame
}

// Acked reports whether the envelope with id was acked (or answered over
// HTTP): it is no longer waiting.
func (s *Server) Acked(envelopeID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range s.queue {
		if e.id == envelopeID {
			return false
		}
	}
	return true
}

// SetEventsURL switches the fake to the Events API: from now on it
// delivers events and slash commands as HTTP requests to url, signed with
// secret, instead of over the socket.
func (s *Server) SetEventsURL(url, secret string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.eventsURL, s.secret = url, secret
	s.cond.Broadcast()
}

// HTTPDeliveries returns how many HTTP deliveries were answered 2xx and
// how many were given up after Slack's three retries.
func (s *Server) HTTPDeliveries() (delivered, refused int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.delivered, s.refused
}

// deliverHTTP delivers queued envelopes to the events URL, one at a time
// in order, until the server closes.
func (s *Server) deliverHTTP() {
	client := &http.Client{Timeout: 30 * time.Second}
	defer client.CloseIdleConnections()
	for {
		s.mu.Lock()
		var e *envelope
		if s.eventsURL != "" {
			for _, q := range s.queue {
				if !q.done && !q.http && q.sentOn == nil && q.frame == "" {
					e, q.http = q, true
					break
				}
			}
		}
		u, secret, ch := s.eventsURL, s.secret, s.cond.Changed()
		s.mu.Unlock()
		if e == nil {
			select {
			case <-ch:
				continue
			case <-s.ctx.Done():
				return
			}
		}
		ok := s.postEnvelope(client, u, secret, e)
		s.mu.Lock()
		e.done = true
		for i, q := range s.queue {
			if q == e {
				s.queue = append(s.queue[:i], s.queue[i+1:]...)
				break
			}
		}
		if ok {
			s.delivered++
		} else {
			s.refused++
		}
		s.cond.Broadcast()
		s.mu.Unlock()
	}
}

// postEnvelope sends e to u, retrying up to three times on anything but
// a 2xx (an interaction: never), and reports whether it was answered 2xx.
func (s *Server) postEnvelope(client *http.Client, u, secret string, e *envelope) bool {
	body, ct := []byte(e.payload), "application/json"
	if e.form != "" {
		body, ct = []byte(e.form), "application/x-www-form-urlencoded"
	}
	retries := 3
	if e.typ == "interactive" {
		retries = 0 // Slack sends an interaction once
	}
	for attempt := 0; attempt <= retries; attempt++ {
		if s.ctx.Err() != nil {
			return false
		}
		h := http.Header{}
		if n := e.retry + attempt; n > 0 {
			h.Set("X-Slack-Retry-Num", strconv.Itoa(n))
			h.Set("X-Slack-Retry-Reason", "http_error")
		}
		resp, err := PostSigned(s.ctx, client, u, ct, body, secret, time.Now(), h)
		if err != nil {
			continue
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode/100 == 2 {
			return true
		}
	}
	return false
}

// Sign returns Slack's v0 signature of body sent at ts with secret, the
// value of X-Slack-Signature.
func Sign(secret string, ts time.Time, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	fmt.Fprintf(m, "v0:%d:", ts.Unix())
	m.Write(body)
	return "v0=" + hex.EncodeToString(m.Sum(nil))
}

// NewSignedRequest builds a POST of body to u as Slack signs it: with
// X-Slack-Request-Timestamp at and X-Slack-Signature from secret. An
// empty secret leaves the signature headers out.
func NewSignedRequest(ctx context.Context, u, contentType string, body []byte, secret string, at time.Time) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("build signed request: %w", err)
	}
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("User-Agent", "Slackbot 1.0 (+https://api.slack.com/robots)")
	if secret != "" {
		req.Header.Set("X-Slack-Request-Timestamp", strconv.FormatInt(at.Unix(), 10))
		req.Header.Set("X-Slack-Signature", Sign(secret, at, body))
	}
	return req, nil
}

// PostSigned posts body to u signed with secret at at, with the extra
// headers h, and returns the response (the caller closes its body).
func PostSigned(ctx context.Context, client *http.Client, u, contentType string, body []byte, secret string, at time.Time, h http.Header) (*http.Response, error) {
	req, err := NewSignedRequest(ctx, u, contentType, body, secret, at)
	if err != nil {
		return nil, err
	}
	for k, v := range h {
		req.Header[k] = v
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("post signed request to %s: %w", u, err)
	}
	return resp, nil
}

package slacktest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"unicode/utf16"
)

// Button is one button of a message's actions block, as the bot sent it.
type Button struct {
	// BlockID is the block_id of its actions block.
	BlockID string
	// ActionID identifies it within the message.
	ActionID string
	// Value is what a press sends back.
	Value string
	// Label is the plain_text it shows.
	Label string
}

// Update is one chat.update the bot made.
type Update struct {
	Channel, TS string
	// Text is the new text, "" when the update left it as it was.
	Text string
	// Blocks is the new blocks as JSON ("[]" clears them), "" when the
	// update left them as they were.
	Blocks string
	// Buttons are the buttons left in Blocks.
	Buttons []Button
}

// Pressed says what the fake delivered for one press.
type Pressed struct {
	// TriggerID is the interaction's trigger_id; Redeliver takes it.
	TriggerID string
	// EnvelopeID is the delivery's envelope id, for Acked.
	EnvelopeID string
	// ResponseURL is the press's response_url, served by the fake.
	ResponseURL string
}

// The limits of Block Kit the fake checks (Slack answers invalid_blocks).
const (
	maxBlocks      = 50
	maxSectionText = 3000
	maxElements    = 25
	maxButtonLabel = 75
	maxActionID    = 255
	maxButtonValue = 2000
)

// checkBlocks checks a message's blocks as Slack does and returns them
// (as sent) with their buttons; raw "" means no blocks.
func checkBlocks(raw string) (string, []Button, error) {
	if raw == "" {
		return "", nil, nil
	}
	var blocks []struct {
		Type    string `json:"type"`
		BlockID string `json:"block_id"`
		Text    *struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"text"`
		Elements []struct {
			Type     string `json:"type"`
			ActionID string `json:"action_id"`
			Value    string `json:"value"`
			Text     *struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"text"`
		} `json:"elements"`
	}
	if err := json.Unmarshal([]byte(raw), &blocks); err != nil {
		return "", nil, fmt.Errorf("blocks are not a JSON array: %w", err)
	}
	if len(blocks) > maxBlocks {
		return "", nil, fmt.Errorf("%d blocks, over %d", len(blocks), maxBlocks)
	}
	var buttons []Button
	blockIDs, actionIDs := map[string]bool{}, map[string]bool{}
	for _, b := range blocks {
		if b.BlockID != "" {
			if blockIDs[b.BlockID] {
				return "", nil, fmt.Errorf("block_id %q twice", b.BlockID)
			}
			blockIDs[b.BlockID] = true
		}
		switch b.Type {
		case "section":
			if b.Text == nil || b.Text.Text == "" || len(utf16.Encode([]rune(b.Text.Text))) > maxSectionText {
				return "", nil, errors.New("a section without text or with text over 3,000 characters")
			}
		case "actions":
			if len(b.Elements) == 0 || len(b.Elements) > maxElements {
				return "", nil, fmt.Errorf("an actions block with %d elements", len(b.Elements))
			}
			for _, e := range b.Elements {
				if e.Type != "button" || e.Text == nil || e.Text.Type != "plain_text" || e.Text.Text == "" ||
					len([]rune(e.Text.Text)) > maxButtonLabel || e.ActionID == "" || len(e.ActionID) > maxActionID ||
					actionIDs[e.ActionID] || len(e.Value) > maxButtonValue {
					return "", nil, errors.New("a button Slack would refuse")
				}
				actionIDs[e.ActionID] = true
				buttons = append(buttons, Button{BlockID: b.BlockID, ActionID: e.ActionID, Value: e.Value, Label: e.Text.Text})
			}
		case "context", "divider", "header", "rich_text", "markdown":
		default:
			return "", nil, fmt.Errorf("unknown block type %q", b.Type)
		}
	}
	return raw, buttons, nil
}

// update serves chat.update: the bot changes one of its messages.
func (s *Server) update(w http.ResponseWriter, r *http.Request) {
	ch, ts, text := r.Form.Get("channel"), r.Form.Get("ts"), r.Form.Get("text")
	_, hasBlocks := r.Form["blocks"]
	blocks, buttons, berr := checkBlocks(r.Form.Get("blocks"))
	s.mu.Lock()
	defer s.mu.Unlock()
	i := slices.IndexFunc(s.posts, func(p Post) bool { return p.Channel == ch && p.TS == ts })
	switch {
	case berr != nil:
		slackError(w, "invalid_blocks")
		return
	case i < 0:
		slackError(w, "message_not_found")
		return
	case s.posts[i].Ephemeral:
		slackError(w, "cant_update_message")
		return
	case hasBlocks && blocks == "[]" && text == "" && s.posts[i].Text == "":
		slackError(w, "no_text")
		return
	}
	u := Update{Channel: ch, TS: ts, Text: text}
	if text != "" {
		s.posts[i].Text, s.posts[i].Plain = text, Unescape(text)
	}
	if hasBlocks {
		u.Blocks, u.Buttons = blocks, buttons
		s.posts[i].Blocks, s.posts[i].Buttons = blocks, buttons
	} else {
		u.Buttons = s.posts[i].Buttons
	}
	s.updates = append(s.updates, u)
	s.cond.Broadcast()
	writeJSON(w, map[string]any{"ok": true, "channel": ch, "ts": ts, "text": s.posts[i].Text})
}

// Updates returns the chat.update calls that changed a message, in
// order.
func (s *Server) Updates() []Update {
	return records(s, &s.updates)
}

// WaitUpdates blocks until the bot has updated at least n messages or ctx
// is done, and returns the updates.
func (s *Server) WaitUpdates(ctx context.Context, n int) ([]Update, error) {
	return waitRecords(ctx, s, &s.updates, n, "message updates")
}

// Press makes user press the button with actionID under the bot's
// message ts in channel, as it is now (a button chat.update took off
// cannot be pressed): a block_actions interaction, over the socket or
// (SetEventsURL) as a form post with a payload field.
func (s *Server) Press(channel, ts, user, actionID string) (Pressed, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := slices.IndexFunc(s.posts, func(p Post) bool { return p.Channel == channel && p.TS == ts })
	if i < 0 {
		return Pressed{}, fmt.Errorf("slacktest: press: no message %s in %s", ts, channel)
	}
	j := slices.IndexFunc(s.posts[i].Buttons, func(b Button) bool { return b.ActionID == actionID })
	if j < 0 {
		return Pressed{}, fmt.Errorf("slacktest: press: message %s has no button %q", ts, actionID)
	}
	return s.pressLocked(channel, ts, user, s.posts[i].Buttons[j]), nil
}

// PressButton makes user press b under the message ts in channel,
// whether or not the bot made it (a button of an older version, another
// app's): the interaction carries b as it is, and the bot's message as it
// is now, when there is one.
func (s *Server) PressButton(channel, ts, user string, b Button) Pressed {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pressLocked(channel, ts, user, b)
}

func (s *Server) pressLocked(channel, ts, user string, b Button) Pressed {
	seq := s.nextSeqLocked()
	trigger := fmt.Sprintf("%d.%d.press", 1700000000, seq)
	actionTS := fmt.Sprintf("1700000001.%06d", seq)
	message := map[string]any{"type": "message", "user": DefaultBotUser, "bot_id": DefaultBotID, "ts": ts, "team": s.team}
	container := map[string]any{"type": "message", "message_ts": ts, "channel_id": channel, "is_ephemeral": false}
	if i := slices.IndexFunc(s.posts, func(p Post) bool { return p.Channel == channel && p.TS == ts }); i >= 0 {
		p := s.posts[i]
		message["text"] = p.Text
		if p.Blocks != "" {
			message["blocks"] = json.RawMessage(p.Blocks)
		}
		if p.ThreadTS != "" {
			message["thread_ts"] = p.ThreadTS
			container["thread_ts"] = p.ThreadTS
		}
		if p.Ephemeral {
			// Slack keeps no copy of an ephemeral message: the press
			// says only where it was, and it can be changed only
			// through the response_url.
			container["is_ephemeral"] = true
			message = nil
		}
	}
	s.hooks[trigger] = &hook{channel: channel, ts: ts, user: user}
	responseURL := s.ts.URL + "/actions/" + trigger
	name := "directmessage"
	if c, ok := s.channels[channel]; ok && c.Type != TypeIM {
		name = c.Name
	}
	u := s.users[user]
	body := map[string]any{
		"type": "block_actions", "token": VerificationToken, "api_app_id": DefaultAppID, "trigger_id": trigger,
		"user":       map[string]any{"id": user, "username": u.Name, "name": u.Name, "team_id": s.team},
		"team":       map[string]any{"id": s.team, "domain": "haven-test"},
		"enterprise": nil, "is_enterprise_install": false,
		"container":    container,
		"channel":      map[string]any{"id": channel, "name": name},
		"message":      message,
		"state":        map[string]any{"values": map[string]any{}},
		"response_url": responseURL,
		"actions": []map[string]any{{"type": "button", "block_id": b.BlockID, "action_id": b.ActionID, "value": b.Value,
			"text": map[string]any{"type": "plain_text", "text": b.Label, "emoji": true}, "action_ts": actionTS}},
	}
	if message == nil {
		delete(body, "message")
	}
	payload, _ := json.Marshal(body)
	form := url.Values{"payload": {string(payload)}}
	e := s.enqueueLocked("interactive", trigger, payload, form.Encode())
	return Pressed{TriggerID: trigger, EnvelopeID: e.id, ResponseURL: responseURL}
}

// maxHookUses is how often Slack lets an app use one response_url.
const maxHookUses = 5

// hook is what a press's response_url answers: the pressed message, and
// who pressed.
type hook struct {
	channel, ts, user string
	uses              int
}

// Response is one message the bot sent to a press's response_url.
type Response struct {
	// Trigger is the press's trigger_id (its response_url ends with it).
	Trigger string
	// Channel and TS are the pressed message.
	Channel, TS string
	// ReplaceOriginal and DeleteOriginal say what the bot asked for; with
	// neither, the message was a new one (Post.Method "response_url").
	ReplaceOriginal, DeleteOriginal bool
	// Text is the text sent (mrkdwn, escaped).
	Text string
	// Blocks is the blocks sent as JSON, "" for none; Buttons are the
	// buttons in them.
	Blocks  string
	Buttons []Button
}

// respond serves a press's response_url as Slack does: a JSON message
// that replaces the pressed message (replace_original: its text and
// blocks, ephemeral or not), deletes it (delete_original: its buttons go
// with it), or is posted as a new message, ephemeral to the presser
// unless response_type is in_channel. A response_url takes five uses; an
// unknown or used-up one answers 404.
func (s *Server) respond(w http.ResponseWriter, r *http.Request) {
	trigger := r.PathValue("trigger")
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	var msg struct {
		Text            string          `json:"text"`
		Blocks          json.RawMessage `json:"blocks"`
		ReplaceOriginal bool            `json:"replace_original"`
		DeleteOriginal  bool            `json:"delete_original"`
		ResponseType    string          `json:"response_type"`
		ThreadTS        string          `json:"thread_ts"`
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
	if r.Method != http.MethodPost || ct != "application/json" || err != nil || json.Unmarshal(body, &msg) != nil {
		http.Error(w, "invalid_payload", http.StatusBadRequest)
		return
	}
	raw := string(msg.Blocks)
	if raw == "null" {
		raw = ""
	}
	blocks, buttons, berr := checkBlocks(raw)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls["response_url"]++
	s.cond.Broadcast()
	h, ok := s.hooks[trigger]
	switch {
	case !ok:
		http.Error(w, "no_such_url", http.StatusNotFound)
		return
	case h.uses >= maxHookUses:
		http.Error(w, "used_url", http.StatusNotFound)
		return
	case berr != nil:
		writeJSON(w, map[string]any{"ok": false, "error": "invalid_blocks"})
		return
	case !msg.DeleteOriginal && strings.TrimSpace(msg.Text) == "" && blocks == "":
		writeJSON(w, map[string]any{"ok": false, "error": "no_text"})
		return
	}
	h.uses++
	s.responses = append(s.responses, Response{Trigger: trigger, Channel: h.channel, TS: h.ts,
		ReplaceOriginal: msg.ReplaceOriginal, DeleteOriginal: msg.DeleteOriginal, Text: msg.Text, Blocks: blocks, Buttons: buttons})
	i := slices.IndexFunc(s.posts, func(p Post) bool { return p.Channel == h.channel && p.TS == h.ts })
	switch {
	case msg.DeleteOriginal:
		if i >= 0 {
			s.posts[i].Deleted, s.posts[i].Blocks, s.posts[i].Buttons = true, "", nil
		}
	case msg.ReplaceOriginal:
		if i >= 0 {
			s.posts[i].Text, s.posts[i].Plain = msg.Text, Unescape(msg.Text)
			s.posts[i].Blocks, s.posts[i].Buttons = blocks, buttons
		}
	default:
		ephemeral := msg.ResponseType != "in_channel"
		p := Post{Method: "response_url", Channel: h.channel, TS: s.tsLocked(), ThreadTS: msg.ThreadTS, Text: msg.Text,
			Plain: Unescape(msg.Text), Ephemeral: ephemeral, Blocks: blocks, Buttons: buttons}
		if ephemeral {
			p.User = h.user
		}
		s.posts = append(s.posts, p)
	}
	s.cond.Broadcast()
	writeJSON(w, map[string]any{"ok": true})
}

// Responses returns what the bot sent to response_urls, in order.
func (s *Server) Responses() []Response {
	return records(s, &s.responses)
}

// WaitResponses blocks until the bot has used response_urls at least n
// times or ctx is done, and returns what it sent.
func (s *Server) WaitResponses(ctx context.Context, n int) ([]Response, error) {
	return waitRecords(ctx, s, &s.responses, n, "response_url messages")
}

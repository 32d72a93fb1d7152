package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/pressly/goose/v3"

	"github.com/havenbot/haven/channels"
)

// The inbox and outbox store each message as its channels wire form (see
// channels.WireVersion), and the SQL that erases a person's words from
// them (Done, Sent, Abandon, ForgetAll) addresses its fields by their wire
// names ('$.text', '$.author.id', ...).
//
// Before wire version 1, payloads were channels.Inbound and Outbound as
// JSON with Go's field names and no version ("wire version 0"). Migration 4
// (wireMigration) rewrites every stored payload into version 1 when a
// database is opened, so that one form is ever stored and the erasing SQL
// knows one set of names; its down step writes version 0 back for an older
// Haven.

// wireMigrationVersion is the schema version of wireMigration.
const wireMigrationVersion = 4

// wireMigration converts stored inbox and outbox payloads from wire version
// 0 to 1 (up) and back (down).
var wireMigration = goose.NewGoMigration(wireMigrationVersion,
	&goose.GoFunc{RunTx: func(ctx context.Context, tx *sql.Tx) error { return rewritePayloads(ctx, tx, toWire1) }},
	&goose.GoFunc{RunTx: func(ctx context.Context, tx *sql.Tx) error { return rewritePayloads(ctx, tx, toWire0) }},
)

// The wire version 0 forms, frozen: channels' types as they were, without
// json tags, so that encoding/json used their Go field names.
type (
	conversation0 struct {
		ID       string
		Kind     channels.Kind
		ThreadID string
	}
	author0 struct {
		ID            string
		Display       string
		IsBot         bool
		PlatformAdmin bool
	}
	inbound0 struct {
		Platform     string
		Workspace    string
		Conversation conversation0
		MessageID    string
		DeliveryKey  string
		Author       author0
		MentionsBot  bool
		Text         string
		Locale       string
		Edited       bool
		ReceivedAt   time.Time
	}
	file0 struct {
		Name        string
		ContentType string
		Data        []byte
	}
	outbound0 struct {
		Platform     string
		Conversation conversation0
		ReplyTo      string
		Kind         channels.OutKind
		Private      bool
		Recipient    string
		Text         string
		File         *file0 `json:",omitempty"`
	}
)

func (in inbound0) current() channels.Inbound {
	return channels.Inbound{
		Platform: in.Platform, Workspace: in.Workspace, Conversation: in.Conversation.current(),
		MessageID: in.MessageID, DeliveryKey: in.DeliveryKey,
		Author:      channels.Author{ID: in.Author.ID, Display: in.Author.Display, IsBot: in.Author.IsBot, PlatformAdmin: in.Author.PlatformAdmin},
		MentionsBot: in.MentionsBot, Text: in.Text, Locale: in.Locale, Edited: in.Edited, ReceivedAt: in.ReceivedAt,
	}
}

func (c conversation0) current() channels.Conversation {
	return channels.Conversation{ID: c.ID, Kind: c.Kind, ThreadID: c.ThreadID}
}

func (o outbound0) current() channels.Outbound {
	out := channels.Outbound{Platform: o.Platform, Conversation: o.Conversation.current(), ReplyTo: o.ReplyTo,
		Kind: o.Kind, Private: o.Private, Recipient: o.Recipient, Text: o.Text}
	if o.File != nil {
		out.File = &channels.File{Name: o.File.Name, ContentType: o.File.ContentType, Data: o.File.Data}
	}
	return out
}

func inboundV0(in channels.Inbound) inbound0 {
	return inbound0{
		Platform: in.Platform, Workspace: in.Workspace, Conversation: conversationV0(in.Conversation),
		MessageID: in.MessageID, DeliveryKey: in.DeliveryKey,
		Author:      author0{ID: in.Author.ID, Display: in.Author.Display, IsBot: in.Author.IsBot, PlatformAdmin: in.Author.PlatformAdmin},
		MentionsBot: in.MentionsBot, Text: in.Text, Locale: in.Locale, Edited: in.Edited, ReceivedAt: in.ReceivedAt,
	}
}

func conversationV0(c channels.Conversation) conversation0 {
	return conversation0{ID: c.ID, Kind: c.Kind, ThreadID: c.ThreadID}
}

func outboundV0(o channels.Outbound) outbound0 {
	out := outbound0{Platform: o.Platform, Conversation: conversationV0(o.Conversation), ReplyTo: o.ReplyTo,
		Kind: o.Kind, Private: o.Private, Recipient: o.Recipient, Text: o.Text}
	if o.File != nil {
		out.File = &file0{Name: o.File.Name, ContentType: o.File.ContentType, Data: o.File.Data}
	}
	return out
}

// hasVersion reports whether payload is a JSON object with a "version"
// member (wire version 1 or later).
func hasVersion(payload []byte) (bool, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(payload, &m); err != nil {
		return false, err
	}
	_, ok := m["version"]
	return ok, nil
}

// convert turns one stored payload of table ("inbox" or "outbox") into
// another form; changed is false when it already is in that form.
type convert func(table string, payload []byte) (out []byte, changed bool, err error)

// toWire1 converts a version 0 payload to version 1. Payloads that already
// have a version are left alone, so the conversion can run twice.
func toWire1(table string, payload []byte) ([]byte, bool, error) {
	if ok, err := hasVersion(payload); err != nil || ok {
		return nil, false, err
	}
	var v any
	if table == "inbox" {
		var in inbound0
		if err := json.Unmarshal(payload, &in); err != nil {
			return nil, false, err
		}
		v = in.current()
	} else {
		var o outbound0
		if err := json.Unmarshal(payload, &o); err != nil {
			return nil, false, err
		}
		v = o.current()
	}
	b, err := json.Marshal(v)
	return b, err == nil, err
}

// toWire0 converts a version 1 payload back to version 0. Payloads without
// a version are left alone.
func toWire0(table string, payload []byte) ([]byte, bool, error) {
	if ok, err := hasVersion(payload); err != nil || !ok {
		return nil, false, err
	}
	var v any
	if table == "inbox" {
		var in channels.Inbound
		if err := json.Unmarshal(payload, &in); err != nil {
			return nil, false, err
		}
		v = inboundV0(in)
	} else {
		var o channels.Outbound
		if err := json.Unmarshal(payload, &o); err != nil {
			return nil, false, err
		}
		v = outboundV0(o)
	}
	b, err := json.Marshal(v)
	return b, err == nil, err
}

// payloadBatch is how many rows rewritePayloads holds in memory at once.
const payloadBatch = 200

// rewritePayloads converts every inbox and outbox payload with conv, in
// batches by rowid. A payload that cannot be converted fails the
// migration with an error naming its table and row, and nothing is
// changed: no message is dropped or left in a form the code cannot read.
func rewritePayloads(ctx context.Context, tx *sql.Tx, conv convert) error {
	for _, table := range []string{"inbox", "outbox"} {
		type row struct {
			id      int64
			payload []byte
		}
		last := int64(-1 << 63)
		for {
			batch, err := list(ctx, tx, func(sc scanner) (row, error) {
				var r row
				err := sc.Scan(&r.id, &r.payload)
				return r, err
			}, `SELECT rowid, payload FROM `+table+` WHERE rowid > ? ORDER BY rowid LIMIT ?`, last, payloadBatch)
			if err != nil {
				return fmt.Errorf("read %s payloads: %w", table, err)
			}
			for _, r := range batch {
				out, changed, err := conv(table, r.payload)
				if err != nil {
					return fmt.Errorf("convert the payload of %s row %d: %w", table, r.id, err)
				}
				if !changed {
					continue
				}
				if _, err := tx.ExecContext(ctx, `UPDATE `+table+` SET payload = ? WHERE rowid = ?`, string(out), r.id); err != nil {
					return fmt.Errorf("rewrite the payload of %s row %d: %w", table, r.id, err)
				}
			}
			if len(batch) < payloadBatch {
				break
			}
			last = batch[len(batch)-1].id
		}
	}
	return nil
}

package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/havenbot/haven/channels"
)

// Payloads exactly as Haven wrote them before wire version 1: channels'
// types as JSON with Go field names (captured from that code).
const (
	// Sam's message, not yet handled.
	v0SamOpen = `{"Platform":"telegram","Workspace":"","Conversation":{"ID":"telegram::42","Kind":"dm","ThreadID":"7"},"MessageID":"telegram::42:9","DeliveryKey":"telegram:1001","Author":{"ID":"telegram::42","Display":"Sam","IsBot":false,"PlatformAdmin":true},"MentionsBot":true,"Text":"I keep thinking about the exam","Locale":"en-GB","Edited":false,"ReceivedAt":"2026-01-02T03:04:05.000000006Z"}`
	// An earlier message of Sam's and one of Lee's, both handled.
	v0SamDone = `{"Platform":"telegram","Workspace":"","Conversation":{"ID":"telegram::42","Kind":"dm","ThreadID":""},"MessageID":"telegram::42:8","DeliveryKey":"telegram:1000","Author":{"ID":"telegram::42","Display":"Sam","IsBot":false,"PlatformAdmin":false},"MentionsBot":false,"Text":"my sister Anna is visiting","Locale":"","Edited":false,"ReceivedAt":"2026-01-02T03:00:00Z"}`
	v0LeeDone = `{"Platform":"telegram","Workspace":"","Conversation":{"ID":"telegram::77","Kind":"dm","ThreadID":""},"MessageID":"telegram::77:3","DeliveryKey":"telegram:999","Author":{"ID":"telegram::77","Display":"Lee","IsBot":false,"PlatformAdmin":false},"MentionsBot":false,"Text":"hello there","Locale":"","Edited":false,"ReceivedAt":"2026-01-02T02:00:00Z"}`
	// A reply to Sam with a file, not yet sent; earlier replies to Sam and
	// to Lee, sent; a crisis reply on the console, not yet sent.
	v0SamUnsent = `{"Platform":"telegram","Conversation":{"ID":"telegram::42","Kind":"dm","ThreadID":""},"ReplyTo":"telegram::42:9","Kind":"reply","Private":true,"Recipient":"telegram::42","Text":"That sounds heavy.","File":{"Name":"haven-export.json","ContentType":"application/json","Data":"eyJhIjoxfQ=="}}`
	v0SamSent   = `{"Platform":"telegram","Conversation":{"ID":"telegram::42","Kind":"dm","ThreadID":""},"ReplyTo":"telegram::42:8","Kind":"reply","Private":false,"Recipient":"","Text":"Anna is visiting: how do you feel about it?","File":{"Name":"a.json","ContentType":"application/json","Data":"e30="}}`
	v0LeeSent   = `{"Platform":"telegram","Conversation":{"ID":"telegram::77","Kind":"dm","ThreadID":""},"ReplyTo":"telegram::77:3","Kind":"reply","Private":false,"Recipient":"","Text":"Hello Lee.","File":null}`
	v0Console   = `{"Platform":"console","Conversation":{"ID":"console::me","Kind":"dm","ThreadID":""},"ReplyTo":"","Kind":"crisis","Private":false,"Recipient":"","Text":"x"}`
)

// The statements the code before wire version 1 ran when a delivery was
// handled and a reply sent (Done and Sent).
const (
	v0Done = `UPDATE inbox SET done_at = 1, payload = json_set(payload, '$.Text', '', '$.Author.Display', '') WHERE delivery_key = ?`
	v0Sent = `UPDATE outbox SET sent_at = 1, payload = json_remove(json_set(payload, '$.Text', ''), '$.File.Data') WHERE id = ?`
)

// writeV0Database creates at path a database at schema version 3, the last
// before wire version 1, holding the payloads above as that code left them.
func writeV0Database(t *testing.T, path string) {
	t.Helper()
	ctx := context.Background()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=foreign_keys(1)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	p, err := migrations(db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, wireMigrationVersion-1); err != nil {
		t.Fatal(err)
	}
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO inbox (delivery_key, platform, payload, recorded_at) VALUES (?, 'telegram', ?, 1)`, []any{"telegram:999", v0LeeDone}},
		{`INSERT INTO inbox (delivery_key, platform, payload, recorded_at) VALUES (?, 'telegram', ?, 1)`, []any{"telegram:1000", v0SamDone}},
		{`INSERT INTO inbox (delivery_key, platform, payload, recorded_at) VALUES (?, 'telegram', ?, 1)`, []any{"telegram:1001", v0SamOpen}},
		{v0Done, []any{"telegram:999"}},
		{v0Done, []any{"telegram:1000"}},
		{`INSERT INTO outbox (id, platform, payload, created_at) VALUES (1, 'telegram', ?, 1)`, []any{v0SamSent}},
		{`INSERT INTO outbox (id, platform, payload, created_at) VALUES (2, 'telegram', ?, 1)`, []any{v0LeeSent}},
		{`INSERT INTO outbox (id, platform, payload, created_at) VALUES (3, 'telegram', ?, 1)`, []any{v0SamUnsent}},
		{`INSERT INTO outbox (id, platform, payload, created_at) VALUES (4, 'console', ?, 1)`, []any{v0Console}},
		{v0Sent, []any{1}},
		{v0Sent, []any{2}},
	} {
		if _, err := db.ExecContext(ctx, q.sql, q.args...); err != nil {
			t.Fatalf("%s: %v", q.sql, err)
		}
	}
}

// payloads returns every stored payload of table by row id.
func payloads(t *testing.T, db interface {
	Query(string, ...any) (*sql.Rows, error)
}, table string) map[int64]string {
	t.Helper()
	rows, err := db.Query(`SELECT rowid, payload FROM ` + table)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var id int64
		var p string
		if err := rows.Scan(&id, &p); err != nil {
			t.Fatal(err)
		}
		out[id] = p
	}
	return out
}

func TestADatabaseWrittenBeforeWireVersion1IsReadAfterItsMigration(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	writeV0Database(t, path)
	s := openTest(t, path)

	for _, table := range []string{"inbox", "outbox"} {
		for id, p := range payloads(t, s.r, table) {
			if !strings.HasPrefix(p, `{"version":1,`) || strings.Contains(p, `"Text"`) {
				t.Errorf("%s row %d was not rewritten to wire version 1: %s", table, id, p)
			}
		}
	}
	un, err := s.Unfinished(ctx, "telegram")
	if err != nil {
		t.Fatal(err)
	}
	wantIn := channels.Inbound{Platform: "telegram", Conversation: channels.Conversation{ID: "telegram::42", Kind: channels.KindDM, ThreadID: "7"},
		MessageID: "telegram::42:9", DeliveryKey: "telegram:1001", Author: channels.Author{ID: "telegram::42", Display: "Sam", PlatformAdmin: true},
		MentionsBot: true, Text: "I keep thinking about the exam", Locale: "en-GB", ReceivedAt: time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)}
	if len(un) != 1 || !reflect.DeepEqual(un[0], wantIn) {
		t.Errorf("Unfinished = %+v\nwant [%+v]", un, wantIn)
	}
	unsent, err := s.Unsent(ctx, "telegram")
	if err != nil {
		t.Fatal(err)
	}
	wantOut := channels.Outbound{Platform: "telegram", Conversation: channels.Conversation{ID: "telegram::42", Kind: channels.KindDM},
		ReplyTo: "telegram::42:9", Kind: channels.OutReply, Private: true, Recipient: "telegram::42", Text: "That sounds heavy.",
		File: &channels.File{Name: "haven-export.json", ContentType: "application/json", Data: []byte(`{"a":1}`)}}
	if len(unsent) != 1 || unsent[0].ID != 3 || !reflect.DeepEqual(unsent[0].Out, wantOut) {
		t.Errorf("Unsent = %+v\nwant [3 %+v]", unsent, wantOut)
	}
	if con, err := s.Unsent(ctx, "console"); err != nil || len(con) != 1 || con[0].Out.Kind != channels.OutCrisis || con[0].Out.Text != "x" {
		t.Errorf("Unsent(console) = %+v, %v", con, err)
	}
	// The migrated rows go on through today's code.
	if err := s.Done(ctx, "telegram:1001"); err != nil {
		t.Fatal(err)
	}
	if err := s.Sent(ctx, 3); err != nil {
		t.Fatal(err)
	}
	if p := payloads(t, s.r, "outbox")[3]; strings.Contains(p, "heavy") || strings.Contains(p, `"data"`) {
		t.Errorf("a migrated reply kept its text or file after Sent: %s", p)
	}
}

func TestTheWireMigrationsDownStepGivesTheOldFormBack(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	writeV0Database(t, path)
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	before := map[string]map[int64]string{"inbox": payloads(t, db, "inbox"), "outbox": payloads(t, db, "outbox")}
	p, err := migrations(db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Up(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := p.DownTo(ctx, wireMigrationVersion-1); err != nil {
		t.Fatal(err)
	}
	for table, rows := range before {
		after := payloads(t, db, table)
		for id, old := range rows {
			var a, b any
			if table == "inbox" {
				a, b = &inbound0{}, &inbound0{}
			} else {
				a, b = &outbound0{}, &outbound0{}
			}
			if err := json.Unmarshal([]byte(old), a); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(after[id]), b); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(a, b) || strings.Contains(after[id], `"version"`) {
				t.Errorf("%s row %d after up and down:\n got %s\nwant %s", table, id, after[id], old)
			}
		}
	}
}

func TestTheWireMigrationRefusesAPayloadItCannotReadAndChangesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	writeV0Database(t, path)
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO outbox (id, platform, payload, created_at) VALUES (9, 'telegram', '{"Text": 3}', 1)`); err != nil {
		t.Fatal(err)
	}
	before := payloads(t, db, "inbox")
	db.Close()
	_, err = Open(context.Background(), path)
	if err == nil || !strings.Contains(err.Error(), "outbox row 9") {
		t.Fatalf("Open = %v, want an error naming outbox row 9", err)
	}
	db, err = sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if after := payloads(t, db, "inbox"); !reflect.DeepEqual(after, before) {
		t.Errorf("a failed migration changed the inbox:\n got %v\nwant %v", after, before)
	}
}

// deliveredRows writes, through today's Store, what the database of
// writeV0Database holds: Sam's and Lee's handled messages and sent replies.
func deliveredRows(t *testing.T, path string) {
	t.Helper()
	ctx := context.Background()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, raw := range []string{v0LeeDone, v0SamDone} {
		var in inbound0
		if err := json.Unmarshal([]byte(raw), &in); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Record(ctx, in.current()); err != nil {
			t.Fatal(err)
		}
		if err := s.Done(ctx, in.DeliveryKey); err != nil {
			t.Fatal(err)
		}
	}
	for _, raw := range []string{v0SamSent, v0LeeSent} {
		var o outbound0
		if err := json.Unmarshal([]byte(raw), &o); err != nil {
			t.Fatal(err)
		}
		ids, err := s.Add(ctx, []channels.Outbound{o.current()})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Sent(ctx, ids[0]); err != nil {
			t.Fatal(err)
		}
	}
}

func TestForgetEverythingErasesThePersonFromHandledDeliveries(t *testing.T) {
	tests := []struct {
		name  string
		write func(t *testing.T, path string)
	}{
		{"rows written today", deliveredRows},
		{"rows written before wire version 1", writeV0Database},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			path := filepath.Join(t.TempDir(), "h.db")
			tt.write(t, path)
			s := openTest(t, path)
			sam, err := s.ResolvePerson(ctx, "telegram", "telegram::42", "Sam")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.OpenSession(ctx, sam.ID, "telegram::42", time.Time{}); err != nil {
				t.Fatal(err)
			}
			if _, err := s.ResolvePerson(ctx, "telegram", "telegram::77", "Lee"); err != nil {
				t.Fatal(err)
			}
			if err := s.ForgetAll(ctx, sam.ID); err != nil {
				t.Fatal(err)
			}
			var inboxSam, inboxLee channels.Inbound
			var outSam, outLee channels.Outbound
			for key, into := range map[string]*channels.Inbound{"telegram:1000": &inboxSam, "telegram:999": &inboxLee} {
				var p string
				if err := s.r.QueryRow(`SELECT payload FROM inbox WHERE delivery_key = ?`, key).Scan(&p); err != nil {
					t.Fatal(err)
				}
				if err := json.Unmarshal([]byte(p), into); err != nil {
					t.Fatal(err)
				}
				if key == "telegram:1000" && (strings.Contains(p, "telegram::42") || strings.Contains(p, "Anna") || strings.Contains(p, "Sam")) {
					t.Errorf("Sam's handled message still names Sam: %s", p)
				}
			}
			// Both writers store Sam's reply as outbox row 1 and Lee's as row 2.
			for id, into := range map[int64]*channels.Outbound{1: &outSam, 2: &outLee} {
				p := payloads(t, s.r, "outbox")[id]
				if err := json.Unmarshal([]byte(p), into); err != nil {
					t.Fatal(err)
				}
				if id == 1 && (strings.Contains(p, "telegram::42") || strings.Contains(p, "Anna")) {
					t.Errorf("the reply to Sam still names Sam: %s", p)
				}
			}
			if inboxSam.Text != "" || inboxSam.Author.ID != "" || inboxSam.Author.Display != "" || inboxSam.Conversation.ID != "" || inboxSam.MessageID != "" {
				t.Errorf("Sam's handled message after forget everything = %+v, want text and ids erased", inboxSam)
			}
			if outSam.Text != "" || outSam.Recipient != "" || outSam.Conversation.ID != "" || outSam.ReplyTo != "" || (outSam.File != nil && len(outSam.File.Data) > 0) {
				t.Errorf("the reply to Sam after forget everything = %+v, want text and ids erased", outSam)
			}
			if inboxLee.Author.ID != "telegram::77" || inboxLee.MessageID != "telegram::77:3" || outLee.Conversation.ID != "telegram::77" {
				t.Errorf("forgetting Sam erased Lee's rows: %+v %+v", inboxLee, outLee)
			}
		})
	}
}

package sqlite

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/havenbot/haven/channels"
)

func inbound(key, conv string) channels.Inbound {
	return channels.Inbound{
		Platform:     "console",
		Conversation: channels.Conversation{ID: conv, Kind: channels.KindDM},
		MessageID:    "console::m-" + key,
		DeliveryKey:  key,
		Author:       channels.Author{ID: "console::me", Display: "Ana"},
		Text:         "a private message " + key,
		ReceivedAt:   time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
	}
}

func keys(ins []channels.Inbound) []string {
	var k []string
	for _, in := range ins {
		k = append(k, in.DeliveryKey)
	}
	return k
}

func TestDedupeSurvivesRestart(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	in := inbound("evt-1", "console::c")
	fresh, err := s.Record(ctx, in)
	if err != nil || !fresh {
		t.Fatalf("first Record = %v, %v; want fresh", fresh, err)
	}
	dup := in
	dup.Text = "a redelivery must not overwrite the first"
	if fresh, err := s.Record(ctx, dup); err != nil || fresh {
		t.Fatalf("second Record = %v, %v; want not fresh", fresh, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = openTest(t, path)
	if fresh, err := s.Record(ctx, in); err != nil || fresh {
		t.Errorf("Record after reopen = %v, %v; want not fresh", fresh, err)
	}
	un, err := s.Unfinished(ctx, "console")
	if err != nil {
		t.Fatal(err)
	}
	if len(un) != 1 || un[0].Text != in.Text || un[0] != in {
		t.Errorf("Unfinished after reopen = %+v, want exactly the first delivery unchanged", un)
	}
	if err := s.Done(ctx, "evt-1"); err != nil {
		t.Fatal(err)
	}
	if fresh, err := s.Record(ctx, in); err != nil || fresh {
		t.Errorf("Record after Done = %v, %v; want not fresh", fresh, err)
	}
}

func TestUnfinishedInRecordOrderAndDoneClearsText(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"))
	// Keys that sort differently from their recording order.
	order := []string{"k9", "k1", "k5", "k3", "k7"}
	for _, k := range order {
		if _, err := s.Record(ctx, inbound(k, "console::c")); err != nil {
			t.Fatal(err)
		}
	}
	other := inbound("t1", "telegram::c")
	other.Platform = "telegram"
	if _, err := s.Record(ctx, other); err != nil {
		t.Fatal(err)
	}
	un, err := s.Unfinished(ctx, "console")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(keys(un), order) {
		t.Errorf("Unfinished = %v, want %v", keys(un), order)
	}
	for _, k := range []string{"k1", "k3"} {
		if err := s.Done(ctx, k); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Done(ctx, "k1"); err != nil {
		t.Errorf("Done twice: %v, want no error", err)
	}
	un, _ = s.Unfinished(ctx, "console")
	if want := []string{"k9", "k5", "k7"}; !slices.Equal(keys(un), want) {
		t.Errorf("Unfinished after Done = %v, want %v", keys(un), want)
	}
	tg, _ := s.Unfinished(ctx, "telegram")
	if !slices.Equal(keys(tg), []string{"t1"}) {
		t.Errorf("Unfinished(telegram) = %v", keys(tg))
	}
	// The stored row of a done delivery keeps no text and no name.
	var payload string
	if err := s.r.QueryRow(`SELECT payload FROM inbox WHERE delivery_key = 'k1'`).Scan(&payload); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(payload, "private message") || strings.Contains(payload, "Ana") || !strings.Contains(payload, "console::m-k1") {
		t.Errorf("payload of a done delivery = %s, want ids kept and text and name cleared", payload)
	}
	var notDone string
	s.r.QueryRow(`SELECT payload FROM inbox WHERE delivery_key = 'k5'`).Scan(&notDone)
	if !strings.Contains(notDone, "private message k5") {
		t.Errorf("payload of an unfinished delivery lost its text: %s", notDone)
	}
}

func TestRecordRejectsMissingKeys(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"))
	noKey := inbound("", "console::c")
	noPlatform := inbound("k", "console::c")
	noPlatform.Platform = ""
	tests := []struct {
		name string
		in   channels.Inbound
		want string
	}{
		{"no delivery key", noKey, "empty delivery key"},
		{"no platform", noPlatform, "empty platform"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := s.Record(ctx, tt.in); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Record error = %v, want %q", err, tt.want)
			}
		})
	}
}

func out(platform, text string) channels.Outbound {
	return channels.Outbound{Platform: platform, Conversation: channels.Conversation{ID: platform + "::c", Kind: channels.KindDM},
		Kind: channels.OutReply, Text: text}
}

func unsentTexts(t *testing.T, s *Store, platform string) ([]string, []channels.OutboxItem) {
	t.Helper()
	items, err := s.Unsent(context.Background(), platform)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, it := range items {
		texts = append(texts, it.Out.Text)
	}
	return texts, items
}

func TestOutboxLifecycleSurvivesRestart(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	clock := time.Date(2026, 2, 3, 4, 5, 6, 0, time.UTC)
	s, err := Open(ctx, path, WithClock(func() time.Time { return clock }))
	if err != nil {
		t.Fatal(err)
	}
	ids, err := s.Add(ctx, []channels.Outbound{out("console", "one"), out("console", "two"), out("telegram", "tg"), out("console", "three")})
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != 4 || !slices.IsSorted(ids) || ids[0] == ids[1] {
		t.Fatalf("ids = %v, want 4 increasing ids", ids)
	}
	more, err := s.Add(ctx, []channels.Outbound{out("console", "four")})
	if err != nil {
		t.Fatal(err)
	}
	texts, items := unsentTexts(t, s, "console")
	if want := []string{"one", "two", "three", "four"}; !slices.Equal(texts, want) {
		t.Errorf("Unsent = %v, want %v", texts, want)
	}
	if !items[0].Created.Equal(clock) || items[0].ID != ids[0] || items[3].ID != more[0] || items[0].Out != out("console", "one") {
		t.Errorf("first item = %+v", items[0])
	}
	for range 3 {
		if err := s.Attempted(ctx, ids[1], "http 503"); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Sent(ctx, ids[0]); err != nil {
		t.Fatal(err)
	}
	if err := s.Abandon(ctx, ids[3], "chat not found"); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = openTest(t, path)
	texts, items = unsentTexts(t, s, "console")
	if want := []string{"two", "four"}; !slices.Equal(texts, want) {
		t.Errorf("Unsent after reopen = %v, want %v", texts, want)
	}
	if items[0].Attempts != 3 || items[1].Attempts != 0 {
		t.Errorf("attempts = %d, %d; want 3, 0", items[0].Attempts, items[1].Attempts)
	}
	if tg, _ := unsentTexts(t, s, "telegram"); !slices.Equal(tg, []string{"tg"}) {
		t.Errorf("Unsent(telegram) = %v", tg)
	}
	var sentPayload, abandonedPayload, lastErr string
	s.r.QueryRow(`SELECT payload FROM outbox WHERE id = ?`, ids[0]).Scan(&sentPayload)
	s.r.QueryRow(`SELECT payload, last_error FROM outbox WHERE id = ?`, ids[3]).Scan(&abandonedPayload, &lastErr)
	if strings.Contains(sentPayload, `"one"`) {
		t.Errorf("a sent message kept its text: %s", sentPayload)
	}
	if !strings.Contains(abandonedPayload, `"three"`) || lastErr != "chat not found" {
		t.Errorf("abandoned message = %s, %q; want its text and reason kept for operators", abandonedPayload, lastErr)
	}
	if err := s.Sent(ctx, ids[0]); err != nil {
		t.Errorf("Sent twice: %v, want no error", err)
	}
}

func TestOutboxAddIsAllOrNothing(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"))
	_, err := s.Add(ctx, []channels.Outbound{out("console", "ok"), out("", "no platform")})
	if err == nil || !strings.Contains(err.Error(), "message 1 has no platform") {
		t.Errorf("Add = %v, want an error naming message 1", err)
	}
	if texts, _ := unsentTexts(t, s, "console"); len(texts) != 0 {
		t.Errorf("Unsent after a failed Add = %v, want none", texts)
	}
	if ids, err := s.Add(ctx, nil); err != nil || len(ids) != 0 {
		t.Errorf("Add(nil) = %v, %v", ids, err)
	}
}

func TestOutboxKeepsAFileUntilSentAndRefusesOneTooLarge(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	s := openTest(t, path)
	data := make([]byte, 1<<20)
	for i := range data {
		data[i] = byte(i * 7)
	}
	withFile := func(text, name string, data []byte) channels.Outbound {
		o := out("telegram", text)
		o.File = &channels.File{Name: name, ContentType: "application/json", Data: data}
		return o
	}
	ids, err := s.Add(ctx, []channels.Outbound{withFile("your export", "export.json", data), withFile("another", "b.json", []byte("{}")), out("telegram", "plain")})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = openTest(t, path)
	_, items := unsentTexts(t, s, "telegram")
	if len(items) != 3 {
		t.Fatalf("Unsent = %+v", items)
	}
	f := items[0].Out.File
	if f == nil || f.Name != "export.json" || f.ContentType != "application/json" || !slices.Equal(f.Data, data) || items[0].Out.Text != "your export" {
		t.Fatalf("file after reopen = %+v", f)
	}
	if items[2].Out.File != nil {
		t.Fatalf("a message without a file got one: %+v", items[2].Out.File)
	}

	if err := s.Sent(ctx, ids[0]); err != nil {
		t.Fatal(err)
	}
	if err := s.Abandon(ctx, ids[1], "bot blocked"); err != nil {
		t.Fatal(err)
	}
	if err := s.Sent(ctx, ids[2]); err != nil {
		t.Fatalf("Sent of a message without a file: %v", err)
	}
	for _, id := range ids[:2] {
		var payload string
		if err := s.r.QueryRow(`SELECT payload FROM outbox WHERE id = ?`, id).Scan(&payload); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(payload, `"Data"`) || !strings.Contains(payload, `"Name"`) {
			t.Errorf("message %d after sent or abandoned kept its file content or lost its name: %.200s", id, payload)
		}
	}

	big := withFile("too big", "big.json", make([]byte, channels.MaxFileSize+1))
	_, err = s.Add(ctx, []channels.Outbound{out("telegram", "ok"), big})
	if err == nil || !strings.Contains(err.Error(), "message 1") || !strings.Contains(err.Error(), "over the limit of 20.0 MB") {
		t.Fatalf("Add of a file over the limit = %v, want an error naming it", err)
	}
	if texts, _ := unsentTexts(t, s, "telegram"); len(texts) != 0 {
		t.Fatalf("Unsent after a refused Add = %v", texts)
	}
}

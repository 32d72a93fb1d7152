package sqlite

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/havenbot/haven/channels"
)

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
	if !items[0].Created.Equal(clock) || items[0].ID != ids[0] || items[3].ID != more[0] || !reflect.DeepEqual(items[0].Out, out("console", "one")) {
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
		var o channels.Outbound
		if err := json.Unmarshal([]byte(payload), &o); err != nil {
			t.Fatalf("message %d: %v", id, err)
		}
		if strings.Contains(payload, `"data"`) || o.File == nil || len(o.File.Data) != 0 || o.File.Name == "" {
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

func TestOutboxKeepsAMessagesChoicesAndWhoTheyAreForAcrossARestart(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	o := out("telegram", "Shall I? Reply yes or no.")
	o.Choices = []channels.Choice{{Label: "Yes", Text: "yes"}, {Label: "No", Text: "no"}}
	o.ChoicesFor = "telegram::42" // the person they answer for, kept too
	if _, err := s.Add(ctx, []channels.Outbound{o}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s, err = Open(ctx, path); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, items := unsentTexts(t, s, "telegram")
	if len(items) != 1 || !reflect.DeepEqual(items[0].Out, o) {
		t.Fatalf("unsent after restart = %+v, want %+v", items, o)
	}
}

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

func TestRecordAllSaysWhichAreFreshInOrderAndRecordsAllOrNothing(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"))
	if _, err := s.Record(ctx, inbound("e0", "console::c")); err != nil {
		t.Fatal(err)
	}
	before := s.GroupStats()
	batch := []channels.Inbound{inbound("e1", "console::c"), inbound("e0", "console::c"), inbound("e2", "console::d"), inbound("e1", "console::c")}
	fresh, err := s.RecordAll(ctx, batch)
	if err != nil {
		t.Fatal(err)
	}
	if want := []bool{true, false, true, false}; !slices.Equal(fresh, want) {
		t.Errorf("fresh = %v, want %v (e0 recorded before, e1 twice in the batch)", fresh, want)
	}
	if after := s.GroupStats(); after.Batches-before.Batches != 1 {
		t.Errorf("the batch took %d transactions, want 1", after.Batches-before.Batches)
	}

	noPlatform := inbound("e4", "console::c")
	noPlatform.Platform = ""
	if _, err := s.RecordAll(ctx, []channels.Inbound{inbound("e3", "console::c"), noPlatform}); err == nil || !strings.Contains(err.Error(), "empty platform") {
		t.Errorf("RecordAll with a delivery without platform: %v, want an error saying so", err)
	}
	un, err := s.Unfinished(ctx, "console")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := keys(un), []string{"e0", "e1", "e2"}; !slices.Equal(got, want) {
		t.Errorf("recorded %v, want %v (nothing of the refused batch)", got, want)
	}
}

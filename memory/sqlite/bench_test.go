package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/memory"
)

// BenchmarkCommitTurn measures saving one finished turn: a checkpoint and
// two transcript entries in one IMMEDIATE transaction, on a real file.
func BenchmarkCommitTurn(b *testing.B) {
	ctx := context.Background()
	s := openTest(b, filepath.Join(b.TempDir(), "h.db"))
	p, err := s.ResolvePerson(ctx, "console", "console::me", "")
	if err != nil {
		b.Fatal(err)
	}
	ss, err := s.OpenSession(ctx, p.ID, "console::c", time.Now())
	if err != nil {
		b.Fatal(err)
	}
	rec := memory.TurnRecord{SessionID: ss.ID, Checkpoint: memory.Checkpoint{Slots: stageSlot("deepening"), LastReplyKeys: []string{"reflect.3"}},
		Entries: []memory.Entry{
			{Role: memory.RoleUser, Text: "I have been so stressed about work lately, and I cannot sleep."},
			{Role: memory.RoleAssistant, Text: "That sounds exhausting. What has the stress been like at night?"},
		}}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		rec.Checkpoint.TurnCount = i
		if err := s.CommitTurn(ctx, rec); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkResolvePersonOpenSession measures the gateway's two store calls
// at the start of every turn.
func BenchmarkResolvePersonOpenSession(b *testing.B) {
	ctx := context.Background()
	b.Run("known person", func(b *testing.B) {
		s := openTest(b, filepath.Join(b.TempDir(), "h.db"))
		const people = 100
		for i := range people {
			p, err := s.ResolvePerson(ctx, "console", fmt.Sprint("console::u", i), "Name")
			if err != nil {
				b.Fatal(err)
			}
			if _, err := s.OpenSession(ctx, p.ID, fmt.Sprint("console::c", i), time.Now()); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			p, err := s.ResolvePerson(ctx, "console", fmt.Sprint("console::u", i%people), "Name")
			if err != nil {
				b.Fatal(err)
			}
			if _, err := s.OpenSession(ctx, p.ID, fmt.Sprint("console::c", i%people), time.Now()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("first contact", func(b *testing.B) {
		s := openTest(b, filepath.Join(b.TempDir(), "h.db"))
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			p, err := s.ResolvePerson(ctx, "console", fmt.Sprint("console::new", i), "Name")
			if err != nil {
				b.Fatal(err)
			}
			if _, err := s.OpenSession(ctx, p.ID, "console::c", time.Now()); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkRecordDone measures the Hub's durable dedupe per message: record
// the delivery, then mark it done.
func BenchmarkRecordDone(b *testing.B) {
	ctx := context.Background()
	s := openTest(b, filepath.Join(b.TempDir(), "h.db"))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		key := fmt.Sprint("evt-", i)
		if fresh, err := s.Record(ctx, inbound(key, "console::c")); err != nil || !fresh {
			b.Fatal(fresh, err)
		}
		if err := s.Done(ctx, key); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOutboxAddSent measures the outbox's cost per reply: store one
// message, then mark it sent.
func BenchmarkOutboxAddSent(b *testing.B) {
	ctx := context.Background()
	s := openTest(b, filepath.Join(b.TempDir(), "h.db"))
	msg := []channels.Outbound{out("console", "That sounds exhausting. What has the stress been like at night?")}
	b.ReportAllocs()
	for b.Loop() {
		ids, err := s.Add(ctx, msg)
		if err != nil || len(ids) != 1 {
			b.Fatal(ids, err)
		}
		if err := s.Sent(ctx, ids[0]); err != nil {
			b.Fatal(err)
		}
	}
}

package sqlite

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/memory"
)

func TestResolvePerson(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"))

	a, err := s.ResolvePerson(ctx, "slack", "slack:T1:U1", "Ana")
	if err != nil {
		t.Fatal(err)
	}
	if !hexID.MatchString(a.ID) || a.Display != "Ana" || a.Created.IsZero() {
		t.Errorf("new person = %+v, want a 32-hex opaque id, the display name and a creation time", a)
	}
	tests := []struct {
		name                  string
		platform, id, display string
		wantSame              bool
		wantDisplay           string
	}{
		{"same identity, no display", "slack", "slack:T1:U1", "", true, "Ana"},
		{"same identity, same display", "slack", "slack:T1:U1", "Ana", true, "Ana"},
		{"same identity, new display", "slack", "slack:T1:U1", "Ana B", true, "Ana B"},
		{"same local id in another workspace", "slack", "slack:T2:U1", "Ana", false, "Ana"},
		{"same local id on another platform", "discord", "discord:T1:U1", "Ana", false, "Ana"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := s.ResolvePerson(ctx, tt.platform, tt.id, tt.display)
			if err != nil {
				t.Fatal(err)
			}
			if (p.ID == a.ID) != tt.wantSame {
				t.Errorf("person id %s, first person %s: same = %v, want %v", p.ID, a.ID, p.ID == a.ID, tt.wantSame)
			}
			if p.Display != tt.wantDisplay {
				t.Errorf("display = %q, want %q", p.Display, tt.wantDisplay)
			}
		})
	}
	again, err := s.ResolvePerson(ctx, "slack", "slack:T1:U1", "")
	if err != nil || again.Display != "Ana B" || !again.Created.Equal(a.Created) {
		t.Errorf("reloaded person = %+v, %v; want the updated display and the first creation time", again, err)
	}
	for _, bad := range [][2]string{{"", "slack:T1:U1"}, {"slack", ""}} {
		if _, err := s.ResolvePerson(ctx, bad[0], bad[1], ""); err == nil || !strings.Contains(err.Error(), "required") {
			t.Errorf("ResolvePerson(%q, %q) error = %v, want one saying what is required", bad[0], bad[1], err)
		}
	}
}

// A person is met (FirstSeen false) once a turn for them has finished:
// their delivery marked done, alone or with the turn's replies and writes,
// or their session's turn committed. Until then, also after a turn that
// was cut short, every ResolvePerson is a first contact.
func TestFirstSeenLastsUntilATurnForThePersonFinishes(t *testing.T) {
	ctx := context.Background()
	const me = "console::me" // the author of inbound's deliveries
	tests := []struct {
		name   string
		finish func(t *testing.T, s *Store, p memory.Person)
		met    bool
	}{
		{"nothing finished", func(*testing.T, *Store, memory.Person) {}, false},
		{"their delivery recorded, its turn cut short", func(t *testing.T, s *Store, p memory.Person) {
			if _, err := s.Record(ctx, inbound("k1", me)); err != nil {
				t.Fatal(err)
			}
			if _, err := s.OpenSession(ctx, p.ID, me, time.Time{}); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"their delivery done", func(t *testing.T, s *Store, _ memory.Person) {
			if _, err := s.Record(ctx, inbound("k1", me)); err != nil {
				t.Fatal(err)
			}
			if err := s.Done(ctx, "k1"); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"their turn finished with its replies", func(t *testing.T, s *Store, _ memory.Person) {
			if _, err := s.Record(ctx, inbound("k1", me)); err != nil {
				t.Fatal(err)
			}
			if _, err := s.FinishTurn(ctx, "k1", []channels.Outbound{reply("hi")}, nil); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"another person's delivery done", func(t *testing.T, s *Store, _ memory.Person) {
			in := inbound("k1", "console::other")
			in.Author.ID = "console::other"
			if _, err := s.Record(ctx, in); err != nil {
				t.Fatal(err)
			}
			if err := s.Done(ctx, "k1"); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"their session's turn committed", func(t *testing.T, s *Store, p memory.Person) {
			sess, err := s.OpenSession(ctx, p.ID, me, time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.CommitTurn(ctx, turn(sess.ID, 1, "hello")); err != nil {
				t.Fatal(err)
			}
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := openMem(t)
			p, err := s.ResolvePerson(ctx, "console", me, "Ana")
			if err != nil || !p.FirstSeen {
				t.Fatalf("new person = %+v, %v; want FirstSeen", p, err)
			}
			tt.finish(t, s, p)
			again, err := s.ResolvePerson(ctx, "console", me, "Ana")
			if err != nil {
				t.Fatal(err)
			}
			if again.ID != p.ID || again.FirstSeen == tt.met {
				t.Errorf("after %s: person %s FirstSeen %v, want %v", tt.name, again.ID, again.FirstSeen, !tt.met)
			}
		})
	}
}

// People stored before met_at existed have all been answered: the
// migration marks them met.
func TestPeopleFromBeforeTheMigrationAreMet(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "haven.db")
	db := migratedTo(t, path, 5)
	if _, err := db.ExecContext(ctx, `INSERT INTO people (id, display, created_at) VALUES ('p1', 'Ana', 1)`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO identities (platform_user_id, person_id, platform, created_at) VALUES ('console::me', 'p1', 'console', 1)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s := openTest(t, path)
	p, err := s.ResolvePerson(ctx, "console", "console::me", "")
	if err != nil || p.ID != "p1" || p.FirstSeen {
		t.Errorf("person from before the migration = %+v, %v; want p1, met", p, err)
	}
}

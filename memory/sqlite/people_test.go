package sqlite

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
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

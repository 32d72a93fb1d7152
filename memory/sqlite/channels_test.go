package sqlite

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/havenbot/haven/channels"
)

func TestChannelSettingsArePersistedAndDefaultToMentions(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	s := openTest(t, path)
	st, err := s.ChannelSettings(ctx, "slack:T:C1")
	if err != nil || st != (channels.ChannelSettings{}) {
		t.Fatalf("unset settings = %+v, %v; want the zero value", st, err)
	}
	if err := s.SetChannelSettings(ctx, "slack:T:C1", channels.ChannelSettings{Paused: true}, "slack:T:U1"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetChannelSettings(ctx, "slack:T:C2", channels.ChannelSettings{Policy: channels.PolicyAll}, "slack:T:U1"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetChannelSettings(ctx, "slack:T:C3", channels.ChannelSettings{Policy: "sometimes"}, "slack:T:U1"); err == nil || !strings.Contains(err.Error(), `"sometimes"`) {
		t.Errorf("unknown policy: %v, want an error naming it", err)
	}
	s.Close()
	s = openTest(t, path)
	for id, want := range map[string]channels.ChannelSettings{
		"slack:T:C1": {Paused: true, Policy: channels.PolicyMentions},
		"slack:T:C2": {Policy: channels.PolicyAll},
		"slack:T:C3": {},
	} {
		got, err := s.ChannelSettings(ctx, id)
		if err != nil || got != want {
			t.Errorf("after reopening, settings of %s = %+v, %v; want %+v", id, got, err, want)
		}
	}
}

package sqlite

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/havenbot/haven/memory"
)

func TestAuditAdminStoresTheEvent(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"))
	if err := s.AuditAdmin(ctx, memory.AdminEvent{ActorID: "slack:T:U", Platform: "slack", ConversationID: "slack:T:C", Command: "/pause", Allowed: false, Detail: "not an admin", At: at}); err != nil {
		t.Fatal(err)
	}
	var actor, platform, cmd, detail string
	var allowed bool
	var gotAt int64
	if err := s.r.QueryRow(`SELECT actor_id, platform, command, allowed, detail, at FROM admin_audit`).Scan(&actor, &platform, &cmd, &allowed, &detail, &gotAt); err != nil {
		t.Fatal(err)
	}
	if actor != "slack:T:U" || platform != "slack" || cmd != "/pause" || allowed || detail != "not an admin" || !fromTS(gotAt).Equal(at) {
		t.Errorf("audit row = %s %s %v %s %v", actor, cmd, allowed, detail, fromTS(gotAt))
	}
	if err := s.AuditAdmin(ctx, memory.AdminEvent{Command: "/pause"}); err == nil || !strings.Contains(err.Error(), "required") {
		t.Errorf("audit without actor: %v, want an error", err)
	}
}

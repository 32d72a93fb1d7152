package sqlite

import (
	"context"
	"fmt"

	"github.com/havenbot/haven/memory"
)

// AuditAdmin appends a row to the admin audit log. A zero At means now.
func (s *Store) AuditAdmin(ctx context.Context, ev memory.AdminEvent) error {
	if ev.ActorID == "" || ev.Command == "" {
		return fmt.Errorf("audit admin command %q by %q: actor id and command are required", ev.Command, ev.ActorID)
	}
	at := ev.At
	if at.IsZero() {
		at = s.now()
	}
	err := s.write(ctx, func(tx *wtx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO admin_audit (actor_id, platform, conversation_id, command, allowed, detail, at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, ev.ActorID, ev.Platform, ev.ConversationID, ev.Command, ev.Allowed, ev.Detail, ts(at))
		return err
	})
	if err != nil {
		return fmt.Errorf("audit admin command %s by %s: %w", ev.Command, ev.ActorID, err)
	}
	return nil
}

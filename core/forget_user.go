package core

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"strings"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/memory"
)

// PeopleFinder finds the person an admin names (Options.People);
// memory/sqlite's Store implements it.
type PeopleFinder interface {
	// FindPerson returns the person with the namespaced platform user id
	// or the opaque person id; memory.ErrNotFound when there is none. It
	// never creates anyone.
	FindPerson(ctx context.Context, id string) (memory.Person, error)
}

// actionForgetUser is the pending approval of an admin's forget-user.
const actionForgetUser = "forget_user"

var personIDPattern = regexp.MustCompile(`^[0-9a-f]{32}$`)

// parseUserID takes a namespaced platform user id or an opaque person id.
func parseUserID(s string) (string, bool) {
	if _, _, _, ok := channels.SplitID(s); ok || personIDPattern.MatchString(s) {
		return s, true
	}
	return "", false
}

// cutAdminPrefix returns text after a leading "/haven " (any case).
func cutAdminPrefix(text string) (string, bool) {
	s := strings.TrimSpace(text)
	const prefix = "/" + adminCommandName + " "
	if len(s) > len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return "", false
}

// askForgetUser finds the person and asks the admin to confirm, through
// the approval route: the admin's checkpoint holds the pending approval.
func (e *Engine) askForgetUser(ctx context.Context, t *Turn, id string) (string, error) {
	if e.people == nil || e.mem == nil {
		return "Forgetting a person is not available in this Haven (no memory store).", nil
	}
	p, err := e.people.FindPerson(ctx, id)
	if errors.Is(err, memory.ErrNotFound) {
		return fmt.Sprintf("I don't hold anything about %s. Nothing was deleted.", id), nil
	}
	if err != nil {
		return "", err
	}
	cp := t.Checkpoint
	cp.PendingApproval = &memory.Approval{
		Action:  actionForgetUser,
		Args:    map[string]string{"person": p.ID, "id": id},
		Prompt:  "forget a person",
		Expires: e.now().Add(approvalTTL),
	}
	t.Diag.StoreWrites++
	if err := e.store.CommitTurn(ctx, memory.TurnRecord{SessionID: t.Session.ID, Checkpoint: cp}); err != nil {
		return "", err
	}
	t.Checkpoint = cp
	return fmt.Sprintf("Forget %s? I'll delete everything I hold about them: what I remember, their conversations, their settings. "+
		"The crisis log keeps its rows with every id removed. They are not told who asked. It can't be undone. "+
		"Reply yes (or /haven yes) to go ahead, or no to keep it.", id), nil
}

// confirmForgetUser carries out or cancels an admin's forget-user, and
// audits the outcome. The admin is checked again: a role lost since the
// question was asked stops it.
func (e *Engine) confirmForgetUser(ctx context.Context, t *Turn, ap *memory.Approval) {
	const cmd = "forget-user"
	if !e.isAdmin(t) {
		e.saveCheckpoint(ctx, t)
		e.audit(ctx, t, cmd, false, "not an admin")
		e.adminReply(t, "Only an admin of this Haven can run /haven commands here. Nothing was deleted.")
		return
	}
	if t.ApprovalAnswer != "yes" || e.mem == nil {
		e.saveCheckpoint(ctx, t)
		e.audit(ctx, t, cmd, true, "cancelled")
		e.adminReply(t, "Okay, nothing was deleted.")
		return
	}
	t.Diag.StoreWrites++
	if err := e.mem.ForgetAll(ctx, ap.Args["person"]); err != nil {
		t.Err = fmt.Errorf("forget person %s for an admin: %w", ap.Args["person"], err)
		e.logger(t).Error("forget-user failed", slog.Any("err", err))
		e.saveCheckpoint(ctx, t)
		e.audit(ctx, t, cmd, true, "failed")
		e.adminReply(t, "Sorry, something went wrong and I couldn't delete everything. Please try again in a moment.")
		return
	}
	if ap.Args["person"] != t.Person.ID {
		e.saveCheckpoint(ctx, t)
	}
	e.audit(ctx, t, cmd, true, "forgotten")
	e.adminReply(t, fmt.Sprintf("Done. I've deleted everything I held about %s; the crisis log keeps its rows without any id. They have not been told.", ap.Args["id"]))
}

// saveCheckpoint saves the turn's checkpoint (its approval answered); a
// failure is logged.
func (e *Engine) saveCheckpoint(ctx context.Context, t *Turn) {
	t.Diag.StoreWrites++
	if err := e.store.CommitTurn(ctx, memory.TurnRecord{SessionID: t.Session.ID, Checkpoint: t.Checkpoint}); err != nil {
		e.logger(t).Error("save checkpoint failed", slog.String("session", t.Session.ID), slog.Any("err", err))
	}
}

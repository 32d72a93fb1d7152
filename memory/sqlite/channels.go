package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/havenbot/haven/channels"
)

// ChannelSettings returns the settings operators set for the conversation,
// the zero value (not paused, mentions) when none were set.
func (s *Store) ChannelSettings(ctx context.Context, conversationID string) (channels.ChannelSettings, error) {
	var st channels.ChannelSettings
	var policy string
	err := s.rd.QueryRowContext(ctx, `SELECT paused, policy FROM channel_settings WHERE conversation_id = ?`, conversationID).Scan(&st.Paused, &policy)
	if errors.Is(err, sql.ErrNoRows) {
		return channels.ChannelSettings{}, nil
	}
	if err != nil {
		return channels.ChannelSettings{}, fmt.Errorf("load settings of conversation %s: %w", conversationID, s.classify(err))
	}
	st.Policy = channels.Policy(policy)
	return st, nil
}

// SetChannelSettings saves the conversation's settings; by is the admin's
// namespaced platform id. An unknown policy is an error naming it.
func (s *Store) SetChannelSettings(ctx context.Context, conversationID string, st channels.ChannelSettings, by string) error {
	p, ok := channels.ParsePolicy(string(st.Policy.Or()))
	if !ok {
		return fmt.Errorf("save settings of conversation %s: unknown policy %q (want mentions, all or dm-only)", conversationID, st.Policy)
	}
	err := s.write(ctx, func(tx *wtx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO channel_settings (conversation_id, paused, policy, updated_by, updated_at) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (conversation_id) DO UPDATE SET paused = excluded.paused, policy = excluded.policy,
			updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
			conversationID, st.Paused, string(p), by, ts(s.now()))
		return err
	})
	if err != nil {
		return fmt.Errorf("save settings of conversation %s: %w", conversationID, err)
	}
	return nil
}

var _ channels.ChannelPolicies = (*Store)(nil)

package sqlite

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/havenbot/haven/channels"
)

// Record stores in under in.DeliveryKey. fresh is false when the key was
// recorded before, also by an earlier process on the same file (a
// redelivery); nothing is changed then. An empty delivery key or platform is
// an error.
func (s *Store) Record(ctx context.Context, in channels.Inbound) (fresh bool, err error) {
	payload, err := recordPayload(in)
	if err != nil {
		return false, err
	}
	err = s.grouped(ctx, func(ctx context.Context, tx *wtx) error {
		fresh, err = s.recordOne(ctx, tx, in, payload)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("record delivery %s: %w", in.DeliveryKey, err)
	}
	return fresh, nil
}

// RecordAll records each of ins as Record does, in one transaction (which
// it may share with other grouped writes), and returns whether each was
// fresh, in the order of ins. On an error none of them is recorded. It
// implements channels.BatchInbox.
func (s *Store) RecordAll(ctx context.Context, ins []channels.Inbound) ([]bool, error) {
	payloads := make([]string, len(ins))
	for i, in := range ins {
		p, err := recordPayload(in)
		if err != nil {
			return nil, err
		}
		payloads[i] = p
	}
	fresh := make([]bool, len(ins))
	err := s.grouped(ctx, func(ctx context.Context, tx *wtx) error {
		for i, in := range ins {
			f, err := s.recordOne(ctx, tx, in, payloads[i])
			if err != nil {
				return fmt.Errorf("record delivery %s: %w", in.DeliveryKey, err)
			}
			fresh[i] = f
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("record %d deliveries: %w", len(ins), err)
	}
	return fresh, nil
}

var _ channels.BatchInbox = (*Store)(nil)

// recordPayload checks in and encodes it for the inbox.
func recordPayload(in channels.Inbound) (string, error) {
	if in.DeliveryKey == "" {
		return "", fmt.Errorf("record delivery of message %s on %q: empty delivery key", in.MessageID, in.Platform)
	}
	if in.Platform == "" {
		return "", fmt.Errorf("record delivery %s: empty platform", in.DeliveryKey)
	}
	payload, err := json.Marshal(in)
	if err != nil {
		return "", fmt.Errorf("record delivery %s: encode: %w", in.DeliveryKey, err)
	}
	return string(payload), nil
}

// recordOne inserts one delivery in tx and reports whether it was fresh.
func (s *Store) recordOne(ctx context.Context, tx *wtx, in channels.Inbound, payload string) (bool, error) {
	res, err := tx.ExecContext(ctx, `INSERT INTO inbox (delivery_key, platform, payload, recorded_at)
			VALUES (?, ?, ?, ?) ON CONFLICT (delivery_key) DO NOTHING`,
		in.DeliveryKey, in.Platform, payload, ts(s.now()))
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// Done marks the delivery handled and clears the stored message text and
// author display name; the ids are kept for dedupe. Its author's person is
// met from then on (memory.Person.FirstSeen is false). Marking a delivery done
// twice is not an error; an unknown key is one, wrapping memory.ErrNotFound.
func (s *Store) Done(ctx context.Context, deliveryKey string) error {
	err := s.grouped(ctx, func(ctx context.Context, tx *wtx) error { return markDone(ctx, tx, deliveryKey, s.now()) })
	if err != nil {
		return fmt.Errorf("mark delivery %s done: %w", deliveryKey, err)
	}
	return nil
}

// markDone marks a delivery done in tx (see Done).
func markDone(ctx context.Context, tx *wtx, deliveryKey string, now time.Time) error {
	err := execOne(ctx, tx, "no such delivery", `UPDATE inbox
		SET done_at = coalesce(done_at, ?), payload = json_set(payload, '$.text', '', '$.author.display', '')
		WHERE delivery_key = ?`, ts(now), deliveryKey)
	if err != nil {
		return err
	}
	return markMet(ctx, tx, `SELECT i.person_id FROM inbox b JOIN identities i ON i.platform_user_id = json_extract(b.payload, '$.author.id')
		WHERE b.delivery_key = ?`, deliveryKey, now)
}

// markMet records in tx that Haven has finished a turn for the person the
// one-argument query personQuery names, if it names one.
func markMet(ctx context.Context, tx *wtx, personQuery string, arg any, now time.Time) error {
	if _, err := tx.ExecContext(ctx, `UPDATE people SET met_at = ? WHERE met_at IS NULL AND id = (`+personQuery+`)`, ts(now), arg); err != nil {
		return fmt.Errorf("mark the person met: %w", err)
	}
	return nil
}

// Unfinished returns the recorded deliveries of platform not yet Done, in
// the order they were recorded.
func (s *Store) Unfinished(ctx context.Context, platform string) ([]channels.Inbound, error) {
	rows, err := s.rd.QueryContext(ctx, `SELECT delivery_key, payload FROM inbox
		WHERE platform = ? AND done_at IS NULL ORDER BY rowid`, platform)
	if err != nil {
		return nil, fmt.Errorf("list unfinished deliveries of %s: %w", platform, s.classify(err))
	}
	defer rows.Close()
	var out []channels.Inbound
	for rows.Next() {
		var key, payload string
		if err := rows.Scan(&key, &payload); err != nil {
			return nil, fmt.Errorf("list unfinished deliveries of %s: %w", platform, err)
		}
		var in channels.Inbound
		if err := json.Unmarshal([]byte(payload), &in); err != nil {
			return nil, fmt.Errorf("list unfinished deliveries of %s: decode delivery %s: %w", platform, key, err)
		}
		out = append(out, in)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list unfinished deliveries of %s: %w", platform, s.classify(err))
	}
	return out, nil
}

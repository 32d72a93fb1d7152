package sqlite

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/havenbot/haven/channels"
)

// maxReason bounds a stored failure reason.
const maxReason = 500

// Add stores outs in order in one transaction and returns their ids in the
// same order. Ids only grow and are never reused. A message without a
// platform, or with a File that fails channels.File.Check (over
// channels.MaxFileSize, say), is an error and nothing is stored. A File's
// Data is stored with the message (base64 in its JSON) until it is sent or
// abandoned.
func (s *Store) Add(ctx context.Context, outs []channels.Outbound) ([]int64, error) {
	payloads, err := encodeOutbound(outs)
	if err != nil {
		return nil, fmt.Errorf("add %d messages to outbox: %w", len(outs), err)
	}
	if len(outs) == 0 {
		return nil, nil
	}
	var ids []int64
	err = s.write(ctx, func(tx *wtx) error {
		ids, err = insertOutbound(ctx, tx, outs, payloads, s.now())
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("add %d messages to outbox: %w", len(outs), err)
	}
	return ids, nil
}

// encodeOutbound checks outs and encodes each as its outbox payload.
func encodeOutbound(outs []channels.Outbound) ([]string, error) {
	payloads := make([]string, len(outs))
	for i, o := range outs {
		if o.Platform == "" {
			return nil, fmt.Errorf("message %d has no platform", i)
		}
		if o.File != nil {
			if err := o.File.Check(); err != nil {
				return nil, fmt.Errorf("message %d: %w", i, err)
			}
		}
		b, err := json.Marshal(o)
		if err != nil {
			return nil, fmt.Errorf("encode message %d: %w", i, err)
		}
		payloads[i] = string(b)
	}
	return payloads, nil
}

// insertOutbound adds the encoded messages to the outbox in tx, in order,
// and returns their ids.
func insertOutbound(ctx context.Context, tx *wtx, outs []channels.Outbound, payloads []string, now time.Time) ([]int64, error) {
	ids := make([]int64, 0, len(outs))
	for i, o := range outs {
		res, err := tx.ExecContext(ctx, `INSERT INTO outbox (platform, payload, created_at) VALUES (?, ?, ?)`, o.Platform, payloads[i], ts(now))
		if err != nil {
			return nil, fmt.Errorf("message %d: %w", i, err)
		}
		id, err := res.LastInsertId()
		if err != nil {
			return nil, fmt.Errorf("message %d: %w", i, err)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// outboxUpdate runs one UPDATE on outbox row id and reports ErrNotFound when
// no row has that id.
func (s *Store) outboxUpdate(ctx context.Context, what string, id int64, query string, args ...any) error {
	if err := s.updateOne(ctx, "no such outbox message", query, args...); err != nil {
		return fmt.Errorf("%s outbox message %d: %w", what, id, err)
	}
	return nil
}

// Sent marks message id delivered and clears its stored text and file
// content (the transcript keeps what Haven said; the file's name and type
// stay). Marking it again is not an error; an unknown id is one, wrapping
// memory.ErrNotFound.
func (s *Store) Sent(ctx context.Context, id int64) error {
	err := s.grouped(ctx, func(ctx context.Context, tx *wtx) error {
		return execOne(ctx, tx, "no such outbox message", `UPDATE outbox
			SET sent_at = coalesce(sent_at, ?), payload = json_remove(json_set(payload, '$.text', ''), '$.file.data')
			WHERE id = ?`, ts(s.now()), id)
	})
	if err != nil {
		return fmt.Errorf("mark sent outbox message %d: %w", id, err)
	}
	return nil
}

// Attempted records a failed attempt at message id: attempts goes up by one
// and reason (cut to 500 bytes) becomes its last error. reason names the
// failure, never the text.
func (s *Store) Attempted(ctx context.Context, id int64, reason string) error {
	return s.outboxUpdate(ctx, "record attempt at", id, `UPDATE outbox
		SET attempts = attempts + 1, last_error = ? WHERE id = ?`, clip(reason, maxReason), id)
}

// Abandon marks message id as not deliverable. It keeps the row, text and
// reason for operators, but Unsent no longer returns it. A file's content
// is not kept (an export holds everything about a person): only its name
// and type stay. When the message delivers a reminder, its person's
// schedule is suspended in the same transaction (until their /resume):
// a person who blocked Haven is not sent more to fail again.
func (s *Store) Abandon(ctx context.Context, id int64, reason string) error {
	err := s.write(ctx, func(tx *wtx) error {
		now := s.now()
		if err := execOne(ctx, tx, "no such outbox message", `UPDATE outbox
			SET abandoned_at = coalesce(abandoned_at, ?), last_error = ?, payload = json_remove(payload, '$.file.data') WHERE id = ?`,
			ts(now), clip(reason, maxReason), id); err != nil {
			return err
		}
		return s.suspendFor(ctx, tx, id, now)
	})
	if err != nil {
		return fmt.Errorf("abandon outbox message %d: %w", id, err)
	}
	return nil
}

// Unsent returns platform's messages neither sent nor abandoned, oldest
// (lowest id) first.
func (s *Store) Unsent(ctx context.Context, platform string) ([]channels.OutboxItem, error) {
	rows, err := s.rd.QueryContext(ctx, `SELECT id, payload, attempts, created_at FROM outbox
		WHERE platform = ? AND sent_at IS NULL AND abandoned_at IS NULL ORDER BY id`, platform)
	if err != nil {
		return nil, fmt.Errorf("list unsent messages of %s: %w", platform, s.classify(err))
	}
	defer rows.Close()
	var out []channels.OutboxItem
	for rows.Next() {
		var it channels.OutboxItem
		var payload string
		var created int64
		if err := rows.Scan(&it.ID, &payload, &it.Attempts, &created); err != nil {
			return nil, fmt.Errorf("list unsent messages of %s: %w", platform, err)
		}
		if err := json.Unmarshal([]byte(payload), &it.Out); err != nil {
			return nil, fmt.Errorf("list unsent messages of %s: decode message %d: %w", platform, it.ID, err)
		}
		it.Created = fromTS(created)
		out = append(out, it)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list unsent messages of %s: %w", platform, s.classify(err))
	}
	return out, nil
}

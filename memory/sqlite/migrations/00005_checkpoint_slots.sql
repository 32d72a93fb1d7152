-- +goose Up
-- Each branch keeps its session state in one opaque, versioned slot of the
-- checkpoint ("slots": {"therapy": {"v": 1, "data": {...}}}). Before, the
-- therapeutic branch's stage and exercise were checkpoint fields and the rest
-- of its state sat under extra.therapy. Move them into the therapy slot,
-- version 1, and drop the old keys. json_patch drops keys whose value is
-- null, so absent fields stay absent.
UPDATE sessions
SET checkpoint = json_set(
        json_remove(checkpoint, '$.stage', '$.exercise_type', '$.exercise_step', '$.extra'),
        '$.slots',
        json_object('therapy', json_object('v', 1, 'data', json_patch(
            CASE WHEN json_type(checkpoint, '$.extra.therapy') = 'object'
                 THEN json_extract(checkpoint, '$.extra.therapy') ELSE '{}' END,
            json_object(
                'stage', nullif(json_extract(checkpoint, '$.stage'), ''),
                'exercise', nullif(json_extract(checkpoint, '$.exercise_type'), ''),
                'step', nullif(json_extract(checkpoint, '$.exercise_step'), '')
            )
        )))
    )
WHERE json_valid(checkpoint)
  AND (json_type(checkpoint, '$.stage') IS NOT NULL
    OR json_type(checkpoint, '$.exercise_type') IS NOT NULL
    OR json_type(checkpoint, '$.extra.therapy') IS NOT NULL);

-- Checkpoints with only an extra and no therapy state lose the extra key.
UPDATE sessions
SET checkpoint = json_remove(checkpoint, '$.extra')
WHERE json_valid(checkpoint) AND json_type(checkpoint, '$.extra') IS NOT NULL;

-- +goose Down
UPDATE sessions
SET checkpoint = json_remove(
        json_set(checkpoint,
            '$.stage', json_extract(checkpoint, '$.slots.therapy.data.stage'),
            '$.exercise_type', json_extract(checkpoint, '$.slots.therapy.data.exercise'),
            '$.exercise_step', json_extract(checkpoint, '$.slots.therapy.data.step'),
            '$.extra', json_object('therapy', json_remove(json_extract(checkpoint, '$.slots.therapy.data'), '$.stage', '$.exercise', '$.step'))),
        '$.slots')
WHERE json_valid(checkpoint) AND json_type(checkpoint, '$.slots.therapy.data') = 'object';

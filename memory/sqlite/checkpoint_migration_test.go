package sqlite

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/havenbot/haven/memory"
)

// A session saved before branch slots existed (stage and exercise as
// checkpoint fields, the rest under extra.therapy) is read after the
// upgrade with all of its therapy state in the therapy slot, version 1.
func TestOldCheckpointsMoveIntoTheTherapySlot(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "haven.db")
	db := migratedTo(t, path, 3)
	old := map[string]string{
		"s-therapy": `{"turn_count":4,"stage":"deepening","exercise_type":"box_breathing","exercise_step":"round-2","session_max_risk":1,"extra":{"therapy":{"modality":"cbt","themes":["work"]}}}`,
		"s-stage":   `{"turn_count":1,"stage":"opening","session_max_risk":0}`,
		"s-none":    `{"turn_count":0,"session_max_risk":0}`,
	}
	for id, cp := range old {
		if _, err := db.ExecContext(ctx, `INSERT INTO people (id, created_at) VALUES (?1, 0) ON CONFLICT DO NOTHING`, "p1"); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, `INSERT INTO sessions (id, person_id, conversation_id, started_at, checkpoint, updated_at)
			VALUES (?1, 'p1', ?1, 0, ?2, 0)`, id, cp); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	s := openTest(t, path)
	want := map[string]string{
		"s-therapy": `{"exercise":"box_breathing","modality":"cbt","stage":"deepening","step":"round-2","themes":["work"]}`,
		"s-stage":   `{"stage":"opening"}`,
		"s-none":    ``,
	}
	for id, data := range want {
		var raw string
		if err := s.r.QueryRowContext(ctx, `SELECT checkpoint FROM sessions WHERE id = ?`, id).Scan(&raw); err != nil {
			t.Fatal(err)
		}
		var cp memory.Checkpoint
		if err := json.Unmarshal([]byte(raw), &cp); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		sl, ok := cp.Slots["therapy"]
		if data == "" {
			if ok || raw != old[id] {
				t.Errorf("%s: a checkpoint without therapy state changed: %s", id, raw)
			}
			continue
		}
		if !ok || sl.Version != 1 || !jsonEqual(t, string(sl.Data), data) {
			t.Errorf("%s: therapy slot %+v (%s), want version 1 with %s", id, sl, sl.Data, data)
		}
		var top map[string]json.RawMessage
		if err := json.Unmarshal([]byte(raw), &top); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"stage", "exercise_type", "exercise_step", "extra"} {
			if _, ok := top[k]; ok {
				t.Errorf("%s: old key %q left in %s", id, k, raw)
			}
		}
	}
}

func jsonEqual(t *testing.T, a, b string) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal([]byte(a), &x); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	if err := json.Unmarshal([]byte(b), &y); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return string(xa) == string(ya)
}

// stageSlot returns checkpoint slots holding a branch state with a stage,
// the way the therapeutic branch writes it; storage treats it as opaque.
func stageSlot(stage string) map[string]memory.Slot {
	return map[string]memory.Slot{"therapy": {Version: 1, Data: json.RawMessage(`{"stage":"` + stage + `"}`)}}
}

// stageOf reads the stage stageSlot wrote.
func stageOf(cp memory.Checkpoint) string {
	var v struct {
		Stage string `json:"stage"`
	}
	_ = json.Unmarshal(cp.Slots["therapy"].Data, &v)
	return v.Stage
}

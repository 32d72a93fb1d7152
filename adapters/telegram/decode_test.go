package telegram

import (
	"encoding/json"
	"slices"
	"testing"
)

func TestDecodeUpdatesMarksWhatDoesNotDecodeWithItsID(t *testing.T) {
	good := func(id string) string {
		return `{"update_id": ` + id + `, "message": {"message_id": 1, "date": 1, "chat": {"id": 1, "type": "private"}, "text": "hi"}}`
	}
	const (
		badText = `{"update_id": 11, "message": {"text": 5}}`
		noID    = `{"update_id": "eleven", "message": {"text": 5}}`
		notObj  = `"an update"`
	)
	tests := []struct {
		name   string
		offset int
		items  []string
		ids    []int // in order, the ids returned
		bad    []bool
	}{
		{"all good", 0, []string{good("10"), good("11")}, []int{10, 11}, []bool{false, false}},
		{"a bad field keeps its own id", 0, []string{good("10"), badText, good("12")}, []int{10, 11, 12}, []bool{false, true, false}},
		{"an unreadable id follows the previous update", 0, []string{good("10"), noID, good("12")}, []int{10, 11, 12}, []bool{false, true, false}},
		{"an unreadable id that is last follows the previous update", 0, []string{good("10"), notObj}, []int{10, 11}, []bool{false, true}},
		{"an unreadable id that is first follows the offset", 20, []string{notObj, good("21")}, []int{20, 21}, []bool{true, false}},
		{"an unreadable id on the first poll precedes the next update", 0, []string{notObj, noID, good("30")}, []int{28, 29, 30}, []bool{true, true, false}},
		{"an unreadable id with nothing to tell it is left for the next batch", 0, []string{notObj}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raws := make([]json.RawMessage, len(tt.items))
			for i, s := range tt.items {
				raws[i] = json.RawMessage(s)
			}
			var ids []int
			var bad []bool
			for _, p := range decodeUpdates(raws, tt.offset) {
				ids = append(ids, p.u.UpdateID)
				bad = append(bad, p.bad != nil)
			}
			if !slices.Equal(ids, tt.ids) || !slices.Equal(bad, tt.bad) {
				t.Errorf("ids %v bad %v, want ids %v bad %v", ids, bad, tt.ids, tt.bad)
			}
		})
	}
}

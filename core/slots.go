package core

import "github.com/havenbot/haven/memory"

// withSlot returns cp with its slot name holding (version, data), or
// without that slot when data is nil. The slot map is copied, never shared
// with the checkpoint cp came from; an empty map becomes nil.
func withSlot(cp memory.Checkpoint, name string, version int, data []byte) memory.Checkpoint {
	slots := make(map[string]memory.Slot, len(cp.Slots)+1)
	for k, sl := range cp.Slots {
		slots[k] = sl
	}
	if data == nil {
		delete(slots, name)
	} else {
		slots[name] = memory.Slot{Version: version, Data: data}
	}
	if len(slots) == 0 {
		slots = nil
	}
	cp.Slots = slots
	return cp
}

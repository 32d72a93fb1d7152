package channels

import (
	"encoding/json"
	"errors"
	"fmt"
)

// WireVersion is the version of the JSON form of Inbound and Outbound, the
// form in which an Inbox and an Outbox store them. In version 1 every field
// has the snake_case name of its json tag and "version" says which form a
// document is:
//
//	{"version":1,"platform":"telegram","workspace":"",
//	 "conversation":{"id":"telegram::42","kind":"dm","thread_id":""},
//	 "message_id":"telegram::42:9","delivery_key":"telegram:1001",
//	 "author":{"id":"telegram::42","display":"Sam","is_bot":false,"platform_admin":false},
//	 "mentions_bot":false,"text":"hello","locale":"en","edited":false,
//	 "received_at":"2026-01-02T03:04:05Z"}
//
// Stores address fields by these names (memory/sqlite erases "$.text" in
// SQL), so a field's name or meaning changes only with a new version and a
// migration of what is stored.
const WireVersion = 1

// ErrWireVersion is wrapped by the errors of decoding an Inbound or
// Outbound whose JSON has no version or one this build does not know.
var ErrWireVersion = errors.New("unknown wire version")

// MarshalJSON encodes in in the wire form of WireVersion.
func (in Inbound) MarshalJSON() ([]byte, error) {
	type fields Inbound // the fields without these methods
	return json.Marshal(struct {
		Version int `json:"version"`
		fields
	}{WireVersion, fields(in)})
}

// UnmarshalJSON decodes in from its wire form. A document without a
// version, or with another version than WireVersion, is an error wrapping
// ErrWireVersion.
func (in *Inbound) UnmarshalJSON(b []byte) error {
	type fields Inbound
	var w struct {
		Version *int `json:"version"`
		fields
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return fmt.Errorf("decode inbound message: %w", err)
	}
	if err := checkWireVersion(w.Version); err != nil {
		return fmt.Errorf("decode inbound message: %w", err)
	}
	*in = Inbound(w.fields)
	return nil
}

// MarshalJSON encodes o in the wire form of WireVersion.
func (o Outbound) MarshalJSON() ([]byte, error) {
	type fields Outbound
	return json.Marshal(struct {
		Version int `json:"version"`
		fields
	}{WireVersion, fields(o)})
}

// UnmarshalJSON decodes o from its wire form. A document without a
// version, or with another version than WireVersion, is an error wrapping
// ErrWireVersion.
func (o *Outbound) UnmarshalJSON(b []byte) error {
	type fields Outbound
	var w struct {
		Version *int `json:"version"`
		fields
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return fmt.Errorf("decode outbound message: %w", err)
	}
	if err := checkWireVersion(w.Version); err != nil {
		return fmt.Errorf("decode outbound message: %w", err)
	}
	*o = Outbound(w.fields)
	return nil
}

func checkWireVersion(v *int) error {
	switch {
	case v == nil:
		return fmt.Errorf("%w: the document has no \"version\" (it predates wire version 1; the store's migrations convert such rows)", ErrWireVersion)
	case *v != WireVersion:
		return fmt.Errorf("%w: version %d, this Haven reads version %d", ErrWireVersion, *v, WireVersion)
	}
	return nil
}

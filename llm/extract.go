package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
)

// ErrNoJSON is returned (wrapped) by ExtractJSON when the text holds no
// complete JSON object.
var ErrNoJSON = errors.New("no complete JSON object in model output")

// ExtractJSON returns the first complete JSON object in s, compacted. It
// skips what models wrap around JSON: leading prose, ```json fences and
// trailing remarks. It only finds the object; callers validate its fields.
// The error never contains s.
func ExtractJSON(s string) (json.RawMessage, error) {
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], '{')
		if j < 0 {
			break
		}
		start := i + j
		dec := json.NewDecoder(strings.NewReader(s[start:]))
		var raw json.RawMessage
		if err := dec.Decode(&raw); err == nil {
			var out bytes.Buffer
			if err := json.Compact(&out, raw); err == nil {
				return json.RawMessage(out.Bytes()), nil
			}
		}
		i = start + 1
	}
	return nil, ErrNoJSON
}

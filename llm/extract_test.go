package llm_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/havenbot/haven/llm"
)

func TestExtractJSONFindsFirstCompleteObject(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"bare object", `{"level": 2}`, `{"level":2}`},
		{"json fence", "```json\n{\"level\": 1,\n \"reason\": \"x\"}\n```", `{"level":1,"reason":"x"}`},
		{"plain fence", "```\n{\"a\":true}\n```", `{"a":true}`},
		{"leading prose", "Sure! Here is the assessment: {\"level\": 0} Hope that helps.", `{"level":0}`},
		{"braces inside strings", `note {"reason": "said \"}{\" twice", "n": {"x": [1, {"y": 2}]}} tail`, `{"reason":"said \"}{\" twice","n":{"x":[1,{"y":2}]}}`},
		{"first of two objects", `{"a":1} {"b":2}`, `{"a":1}`},
		{"broken brace before the object", `use {curly} braces: {"ok": true}`, `{"ok":true}`},
		{"unicode", `→ {"msg": "héllo ✓"}`, `{"msg":"héllo ✓"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := llm.ExtractJSON(tt.in)
			if err != nil {
				t.Fatalf("ExtractJSON: %v", err)
			}
			if string(got) != tt.want {
				t.Errorf("ExtractJSON = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestExtractJSONErrorsWhenNoCompleteObject(t *testing.T) {
	for _, in := range []string{"", "no json here", `["array", "only"]`, `{"level": 2`, "```json\n{\"truncated\": \n```", `"just a string"`} {
		got, err := llm.ExtractJSON(in)
		if !errors.Is(err, llm.ErrNoJSON) {
			t.Errorf("ExtractJSON(%q) = %s, %v; want ErrNoJSON", in, got, err)
		}
	}
}

func FuzzExtractJSONReturnsValidObjects(f *testing.F) {
	f.Add("```json\n{\"a\": 1}\n```")
	f.Add(`x {"a": {"b": "}"}} y`)
	f.Add(`{{{`)
	f.Fuzz(func(t *testing.T, s string) {
		got, err := llm.ExtractJSON(s)
		if err != nil {
			return
		}
		if len(got) == 0 || got[0] != '{' || !json.Valid(got) {
			t.Fatalf("ExtractJSON(%q) = %q, not an object", s, got)
		}
	})
}

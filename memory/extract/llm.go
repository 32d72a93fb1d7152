package extract

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"unicode/utf8"

	"github.com/havenbot/haven/memory"
)

// LLM asks a language model for JSON following schema and returns its raw
// answer. core adapts its llm.Client to it; a nil LLM means none is
// configured.
type LLM func(ctx context.Context, system, user string, schemaName string, schema json.RawMessage) (string, error)

// Extractor finds memories in a message: with the LLM when one is set,
// validated, falling back to Deterministic on any failure.
type Extractor struct {
	LLM LLM
	Log *slog.Logger
}

// FactSchema is the JSON schema of the structured extraction.
var FactSchema = json.RawMessage(`{
  "type": "object",
  "additionalProperties": false,
  "required": ["facts", "rules"],
  "properties": {
    "facts": {"type": "array", "maxItems": 10, "items": {
      "type": "object", "additionalProperties": false,
      "required": ["subject", "predicate", "object", "evidence", "confidence"],
      "properties": {
        "subject": {"type": "string", "description": "\"self\" for the person, else the name of the other person or pet"},
        "predicate": {"type": "string", "enum": ["name", "pronouns", "lives_in", "works_as", "works_at", "studies", "relationship", "pet", "likes", "dislikes", "note", "self_belief"]},
        "object": {"type": "string"},
        "evidence": {"type": "string", "description": "the person's exact words, copied from the message, at most 280 characters"},
        "confidence": {"type": "number", "minimum": 0, "maximum": 1}
      }}},
    "rules": {"type": "array", "maxItems": 5, "items": {
      "type": "object", "additionalProperties": false,
      "required": ["key", "text", "evidence"],
      "properties": {
        "key": {"type": "string", "description": "address, advice, length, questions, tone, or custom:<name>"},
        "text": {"type": "string"},
        "evidence": {"type": "string"}
      }}}
  }
}`)

const factPrompt = `You extract durable memories from one message a person sent to a supportive companion.
Return JSON only, following the schema. Extract only what the person states about themself, the people and pets in
their life, where they live, their work or studies, their likes and dislikes, explicit "remember that ..." requests
(predicate "note"), and negative beliefs about themself (predicate "self_belief"). Rules are how they want to be talked
to ("call me Sam" is key "address" with text "Sam"). Evidence must be copied word for word from the message.
Never extract anything about suicide, self-harm or crisis, and never a rule that would stop safety resources.
When there is nothing durable, return {"facts": [], "rules": []}.`

type llmFacts struct {
	Facts []struct {
		Subject    string   `json:"subject"`
		Predicate  string   `json:"predicate"`
		Object     string   `json:"object"`
		Evidence   string   `json:"evidence"`
		Confidence *float64 `json:"confidence"`
	} `json:"facts"`
	Rules []struct {
		Key      string `json:"key"`
		Text     string `json:"text"`
		Evidence string `json:"evidence"`
	} `json:"rules"`
}

// normalizeSpace lower-cases s and collapses its whitespace, for checking
// that evidence is a quote.
func normalizeSpace(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// decodeStrict decodes exactly one JSON object with no unknown fields.
func decodeStrict(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data after the JSON object")
	}
	return nil
}

// extractJSON returns the first complete JSON object in s.
func extractJSON(s string) ([]byte, error) {
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], '{')
		if j < 0 {
			break
		}
		start := i + j
		var raw json.RawMessage
		if err := json.NewDecoder(strings.NewReader(s[start:])).Decode(&raw); err == nil {
			return raw, nil
		}
		i = start + 1
	}
	return nil, errors.New("no JSON object in the model's answer")
}

// ValidateLLM checks a model's extraction of text and returns its
// candidates, or an error naming the first thing wrong: malformed JSON,
// unknown fields or predicates, evidence that is not the person's words,
// a confidence outside 0-1, an unknown rule key, or a rule that weakens
// safety.
func ValidateLLM(text, answer string) ([]Candidate, error) {
	raw, err := extractJSON(answer)
	if err != nil {
		return nil, err
	}
	var got llmFacts
	if err := decodeStrict(raw, &got); err != nil {
		return nil, fmt.Errorf("decode extraction: %w", err)
	}
	if got.Facts == nil || got.Rules == nil {
		return nil, errors.New("extraction lacks facts or rules")
	}
	if len(got.Facts) > 10 || len(got.Rules) > 5 {
		return nil, fmt.Errorf("extraction has %d facts and %d rules, more than 10 and 5", len(got.Facts), len(got.Rules))
	}
	said := normalizeSpace(text)
	quote := func(i int, ev string) error {
		if strings.TrimSpace(ev) == "" || utf8.RuneCountInString(ev) > memory.MaxEvidence {
			return fmt.Errorf("item %d: evidence empty or longer than %d characters", i, memory.MaxEvidence)
		}
		if !strings.Contains(said, normalizeSpace(ev)) {
			return fmt.Errorf("item %d: evidence is not the person's words", i)
		}
		return nil
	}
	var out []Candidate
	for i, f := range got.Facts {
		if f.Confidence == nil {
			return nil, fmt.Errorf("fact %d: no confidence", i)
		}
		fact := memory.Fact{PersonID: "-", Subject: strings.TrimSpace(f.Subject), Predicate: f.Predicate,
			Object: cleanObject(f.Object), Evidence: strings.TrimSpace(f.Evidence), Confidence: *f.Confidence}
		if msg := memory.ValidFact(fact); msg != "" {
			return nil, fmt.Errorf("fact %d: %s", i, msg)
		}
		if err := quote(i, f.Evidence); err != nil {
			return nil, err
		}
		if UnsafeRule(f.Evidence) || UnsafeRule(f.Object) {
			return nil, fmt.Errorf("fact %d: would weaken safety", i)
		}
		fact.PersonID = ""
		p := memory.CommitNow
		switch {
		case fact.Predicate == memory.PredSelfBelief:
			p = memory.AfterRepetition
		case fact.Predicate == memory.PredLikes || fact.Predicate == memory.PredDislikes || fact.Confidence < 0.7:
			p = memory.AtSessionEnd
		case fact.Confidence < 0.3:
			p = memory.Drop
		}
		if fact.Confidence < 0.3 {
			p = memory.Drop
		}
		out = append(out, Candidate{Fact: &fact, Policy: p, Source: "llm"})
	}
	for i, r := range got.Rules {
		if !ValidRuleKey(r.Key) || strings.TrimSpace(r.Text) == "" || utf8.RuneCountInString(r.Text) > 200 {
			return nil, fmt.Errorf("rule %d: unknown key or text empty or longer than 200 characters", i)
		}
		if err := quote(i, r.Evidence); err != nil {
			return nil, err
		}
		if UnsafeRule(r.Text) || UnsafeRule(r.Evidence) {
			return nil, fmt.Errorf("rule %d: would weaken safety", i)
		}
		out = append(out, Candidate{Rule: &memory.Rule{Key: r.Key, Text: strings.TrimSpace(r.Text), Evidence: strings.TrimSpace(r.Evidence)}, Policy: memory.CommitNow, Source: "llm"})
	}
	return out, nil
}

// Extract returns the memories in text and which extractor found them
// ("llm" or "pattern"). With an LLM, its validated answer is used together
// with the pattern matches it did not cover; on any LLM failure the patterns
// alone answer. The error never contains text.
func (x *Extractor) Extract(ctx context.Context, text string) ([]Candidate, string) {
	det := Deterministic(text)
	if x == nil || x.LLM == nil || strings.TrimSpace(text) == "" {
		return det, "pattern"
	}
	answer, err := x.LLM(ctx, factPrompt, text, "memory_extraction", FactSchema)
	var got []Candidate
	if err == nil {
		got, err = ValidateLLM(text, answer)
	}
	if err != nil {
		if x.Log != nil {
			x.Log.Warn("memory extraction: llm failed, using patterns", slog.Any("err", err))
		}
		return det, "pattern"
	}
	covered := map[string]bool{}
	for _, c := range got {
		covered[coverKey(c)] = true
	}
	for _, c := range det {
		if !covered[coverKey(c)] {
			got = append(got, c)
		}
	}
	return got, "llm"
}

func coverKey(c Candidate) string {
	if c.Rule != nil {
		return "rule|" + c.Rule.Key
	}
	return strings.ToLower(c.Fact.Subject + "|" + c.Fact.Predicate)
}

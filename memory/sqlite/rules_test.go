package sqlite

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/havenbot/haven/memory"
)

func TestRulesAreCappedAndTheNewestWinsOnConflict(t *testing.T) {
	ctx := context.Background()
	s := openMem(t)
	p := person(t, s, "ru")
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	add := func(key, text string) {
		at = at.Add(time.Minute)
		if _, err := s.AddRule(ctx, memory.Rule{PersonID: p.ID, Key: key, Text: text, Created: at}); err != nil {
			t.Fatal(err)
		}
	}
	add("advice", "just listen, no advice")
	add("advice", "offer advice when it helps")
	for i := range 25 {
		add(fmt.Sprintf("custom:r%d", i), fmt.Sprintf("rule %d", i))
	}
	rules, err := s.Rules(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(rules) != memory.MaxRules || rules[len(rules)-1].Text != "rule 24" {
		t.Fatalf("got %d rules, want the %d newest: %+v", len(rules), memory.MaxRules, rules)
	}
	for _, r := range rules {
		if r.Key == "advice" {
			t.Errorf("the oldest rule survived the cap: %+v", r)
		}
	}
	add("advice", "just listen")
	rules, _ = s.Rules(ctx, p.ID)
	n := 0
	for _, r := range rules {
		if r.Key == "advice" {
			n++
			if r.Text != "just listen" {
				t.Errorf("advice rule = %q, want the newest", r.Text)
			}
		}
	}
	if n != 1 || len(rules) != memory.MaxRules {
		t.Errorf("%d advice rules among %d", n, len(rules))
	}
}

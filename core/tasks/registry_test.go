package tasks

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func noop(context.Context, *Request, Args) (Result, error) { return Result{}, nil }

func TestRegisterRefusesAnIncompleteOrDuplicateCapability(t *testing.T) {
	ok := Capability{Name: "mood.log", Description: "Log a mood.", Execute: noop}
	tests := []struct {
		name string
		c    Capability
		want string
	}{
		{"no name", Capability{Description: "x", Execute: noop}, "no name"},
		{"no description", Capability{Name: "a", Execute: noop}, "no description"},
		{"no execute", Capability{Name: "a", Description: "x"}, "no Execute"},
		{"bad name", Capability{Name: "Mood Log", Description: "x", Execute: noop}, "only a-z"},
		{"required param without question", Capability{Name: "a", Description: "x", Execute: noop,
			Params: []Param{{Name: "what", Required: true}}}, "no clarifying question"},
		{"duplicate param", Capability{Name: "a", Description: "x", Execute: noop,
			Params: []Param{{Name: "p"}, {Name: "p"}}}, "unique"},
		{"duplicate", ok, "already registered"},
	}
	r := NewRegistry()
	if err := r.Register(ok); err != nil {
		t.Fatalf("Register(%s): %v", ok.Name, err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := r.Register(tt.c)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Register = %v, want an error containing %q", err, tt.want)
			}
		})
	}
	if got := len(r.All()); got != 1 {
		t.Fatalf("registry holds %d capabilities after refusals, want 1", got)
	}
}

func TestLookupNamesAnUnknownCapability(t *testing.T) {
	r := NewRegistry()
	if err := r.Register(Capability{Name: "journal.write", Description: "Write an entry.", Execute: noop}); err != nil {
		t.Fatal(err)
	}
	if c, err := r.Lookup("journal.write"); err != nil || c.Name != "journal.write" {
		t.Fatalf("Lookup(journal.write) = %v, %v", c, err)
	}
	if _, err := r.Lookup("bank.transfer"); !errors.Is(err, ErrUnknownCapability) {
		t.Fatalf("Lookup(bank.transfer) err = %v, want ErrUnknownCapability", err)
	}
}

func TestContextPutGetDelete(t *testing.T) {
	c := Context{}
	c.Put("reminder", "r1", map[string]string{"what": "walk"})
	if got := c.Get("reminder", "r1")["what"]; got != "walk" {
		t.Fatalf("Get = %q, want walk", got)
	}
	c.Delete("reminder", "r1")
	if c.Get("reminder", "r1") != nil {
		t.Fatal("Delete left the fields")
	}
	if Context(nil).Get("x", "y") != nil {
		t.Fatal("Get on a nil context returned fields")
	}
}

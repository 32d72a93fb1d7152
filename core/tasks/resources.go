package tasks

import (
	"context"
	"fmt"
	"strings"

	"github.com/havenbot/haven/internal/textmatch"
)

// Helpline is one crisis service from the safety directory.
type Helpline struct {
	Name string
	// Contact is the directory's display text ("Call 116 123 (free, 24/7)").
	Contact string
	// Emergency marks the emergency number.
	Emergency bool
}

// Helplines are the directory's services for a country.
type Helplines struct {
	// Country is the ISO code looked up, "" when none was known.
	Country string
	// CountryName is how to name it ("Ireland"), "" when none was known.
	CountryName string
	// Own is false when the directory has nothing of its own for Country
	// and Lines are the international fallback.
	Own   bool
	Lines []Helpline
}

// HelplineLookup returns the directory's services for the country text
// names, or for fallback (the person's country as core knows it) when
// text names none. core passes one built on the safety directory: every
// number comes from there, never from a model.
type HelplineLookup func(text, fallback string) Helplines

var helplineRE = textmatch.MustCompile(`(?i)\b(?:(?:what(?:'s|’s| is| are)?|which|where|give|tell|send|find|list|show|need|want|is there|are there|do you (?:know|have)|can you|could you|i'm looking for)\b.{0,60}\b(?:help ?lines?|hotlines?|crisis (?:lines?|numbers?|services?|text lines?)|suicide (?:lines?|hotlines?|numbers?)|emergency numbers?|samaritans|lifelines?)\b|\b(?:help ?lines?|hotlines?|crisis lines?|emergency numbers?)\s+(?:in|for)\s+\p{L}[\p{L} .'-]{1,40}\??\s*$)`)

// ResourcesCapability returns the capability that names crisis lines for
// a country on request ("what's the helpline in Ireland?"), from the
// directory only.
func ResourcesCapability(lookup HelplineLookup) Capability {
	return Capability{
		Name:        "resources.find",
		Description: "Name crisis helplines for a country, from Haven's checked directory.",
		Command:     "helpline",
		Usage:       "/helpline Ireland",
		Examples:    []string{"what's the helpline in Ireland?", "is there a crisis line in Canada", "emergency number in Spain"},
		Params:      []Param{{Name: "country", Description: "the country or city the person named, as they said it; empty when none"}},
		Match: func(req *Request) (Args, bool) {
			if !helplineRE.MatchString(req.Text) {
				return nil, false
			}
			return Args{}, true
		},
		Execute: func(_ context.Context, req *Request, a Args) (Result, error) {
			text := req.Text
			if c := strings.TrimSpace(a["country"]); c != "" {
				text = "in " + c
			}
			h := lookup(text, req.Country)
			if len(h.Lines) == 0 {
				return Result{}, fmt.Errorf("helpline directory has no lines for %q or the international fallback", h.Country)
			}
			var b strings.Builder
			switch {
			case h.Own:
				fmt.Fprintf(&b, "Crisis lines in %s:\n", h.CountryName)
			case h.CountryName != "":
				fmt.Fprintf(&b, "I don't have checked numbers for %s yet. This service can point you to one there:\n", h.CountryName)
			default:
				b.WriteString("I don't know which country you're in, so here is a service that lists helplines everywhere (tell me the country, e.g. \"helpline in Ireland\", for its own lines):\n")
			}
			for _, l := range h.Lines {
				fmt.Fprintf(&b, "- %s: %s\n", l.Name, l.Contact)
			}
			b.WriteString("If you're in danger right now, please call your local emergency number.")
			return Result{Text: b.String()}, nil
		},
	}
}

package core

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/havenbot/haven/channels"
)

// An approval question carries Yes and No buttons for the person asked,
// and pressing Yes (an Inbound saying "yes") runs the step as typing it
// would; other replies carry none.
func TestAnApprovalQuestionCarriesYesAndNoButtons(t *testing.T) {
	var notes []string
	e := taskEngine(t, filepath.Join(t.TempDir(), "haven.db"), &notes)
	ctx := context.Background()
	say := func(text string) []channels.Outbound {
		t.Helper()
		outs, err := e.Handle(ctx, dm(text))
		if err != nil {
			t.Fatalf("Handle(%q): %v", text, err)
		}
		return outs
	}
	outs := say("note buy milk")
	for _, o := range outs {
		if len(o.Choices) > 0 {
			t.Fatalf("a plain task reply carries buttons: %+v", o.Choices)
		}
	}
	outs = say("clear all the notes")
	if len(outs) == 0 || !slices.Equal(outs[len(outs)-1].Choices, approvalChoices) {
		t.Fatalf("approval question outbounds %+v, want the last with Yes/No choices", outs)
	}
	if got := outs[len(outs)-1].ChoicesFor; got != "test::alice" {
		t.Fatalf("approval buttons are for %q, want the person asked (test::alice)", got)
	}
	for _, o := range outs {
		if len(o.Choices) == 0 && o.ChoicesFor != "" {
			t.Fatalf("an outbound without buttons names a person for them: %+v", o)
		}
	}
	if !channels.ChoicesFit(approvalChoices) {
		t.Fatal("the approval choices do not fit every platform")
	}
	say(approvalChoices[0].Text) // the Yes button
	if len(notes) != 0 {
		t.Fatalf("pressing Yes left the notes %v", notes)
	}
}

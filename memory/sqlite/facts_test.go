package sqlite

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/havenbot/haven/memory"
)

func TestSupersededFactIsKeptInactiveAndLeavesSearch(t *testing.T) {
	ctx := context.Background()
	s := openMem(t)
	p := person(t, s, "ann")
	york, err := s.AddFact(ctx, fact(p.ID, memory.Self, memory.PredLivesIn, "York", "I live in York"))
	if err != nil {
		t.Fatal(err)
	}
	again, err := s.AddFact(ctx, fact(p.ID, memory.Self, memory.PredLivesIn, "york", "I live in York, still"))
	if err != nil || again.ID != york.ID {
		t.Fatalf("repeating a fact stored it again: %+v, %v", again, err)
	}
	leeds, err := s.AddFact(ctx, fact(p.ID, memory.Self, memory.PredLivesIn, "Leeds", "I moved to Leeds"))
	if err != nil {
		t.Fatal(err)
	}
	all, _ := s.Facts(ctx, p.ID, true)
	if len(all) != 2 || all[0].Active || all[0].SupersededBy != leeds.ID || !all[1].Active {
		t.Fatalf("facts after supersession = %+v", all)
	}
	res, err := s.Search(ctx, memory.SearchQuery{PersonID: p.ID, Text: "where do I live? York or Leeds", Recent: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, list := range [][]memory.Ref{res.Text, res.Recent} {
		for _, r := range list {
			if r.ID == york.ID && r.Kind == memory.KindFact {
				t.Errorf("inactive fact retrieved: %+v", res)
			}
		}
	}
	if len(res.Text) != 1 || res.Text[0].ID != leeds.ID {
		t.Errorf("text search = %+v, want Leeds", res.Text)
	}
	ex, err := s.Export(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(ex)
	if !strings.Contains(string(b), "York") {
		t.Errorf("export lost the inactive fact: %s", b)
	}
}

package recent

import "testing"

func TestSetRemembersTheLastNKeys(t *testing.T) {
	s := New(2)
	if !s.Add("a") || s.Add("a") || !s.Has("a") {
		t.Fatal("a first Add is new, a second is not, and Has sees it")
	}
	s.Add("b")
	s.Add("c") // pushes a out
	if s.Has("a") || !s.Has("b") || !s.Has("c") {
		t.Fatalf("after three keys in a set of two: a %v b %v c %v, want only b and c", s.Has("a"), s.Has("b"), s.Has("c"))
	}
	s.Forget("c")
	if !s.Add("c") {
		t.Error("a forgotten key is not new again")
	}
}

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

func TestMapKeepsTheLastNValuesUntilTaken(t *testing.T) {
	m := NewMap[string](2)
	if !m.Put("a", "1") || m.Put("a", "2") {
		t.Fatal("a first Put is new, a second is not")
	}
	if v, ok := m.Take("a"); !ok || v != "2" {
		t.Fatalf("Take(a) = %q, %v; want the latest value, 2", v, ok)
	}
	if _, ok := m.Take("a"); ok {
		t.Error("a taken key is still remembered")
	}
	m.Put("b", "x")
	m.Put("c", "y")
	m.Put("d", "z") // pushes b out
	if m.Has("b") || !m.Has("c") || !m.Has("d") {
		t.Errorf("after three more keys in a map of two: b %v c %v d %v, want only c and d", m.Has("b"), m.Has("c"), m.Has("d"))
	}
}

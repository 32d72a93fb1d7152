package sqlite

import (
	"context"
	"path/filepath"
	"testing"
)

func TestOffsetsSurviveAReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	s := openTest(t, path)
	if v, err := s.LoadOffset(ctx, "telegram:bot1"); err != nil || v != 0 {
		t.Fatalf("unsaved offset = %d, %v; want 0, nil", v, err)
	}
	for _, v := range []int64{41, 42} {
		if err := s.SaveOffset(ctx, "telegram:bot1", v); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SaveOffset(ctx, "", 1); err == nil {
		t.Error("empty key saved without error")
	}
	s.Close()
	s2 := openTest(t, path)
	if v, err := s2.LoadOffset(ctx, "telegram:bot1"); err != nil || v != 42 {
		t.Fatalf("offset after reopen = %d, %v; want 42", v, err)
	}
}

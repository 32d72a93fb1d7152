package confcheck

import (
	"strings"
	"testing"
)

func TestHTTPURLAcceptsOnlyAbsoluteHTTPURLs(t *testing.T) {
	tests := []struct {
		s  string
		ok bool
	}{
		{"https://api.example.org/v1/", true},
		{"http://127.0.0.1:8080", true},
		{"api.example.org/v1/", false},
		{"ftp://example.org/", false},
		{"https://", false},
		{"::", false},
	}
	for _, tt := range tests {
		err := HTTPURL("x.url", "HAVEN_X_URL", tt.s, "https://example.org/")
		if (err == nil) != tt.ok {
			t.Errorf("HTTPURL(%q) = %v, want ok %v", tt.s, err, tt.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "x.url") || err != nil && !strings.Contains(err.Error(), "HAVEN_X_URL") {
			t.Errorf("error %q does not name the key and its variable", err)
		}
	}
}

func TestListenWantsAPort(t *testing.T) {
	for s, ok := range map[string]bool{":8443": true, "127.0.0.1:3000": true, "[::1]:80": true, "8443": false, "localhost": false, "host:": false} {
		if err := Listen("x.listen", "HAVEN_X_LISTEN", s); (err == nil) != ok {
			t.Errorf("Listen(%q) = %v, want ok %v", s, err, ok)
		}
	}
}

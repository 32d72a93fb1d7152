package safety

import (
	"strings"
	"testing"
	"time"
)

func TestDefaultDirectoryCoversRequiredCountries(t *testing.T) {
	d := DefaultDirectory()
	for _, c := range []string{"US", "CA", "GB", "IE", "AU", "NZ", "IN", "DE", "FR", "ES", "NL", "BR", "SG", "JP"} {
		if !d.Has(c) {
			t.Errorf("no entries for %s", c)
		}
		for _, r := range d.Lookup(c) {
			if r.Country != c {
				t.Errorf("lookup %s returned an entry for %s", c, r.Country)
			}
		}
	}
}

func TestDirectoryEntriesHaveSourceAndVerifiedDate(t *testing.T) {
	d := DefaultDirectory()
	for _, c := range append(d.Countries(), InternationalCode) {
		for _, r := range d.Lookup(c) {
			if !strings.HasPrefix(r.Source, "http") {
				t.Errorf("%s %s: source %q", c, r.Name, r.Source)
			}
			if _, err := time.Parse(time.DateOnly, r.Verified); err != nil {
				t.Errorf("%s %s: verified %q: %v", c, r.Name, r.Verified, err)
			}
			if r.Contact == "" {
				t.Errorf("%s %s: no contact text", c, r.Name)
			}
		}
	}
}

func TestDirectoryFallbackForUnknownCountry(t *testing.T) {
	d := DefaultDirectory()
	for _, c := range []string{"", "ZZ", "xx"} {
		rs := d.Lookup(c)
		if len(rs) == 0 || rs[0].Country != InternationalCode {
			t.Errorf("Lookup(%q) = %+v, want the international fallback", c, rs)
		}
	}
	if rs := d.Lookup("uk"); len(rs) == 0 || rs[0].Country != "GB" {
		t.Errorf("Lookup(uk) = %+v, want GB", rs)
	}
}

func TestDirectoryKnownNumbers(t *testing.T) {
	d := DefaultDirectory()
	cases := map[string]string{"US": "988", "GB": "116 123", "AU": "13 11 14", "SG": "1767", "FR": "3114", "JP": "0120-279-338"}
	for c, num := range cases {
		found := false
		for _, r := range d.Lookup(c) {
			if strings.Contains(r.Contact, num) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: %s not in the directory", c, num)
		}
	}
	if e, ok := d.Emergency("GB"); !ok || e.Phone != "999" {
		t.Errorf("GB emergency = %+v, %v", e, ok)
	}
}

func TestParseDirectoryRejectsBadEntries(t *testing.T) {
	cases := map[string]string{
		"missing source":  `{"resources":[{"country":"US","name":"x","contact":"c","verified":"2026-01-01"},{"country":"INTL","name":"f","contact":"c","source":"https://a","verified":"2026-01-01"}]}`,
		"bad date":        `{"resources":[{"country":"US","name":"x","contact":"c","source":"https://a","verified":"yesterday"},{"country":"INTL","name":"f","contact":"c","source":"https://a","verified":"2026-01-01"}]}`,
		"no fallback":     `{"resources":[{"country":"US","name":"x","contact":"c","source":"https://a","verified":"2026-01-01"}]}`,
		"missing country": `{"resources":[{"name":"x","contact":"c","source":"https://a","verified":"2026-01-01"}]}`,
		"not json":        `{`,
	}
	for name, data := range cases {
		if _, err := ParseDirectory([]byte(data)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestDetectCountry(t *testing.T) {
	cases := []struct {
		text, locale string
		want         string
		ok           bool
	}{
		{"I'm in Melbourne", "", "AU", true},
		{"i live in toronto and it's cold", "en-US", "CA", true},
		{"I'm from the UK", "", "GB", true},
		{"I'm Irish", "", "IE", true},
		{"nothing about places", "en-GB", "GB", true},
		{"", "pt_BR.UTF-8", "BR", true},
		{"", "ja", "JP", true},
		{"I watched a film about Japan", "", "", false},
		// more cities, regions and demonyms of the directory countries
		{"I live in Austin", "", "US", true},
		{"i'm from indiana", "", "US", true},
		{"I'm in India", "", "IN", true},
		{"I'm staying in Kyoto for work", "", "JP", true},
		{"I grew up in Saskatoon", "", "CA", true},
		{"I'm in New York right now", "", "US", true},
		{"I live in York", "", "GB", true},
		{"i'm a Texan", "", "US", true},
		{"I'm Northern Irish", "", "GB", true},
		{"im québécois", "", "CA", true},
		{"I'm studying in Groningen", "", "NL", true},
		{"I'm from Bavaria", "", "DE", true},
		{"I live in Tenerife", "", "ES", true},
		{"I'm in Curitiba", "", "BR", true},
		{"I'm in SG", "", "SG", true},
		{"I'm from Chandigarh", "", "IN", true},
		{"I live in Geelong", "", "AU", true},
		{"I'm in Rotorua", "", "NZ", true},
		{"I'm from Montpellier", "", "FR", true},
		{"I live in Kilkenny", "", "IE", true},
		{"札幌に住んでいます I'm in 札幌", "", "JP", true},
		{"I'm from El Salvador", "", "", false},
		{"I'm stuck in traffic", "", "", false},
		{"I'm working in sales", "", "", false},
		{"", "en", "", false},
		{"", "", "", false},
	}
	for _, c := range cases {
		got, ok := DetectCountry(c.text, c.locale)
		if got != c.want || ok != c.ok {
			t.Errorf("DetectCountry(%q, %q) = %q, %v; want %q, %v", c.text, c.locale, got, ok, c.want, c.ok)
		}
	}
}

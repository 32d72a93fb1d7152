package safety

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// InternationalCode is the directory key of the location-free fallback.
const InternationalCode = "INTL"

// Resource is one crisis service in the directory. Numbers shown to a person
// come only from here, never from a model.
type Resource struct {
	// Country is the ISO 3166-1 alpha-2 code, or InternationalCode.
	Country string `json:"country"`
	// Name of the service.
	Name string `json:"name"`
	// Contact is the display text ("Call or text 988").
	Contact string `json:"contact"`
	// Phone, SMS (with SMSKeyword), Email and URL are the raw contacts.
	Phone      string `json:"phone,omitempty"`
	SMS        string `json:"sms,omitempty"`
	SMSKeyword string `json:"sms_keyword,omitempty"`
	Email      string `json:"email,omitempty"`
	URL        string `json:"url,omitempty"`
	// Hours as the source gives them ("24/7").
	Hours string `json:"hours,omitempty"`
	// Languages served, as ISO 639-1 codes, when the source says.
	Languages []string `json:"languages,omitempty"`
	// Emergency marks the emergency number (911, 999, 112, ...).
	Emergency bool `json:"emergency,omitempty"`
	// Source is where the facts were checked.
	Source string `json:"source"`
	// Verified is the date (YYYY-MM-DD) the entry was last checked.
	Verified string `json:"verified"`
}

// Directory is the crisis resource directory, keyed by country.
type Directory struct {
	byCountry map[string][]Resource
	countries []string
}

//go:embed directory.json
var directoryJSON []byte

// DefaultDirectory returns the embedded directory. It panics only if the
// embedded file is invalid, which the tests rule out.
func DefaultDirectory() *Directory {
	d, err := ParseDirectory(directoryJSON)
	if err != nil {
		panic(fmt.Sprintf("safety: embedded directory: %v", err))
	}
	return d
}

// ParseDirectory reads a directory file ({"resources": [...]}) and checks
// every entry: country, name, contact, source URL and a valid verified
// date, and an international fallback.
func ParseDirectory(data []byte) (*Directory, error) {
	var f struct {
		Resources []Resource `json:"resources"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("parse directory: %w", err)
	}
	d := &Directory{byCountry: map[string][]Resource{}}
	for i, r := range f.Resources {
		switch {
		case r.Country == "":
			return nil, fmt.Errorf("directory entry %d (%s): missing country", i, r.Name)
		case r.Name == "" || r.Contact == "":
			return nil, fmt.Errorf("directory entry %d (%s): missing name or contact", i, r.Country)
		case !strings.HasPrefix(r.Source, "http://") && !strings.HasPrefix(r.Source, "https://"):
			return nil, fmt.Errorf("directory entry %d (%s %s): source %q is not a URL", i, r.Country, r.Name, r.Source)
		}
		if _, err := time.Parse(time.DateOnly, r.Verified); err != nil {
			return nil, fmt.Errorf("directory entry %d (%s %s): verified date: %w", i, r.Country, r.Name, err)
		}
		r.Country = strings.ToUpper(r.Country)
		if _, ok := d.byCountry[r.Country]; !ok {
			d.countries = append(d.countries, r.Country)
		}
		d.byCountry[r.Country] = append(d.byCountry[r.Country], r)
	}
	if len(d.byCountry[InternationalCode]) == 0 {
		return nil, fmt.Errorf("parse directory: no %s fallback entry", InternationalCode)
	}
	return d, nil
}

// Lookup returns the resources for an ISO country code (case-insensitive;
// "UK" is read as GB). A country with no entries, or "", gets the
// international fallback. The result is a copy.
func (d *Directory) Lookup(country string) []Resource {
	c := strings.ToUpper(strings.TrimSpace(country))
	if c == "UK" {
		c = "GB"
	}
	rs, ok := d.byCountry[c]
	if !ok || c == "" {
		rs = d.byCountry[InternationalCode]
	}
	return append([]Resource(nil), rs...)
}

// Has reports whether the directory has entries of its own for country.
func (d *Directory) Has(country string) bool {
	c := strings.ToUpper(country)
	if c == "UK" {
		c = "GB"
	}
	return c != InternationalCode && len(d.byCountry[c]) > 0
}

// Countries lists the country codes in the directory, in file order.
func (d *Directory) Countries() []string { return append([]string(nil), d.countries...) }

// Emergency returns the country's emergency-number entry, if the directory
// has one.
func (d *Directory) Emergency(country string) (Resource, bool) {
	for _, r := range d.Lookup(country) {
		if r.Emergency {
			return r, true
		}
	}
	return Resource{}, false
}

// Helplines returns the country's non-emergency services (or the fallback).
func (d *Directory) Helplines(country string) []Resource {
	var out []Resource
	for _, r := range d.Lookup(country) {
		if !r.Emergency {
			out = append(out, r)
		}
	}
	return out
}

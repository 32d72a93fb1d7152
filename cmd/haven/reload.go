package main

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/havenbot/haven/configs"
	"github.com/havenbot/haven/core"
)

// runtimeSettings are the settings a reload can change while Haven runs
// (core.Engine).
type runtimeSettings interface {
	SetAdmins(ids []string)
	SetDefaultCountry(code string)
}

// configReloader answers /haven reload: it loads the configuration as
// serve did (the same file, environment and flags), applies the admins and
// the default country to the engine, and names every other changed key as
// needing a restart.
type configReloader struct {
	// load loads and validates the configuration afresh (with fresh
	// platform settings: the running adapters' are never touched).
	load func() (configs.Config, []string, error)

	mu      sync.Mutex
	current configs.Config // what is in effect (a restart-only change is not)
	apply   runtimeSettings
}

// Reload implements core.Reloader. An unreadable or invalid file changes
// nothing.
func (r *configReloader) Reload(context.Context) (core.ReloadResult, error) {
	next, names, err := r.load()
	if err != nil {
		return core.ReloadResult{}, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	var res core.ReloadResult
	for _, key := range changedKeys(r.current, next, names) {
		switch key {
		case "admins":
			r.apply.SetAdmins(next.Admins)
			for _, id := range r.current.Admins {
				if !slices.Contains(next.Admins, id) {
					res.Notes = append(res.Notes, "An admin removed from the list stays one on Telegram, Slack and Discord until a restart: their adapters hold the list too.")
					break
				}
			}
			r.current.Admins = next.Admins
		case "safety.default_country":
			r.apply.SetDefaultCountry(next.Safety.DefaultCountry)
			r.current.Safety.DefaultCountry = next.Safety.DefaultCountry
		default:
			res.NeedRestart = append(res.NeedRestart, key)
			continue
		}
		res.Applied = append(res.Applied, key)
	}
	return res, nil
}

// changedKeys names the configuration keys whose values differ between a
// and b ("hub.workers", "admins"), and each platform section (its name)
// that differs, in alphabetical order; never the values.
func changedKeys(a, b configs.Config, platforms []string) []string {
	var keys []string
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	t := va.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if !f.IsExported() || name == "" || name == "-" {
			continue
		}
		fa, fb := va.Field(i), vb.Field(i)
		if f.Type.Kind() != reflect.Struct {
			if !reflect.DeepEqual(fa.Interface(), fb.Interface()) {
				keys = append(keys, name)
			}
			continue
		}
		for j := range f.Type.NumField() {
			sf := f.Type.Field(j)
			sub, _, _ := strings.Cut(sf.Tag.Get("yaml"), ",")
			if !sf.IsExported() || sub == "" || sub == "-" {
				continue
			}
			if !reflect.DeepEqual(fa.Field(j).Interface(), fb.Field(j).Interface()) {
				keys = append(keys, name+"."+sub)
			}
		}
	}
	for _, p := range platforms {
		if !reflect.DeepEqual(a.Section(p), b.Section(p)) {
			keys = append(keys, p)
		}
	}
	slices.Sort(keys)
	return keys
}

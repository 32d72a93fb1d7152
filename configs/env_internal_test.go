package configs

import (
	"reflect"
	"slices"
	"testing"
	"time"
)

// TestEnvOverridesEveryKey sets each key through its environment variable
// alone and checks that exactly that field changed.
func TestEnvOverridesEveryKey(t *testing.T) {
	for _, k := range Keys() {
		t.Run(k.Env, func(t *testing.T) {
			var raw string
			var want any
			switch {
			case k.typ == durationType:
				raw, want = "42s", 42*time.Second
			case k.typ == stringSliceType:
				raw, want = "a:b:c,d::e", []string{"a:b:c", "d::e"}
			case k.typ.Kind() == reflect.Int:
				raw, want = "42", 42
			case k.typ.Kind() == reflect.Bool:
				raw, want = "true", true
			default:
				raw, want = "value-for-"+k.Path, "value-for-"+k.Path
			}
			cfg, err := Load("", func(name string) (string, bool) {
				if name == k.Env {
					return raw, true
				}
				return "", false
			})
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			got := fieldOf(&cfg, k).Interface()
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s=%q gave %v, want %v", k.Env, raw, got, want)
			}
			// Every other key keeps its default.
			def := Defaults()
			for _, other := range keys {
				if other.Path == k.Path {
					continue
				}
				if a, b := fieldOf(&cfg, other).Interface(), fieldOf(&def, other).Interface(); !reflect.DeepEqual(a, b) {
					t.Errorf("%s also changed %s: %v, default %v", k.Env, other.Path, a, b)
				}
			}
		})
	}
}

func TestKeysCoverEveryLeafField(t *testing.T) {
	var count func(reflect.Type) int
	count = func(t reflect.Type) int {
		n := 0
		for i := range t.NumField() {
			if f := t.Field(i); f.Type.Kind() == reflect.Struct {
				n += count(f.Type)
			} else {
				n++
			}
		}
		return n
	}
	if got, want := len(Keys()), count(reflect.TypeOf(Config{})); got != want {
		t.Errorf("Keys() has %d keys, Config has %d leaf fields (missing yaml tag?)", got, want)
	}
	paths := make([]string, 0, len(keys))
	for _, k := range keys {
		paths = append(paths, k.Path)
	}
	if len(slices.Compact(slices.Sorted(slices.Values(paths)))) != len(paths) {
		t.Errorf("duplicate key paths: %v", paths)
	}
}

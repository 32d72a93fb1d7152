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

type hookSettings struct {
	URL    string `yaml:"url"`
	Secret string `yaml:"secret" secret:"true"`
}

// sectionSettings is a section with a key of every supported type.
type sectionSettings struct {
	Name    string        `yaml:"name"`
	Mode    mode          `yaml:"mode"`
	Count   int           `yaml:"count"`
	On      bool          `yaml:"on"`
	Wait    time.Duration `yaml:"wait"`
	List    []string      `yaml:"list"`
	Hook    hookSettings  `yaml:"hook"`
	ignored string
}

type mode string

func (s sectionSettings) Enabled() bool { return s.Hook.Secret != "" }
func (s sectionSettings) Validate() error {
	_ = s.ignored
	return nil
}

// TestEnvOverridesEveryKeyOfASection sets each key of a section through
// its environment variable alone and checks that exactly that field of the
// section changed.
func TestEnvOverridesEveryKeyOfASection(t *testing.T) {
	defaults := sectionSettings{Name: "n", Mode: "a", Count: 1, Wait: time.Second, List: []string{"x"}, Hook: hookSettings{URL: "u"}}
	all := Keys(Section{Name: "plat", Settings: &sectionSettings{}})
	if n := len(all) - len(keys); n != 8 {
		t.Fatalf("the section has %d keys, want 8", n)
	}
	for _, k := range all[len(keys):] {
		t.Run(k.Env, func(t *testing.T) {
			raw, want := "value", any("value")
			switch {
			case k.typ == durationType:
				raw, want = "42s", 42*time.Second
			case k.typ == stringSliceType:
				raw, want = "a, b", []string{"a", "b"}
			case k.typ.Kind() == reflect.Int:
				raw, want = "42", 42
			case k.typ.Kind() == reflect.Bool:
				raw, want = "true", true
			case k.typ == reflect.TypeOf(mode("")):
				want = mode("value")
			}
			s := defaults
			cfg, err := Load("", func(name string) (string, bool) { return raw, name == k.Env }, Section{Name: "plat", Settings: &s})
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if got := fieldOf(&cfg, k).Interface(); !reflect.DeepEqual(got, want) {
				t.Errorf("%s=%q gave %v, want %v", k.Env, raw, got, want)
			}
			fieldOf(&cfg, k).Set(reflect.ValueOf(defaults).FieldByIndex(k.index))
			if !reflect.DeepEqual(s, defaults) {
				t.Errorf("%s changed other keys: %+v, defaults %+v", k.Env, s, defaults)
			}
		})
	}
}

func TestKeysCoverEveryLeafField(t *testing.T) {
	var count func(reflect.Type) int
	count = func(t reflect.Type) int {
		n := 0
		for i := range t.NumField() {
			switch f := t.Field(i); {
			case !f.IsExported():
			case f.Type.Kind() == reflect.Struct:
				n += count(f.Type)
			default:
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

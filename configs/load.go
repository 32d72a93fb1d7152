package configs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// EnvPrefix starts every environment variable Haven reads.
const EnvPrefix = "HAVEN_"

// Key is one configuration key.
type Key struct {
	// Path is the dotted YAML path ("telegram.api_url").
	Path string
	// Env is the environment variable overriding it
	// ("HAVEN_TELEGRAM_API_URL").
	Env string
	// Secret keys are read only from Env, never from the file.
	Secret bool

	index []int
	typ   reflect.Type
}

var (
	durationType    = reflect.TypeOf(time.Duration(0))
	stringSliceType = reflect.TypeOf([]string(nil))
	keys            = collectKeys(reflect.TypeOf(Config{}), nil, nil)
)

// Keys returns every configuration key in schema order, derived from
// Config's yaml tags.
func Keys() []Key { return slices.Clone(keys) }

// EnvName returns the environment variable for a dotted key path:
// "telegram.api_url" is "HAVEN_TELEGRAM_API_URL".
func EnvName(path string) string {
	return EnvPrefix + strings.ToUpper(strings.ReplaceAll(path, ".", "_"))
}

func collectKeys(t reflect.Type, prefix []string, index []int) []Key {
	var out []Key
	for i := range t.NumField() {
		f := t.Field(i)
		name := yamlName(f)
		if name == "" {
			continue
		}
		path := append(slices.Clone(prefix), name)
		idx := append(slices.Clone(index), i)
		if f.Type.Kind() == reflect.Struct {
			out = append(out, collectKeys(f.Type, path, idx)...)
			continue
		}
		switch {
		case f.Type == durationType, f.Type == stringSliceType,
			f.Type.Kind() == reflect.String, f.Type.Kind() == reflect.Int, f.Type.Kind() == reflect.Bool:
		default:
			panic(fmt.Sprintf("configs: key %s has unsupported type %s", strings.Join(path, "."), f.Type))
		}
		p := strings.Join(path, ".")
		out = append(out, Key{Path: p, Env: EnvName(p), Secret: f.Tag.Get("secret") == "true", index: idx, typ: f.Type})
	}
	return out
}

func yamlName(f reflect.StructField) string {
	if !f.IsExported() {
		return ""
	}
	name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	if name == "-" {
		return ""
	}
	return name
}

// fieldOf returns the settable field of c for k.
func fieldOf(c *Config, k Key) reflect.Value {
	return reflect.ValueOf(c).Elem().FieldByIndex(k.index)
}

// Load returns the configuration: Defaults, then the YAML file at path
// (none when path is ""), then environment overrides looked up with env
// (cmd passes os.LookupEnv). An unknown key, a secret in the file, a value
// of the wrong type or an unparsable environment variable is an error
// naming the key (and the file line, or the variable); all such problems
// are reported together. Load does not Validate.
func Load(path string, env func(string) (string, bool)) (Config, error) {
	cfg := Defaults()
	if path != "" {
		data, err := os.ReadFile(path)
		if err != nil {
			return Config{}, fmt.Errorf("configs: read config file: %w", err)
		}
		if err := decodeFile(path, data, &cfg); err != nil {
			return Config{}, err
		}
	}
	if env != nil {
		if err := applyEnv(&cfg, env); err != nil {
			return Config{}, err
		}
	}
	return cfg, nil
}

// decodeFile checks the document against the schema, then decodes it
// strictly into cfg (whose defaults stay for keys the file omits).
func decodeFile(path string, data []byte, cfg *Config) error {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil // empty file: defaults
		}
		return fmt.Errorf("configs: %s: %s", path, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return fmt.Errorf("configs: %s line %d: a second YAML document (---) follows the first: keep one document per file", path, extra.Line)
	}
	c := checker{path: path}
	if len(doc.Content) == 1 {
		c.mapping(doc.Content[0], reflect.TypeOf(Config{}), "")
	}
	if len(c.problems) > 0 {
		return errors.Join(c.problems...)
	}
	strict := yaml.NewDecoder(bytes.NewReader(data))
	strict.KnownFields(true)
	if err := strict.Decode(cfg); err != nil {
		// The checker catches every problem first; this is a safety net
		// that still names the file.
		return fmt.Errorf("configs: %s: %s", path, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	return nil
}

// checker walks a YAML document alongside the Config type.
type checker struct {
	path     string
	problems []error
}

func (c *checker) add(line int, format string, args ...any) {
	c.problems = append(c.problems, fmt.Errorf("configs: %s line %d: %s", c.path, line, fmt.Sprintf(format, args...)))
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		return strconv.Quote(n.Value)
	default:
		return "an alias"
	}
}

// mapping checks a mapping node against struct type t at key path prefix.
func (c *checker) mapping(n *yaml.Node, t reflect.Type, prefix string) {
	if isNull(n) {
		return
	}
	if n.Kind != yaml.MappingNode {
		where := "the top level"
		if prefix != "" {
			where = strconv.Quote(prefix)
		}
		c.add(n.Line, "%s must be a mapping of keys, found %s", where, kindName(n))
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, vn := n.Content[i], n.Content[i+1]
		path := kn.Value
		if prefix != "" {
			path = prefix + "." + kn.Value
		}
		if kn.Value == "<<" {
			c.add(kn.Line, "merge keys (<<) are not supported under %q: write the keys out", prefix)
			continue
		}
		f, ok := fieldByName(t, kn.Value)
		if !ok {
			c.add(kn.Line, "unknown key %q%s", path, suggest(t, kn.Value, prefix))
			continue
		}
		if f.Tag.Get("secret") == "true" {
			c.add(kn.Line, "%s is a secret and is never read from the file: remove it here and set the environment variable %s instead", path, EnvName(path))
			continue
		}
		if vn.Kind == yaml.AliasNode {
			c.add(vn.Line, "%s: aliases (*name) are not supported: write the value out", path)
			continue
		}
		if f.Type.Kind() == reflect.Struct {
			c.mapping(vn, f.Type, path)
			continue
		}
		c.leaf(vn, f.Type, path)
	}
}

// leaf checks that a value node decodes into type t.
func (c *checker) leaf(n *yaml.Node, t reflect.Type, path string) {
	if isNull(n) {
		return
	}
	v := reflect.New(t)
	ok := n.Decode(v.Interface()) == nil
	if t == stringSliceType && n.Kind != yaml.SequenceNode {
		ok = false
	}
	if (t.Kind() == reflect.String || t.Kind() == reflect.Int || t.Kind() == reflect.Bool || t == durationType) && n.Kind != yaml.ScalarNode {
		ok = false
	}
	if ok {
		return
	}
	c.add(n.Line, "%s: %s is not %s", path, kindName(n), want(t))
}

// want describes what a value of type t looks like.
func want(t reflect.Type) string {
	switch {
	case t == durationType:
		return `a duration: write it with a unit, like "3s", "500ms" or "1m30s"`
	case t == stringSliceType:
		return `a list of strings, like ["slack:T1:U2"]`
	case t.Kind() == reflect.Int:
		return "a whole number"
	case t.Kind() == reflect.Bool:
		return "true or false"
	default:
		return "a string"
	}
}

func fieldByName(t reflect.Type, name string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		if yamlName(f) == name {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// suggest returns a hint for an unknown key: the closest known key, and
// the keys that exist at that level.
func suggest(t reflect.Type, name, prefix string) string {
	var known []string
	best, bestDist := "", 3
	for i := range t.NumField() {
		f := t.Field(i)
		n := yamlName(f)
		if n == "" {
			continue
		}
		if d := editDistance(strings.ToLower(name), n); d < bestDist {
			best, bestDist = n, d
		}
		if f.Tag.Get("secret") != "true" {
			known = append(known, n)
		}
	}
	var b strings.Builder
	if best != "" {
		full := best
		if prefix != "" {
			full = prefix + "." + best
		}
		fmt.Fprintf(&b, "; did you mean %q?", full)
	}
	where := "at the top level"
	if prefix != "" {
		where = "under " + prefix
	}
	fmt.Fprintf(&b, " (keys %s: %s)", where, strings.Join(known, ", "))
	return b.String()
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// applyEnv sets every key whose environment variable is present.
func applyEnv(cfg *Config, env func(string) (string, bool)) error {
	var problems []error
	for _, k := range keys {
		raw, ok := env(k.Env)
		if !ok {
			continue
		}
		if err := setValue(fieldOf(cfg, k), k, raw); err != nil {
			problems = append(problems, err)
		}
	}
	return errors.Join(problems...)
}

// setValue parses raw into f. Errors name the variable; they quote the
// value only for keys that are not secret.
func setValue(f reflect.Value, k Key, raw string) error {
	s := strings.TrimSpace(raw)
	bad := func() error {
		if k.Secret {
			return fmt.Errorf("configs: environment variable %s is not %s", k.Env, want(k.typ))
		}
		return fmt.Errorf("configs: environment variable %s=%q is not %s", k.Env, raw, want(k.typ))
	}
	switch {
	case k.typ == durationType:
		d, err := time.ParseDuration(s)
		if err != nil {
			return bad()
		}
		f.SetInt(int64(d))
	case k.typ == stringSliceType:
		items := []string{}
		for item := range strings.SplitSeq(s, ",") {
			if item = strings.TrimSpace(item); item != "" {
				items = append(items, item)
			}
		}
		f.Set(reflect.ValueOf(items))
	case k.typ.Kind() == reflect.Int:
		n, err := strconv.Atoi(s)
		if err != nil {
			return bad()
		}
		f.SetInt(int64(n))
	case k.typ.Kind() == reflect.Bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return bad()
		}
		f.SetBool(b)
	default:
		f.SetString(s)
	}
	return nil
}

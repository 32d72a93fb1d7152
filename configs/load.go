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

	section int // index of the section the key is in; -1 for Config's own
	index   []int
	typ     reflect.Type
}

// Section is a top-level part of the file that another package owns and
// validates, as caddy modules own theirs: a chat platform adapter defines
// its settings struct, its defaults and its rules, and cmd/haven passes one
// Section per platform to Load.
type Section struct {
	// Name is the section's top-level key ("telegram"). Its keys are
	// Name.key, overridden by HAVEN_NAME_KEY.
	Name string
	// Settings points to the owner's settings struct, holding its defaults;
	// Load fills it. Its fields follow Config's rules: yaml tags name the
	// keys, secret:"true" marks secrets (environment only), and the types
	// are string (or a string type), int, bool, time.Duration, []string or
	// a struct of those.
	Settings Settings
}

// Settings is what a Section's owner provides.
type Settings interface {
	// Enabled reports whether the platform is to be served: its secrets
	// are set.
	Enabled() bool
	// Validate reports every problem at once (errors.Join), each naming
	// the key ("telegram.mode") or environment variable and saying what to
	// fix, never quoting a secret. It is called whether or not Enabled.
	Validate() error
}

// section is a Section as Load uses it.
type section struct {
	Section
	typ  reflect.Type // the struct type Settings points to
	keys []Key
	file string // the file it was in, if any
	line int    // line of its key in the file; 0 when the file has none
}

var (
	durationType    = reflect.TypeOf(time.Duration(0))
	stringSliceType = reflect.TypeOf([]string(nil))
	keys            = mustKeys(collectKeys(reflect.TypeOf(Config{}), nil, nil, -1))
)

func mustKeys(k []Key, err error) []Key {
	if err != nil {
		panic(err)
	}
	return k
}

// Keys returns every configuration key in schema order: Config's own,
// derived from its yaml tags, then each section's. It panics on a
// malformed section, which Load reports as an error.
func Keys(sections ...Section) []Key {
	secs, err := prepare(sections)
	if err != nil {
		panic(err)
	}
	return allKeys(secs)
}

// allKeys returns Config's keys and then those of secs.
func allKeys(secs []section) []Key {
	out := slices.Clone(keys)
	for _, s := range secs {
		out = append(out, s.keys...)
	}
	return out
}

// prepare checks sections and derives their keys.
func prepare(sections []Section) ([]section, error) {
	if len(sections) == 0 {
		return nil, nil
	}
	out := make([]section, len(sections))
	for i, s := range sections {
		if _, ok := fieldByName(reflect.TypeOf(Config{}), s.Name); ok || s.Name == "" {
			return nil, fmt.Errorf("configs: section name %q is empty or one of Haven's own keys", s.Name)
		}
		for _, o := range sections[:i] {
			if o.Name == s.Name {
				return nil, fmt.Errorf("configs: two sections are named %q", s.Name)
			}
		}
		v := reflect.ValueOf(s.Settings)
		if s.Settings == nil || v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
			return nil, fmt.Errorf("configs: section %q: settings must be a non-nil pointer to a struct, not %T", s.Name, s.Settings)
		}
		ks, err := collectKeys(v.Elem().Type(), []string{s.Name}, nil, i)
		if err != nil {
			return nil, err
		}
		out[i] = section{Section: s, typ: v.Elem().Type(), keys: ks}
	}
	return out, nil
}

// EnvName returns the environment variable for a dotted key path:
// "telegram.api_url" is "HAVEN_TELEGRAM_API_URL".
func EnvName(path string) string {
	return EnvPrefix + strings.ToUpper(strings.ReplaceAll(path, ".", "_"))
}

func collectKeys(t reflect.Type, prefix []string, index []int, sec int) ([]Key, error) {
	var out []Key
	for i := range t.NumField() {
		f := t.Field(i)
		name := yamlName(f)
		if name == "" {
			continue
		}
		path := append(slices.Clone(prefix), name)
		idx := append(slices.Clone(index), i)
		if f.Type.Kind() == reflect.Struct && f.Type != durationType {
			ks, err := collectKeys(f.Type, path, idx, sec)
			if err != nil {
				return nil, err
			}
			out = append(out, ks...)
			continue
		}
		switch {
		case f.Type == durationType, f.Type == stringSliceType,
			f.Type.Kind() == reflect.String, f.Type.Kind() == reflect.Int, f.Type.Kind() == reflect.Bool:
		default:
			return nil, fmt.Errorf("configs: key %s has unsupported type %s", strings.Join(path, "."), f.Type)
		}
		p := strings.Join(path, ".")
		out = append(out, Key{Path: p, Env: EnvName(p), Secret: f.Tag.Get("secret") == "true", section: sec, index: idx, typ: f.Type})
	}
	return out, nil
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

// fieldOf returns the settable field of c, or of its section, for k.
func fieldOf(c *Config, k Key) reflect.Value {
	if k.section >= 0 {
		return reflect.ValueOf(c.sections[k.section].Settings).Elem().FieldByIndex(k.index)
	}
	return reflect.ValueOf(c).Elem().FieldByIndex(k.index)
}

// Load returns the configuration: Defaults (and the defaults each section's
// Settings hold), then the YAML file at path (none when path is ""), then
// environment overrides looked up with env (cmd passes os.LookupEnv). It
// fills the sections' Settings in place. An unknown key, a secret in the
// file, a value of the wrong type or an unparsable environment variable is
// an error naming the key (and the file line, or the variable); all such
// problems are reported together. Load does not Validate.
func Load(path string, env func(string) (string, bool), sections ...Section) (Config, error) {
	var data []byte
	if path != "" {
		var err error
		if data, err = os.ReadFile(path); err != nil {
			return Config{}, fmt.Errorf("configs: read config file: %w", err)
		}
	}
	return load(path, data, env, sections)
}

// load is Load with the file's content read: data, from path (none when
// path is "").
func load(path string, data []byte, env func(string) (string, bool), sections []Section) (Config, error) {
	secs, err := prepare(sections)
	if err != nil {
		return Config{}, err
	}
	cfg := Defaults()
	cfg.sections = secs
	if path != "" {
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

// decodeFile checks the document against the schema, then decodes it into
// cfg and its sections (whose defaults stay for keys the file omits).
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
	if len(doc.Content) != 1 {
		return nil
	}
	root := doc.Content[0]
	c := checker{path: path, sections: cfg.sections}
	c.mapping(root, reflect.TypeOf(Config{}), "")
	if len(c.problems) > 0 {
		return errors.Join(c.problems...)
	}
	if isNull(root) {
		return nil
	}
	// Config's own keys decode into cfg, each section's into its Settings.
	// The checker has found every unknown key and wrong type already.
	own := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: root.Line, Column: root.Column}
	for i := 0; i+1 < len(root.Content); i += 2 {
		kn, vn := root.Content[i], root.Content[i+1]
		s := cfg.section(kn.Value)
		if s == nil {
			own.Content = append(own.Content, kn, vn)
			continue
		}
		if isNull(vn) {
			continue
		}
		if err := vn.Decode(s.Settings); err != nil {
			return fmt.Errorf("configs: %s: %s", path, strings.TrimPrefix(err.Error(), "yaml: "))
		}
	}
	if err := own.Decode(cfg); err != nil {
		return fmt.Errorf("configs: %s: %s", path, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	return nil
}

// section returns the section named name, or nil.
func (c *Config) section(name string) *section {
	for i := range c.sections {
		if c.sections[i].Name == name {
			return &c.sections[i]
		}
	}
	return nil
}

// checker walks a YAML document alongside the Config type and the
// sections' types. It records the line of each section it meets.
type checker struct {
	path     string
	sections []section
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
		if prefix == "" {
			if s := c.section(kn.Value); s != nil {
				if s.line > 0 {
					c.add(kn.Line, "%q is already defined at line %d", kn.Value, s.line)
					continue
				}
				s.file, s.line = c.path, kn.Line
				if vn.Kind == yaml.AliasNode {
					c.add(vn.Line, "%s: aliases (*name) are not supported: write the value out", path)
					continue
				}
				c.mapping(vn, s.typ, path)
				continue
			}
		}
		f, ok := fieldByName(t, kn.Value)
		if !ok {
			c.add(kn.Line, "unknown key %q%s", path, suggest(t, kn.Value, prefix, c.sectionNames(prefix)))
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

func (c *checker) section(name string) *section {
	for i := range c.sections {
		if c.sections[i].Name == name {
			return &c.sections[i]
		}
	}
	return nil
}

// sectionNames returns the sections' names at the top level, none below.
func (c *checker) sectionNames(prefix string) []string {
	if prefix != "" {
		return nil
	}
	names := make([]string, len(c.sections))
	for i, s := range c.sections {
		names[i] = s.Name
	}
	return names
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
// the keys that exist at that level (t's, then the extra ones).
func suggest(t reflect.Type, name, prefix string, extra []string) string {
	var known []string
	best, bestDist := "", 3
	consider := func(n string, secret bool) {
		if d := editDistance(strings.ToLower(name), n); d < bestDist {
			best, bestDist = n, d
		}
		if !secret {
			known = append(known, n)
		}
	}
	for i := range t.NumField() {
		f := t.Field(i)
		if n := yamlName(f); n != "" {
			consider(n, f.Tag.Get("secret") == "true")
		}
	}
	for _, n := range extra {
		consider(n, false)
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
	for _, k := range allKeys(cfg.sections) {
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

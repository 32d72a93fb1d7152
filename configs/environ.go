package configs

import (
	"errors"
	"fmt"
	"strings"
)

// CheckEnviron reports every variable in environ (KEY=VALUE entries, as
// os.Environ returns them) whose name starts with EnvPrefix but is the
// variable of no key of Config or of sections, naming it and the closest
// known variable. Without it a misspelt variable (HAVEN_TELEGRAM_TOKN)
// would be ignored silently. Values are never quoted: they may be secrets.
func CheckEnviron(environ []string, sections ...Section) error {
	secs, err := prepare(sections)
	if err != nil {
		return err
	}
	known := map[string]bool{}
	var names []string
	for _, k := range allKeys(secs) {
		known[k.Env] = true
		names = append(names, k.Env)
	}
	var problems []error
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, EnvPrefix) || known[name] {
			continue
		}
		msg := fmt.Sprintf("configs: environment variable %s is not one Haven reads", name)
		if best := closest(name, names); best != "" {
			msg += fmt.Sprintf("; did you mean %s? Correct its name or unset it", best)
		} else {
			msg += ": unset it, or correct its name"
		}
		msg += " (each variable is HAVEN_ plus a key's path in upper snake case, as in configs/haven.example.yaml)"
		problems = append(problems, errors.New(msg))
	}
	return errors.Join(problems...)
}

// closest returns the name in names nearest to name by edit distance, when
// it is near enough to be a likely slip (at most 3 edits), else "".
func closest(name string, names []string) string {
	best, bestDist := "", 4
	for _, n := range names {
		if d := editDistance(name, n); d < bestDist {
			best, bestDist = n, d
		}
	}
	return best
}

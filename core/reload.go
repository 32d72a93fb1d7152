package core

import (
	"context"
	"fmt"
	"strings"
)

// Reloader re-reads the configuration file for /haven reload
// (Options.Reloader); cmd/haven implements it. Reload applies what can
// change while Haven runs and names the rest.
type Reloader interface {
	Reload(ctx context.Context) (ReloadResult, error)
}

// ReloadResult is what a reload found changed, by configuration key
// ("admins", "safety.default_country", "telegram"): never their values.
type ReloadResult struct {
	// Applied changed and took effect now.
	Applied []string
	// NeedRestart changed and take effect at the next start.
	NeedRestart []string
	// Notes are caveats about what was applied.
	Notes []string
}

// reloadText renders a reload's outcome for the admin.
func reloadText(r ReloadResult) string {
	if len(r.Applied) == 0 && len(r.NeedRestart) == 0 {
		return "Configuration reloaded: nothing changed."
	}
	var b strings.Builder
	b.WriteString("Configuration reloaded.")
	if len(r.Applied) > 0 {
		fmt.Fprintf(&b, "\nIn effect now: %s.", strings.Join(r.Applied, ", "))
	}
	if len(r.NeedRestart) > 0 {
		fmt.Fprintf(&b, "\nChanged, but in effect only after a restart: %s.", strings.Join(r.NeedRestart, ", "))
	}
	for _, n := range r.Notes {
		b.WriteString("\n" + n)
	}
	return b.String()
}

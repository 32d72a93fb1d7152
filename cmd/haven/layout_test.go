package main

import (
	"os/exec"
	"strings"
	"testing"
)

// The import rules of DESIGN.md, checked on the real dependency graph of the
// packages (tests may use real parts from elsewhere): for each group of
// packages, the packages of ours it must never reach, directly or through
// others.
var layoutRules = []struct {
	from      string // a package pattern for go list
	forbidden []string
}{
	{"./safety/...", []string{"/core", "/adapters", "/memory", "/channels", "/metrics", "/emotion"}},
	// emotion is a leaf beside safety: both build on internal/linear.
	{"./emotion/...", []string{"/core", "/adapters", "/memory", "/safety", "/channels", "/llm", "/configs", "/metrics"}},
	{"./internal/linear/...", []string{"/core", "/adapters", "/memory", "/safety", "/emotion", "/channels", "/llm", "/configs", "/metrics"}},
	{"./memory/...", []string{"/core", "/adapters", "/safety", "/metrics"}},
	{"./channels/...", []string{"/core", "/adapters", "/safety", "/memory", "/metrics"}},
	{"./adapters/...", []string{"/core", "/memory", "/safety", "/metrics"}},
	{"./llm/...", []string{"/core", "/adapters", "/memory", "/safety", "/channels", "/metrics"}},
	// metrics is fed through hooks: only cmd imports it.
	{"./core/...", []string{"/adapters", "/configs", "/cmd", "/metrics"}},
	{"./core/therapy/...", []string{"/memory", "/safety", "/channels", "/adapters"}},
	{"./core/tasks/...", []string{"/memory", "/safety", "/channels", "/adapters"}},
	{"./core/reply/...", []string{"/memory", "/safety", "/channels", "/adapters", "/llm"}},
	{"./configs/...", []string{"/core", "/adapters", "/memory", "/safety", "/channels", "/llm"}},
	{"./metrics/...", []string{"/adapters", "/cmd"}},
}

const module = "github.com/havenbot/haven"

// TestImportsFlowOneWay fails when a package reaches one it must not: no
// package under core/ is imported by safety, memory or adapters, and the
// leaves stay leaves.
func TestImportsFlowOneWay(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	for _, r := range layoutRules {
		out, err := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}}`, "../../"+strings.TrimPrefix(r.from, "./")).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", r.from, err, out)
		}
		for _, dep := range strings.Fields(string(out)) {
			if !strings.HasPrefix(dep, module+"/") {
				continue
			}
			rel := strings.TrimPrefix(dep, module)
			for _, f := range r.forbidden {
				if rel == f || strings.HasPrefix(rel, f+"/") {
					t.Errorf("%s reaches %s (%s is forbidden to it)", r.from, dep, f)
				}
			}
		}
	}
}

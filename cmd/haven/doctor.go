package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/havenbot/haven/configs"
	"github.com/havenbot/haven/llm"
	"github.com/havenbot/haven/memory/sqlite"
)

// Free space below which doctor fails, and below which it warns.
const (
	diskFail = 100 << 20
	diskWarn = 1 << 30
)

// verdict is how one doctor finding reads.
type verdict string

const (
	vOK   verdict = "ok"
	vNote verdict = "note"
	vWarn verdict = "warn"
	vFail verdict = "FAIL"
)

// findings prints doctor's findings as they come and counts them.
type findings struct {
	w            io.Writer
	fails, warns int
}

func (f *findings) add(v verdict, subject, format string, args ...any) {
	switch v {
	case vFail:
		f.fails++
	case vWarn:
		f.warns++
	}
	fmt.Fprintf(f.w, "  %-5s %-13s %s\n", v, subject, fmt.Sprintf(format, args...))
}

// errorsOf returns the errors joined in err (errors.Join), one each.
func errorsOf(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, errorsOf(e)...)
		}
		return out
	}
	if err == nil {
		return nil
	}
	return []error{err}
}

// doctor runs `haven doctor`: it checks the environment, the configuration,
// each served platform's token against the platform, the model, the
// database and the disk, and says what to fix in plain words. It fails
// when anything needs fixing.
func doctor(ctx context.Context, args []string, std stdio, env func(string) (string, bool)) error {
	var flags commonFlags
	fset := newFlagSet("doctor", std)
	flags.register(fset)
	if err := parseFlags(fset, args); err != nil {
		return err
	}
	if fset.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fset.Arg(0))
	}
	f := &findings{w: std.out}
	where := "built-in defaults"
	if flags.config != "" {
		where = flags.config
	}
	fmt.Fprintf(std.out, "haven doctor: checking %s and the environment\n", where)

	ps := platforms()
	for _, err := range errorsOf(configs.CheckEnviron(std.environ, sections(ps)...)) {
		f.add(vFail, "environment", "%s", strings.TrimPrefix(err.Error(), "configs: "))
	}
	cfg, err := configs.Load(flags.config, env, sections(ps)...)
	if err != nil {
		for _, e := range errorsOf(err) {
			f.add(vFail, "config", "%s", strings.TrimPrefix(e.Error(), "configs: "))
		}
		return f.done(std)
	}
	if flags.db != "" {
		cfg.Database.Path = flags.db
	}
	if err := cfg.Validate(); err != nil {
		for _, e := range errorsOf(err) {
			f.add(vFail, "config", "%s", strings.TrimPrefix(e.Error(), "configs: "))
		}
	} else {
		f.add(vOK, "config", "valid")
	}
	checkPlatforms(ctx, f, cfg, ps)
	checkModel(ctx, f, cfg)
	if strings.TrimSpace(cfg.Database.Path) != "" {
		checkDatabase(ctx, f, cfg.Database.Path)
	}
	checkSettings(f, cfg)
	return f.done(std)
}

// done prints the summary and returns an error when something failed.
func (f *findings) done(std stdio) error {
	switch {
	case f.fails > 0:
		fmt.Fprintf(std.out, "%d problem(s) to fix, %d warning(s).\n", f.fails, f.warns)
		return fmt.Errorf("doctor found %d problem(s); each is said above with what to do", f.fails)
	case f.warns > 0:
		fmt.Fprintf(std.out, "No problem to fix; %d warning(s) to read.\n", f.warns)
	default:
		fmt.Fprintln(std.out, "Everything checked is fine.")
	}
	return nil
}

// checkPlatforms builds each served platform's adapter as serve would and
// asks its platform whether the token works.
func checkPlatforms(ctx context.Context, f *findings, cfg configs.Config, ps []platform) {
	if !cfg.AnyPlatformEnabled() {
		f.add(vWarn, "platforms", "no platform's token is set, so `haven serve` chats in the terminal: set HAVEN_TELEGRAM_TOKEN (or another platform's) to serve it")
		return
	}
	quiet := slog.New(slog.DiscardHandler)
	for _, p := range ps {
		if !p.settings.Enabled() {
			continue
		}
		a, _, err := p.start(platformDeps{admins: cfg.Admins, log: quiet})
		if err != nil {
			f.add(vFail, p.name, "%v", err)
			continue
		}
		c, ok := a.(interface {
			Check(ctx context.Context) (string, error)
		})
		if !ok {
			f.add(vNote, p.name, "configured; this adapter cannot check its token before it runs")
			a.Close()
			continue
		}
		name, err := c.Check(ctx)
		a.Close()
		if err != nil {
			f.add(vFail, p.name, "%v", err)
			continue
		}
		f.add(vOK, p.name, "the token works: the bot is @%s", name)
	}
}

// checkModel makes one small request to the model (and one to the
// embeddings server when vector search is on).
func checkModel(ctx context.Context, f *findings, cfg configs.Config) {
	if !cfg.LLMEnabled() {
		f.add(vNote, "model", "none configured (llm.base_url is empty): replies are scripted, the crisis gate uses its deterministic rules")
		return
	}
	c, err := newLLM(cfg)
	if err != nil {
		f.add(vFail, "model", "%v", err)
		return
	}
	start := time.Now()
	_, err = c.Complete(ctx, llm.Request{
		Messages:  []llm.Message{{Role: llm.RoleUser, Content: "Reply with the one word: ok"}},
		MaxTokens: 5, Timeout: cfg.LLM.Timeout,
	})
	if err != nil {
		f.add(vFail, "model", "%s. Until it is fixed Haven answers with its scripted replies, and the crisis gate with its deterministic rules", modelProblem(cfg, err))
	} else {
		f.add(vOK, "model", "%s at %s answered in %s", cfg.LLM.Model, cfg.LLM.BaseURL, time.Since(start).Round(time.Millisecond))
	}
	if !cfg.EmbeddingsEnabled() {
		return
	}
	e, err := newEmbedder(cfg)
	if err == nil {
		ectx, cancel := context.WithTimeout(ctx, cfg.LLM.Timeout)
		_, err = e.Embed(ectx, []string{"ok"})
		cancel()
	}
	if err != nil {
		f.add(vFail, "embeddings", "model %s at %s: %v: check memory.embeddings_base_url and memory.embeddings_model (search falls back to text meanwhile)",
			cfg.Memory.EmbeddingsModel, cfg.EmbeddingsURL(), err)
		return
	}
	f.add(vOK, "embeddings", "%s at %s answered", cfg.Memory.EmbeddingsModel, cfg.EmbeddingsURL())
}

// modelProblem says in plain words why the model call failed.
func modelProblem(cfg configs.Config, err error) string {
	url := cfg.LLM.BaseURL
	var se *llm.StatusError
	switch {
	case errors.As(err, &se) && (se.StatusCode == 401 || se.StatusCode == 403):
		return fmt.Sprintf("the model server at %s refused the key (HTTP %d): set HAVEN_LLM_API_KEY to a key it accepts", url, se.StatusCode)
	case errors.As(err, &se) && se.StatusCode == 404:
		return fmt.Sprintf("the server at %s answered 404: it serves no model %q (llm.model), or llm.base_url lacks its /v1", url, cfg.LLM.Model)
	case errors.As(err, &se):
		return fmt.Sprintf("the model server at %s answered HTTP %d", url, se.StatusCode)
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Sprintf("the model at %s did not answer within llm.timeout (%s): is the server overloaded, or the model still loading?", url, cfg.LLM.Timeout)
	}
	return fmt.Sprintf("nothing answers at llm.base_url %s (%v): start the model server, or correct llm.base_url (HAVEN_LLM_BASE_URL)", url, rootCause(err))
}

// rootCause returns the innermost error of a chain of single wraps.
func rootCause(err error) error {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err
		}
		err = next
	}
}

// checkDatabase checks that the database opens, is Haven's, is migrated as
// far as this build knows, takes a write and is private; and the free space
// on its disk. It never creates or changes the file.
func checkDatabase(ctx context.Context, f *findings, path string) {
	abs, err := filepath.Abs(path)
	if err != nil {
		f.add(vFail, "database", "%s: %v", path, err)
		return
	}
	dir := existingAncestor(abs)
	defer checkDisk(f, dir)
	fi, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		if err := tryWrite(dir); err != nil {
			f.add(vFail, "database", "%s does not exist, and Haven cannot create it: %s is not writable by this user (%v): give it write permission, or set database.path (HAVEN_DATABASE_PATH) elsewhere", abs, dir, err)
			return
		}
		f.add(vOK, "database", "%s does not exist yet: Haven creates it (readable by its owner only) at first start", abs)
		return
	}
	if err != nil {
		f.add(vFail, "database", "%s: %v", abs, err)
		return
	}
	st, err := sqlite.SchemaStatus(ctx, abs)
	if err != nil {
		f.add(vFail, "database", "%v", err)
		return
	}
	if err := sqlite.CheckFileWritable(ctx, abs); err != nil {
		switch {
		case errors.Is(err, sqlite.ErrReadOnly):
			f.add(vFail, "database", "%s is read-only for this user (uid %d), and Haven must write it: give that user write permission on the file and its folder (chown or chmod), or move the database to a writable disk", abs, os.Geteuid())
		case errors.Is(err, sqlite.ErrLocked):
			f.add(vFail, "database", "%v", err)
		default:
			f.add(vFail, "database", "%s cannot be written: %v", abs, err)
		}
		return
	}
	switch {
	case st.Newer():
		f.add(vFail, "database", "%s has schema version %d, newer than this Haven's %d: run a newer Haven on it", abs, st.Current, st.Target)
		return
	case len(st.Pending) > 0:
		f.add(vWarn, "database", "%s is at schema version %d, this Haven's is %d: it migrates at start (take a `haven backup` first), or run `haven migrate up`", abs, st.Current, st.Target)
	default:
		size := fi.Size()
		if wal, err := os.Stat(abs + "-wal"); err == nil {
			size += wal.Size()
		}
		f.add(vOK, "database", "%s opens, is Haven's (schema version %d), takes a write; %s", abs, st.Current, humanBytes(size))
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		f.add(vWarn, "database", "other users may read %s (mode %04o), which holds what people told Haven: chmod 600 %s", abs, perm, abs)
	}
}

// existingAncestor returns path's nearest ancestor directory that exists.
func existingAncestor(path string) string {
	dir := filepath.Dir(path)
	for {
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return dir
		}
		dir = parent
	}
}

// tryWrite creates and removes a file in dir.
func tryWrite(dir string) error {
	tmp, err := os.CreateTemp(dir, ".haven-doctor-*")
	if err != nil {
		return err
	}
	tmp.Close()
	return os.Remove(tmp.Name())
}

// checkDisk reports the free space on the filesystem holding dir.
func checkDisk(f *findings, dir string) {
	free, ok := freeBytes(dir)
	switch {
	case !ok:
		f.add(vNote, "disk", "free space not checked on this system")
	case free < diskFail:
		f.add(vFail, "disk", "only %s free on the disk holding %s: Haven stops saving conversations when it is full; free space or move the database", humanBytes(int64(free)), dir)
	case free < diskWarn:
		f.add(vWarn, "disk", "%s free on the disk holding %s: free some space soon", humanBytes(int64(free)), dir)
	default:
		f.add(vOK, "disk", "%s free on the disk holding %s", humanBytes(int64(free)), dir)
	}
}

// checkSettings notes the settings an operator should have chosen on
// purpose.
func checkSettings(f *findings, cfg configs.Config) {
	if note := countryNote(cfg); note != "" {
		f.add(vWarn, "safety", "%s", note)
	} else {
		f.add(vOK, "safety", "crisis replies name %s's lines while a person's country is unknown", cfg.Safety.DefaultCountry)
	}
	if cfg.Memory.TranscriptRetention == 0 {
		f.add(vNote, "retention", "transcripts are kept until people delete them (memory.transcript_retention 0); set it (e.g. 2160h, 90 days) to delete older lines")
	} else {
		f.add(vOK, "retention", "transcript lines are deleted after %s", cfg.Memory.TranscriptRetention)
	}
	if cfg.Metrics.Listen == "" {
		f.add(vNote, "metrics", "metrics.listen is empty: no /metrics, /healthz or /readyz; set it (e.g. 127.0.0.1:9464) to watch Haven")
	} else {
		f.add(vOK, "metrics", "/metrics, /healthz and /readyz on %s when Haven serves", cfg.Metrics.Listen)
	}
}

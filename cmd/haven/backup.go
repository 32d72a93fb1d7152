package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/havenbot/haven/configs"
	"github.com/havenbot/haven/memory/sqlite"
)

// databasePath returns the database file the configuration names (--db
// over database.path). It loads the configuration without validating the
// rest of it: the operations commands need only the path, and run where
// the platforms' secrets may not be set (a backup job).
func databasePath(flags commonFlags, env func(string) (string, bool)) (string, error) {
	cfg, err := configs.Load(flags.config, env, sections(platforms())...)
	if err != nil {
		return "", err
	}
	if flags.db != "" {
		cfg.Database.Path = flags.db
	}
	if strings.TrimSpace(cfg.Database.Path) == "" {
		return "", errors.New("database.path is empty: set it (HAVEN_DATABASE_PATH) or pass --db FILE")
	}
	return cfg.Database.Path, nil
}

// backup runs `haven backup FILE`: a consistent copy of the database,
// taken while Haven may be serving from it.
func backup(ctx context.Context, args []string, std stdio, env func(string) (string, bool)) error {
	var flags commonFlags
	fs := newFlagSet("backup", std)
	flags.register(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("%w: backup needs one argument, the new file to write: haven backup [--db FILE] COPY", errUsage)
	}
	path, err := databasePath(flags, env)
	if err != nil {
		return err
	}
	dst := fs.Arg(0)
	if err := sqlite.Backup(ctx, path, dst); err != nil {
		return err
	}
	size := "?"
	if fi, err := os.Stat(dst); err == nil {
		size = humanBytes(fi.Size())
	}
	fmt.Fprintf(std.out, "backed up %s to %s (%s, checked, readable by its owner only)\n", path, dst, size)
	return nil
}

// humanBytes formats n bytes for people: 512 B, 3.4 MB, 1.2 GB.
func humanBytes(n int64) string {
	const unit = 1000
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %cB", float64(n)/float64(div), "kMGTPE"[exp])
}

// migrate runs `haven migrate [status|up]`.
func migrate(ctx context.Context, args []string, std stdio, env func(string) (string, bool)) error {
	sub := "status"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		sub, args = args[0], args[1:]
	}
	if sub != "status" && sub != "up" {
		return fmt.Errorf("%w: migrate takes status (the default) or up, not %q", errUsage, sub)
	}
	var flags commonFlags
	fset := newFlagSet("migrate "+sub, std)
	flags.register(fset)
	if err := parseFlags(fset, args); err != nil {
		return err
	}
	if fset.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fset.Arg(0))
	}
	path, err := databasePath(flags, env)
	if err != nil {
		return err
	}
	before, err := sqlite.SchemaStatus(ctx, path)
	missing := errors.Is(err, fs.ErrNotExist)
	if err != nil && !(missing && sub == "up") {
		return err
	}
	if sub == "status" {
		printSchema(std, before)
		return nil
	}
	if before.Newer() {
		return fmt.Errorf("%s has schema version %d, newer than this Haven's %d: run a newer Haven (migrations only go up)", before.Path, before.Current, before.Target)
	}
	if !missing && len(before.Pending) == 0 {
		fmt.Fprintf(std.out, "%s is up to date (schema version %d)\n", before.Path, before.Current)
		return nil
	}
	s, err := sqlite.Open(ctx, path) // migrates
	if err != nil {
		return err
	}
	if err := s.Close(); err != nil {
		return err
	}
	after, err := sqlite.SchemaStatus(ctx, path)
	if err != nil {
		return err
	}
	if missing {
		fmt.Fprintf(std.out, "created %s at schema version %d\n", after.Path, after.Current)
		return nil
	}
	fmt.Fprintf(std.out, "migrated %s from schema version %d to %d (%d migrations)\n", after.Path, before.Current, after.Current, len(before.Pending))
	return nil
}

// printSchema writes `haven migrate status`.
func printSchema(std stdio, s sqlite.Schema) {
	fmt.Fprintf(std.out, "database:        %s\n", s.Path)
	fmt.Fprintf(std.out, "schema version:  %d\n", s.Current)
	fmt.Fprintf(std.out, "this build's:    %d\n", s.Target)
	switch {
	case s.Newer():
		fmt.Fprintln(std.out, "status:          newer than this Haven: run a newer Haven on this file")
	case len(s.Pending) == 0:
		fmt.Fprintln(std.out, "status:          up to date")
	default:
		names := make([]string, len(s.Pending))
		for i, m := range s.Pending {
			names[i] = m.Name
		}
		fmt.Fprintf(std.out, "status:          %d pending: %s\n", len(s.Pending), strings.Join(names, ", "))
		fmt.Fprintln(std.out, "to apply them:   haven backup COPY, then haven migrate up (haven also migrates when it starts)")
	}
}

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/havenbot/haven/configs"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], stdio{in: os.Stdin, out: os.Stdout, err: os.Stderr, environ: os.Environ()}, os.LookupEnv)
	stop()
	os.Exit(code)
}

// stdio is the process's standard streams, injected so tests can drive haven.
type stdio struct {
	in       io.Reader
	out, err io.Writer
	// environ is the process environment (os.Environ), read only to refuse
	// HAVEN_ variables that are no key's (values come from run's env);
	// nil skips that check.
	environ []string
}

// errUsage marks a command-line mistake: exit code 2.
var errUsage = errors.New("usage")

const usage = `haven: a self-hosted companion bot

Usage:
  haven [serve] [--config FILE] [--db FILE]   serve the configured platforms (the terminal when none)
  haven chat [--config FILE] [--db FILE]      chat in the terminal
  haven assess [--config FILE]                read JSONL {"text":...,"history":[...]} on stdin, write assessments
  haven eval crisis [flags] FILE...           measure the crisis gate on labelled JSONL files
  haven eval crisis --loso DIR [FILE...]      leave one source out: train the learned scorer on the
                                              other sources, measure the floor on the one left out
  haven eval emotion [-split test|dev] DIR    the emotion reader on GoEmotions: macro-F1, valence accuracy
  haven backup [--db FILE] COPY               write a consistent copy of the database, also while serving
  haven migrate [status|up] [--db FILE]       the database's schema version; up applies what is pending
  haven doctor [--config FILE] [--db FILE]    check the config, tokens, model, database and disk; say what to fix
  haven bench [-people N] [-messages N] [-think D] [-concurrency N] [-model-latency D] [-cpuprofile FILE]
                                              load Haven and a bare echo bot through a fake Telegram; print
                                              throughput, p50/p95/p99 turn latency and their ratio
  haven help                                  this text

Configuration: --config FILE (YAML, see configs/haven.example.yaml), every key overridable by
HAVEN_<KEY_PATH> in the environment; secrets only from the environment.
`

// run executes one haven command and returns the process exit code.
func run(ctx context.Context, args []string, std stdio, env func(string) (string, bool)) int {
	cmd := "serve"
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	var err error
	if cmd != "help" && cmd != "doctor" { // doctor reports it among the rest
		if err := configs.CheckEnviron(std.environ, sections(platforms())...); err != nil {
			fmt.Fprintf(std.err, "haven: %v\n", err)
			return 2
		}
	}
	switch cmd {
	case "serve":
		err = serve(ctx, args, std, env, false)
	case "chat":
		err = serve(ctx, args, std, env, true)
	case "assess":
		err = assess(ctx, args, std, env)
	case "eval":
		err = eval(ctx, args, std, env)
	case "backup":
		err = backup(ctx, args, std, env)
	case "migrate":
		err = migrate(ctx, args, std, env)
	case "doctor":
		err = doctor(ctx, args, std, env)
	case "bench":
		err = bench(ctx, args, std, env)
	case "help", "-h", "--help":
		fmt.Fprint(std.out, usage)
		return 0
	default:
		err = fmt.Errorf("%w: unknown command %q", errUsage, cmd)
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		fmt.Fprintf(std.err, "haven: %v\n\n%s", err, usage)
		return 2
	default:
		fmt.Fprintf(std.err, "haven: %v\n", err)
		return 1
	}
}

// commonFlags are the flags every serving command takes.
type commonFlags struct {
	config string
	db     string
}

func (c *commonFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&c.config, "config", "", "YAML config `file` (default: none, built-in defaults)")
	fs.StringVar(&c.db, "db", "", "SQLite database `file` (default: database.path, ./data/haven.db)")
}

func newFlagSet(name string, std stdio) *flag.FlagSet {
	fs := flag.NewFlagSet("haven "+name, flag.ContinueOnError)
	fs.SetOutput(std.err)
	return fs
}

func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	return nil
}

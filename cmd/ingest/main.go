// Command ingest turns a Markdown knowledge corpus into a retrieval-ready,
// versioned snapshot: chunks.parquet with embeddings, a manifest and a run
// report. This package only wires flags to the library and maps errors to
// exit codes.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/cmd/ingest/internal/config"
	"github.com/ocean-safety/ingest/cmd/ingest/internal/console"
	"github.com/ocean-safety/ingest/cmd/ingest/internal/forgive"
	"github.com/ocean-safety/ingest/internal/redact"
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/stages"
	"github.com/ocean-safety/ingest/text/printable"
)

// Exit codes: every one the tool returns is decided in exitCode.
const (
	exitOK          = 0
	exitFailed      = 1
	exitUsage       = 2
	exitPartial     = 3
	exitNoRelevant  = 4 // search: no passage clears the relevance floor
	exitInterrupted = 130
)

// errPartial reports a run that published but rejected some documents or
// could not read some of the corpus.
var errPartial = errors.New("partial: some documents were rejected or could not be read")

// usageError marks a bad flag, argument or config value.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usage(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// stopGrace is how long an interrupted run may take to stop cleanly (abort
// its staging folder, close its journal) before the process exits anyway:
// an operator's Ctrl-C or an orchestrator's SIGTERM gets an answer within
// about a second. Exiting mid-work is as safe as a crash (see the crash
// test): the previous snapshot is untouched and the next run cleans up.
const stopGrace = time.Second

func main() { os.Exit(runProcess(os.Args)) }

// runProcess is the process around run: signals cancel the run, and an
// interrupted run that does not stop within stopGrace is ended.
func runProcess(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	finished := make(chan struct{})
	defer stop()
	defer close(finished) // before stop: its cancellation is no interrupt
	armGrace(ctx, finished, stop, stopGrace, func() {
		fmt.Fprintln(os.Stderr, "ingest: interrupted; stopped without waiting for the last work (nothing was published; the previous snapshot is intact)")
		os.Exit(exitInterrupted)
	})
	return run(ctx, args, os.Stdin, os.Stdout, os.Stderr)
}

// armGrace calls end grace after ctx is cancelled by a signal, unless the
// run has finished by then (see interrupted).
func armGrace(ctx context.Context, finished <-chan struct{}, stop func(), grace time.Duration, end func()) {
	context.AfterFunc(ctx, func() {
		interrupted(finished, stop, func(f func()) { time.AfterFunc(grace, f) }, end)
	})
}

// interrupted is the run's context cancelled. The finished run's own
// cancellation, on its way out, arms nothing: a run that published, then
// took longer than the grace to exit (a loaded machine, the race detector's
// exit), was ended as interrupted. A signal's stops the signal handler (a
// second Ctrl-C ends the process at once) and, once the grace has passed
// (after runs what it is given then), ends the run unless it has finished.
func interrupted(finished <-chan struct{}, stop func(), after func(func()), end func()) {
	select {
	case <-finished:
		return
	default:
	}
	stop()
	after(func() {
		select {
		case <-finished: // it stopped cleanly within the grace: its own code is the exit
		default:
			end()
		}
	})
}

// run is the whole program, testable: arguments and streams in, exit code out.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	// Secrets out first, then every unsafe character escaped: nothing a
	// user, a corpus or a server supplied can drive the terminal or forge
	// a CI annotation (the diagnostics and the progress bars write their
	// own, escaped, to printable.Raw).
	secrets := givenSecrets(args)
	ctx = withSecrets(ctx, secrets)
	stdout, stderr = printable.NewWriter(redact.NewMasker(stdout, secrets)), printable.NewWriter(redact.NewMasker(stderr, secrets))
	jsonOut := logFormatJSON(args)
	if jsonOut { // every line of stderr a JSON object (console.JSONLines)
		jl := console.NewJSONLines(stderr)
		defer jl.Close()
		stderr = jl
	}
	unknown := "" // a command name that is none of ours
	args = forgive.CompletionArgs(args)
	onUsage := func(_ context.Context, cmd *cli.Command, err error, _ bool) error {
		return usageError{forgive.Flag(cmd, args, err)}
	}
	app := &cli.Command{
		Name:                  "ingest",
		Usage:                 "turn a Markdown knowledge corpus into a retrieval-ready Parquet snapshot",
		Version:               buildVersion(),
		Reader:                stdin,
		Writer:                stdout,
		ErrWriter:             stderr,
		EnableShellCompletion: true,                                          // ingest completion bash|zsh|fish
		Suggest:               true,                                          // an unknown command or flag gets a "did you mean"
		ExitErrHandler:        func(context.Context, *cli.Command, error) {}, // exit codes are decided below
		OnUsageError:          onUsage,
		CommandNotFound:       func(_ context.Context, _ *cli.Command, name string) { unknown = name },
		Commands:              commands(),
	}
	for _, c := range app.Commands {
		c.OnUsageError = onUsage // one line per error, no help page after it
		withExamples(c)
	}
	err := forgive.UnknownCommand(app, args)
	if err != nil {
		err = usageError{err}
	} else {
		err = app.Run(ctx, args)
	}
	if err == nil && unknown != "" {
		err = usageError{forgive.NotFound(app, unknown)}
	}
	code := exitCode(ctx, err)
	var stopped *stages.Stopped
	msg := ""
	switch {
	case err == nil, errors.Is(err, errPartial), errors.Is(err, errDiffers), errors.Is(err, errNothingRelevant):
	case code == exitInterrupted && errors.As(err, &stopped):
		stopped.Err = errors.New("interrupted") // not the task that happened to see the cancellation
		msg = stopped.Error()
	case code == exitInterrupted:
		msg = "interrupted; nothing published"
	default:
		msg = err.Error()
	}
	if msg != "" {
		console.Teller{W: stderr, JSON: jsonOut}.Failed(msg, code)
	}
	return code
}

// commands are ingest's commands, in the order help lists them.
func commands() []*cli.Command {
	return []*cli.Command{indexCommand(), mergeCommand(), chunkCommand(), inspectCommand(), unitsCommand(), thresholdsCommand(), searchCommand(),
		evalCommand(), diffCommand(), verifyCommand(), syncCommand(), pushCommand(), embedCommand(), listCommand(), configCommand(), initCommand()}
}

// exitCode maps an error to the process exit code, in one place.
func exitCode(ctx context.Context, err error) int {
	var ue usageError
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errPartial):
		return exitPartial
	case errors.Is(err, errDiffers): // diff --exit-code, like git diff --exit-code
		return exitFailed
	case errors.Is(err, errNothingRelevant):
		return exitNoRelevant
	case errors.Is(err, context.Canceled) || ctx.Err() != nil:
		return exitInterrupted
	case errors.As(err, &ue), errors.As(err, new(diffTrouble)), isCLIUsage(err):
		return exitUsage
	default:
		return exitFailed
	}
}

// isCLIUsage recognises the flag errors urfave/cli returns without calling
// OnUsageError (a missing required flag, an unknown command).
func isCLIUsage(err error) bool {
	msg := err.Error()
	for _, s := range []string{"Required flag", "flag provided but not defined", "No help topic", "invalid value"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// loadConfig reads --config (or the defaults) for a command; the
// credentials the file holds join the secrets its output masks.
func loadConfig(ctx context.Context, cmd *cli.Command) (config.File, error) {
	if p := cmd.String("config"); p != "" {
		if b, err := os.ReadFile(p); err == nil {
			addSecrets(ctx, string(b))
		}
		f, err := config.Read(p)
		if err == nil {
			err = f.CheckSecrets(hostEnv) // the file's own values, before a flag's
		}
		if err != nil {
			return f, usageError{err}
		}
		return f, nil
	}
	return config.Default(), nil
}

// settingFlags names the flag that sets a setting, where one does: a bad
// value is reported under the name the user typed.
var settingFlags = map[string]string{
	"corpus":             "--corpus",
	"workers":            "--workers",
	"llm_concurrency":    "--llm-concurrency",
	"embed_concurrency":  "--embed-concurrency",
	"llm":                "--llm",
	"embedder":           "--embedder",
	"retrieval.mode":     "--mode",
	"retrieval.top_k":    "--k",
	"diagnostics.ignore": "--ignore",
	"push.to":            "--to",
	"push.tenant":        "--tenant",
	"push.header_file":   "--header-file",
	"push.state":         "--state",
}

// settingsError marks the bad settings in err (and a model backend's failed
// start-up check) as a usage error, naming each setting by its flag where one
// sets it and by its config key otherwise.
func settingsError(err error) error {
	var se *schema.SettingError
	if !errors.As(err, &se) && !errors.Is(err, models.ErrBackendSetup) {
		return err // not a setting: a server or disk problem
	}
	return usageError{errors.New(console.DescribeSettings(err, settingFlags))}
}

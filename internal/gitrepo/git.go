// Package gitrepo runs git on behalf of agentdesk and manages the linked
// worktrees behind "session from a repository".
//
// Every git command goes through Git, GitInput or GitStream: no shell,
// arguments as a slice, a sanitised environment (no inherited GIT_*
// variables, GIT_TERMINAL_PROMPT=0, GIT_OPTIONAL_LOCKS=0 so git never takes
// index.lock while the user works, LC_ALL=C so messages are stable), and a
// timeout. All functions are safe for concurrent use.
package gitrepo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/agentdesk/agentdesk/internal/childproc"
	"github.com/agentdesk/agentdesk/internal/launch"
)

// ErrNotRepo means the directory is missing or not inside a git work tree.
var ErrNotRepo = errors.New("not a git work tree")

// DefaultTimeout bounds one git command when its context has no deadline.
const DefaultTimeout = 10 * time.Second

// maxStderr is how much of git's stderr an Error keeps.
const maxStderr = 4 << 10

// globalArgs come before every subcommand. quotepath=off keeps non-ASCII
// paths readable; fsmonitor=false stops a repository's own config from
// making a read-only diff run an arbitrary hook program.
var globalArgs = []string{"-c", "core.quotepath=off", "-c", "core.fsmonitor=false"}

// Error is a git command that could not start or exited non-zero.
type Error struct {
	Args     []string // the arguments after the global -c options
	ExitCode int      // -1 when git did not exit normally
	Stderr   string   // at most 4 KiB of git's stderr
	Err      error    // the exec error
	notRepo  bool
}

func (e *Error) Error() string {
	msg := strings.TrimSpace(e.Stderr)
	if msg == "" {
		return fmt.Sprintf("git %s: %v", e.subcommand(), e.Err)
	}
	return fmt.Sprintf("git %s: %v: %s", e.subcommand(), e.Err, msg)
}

// Unwrap lets errors.Is match both the exec error and ErrNotRepo.
func (e *Error) Unwrap() []error {
	if e.notRepo {
		return []error{e.Err, ErrNotRepo}
	}
	return []error{e.Err}
}

// subcommand is the first argument that is not an option, for messages.
func (e *Error) subcommand() string {
	for _, a := range e.Args {
		if !strings.HasPrefix(a, "-") {
			return a
		}
	}
	return strings.Join(e.Args, " ")
}

// ExitCode returns the exit code of a failed git command in err's chain, or
// -1 when err is not a git exit.
func ExitCode(err error) int {
	var ge *Error
	if errors.As(err, &ge) {
		return ge.ExitCode
	}
	return -1
}

// Git runs git in dir and returns its stdout. When ctx has no deadline the
// command gets DefaultTimeout.
func Git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	return GitInput(ctx, dir, nil, args...)
}

// GitInput is Git with stdin fed from input.
func GitInput(ctx context.Context, dir string, input []byte, args ...string) ([]byte, error) {
	var out bytes.Buffer
	read := func(r io.Reader) error {
		_, err := out.ReadFrom(r)
		return err
	}
	var stdin io.Reader
	if input != nil {
		stdin = bytes.NewReader(input)
	}
	err := run(ctx, dir, stdin, read, args)
	return out.Bytes(), err
}

// GitStream runs git in dir and hands its stdout to read while it runs, so
// large outputs need not be held in memory. If read returns early, the rest
// of the output is discarded; if read fails, git is killed and read's error
// is returned.
func GitStream(ctx context.Context, dir string, read func(io.Reader) error, args ...string) error {
	return run(ctx, dir, nil, read, args)
}

func run(ctx context.Context, dir string, stdin io.Reader, read func(io.Reader) error, args []string) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultTimeout)
		defer cancel()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stderr := &capped{max: maxStderr}
	proc, err := launcher.Start(ctx, spec(dir, stdin, stderr, args))
	if err != nil {
		return &Error{Args: args, ExitCode: -1, Err: err}
	}
	stdout := proc.Stdout()
	readErr := read(stdout)
	if readErr != nil {
		cancel() // nobody will read the rest: stop git
	} else {
		_, _ = io.Copy(io.Discard, stdout)
	}
	waitErr := proc.Wait()
	if readErr != nil {
		return fmt.Errorf("read git %s output: %w", firstWord(args), readErr)
	}
	if waitErr != nil {
		return newError(args, waitErr, stderr.String())
	}
	return nil
}

// launcher starts git: on this machine, where the work trees are.
var launcher launch.Launcher = launch.Local{}

// spec is one git command. It runs in its own process group, so a timeout
// also ends anything git started (hooks, helpers) instead of leaving them
// holding our pipes.
func spec(dir string, stdin io.Reader, stderr io.Writer, args []string) launch.Spec {
	return launch.Spec{
		Argv: append(append([]string{"git"}, globalArgs...), args...),
		Env:  environ(), Dir: dir,
		Stdin: stdin, Stderr: stderr, StdoutPipe: true,
		Cancel: syscall.SIGKILL, WaitDelay: 2 * time.Second,
	}
}

func newError(args []string, err error, stderr string) *Error {
	e := &Error{Args: args, ExitCode: -1, Stderr: stderr, Err: err}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		e.ExitCode = ee.ExitCode()
	}
	e.notRepo = e.ExitCode == 128 && (strings.Contains(stderr, "not a git repository") ||
		strings.Contains(stderr, "must be run in a work tree"))
	return e
}

// environ is the process environment without GIT_* variables (which could
// point git at another repository, index or config) and without
// agentdesk's own (the token: hooks and helpers run with git's
// environment), plus our own settings.
func environ() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	return childproc.Env(env, "", "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
}

func firstWord(args []string) string {
	return (&Error{Args: args}).subcommand()
}

// capped is an io.Writer keeping only the first max bytes.
type capped struct {
	buf bytes.Buffer
	max int
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); room > 0 {
		c.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

func (c *capped) String() string { return c.buf.String() }

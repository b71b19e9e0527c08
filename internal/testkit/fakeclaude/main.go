// Command fakeclaude stands in for the Claude Code CLI in long-lived
// stream-json mode, for fast unit tests of worker/claude and worker/chat.
// Build it with `go build ./internal/testkit/fakeclaude` (or fakeclaudetest.Build).
//
// It reads stdin lines and answers the control requests initialize,
// interrupt, set_permission_mode and set_model (others get the CLI's
// "Unsupported control request subtype" error). Each user message plays one
// turn:
//
//   - FAKECLAUDE_SCRIPT=<file>: a JSONL of stdout lines, either raw CLI
//     stdout (fixtures *.jsonl) or a transcript (*.transcript.jsonl, whose
//     "stdout" lines are used, minus control_response lines). Turns end at
//     each "result" line; the Nth user message plays the Nth turn, the last
//     one repeating. {{SESSION_ID}}, {{CWD}} and {{UUID}} (fresh each time)
//     are substituted. A control_request line (can_use_tool) is printed and
//     the turn waits for the matching control_response on stdin; an
//     interrupt then (or between lines) ends the turn the way the CLI does.
//   - no script: a built-in turn (init, assistant "Echo: <text>", result).
//   - FAKECLAUDE_FLOOD=<n>: init, n assistant lines as fast as possible,
//     result (for benchmarks). FAKECLAUDE_FLOOD_RATE=<lines/s> paces them
//     in 1 ms bursts and stamps each text with its write time in Unix ns.
//   - FAKECLAUDE_BIG=<n>x<bytes>: init, n lines of about that many bytes
//     each, result (for the memory benchmark). FAKECLAUDE_BIG_KIND=tool
//     (user lines with a tool_result), text (assistant lines with one
//     markdown text block) or mixed (the default: alternating).
//
// Other knobs: FAKECLAUDE_EXIT_AT_START=<code> prints an error to stderr and
// exits; FAKECLAUDE_EXIT_ON=<subtype> exits 5 on that control request,
// unanswered; FAKECLAUDE_IGNORE_EOF=1 keeps running after stdin closes;
// FAKECLAUDE_IGNORE_TERM=1 ignores SIGTERM; FAKECLAUDE_CHILD=1 starts a
// child process in the same group and prints
// {"type":"fakeclaude","subtype":"child","pid":N}; FAKECLAUDE_HANG=1 plays
// a turn that never ends, see hang.go. At start it writes its
// pid and arguments to stderr. On stdin EOF it exits 0, or 1 when the last
// result had is_error:true, as the CLI does.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"syscall"
	"time"
)

func main() {
	if s := os.Getenv("FAKECLAUDE_SLEEPER"); s != "" {
		sleeper(s) // a child: FAKECLAUDE_CHILD's ("1"), or FAKECLAUDE_TOOL's
		return
	}
	os.Exit(run())
}

func run() int {
	fmt.Fprintf(os.Stderr, "fakeclaude: pid=%d args=%q\n", os.Getpid(), os.Args[1:])
	if s := os.Getenv("FAKECLAUDE_EXIT_AT_START"); s != "" {
		code, _ := strconv.Atoi(s)
		fmt.Fprintf(os.Stderr, "fakeclaude: Error: exiting at start with code %d\n", code)
		return code
	}
	if os.Getenv("FAKECLAUDE_IGNORE_TERM") == "1" {
		signal.Ignore(syscall.SIGTERM)
	}
	f, err := newFake(os.Args[1:])
	if err != nil {
		fmt.Fprintf(os.Stderr, "fakeclaude: %v\n", err)
		return 2
	}
	if os.Getenv("FAKECLAUDE_CHILD") == "1" {
		if err := f.startChild(); err != nil {
			fmt.Fprintf(os.Stderr, "fakeclaude: %v\n", err)
			return 2
		}
	}
	code := f.loop()
	if os.Getenv("FAKECLAUDE_IGNORE_EOF") == "1" {
		for {
			time.Sleep(time.Hour) // until a signal ends us
		}
	}
	return code
}

// startChild runs this program again as a sleeper that inherits stderr, so
// it holds a pipe of the driver open, like a tool the CLI spawned.
func (f *fake) startChild() error {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "FAKECLAUDE_SLEEPER=1")
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start child: %w", err)
	}
	f.emit(fmt.Sprintf(`{"type":"fakeclaude","subtype":"child","pid":%d}`, cmd.Process.Pid))
	return nil
}

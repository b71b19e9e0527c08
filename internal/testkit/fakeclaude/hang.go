package main

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"
)

// A wedged turn, for the stall watchdog and the escalating Stop
// (FAKECLAUDE_HANG=1): the turn prints its start and then nothing, never
// its result. A user message meanwhile is echoed (output during the
// turn), an interrupt ends the turn as the CLI does unless
// FAKECLAUDE_IGNORE_INTERRUPT=1, which leaves it unanswered.
// FAKECLAUDE_TOOL starts a tool child when the turn begins and prints
// {"type":"fakeclaude","subtype":"tool","pid":N}: "stubborn" calls setsid,
// ignores SIGTERM and holds stdout open (a background task the CLI left);
// "busy" spins on the CPU and prints nothing. With FAKECLAUDE_TOOL_CHILD=1
// a stubborn tool starts one more stubborn process, in a session of its
// own again, and prints the same line with its pid.

func (f *fake) hangTurn(m inMsg) {
	f.emitJSON(f.initLine())
	f.emitJSON(f.assistantLine("msg_fake_hang", "Working on: "+promptText(m.Message.Content)))
	if tool := os.Getenv("FAKECLAUDE_TOOL"); tool != "" {
		if err := f.startTool(tool); err != nil {
			fmt.Fprintf(os.Stderr, "fakeclaude: %v\n", err)
		}
	}
	ignore := os.Getenv("FAKECLAUDE_IGNORE_INTERRUPT") == "1"
	for {
		m, ok := <-f.in
		if !ok {
			f.in, f.eof = nil, true
			return
		}
		switch {
		case m.Type == "user":
			f.emitJSON(f.assistantLine("msg_fake_hang", "Echo: "+promptText(m.Message.Content)))
		case m.Type == "control_request" && m.Request.Subtype == "interrupt":
			if ignore {
				continue
			}
			f.control(m)
			f.interrupted()
			return
		default:
			f.handle(m)
		}
	}
}

// startTool runs this program again as the tool kind says.
func (f *fake) startTool(kind string) error {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "FAKECLAUDE_SLEEPER="+kind)
	if kind == "stubborn" {
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		cmd.Stdout = os.Stdout // holds the CLI's stdout open, as background tasks do
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start tool: %w", err)
	}
	f.emit(fmt.Sprintf(`{"type":"fakeclaude","subtype":"tool","pid":%d}`, cmd.Process.Pid))
	return nil
}

// sleeper is the body of a child this program started (FAKECLAUDE_SLEEPER).
func sleeper(kind string) {
	switch kind {
	case "stubborn":
		signal.Ignore(syscall.SIGTERM)
		if os.Getenv("FAKECLAUDE_TOOL_CHILD") == "1" {
			startGrandchild()
		}
	case "busy":
		for n := 0; ; n++ { // CPU use and no output: a long test run
			if n < 0 {
				return
			}
		}
	}
	time.Sleep(time.Hour) // until a signal ends it
}

// startGrandchild is a stubborn tool's own stubborn child: it holds stdout
// too, and its pid line goes out through it.
func startGrandchild() {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "FAKECLAUDE_SLEEPER=stubborn", "FAKECLAUDE_TOOL_CHILD=0")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.Stdout = os.Stdout
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "fakeclaude: start tool child: %v\n", err)
		return
	}
	fmt.Printf("{\"type\":\"fakeclaude\",\"subtype\":\"tool\",\"pid\":%d}\n", cmd.Process.Pid)
}

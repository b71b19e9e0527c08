// Command fakeopenai runs the fake OpenAI Responses API of package
// fakeopenai as a process, for tests written in another language (the
// browser end-to-end tests start it, then point agentdesk's Codex driver
// at it).
//
// It prints the base URL (http://127.0.0.1:PORT) as the first line of
// stdout, then serves until stdin reaches EOF (the parent closed it or
// died) or SIGTERM/SIGINT arrives. A line "down" on stdin takes the API
// down (Server.SetDown), "up" brings it back; each is answered with a line
// "ok" (or the error) on stdout. On the way out it writes one line per
// request it received to stderr, so a failing test can show what the CLI
// asked for. FAKEOPENAI_SLOW_DELAY (a Go duration) sets the delay between
// the "slow" reply's chunks; FAKEOPENAI_FLOOD the count of the "flood"
// reply's messages.
package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/agentdesk/agentdesk/internal/testkit/fakeopenai"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "fakeopenai:", err)
		os.Exit(1)
	}
}

func run() error {
	slowDelay := 100 * time.Millisecond
	if v := os.Getenv("FAKEOPENAI_SLOW_DELAY"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			return fmt.Errorf("parse FAKEOPENAI_SLOW_DELAY: %w", err)
		}
		slowDelay = d
	}
	s := fakeopenai.Start()
	s.SlowDelay = slowDelay // before the first request, as Server asks
	if v := os.Getenv("FAKEOPENAI_FLOOD"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return fmt.Errorf("FAKEOPENAI_FLOOD: a count of messages, got %q", v)
		}
		s.FloodItems = n
	}
	defer s.Close()
	if _, err := fmt.Println(s.URL()); err != nil {
		return fmt.Errorf("write url: %w", err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	// A blocking read of stdin cannot be cancelled; this goroutine ends at
	// EOF or with the process, and it holds nothing that needs cleaning up.
	eof := make(chan struct{})
	go func() {
		commands(s, os.Stdin, os.Stdout)
		close(eof)
	}()
	select {
	case <-ctx.Done():
	case <-eof:
	}
	s.Close() // ends slow and hanging streams, so the log below is complete
	logRequests(os.Stderr, s.Requests())
	return nil
}

// commands obeys stdin's lines until EOF.
func commands(s *fakeopenai.Server, in io.Reader, out io.Writer) {
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		var err error
		switch strings.TrimSpace(sc.Text()) {
		case "down":
			err = s.SetDown(true)
		case "up":
			err = s.SetDown(false)
		default:
			err = fmt.Errorf("unknown command %q (down, up)", sc.Text())
		}
		if err != nil {
			fmt.Fprintln(out, err)
		} else {
			fmt.Fprintln(out, "ok")
		}
	}
}

// logRequests writes a one-line summary of each request: method, path,
// how it was answered, and the prompt the reply was chosen from.
func logRequests(w io.Writer, reqs []fakeopenai.Request) {
	for _, r := range reqs {
		line := fmt.Sprintf("fakeopenai: %s %s %s -> %d %s", r.Method, r.Path, r.Host, r.Status, r.Reply)
		if r.Disconnected {
			line += " (client disconnected)"
		}
		if p := r.Prompt(); p != "" {
			if len(p) > 80 {
				p = p[:80] + "…"
			}
			line += fmt.Sprintf(" prompt=%q", p)
		}
		fmt.Fprintln(w, line)
	}
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"sync"

	"github.com/coder/websocket"
	"github.com/creack/pty"

	"github.com/agentdesk/agentdesk/internal/childproc"
)

// Every target runs the same `bash -l` at termCols x termRows.
const (
	termCols = 120
	termRows = 30
)

// termTarget is one server (or the raw PTY) that runs a shell.
type termTarget struct {
	name string
	pid  int // the server's, for its CPU and RSS; 0 for raw
	// shared says whether more tabs can watch the same terminal (gotty
	// starts a new shell per connection).
	shared bool
	// open starts a shell with its first tab; attach adds a tab to it.
	open func(ctx context.Context) (*termShell, error)
}

// termShell is one running shell and the means to watch it again.
type termShell struct {
	first  tabConn
	attach func(ctx context.Context) (tabConn, error)
	end    func() // ends the shell (after its tabs are closed)
}

func agentdeskTarget(name string, c *client, pid int) termTarget {
	return termTarget{name: name, pid: pid, shared: true, open: func(ctx context.Context) (*termShell, error) {
		s, err := c.newSession(ctx, "none")
		if err != nil {
			return nil, err
		}
		end := func() { _ = c.deleteSession(context.Background(), s.ID) }
		w, err := c.newWorker(ctx, s.ID, map[string]any{"kind": "terminal",
			"command": []string{"bash", "-l"}, "cols": termCols, "rows": termRows})
		if err != nil {
			end()
			return nil, err
		}
		attach := func(ctx context.Context) (tabConn, error) {
			conn, err := c.dial(ctx, s.ID, w.ID, "")
			if err != nil {
				return nil, err
			}
			return &adConn{in: frames{conn: conn}, off: -1}, nil
		}
		first, err := attach(ctx)
		if err != nil {
			end()
			return nil, err
		}
		return &termShell{first: first, attach: attach, end: end}, nil
	}}
}

func gottyTarget(host string, pid int) termTarget {
	return termTarget{name: "gotty", pid: pid, open: func(ctx context.Context) (*termShell, error) {
		conn, err := dialGotty(ctx, host)
		if err != nil {
			return nil, err
		}
		return &termShell{first: conn, end: func() {}}, nil
	}}
}

// agentConsoleTarget makes a quick session (which comes with an agent
// worker, removed at once so that only the terminal runs) and a terminal
// worker, which runs the server's $SHELL -l at 120x30.
func agentConsoleTarget(host string, pid int) termTarget {
	return termTarget{name: "agent-console", pid: pid, shared: true, open: func(ctx context.Context) (*termShell, error) {
		dir, err := os.MkdirTemp("", "agentdesk-load-")
		if err != nil {
			return nil, fmt.Errorf("create session dir: %w", err)
		}
		var s struct {
			Session struct {
				ID      string `json:"id"`
				Workers []struct{ ID, Type string }
			}
		}
		if err := acDo(ctx, host, http.MethodPost, "/api/sessions", map[string]any{"type": "quick", "locationPath": dir}, &s); err != nil {
			return nil, err
		}
		sid := s.Session.ID
		end := func() { _ = acDo(context.Background(), host, http.MethodDelete, "/api/sessions/"+sid, nil, nil) }
		for _, w := range s.Session.Workers {
			if w.Type == "agent" {
				_ = acDo(ctx, host, http.MethodDelete, "/api/sessions/"+sid+"/workers/"+w.ID, nil, nil)
			}
		}
		var w struct{ Worker struct{ ID string } }
		if err := acDo(ctx, host, http.MethodPost, "/api/sessions/"+sid+"/workers", map[string]any{"type": "terminal"}, &w); err != nil {
			end()
			return nil, err
		}
		attach := func(ctx context.Context) (tabConn, error) {
			u := "ws://" + host + "/ws/session/" + sid + "/worker/" + w.Worker.ID
			conn, _, err := websocket.Dial(ctx, u, nil)
			if err != nil {
				return nil, fmt.Errorf("dial %s: %w", u, err)
			}
			conn.SetReadLimit(64 << 20)
			return &acConn{in: frames{conn: conn}, end: -1}, nil
		}
		first, err := attach(ctx)
		if err != nil {
			end()
			return nil, err
		}
		return &termShell{first: first, attach: attach, end: end}, nil
	}}
}

// acDo is one JSON request to agent-console (no auth: its single-user mode).
func acDo(ctx context.Context, host, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("encode %s %s: %w", method, path, err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, "http://"+host+path, rd)
	if err != nil {
		return fmt.Errorf("build %s %s: %w", method, path, err)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if res.StatusCode >= 300 {
		return fmt.Errorf("%s %s: %s: %s", method, path, res.Status, bytes.TrimSpace(b))
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("decode %s %s: %w", method, path, err)
	}
	return nil
}

// rawTarget runs the shell on a PTY this tool reads itself, with the same
// 32 KiB reads as io.Copy: what a terminal costs with no server at all.
func rawTarget() termTarget {
	return termTarget{name: "raw-pty", open: func(ctx context.Context) (*termShell, error) {
		cmd := exec.CommandContext(ctx, "bash", "-l")
		cmd.Env = childproc.Env(os.Environ(), "") // the token stays with us
		dir, err := os.MkdirTemp("", "agentdesk-load-")
		if err != nil {
			return nil, fmt.Errorf("create shell dir: %w", err)
		}
		cmd.Dir = dir
		f, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: termCols, Rows: termRows})
		if err != nil {
			return nil, fmt.Errorf("start raw pty: %w", err)
		}
		kill := sync.OnceFunc(func() {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		})
		return &termShell{first: &rawConn{f: f, buf: make([]byte, 32<<10), kill: kill}, end: kill}, nil
	}}
}

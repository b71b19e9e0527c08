package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"

	"github.com/coder/websocket"
	"github.com/creack/pty"

	"github.com/agentdesk/agentdesk/internal/childproc"
)

// echoCmd puts the terminal in raw mode without echo, so each byte reaches
// cat at once and comes back once and unchanged, then says it is ready.
const echoCmd = "stty raw -echo; printf R; exec cat"

// echoKeys is how many bytes each side sends: bounded, and enough for a
// p99 of 20 samples (--duration still caps the run).
const echoKeys = 2000

// echoReadyTimeout bounds the wait for the command's ready mark.
const echoReadyTimeout = 10 * time.Second

// errNoEcho is returned when the terminal answers with other bytes than sent.
var errNoEcho = errors.New("echo differs from the input")

// runEcho measures keystroke round trips: echoKeys single bytes, each sent
// only after the previous one came back, first on a local PTY running the
// same command (no agentdesk), then through a terminal worker over one
// WebSocket. The difference is what the server adds.
func runEcho(ctx context.Context, c *client, _ config) error {
	fmt.Printf("scenario=echo keys=%d command=%q (one byte in flight, round trip per byte)\n", echoKeys, echoCmd)
	local, err := localEcho(ctx, echoKeys)
	if err != nil {
		return err
	}
	reportEcho("local-pty", local)
	remote, err := serverEcho(ctx, c, echoKeys)
	if err != nil {
		return err
	}
	reportEcho("server-ws", remote)
	return nil
}

func reportEcho(label string, ds []time.Duration) {
	n := len(ds)
	p50, p90, p99, p999 := pct(ds, 50), pct(ds, 90), pct(ds, 99), pct(ds, 99.9)
	fmt.Printf("%s n=%d p50=%s p90=%s p99=%s p99.9=%s max=%s\n", label, n, ms(p50), ms(p90), ms(p99), ms(p999), ms(ds[n-1]))
}

// keyByte is the i-th byte sent: letters, so raw mode passes them unchanged.
func keyByte(i int) byte { return byte('a' + i%26) }

// localEcho runs echoCmd on a PTY of its own and times each byte from the
// write on the master to its read back.
func localEcho(ctx context.Context, keys int) ([]time.Duration, error) {
	cmd := exec.CommandContext(ctx, "sh", "-c", echoCmd)
	cmd.Env = childproc.Env(os.Environ(), "") // the token stays with us
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: 80, Rows: 24})
	if err != nil {
		return nil, fmt.Errorf("start local pty: %w", err)
	}
	defer func() {
		f.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()
	if err := waitMark(f, 'R'); err != nil {
		return nil, err
	}
	ds := make([]time.Duration, 0, keys)
	buf := make([]byte, 1)
	for i := range keys {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("local echo: %w", ctx.Err())
		}
		start := time.Now()
		if _, err := f.Write([]byte{keyByte(i)}); err != nil {
			return nil, fmt.Errorf("write local pty: %w", err)
		}
		if _, err := io.ReadFull(f, buf); err != nil {
			return nil, fmt.Errorf("read local pty: %w", err)
		}
		ds = append(ds, time.Since(start))
		if buf[0] != keyByte(i) {
			return nil, fmt.Errorf("local key %d: got %q: %w", i, buf[0], errNoEcho)
		}
	}
	return ds, nil
}

// waitMark reads f until the byte mark, within echoReadyTimeout.
func waitMark(f *os.File, mark byte) error {
	_ = f.SetReadDeadline(time.Now().Add(echoReadyTimeout))
	defer f.SetReadDeadline(time.Time{})
	buf := make([]byte, 256)
	for {
		n, err := f.Read(buf)
		if bytes.IndexByte(buf[:n], mark) >= 0 {
			return nil
		}
		if err != nil {
			return fmt.Errorf("wait for ready mark: %w", err)
		}
	}
}

// serverEcho runs echoCmd in a terminal worker and times each byte from the
// input frame's write to the output frame that carries it back.
func serverEcho(ctx context.Context, c *client, keys int) ([]time.Duration, error) {
	s, err := c.newSession(ctx, "none")
	if err != nil {
		return nil, err
	}
	defer c.deleteSession(context.Background(), s.ID)
	w, err := c.newWorker(ctx, s.ID, map[string]any{"kind": "terminal", "command": []string{"sh", "-c", echoCmd}})
	if err != nil {
		return nil, err
	}
	conn, err := c.dial(ctx, s.ID, w.ID, "")
	if err != nil {
		return nil, err
	}
	defer conn.CloseNow()
	if err := wsReady(ctx, conn); err != nil {
		return nil, err
	}
	ds := make([]time.Duration, 0, keys)
	for i := range keys {
		frame := fmt.Appendf(nil, `{"type":"input","data":"%c"}`, keyByte(i))
		start := time.Now()
		if err := conn.Write(ctx, websocket.MessageText, frame); err != nil {
			return nil, fmt.Errorf("send key %d: %w", i, err)
		}
		p, err := readOutput(ctx, conn)
		if err != nil {
			return nil, fmt.Errorf("key %d: %w", i, err)
		}
		ds = append(ds, time.Since(start))
		if len(p) != 1 || p[0] != keyByte(i) {
			return nil, fmt.Errorf("key %d: got %q: %w", i, p, errNoEcho)
		}
	}
	return ds, nil
}

// wsReady reads output until the ready mark, within echoReadyTimeout.
func wsReady(ctx context.Context, conn *websocket.Conn) error {
	ctx, cancel := context.WithTimeout(ctx, echoReadyTimeout)
	defer cancel()
	for {
		p, err := readOutput(ctx, conn)
		if err != nil {
			return fmt.Errorf("wait for ready mark: %w", err)
		}
		if bytes.IndexByte(p, 'R') >= 0 {
			return nil
		}
	}
}

// readOutput returns the payload of the next binary (output) frame,
// skipping text frames such as history-end.
func readOutput(ctx context.Context, conn *websocket.Conn) ([]byte, error) {
	for {
		typ, b, err := conn.Read(ctx)
		if err != nil {
			return nil, fmt.Errorf("read: %w", err)
		}
		if typ != websocket.MessageBinary {
			continue
		}
		if len(b) < 8 {
			return nil, errors.New("short binary frame")
		}
		return b[8:], nil
	}
}

package main

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/creack/pty"

	"github.com/agentdesk/agentdesk/internal/childproc"
)

// floodCmd prints n bytes of 'x' folded into 80-column lines.
func floodCmd(n int) string {
	return fmt.Sprintf("head -c %d /dev/zero | tr '\\0' x | fold", n)
}

// runPTY measures the raw PTY rate of the flood command, then the same
// command in a terminal worker watched by T tabs. The command waits for a
// line of input, so every tab is attached before the first byte.
func runPTY(ctx context.Context, c *client, cfg config) error {
	raw, err := rawPTYRate(ctx, floodCmd(cfg.ptyBytes))
	if err != nil {
		return err
	}
	fmt.Printf("scenario=pty raw-pty rate=%.1fMB/s (same command, creack/pty, no agentdesk)\n", raw)
	for _, n := range cfg.tabs {
		if err := ptyOnce(ctx, c, cfg, n, raw); err != nil {
			return fmt.Errorf("%d tabs: %w", n, err)
		}
	}
	return nil
}

func rawPTYRate(ctx context.Context, script string) (float64, error) {
	cmd := exec.CommandContext(ctx, "sh", "-c", script)
	cmd.Env = childproc.Env(os.Environ(), "") // the token stays with us
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: 120, Rows: 40})
	if err != nil {
		return 0, fmt.Errorf("start raw pty: %w", err)
	}
	defer f.Close()
	start := time.Now()
	n, _ := io.Copy(io.Discard, f) // EIO at the end is how a PTY says EOF
	el := time.Since(start)
	if err := cmd.Wait(); err != nil {
		return 0, fmt.Errorf("raw pty command: %w", err)
	}
	return float64(n) / 1e6 / el.Seconds(), nil
}

// ptyTab counts output bytes and checks that offsets are contiguous.
type ptyTab struct {
	conn        *websocket.Conn
	in          frames
	next        int64 // the offset the next frame must start at
	bytes       int64
	frames      int
	first, last time.Time
	gaps        int
}

func ptyOnce(ctx context.Context, c *client, cfg config, n int, raw float64) error {
	s, err := c.newSession(ctx, "none")
	if err != nil {
		return err
	}
	defer c.deleteSession(context.Background(), s.ID)
	w, err := c.newWorker(ctx, s.ID, map[string]any{"kind": "terminal",
		"command": []string{"sh", "-c", "read go; " + floodCmd(cfg.ptyBytes)}})
	if err != nil {
		return err
	}
	tabs := make([]*ptyTab, n)
	for i := range tabs {
		conn, err := c.dial(ctx, s.ID, w.ID, "")
		if err != nil {
			return err
		}
		tabs[i] = &ptyTab{conn: conn, in: frames{conn: conn}, next: -1}
		defer conn.CloseNow()
		defer watch(ctx, conn)()
	}
	if err := tabs[0].conn.Write(ctx, websocket.MessageText, []byte(`{"type":"input","data":"\r"}`)); err != nil {
		return fmt.Errorf("send input: %w", err)
	}
	peak := make(chan int, 1)
	sctx, stopSampling := context.WithCancel(ctx)
	go func() { peak <- sampleRSS(sctx, cfg.pid) }()
	errs := make([]error, n)
	cpu0, self0 := cpuTime(cfg.pid), selfCPU()
	var wg sync.WaitGroup
	for i, t := range tabs {
		wg.Go(func() { errs[i] = t.read(ctx) })
	}
	wg.Wait()
	use := usage{server: cpuTime(cfg.pid) - cpu0, tool: selfCPU() - self0}
	stopSampling()
	pk := <-peak
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("tab %d: %w", i, err)
		}
	}
	reportPTY(n, tabs, raw, pk, use)
	return nil
}

// read consumes frames until the exit frame.
func (t *ptyTab) read(ctx context.Context) error {
	for {
		typ, b, err := t.in.read()
		if err != nil {
			return fmt.Errorf("read: %w (is the tab kicked? %d bytes so far)", err, t.bytes)
		}
		if typ == websocket.MessageText {
			if len(b) > 14 && string(b[:14]) == `{"type":"exit"` {
				return nil
			}
			continue
		}
		if len(b) < 8 {
			return fmt.Errorf("short binary frame")
		}
		off := int64(binary.BigEndian.Uint64(b))
		if t.next >= 0 && off != t.next {
			t.gaps++
		}
		now := time.Now()
		if t.bytes == 0 {
			t.first = now
		}
		t.last = now
		t.next = off + int64(len(b)-8)
		t.bytes += int64(len(b) - 8)
		t.frames++
	}
}

// usage is the CPU time the server and the tool spent on one run.
type usage struct{ server, tool time.Duration }

func reportPTY(n int, tabs []*ptyTab, raw float64, peakKiB int, use usage) {
	var rates []float64
	gaps, frames := 0, 0
	var minB, maxB int64 = -1, 0
	for _, t := range tabs {
		rates = append(rates, float64(t.bytes)/1e6/t.last.Sub(t.first).Seconds())
		gaps += t.gaps
		frames += t.frames
		if minB < 0 || t.bytes < minB {
			minB = t.bytes
		}
		maxB = max(maxB, t.bytes)
	}
	fmt.Printf("tabs=%d bytes/tab=%d..%d rate/tab median=%.1fMB/s min=%.1fMB/s (%.0f%% of raw) offset-gaps=%d peak-rss=%s\n",
		n, minB, maxB, median(rates), minOf(rates), 100*median(rates)/raw, gaps, mib(peakKiB))
	fmt.Printf("  frames/tab=%d (%.1f KiB each) cpu server=%.2fs tool=%.2fs\n",
		frames/n, float64(maxB)/float64(max(1, frames/n))/1024, use.server.Seconds(), use.tool.Seconds())
}

// sampleRSS polls the server's RSS every 20 ms until ctx ends and returns
// the highest VmRSS seen (KiB).
func sampleRSS(ctx context.Context, pid int) int {
	if pid == 0 {
		return 0
	}
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	peak := 0
	for {
		if cur, _, err := rss(pid); err == nil {
			peak = max(peak, cur)
		}
		select {
		case <-ctx.Done():
			return peak
		case <-tick.C:
		}
	}
}

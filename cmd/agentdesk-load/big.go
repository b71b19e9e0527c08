package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// runBig measures memory and responsiveness with very large CLI messages.
// The server's fake CLI must run with FAKECLAUDE_BIG=<n>x<bytes>
// (scripts/bench-load.sh passes BIG): one user message makes it print n
// lines of that size. Live phase: --tabs (its first value) tabs read the
// turn while /api/health is polled and the server's RSS sampled; replay
// phase: one fresh tab replays the whole history. Both report the peak
// RSS seen and the health latencies.
func runBig(ctx context.Context, c *client, cfg config) error {
	fmt.Println("scenario=big (peak: highest VmRSS sampled every 20 ms; health: GET /api/health every 10 ms)")
	s, err := c.newSession(ctx, "sdk")
	if err != nil {
		return err
	}
	defer c.deleteSession(context.Background(), s.ID)
	wid := s.Workers[0].ID
	tabs := make([]*bigTab, cfg.tabs[0])
	for i := range tabs {
		if tabs[i], err = dialBig(ctx, c, s.ID, wid); err != nil {
			return err
		}
	}
	err = measure(ctx, c, cfg.pid, fmt.Sprintf("live tabs=%d", len(tabs)), func() error {
		if err := c.input(ctx, s.ID, wid, "big"); err != nil {
			return err
		}
		return readAll(tabs, (*bigTab).untilResult)
	}, tabs)
	if err != nil {
		return err
	}
	replay, err := dialBig(ctx, c, s.ID, wid)
	if err != nil {
		return err
	}
	return measure(ctx, c, cfg.pid, "replay tabs=1", func() error {
		return readAll([]*bigTab{replay}, (*bigTab).untilHistoryEnd)
	}, []*bigTab{replay})
}

// bigTab is a tab that counts what it receives and reconnects after its
// last message when the server closes it for falling behind.
type bigTab struct {
	ctx      context.Context
	c        *client
	sid, wid string
	in       frames
	lastUUID string
	frames   int
	bytes    int64
	kicks    int
}

func dialBig(ctx context.Context, c *client, sid, wid string) (*bigTab, error) {
	t := &bigTab{ctx: ctx, c: c, sid: sid, wid: wid}
	return t, t.dial()
}

func (t *bigTab) dial() error {
	q := ""
	if t.lastUUID != "" {
		q = "?after=" + t.lastUUID
	}
	conn, err := t.c.dial(t.ctx, t.sid, t.wid, q)
	if err != nil {
		return err
	}
	watch(t.ctx, conn)
	t.in.conn = conn
	return nil
}

func (t *bigTab) next() ([]byte, error) {
	for {
		_, b, err := t.in.read()
		if websocket.CloseStatus(err) == websocket.StatusTryAgainLater && t.kicks < 100 {
			t.kicks++
			if err := t.dial(); err != nil {
				return nil, err
			}
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read: %w", err)
		}
		t.frames++
		t.bytes += int64(len(b))
		if bytes.HasPrefix(b, seqPrefix) {
			if i := bytes.LastIndex(b, uuidKey); i >= 0 {
				if j := bytes.IndexByte(b[i+len(uuidKey):], '"'); j > 0 {
					t.lastUUID = string(b[i+len(uuidKey) : i+len(uuidKey)+j])
				}
			}
		}
		return b, nil
	}
}

// untilResult reads up to the turn's result message.
func (t *bigTab) untilResult() error {
	defer t.in.conn.CloseNow()
	for {
		b, err := t.next()
		if err != nil {
			return err
		}
		if bytes.HasPrefix(b, seqPrefix) && bytes.Contains(b[len(b)-min(len(b), 4096):], []byte(`"subtype":"success"`)) {
			return nil
		}
	}
}

// untilHistoryEnd reads a replay to its end.
func (t *bigTab) untilHistoryEnd() error {
	defer t.in.conn.CloseNow()
	for {
		b, err := t.next()
		if err != nil {
			return err
		}
		if bytes.HasPrefix(b, historyEnd) {
			return nil
		}
	}
}

func readAll(tabs []*bigTab, read func(*bigTab) error) error {
	errs := make([]error, len(tabs))
	var wg sync.WaitGroup
	for i, t := range tabs {
		wg.Go(func() { errs[i] = read(t) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("tab %d: %w", i, err)
		}
	}
	return nil
}

// measure runs work while sampling the server's RSS and the latency of
// /api/health, then prints one line.
func measure(ctx context.Context, c *client, pid int, name string, work func() error, tabs []*bigTab) error {
	sctx, stop := context.WithCancel(ctx)
	var peak int
	var lats []time.Duration
	var wg sync.WaitGroup
	wg.Go(func() { peak = sampleRSS(sctx, pid) })
	wg.Go(func() { lats = pollHealth(sctx, c) })
	start := time.Now()
	err := work()
	took := time.Since(start)
	stop()
	wg.Wait()
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	cur, hwm, _ := rss(pid)
	anon, file := rssParts(pid)
	var n int64
	kicks := 0
	for _, t := range tabs {
		n += t.bytes
		kicks += t.kicks
	}
	fmt.Printf("%s frames/tab=%d MB/tab=%.1f kicks=%d took=%s rss peak=%s after=%s (anon %s, file %s) hwm=%s health n=%d p50=%s p99=%s max=%s cpu=%.2fs\n",
		name, tabs[0].frames, float64(n)/float64(len(tabs))/1e6, kicks, took.Round(time.Millisecond),
		mib(peak), mib(cur), mib(anon), mib(file), mib(hwm), len(lats), ms(pct(lats, 50)), ms(pct(lats, 99)), ms(pct(lats, 100)),
		cpuTime(pid).Seconds())
	return nil
}

// pollHealth times GET /api/health every 10 ms until ctx ends.
func pollHealth(ctx context.Context, c *client) []time.Duration {
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	hc := &http.Client{Timeout: 30 * time.Second}
	var lats []time.Duration
	for {
		select {
		case <-ctx.Done():
			return lats
		case <-tick.C:
		}
		start := time.Now()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, c.base.String()+"/api/health", nil)
		res, err := hc.Do(req)
		if err != nil {
			continue
		}
		res.Body.Close()
		lats = append(lats, time.Since(start))
	}
}

// rssParts reads RssAnon and RssFile of pid in KiB: the heap and stacks,
// and the pages of mapped files (the database) in memory.
func rssParts(pid int) (anon, file int) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
		switch k {
		case "RssAnon":
			anon = n
		case "RssFile":
			file = n
		}
	}
	return anon, file
}

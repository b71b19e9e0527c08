package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
	"time"
)

// The term scenario measures agentdesk's terminal side by side with other
// terminal servers, with this one client for all of them, in interleaved
// rounds: every target runs the same `bash -l` at 120x30, which prints
// --pty-bytes of 'x' folded to 80 columns between two marks; the client
// counts what arrives between the marks. Per round and target: the rate
// to one tab, the server's CPU (/proc/PID/stat) and peak RSS, then the
// rate per tab with --term-tabs tabs on one terminal (servers that share
// a terminal), then keystroke echo. raw-pty is the same shell on a PTY the
// tool reads itself. bench/peers.sh builds and starts the peers.

// barrierWait bounds one try of the ready mark (a shell starting up).
const barrierWait = 3 * time.Second

// termResult is one flood run.
type termResult struct {
	rates   []float64 // MB/s per tab
	cpu     time.Duration
	peakKiB int
	lost    int // tabs that missed or doubled output
	xs      int64
}

func runTerm(ctx context.Context, c *client, cfg config) error {
	targets := []termTarget{rawTarget(), agentdeskTarget("agentdesk", c, cfg.pid)}
	if cfg.baseURL != nil {
		targets = append(targets, agentdeskTarget("agentdesk-base", newClient(cfg.baseURL, cfg.baseToken), cfg.basePID))
	}
	if cfg.gotty != "" {
		targets = append(targets, gottyTarget(cfg.gotty, cfg.gottyPID))
	}
	if cfg.agentConsole != "" {
		targets = append(targets, agentConsoleTarget(cfg.agentConsole, cfg.agentConsolePID))
	}
	fmt.Printf("scenario=term bytes=%d tabs=1,%d rounds=%d echo-keys=%d shell=%q size=%dx%d\n",
		cfg.ptyBytes, cfg.termTabs, cfg.rounds, cfg.echoKeys, "bash -l", termCols, termRows)
	for _, t := range targets {
		if t.pid != 0 {
			cur, _, _ := rss(t.pid)
			fmt.Printf("idle %-13s rss=%s\n", t.name, mib(cur))
		}
	}
	sum := newTermSummary()
	for r := range cfg.rounds {
		load := loadAvg()
		order := append(targets[r%len(targets):], targets[:r%len(targets)]...)
		order = append([]termTarget(nil), order...)
		for _, t := range order {
			settle(ctx, targets)
			res, err := floodRun(ctx, t, 1, cfg.ptyBytes)
			if err != nil {
				return fmt.Errorf("round %d, %s, 1 tab: %w", r+1, t.name, err)
			}
			sum.addFlood(r, t.name, 1, res, load, cfg.ptyBytes)
		}
		for _, t := range order {
			if !t.shared || cfg.termTabs <= 1 {
				continue
			}
			settle(ctx, targets)
			res, err := floodRun(ctx, t, cfg.termTabs, cfg.ptyBytes)
			if err != nil {
				return fmt.Errorf("round %d, %s, %d tabs: %w", r+1, t.name, cfg.termTabs, err)
			}
			sum.addFlood(r, t.name, cfg.termTabs, res, load, cfg.ptyBytes)
		}
		for _, t := range order {
			keys := cfg.echoKeys
			if t.name == "agent-console" {
				keys = min(keys, 100) // it sends output every 50 ms: one key costs that
			}
			settle(ctx, targets)
			ds, err := echoRun(ctx, t, keys)
			if err != nil {
				return fmt.Errorf("round %d, %s, echo: %w", r+1, t.name, err)
			}
			sum.addEcho(r, t.name, ds)
		}
		sum.roundRatios(r, cfg.termTabs)
	}
	sum.print(cfg.termTabs)
	return nil
}

// floodRun opens a shell with n tabs, makes sure every tab sees it, then
// times the flood to each tab while sampling the server.
func floodRun(ctx context.Context, t termTarget, n, size int) (termResult, error) {
	sh, tabs, err := openTabs(ctx, t, n)
	if err != nil {
		return termResult{}, err
	}
	defer closeShell(sh, tabs)
	ws := make([]*expectation, n)
	for i, tab := range tabs {
		ws[i] = tab.expect([]byte("S7T"), []byte("E42N"))
	}
	peak := make(chan int, 1)
	sctx, stopSampling := context.WithCancel(ctx)
	go func() { peak <- sampleRSS(sctx, t.pid) }()
	cpu0 := cpuTime(t.pid)
	cmd := fmt.Sprintf("echo S$((3+4))T; head -c %d /dev/zero | tr '\\0' '\\170' | fold; echo E$((6*7))N\r", size)
	if err := tabs[0].conn.send(ctx, []byte(cmd)); err != nil {
		stopSampling()
		return termResult{}, fmt.Errorf("send flood command: %w", err)
	}
	var errs []error
	for i, tab := range tabs {
		if err := tab.wait(ws[i], 10*time.Minute); err != nil {
			errs = append(errs, fmt.Errorf("tab %d: %w", i, err))
		}
	}
	res := termResult{cpu: cpuTime(t.pid) - cpu0}
	stopSampling()
	res.peakKiB = <-peak
	if err := errors.Join(errs...); err != nil {
		return res, err
	}
	for i, tab := range tabs {
		w := ws[i]
		res.rates = append(res.rates, float64(w.bytes)/1e6/w.endAt.Sub(w.startAt).Seconds())
		res.xs += w.xs
		if w.xs != int64(size) || tab.conn.gaps() > 0 {
			res.lost++
		}
	}
	return res, nil
}

// openTabs starts a shell, attaches n tabs, and waits until a mark typed
// in the first shows in every one (some servers attach a socket a moment
// after accepting it, so the mark is typed again until all see it).
func openTabs(ctx context.Context, t termTarget, n int) (*termShell, []*termTab, error) {
	sh, err := t.open(ctx)
	if err != nil {
		return nil, nil, err
	}
	tabs := []*termTab{newTermTab(sh.first)}
	for len(tabs) < n {
		conn, err := sh.attach(ctx)
		if err != nil {
			closeShell(sh, tabs)
			return nil, nil, err
		}
		tabs = append(tabs, newTermTab(conn))
	}
	for try := range 20 {
		v := 100 + try
		ws := make([]*expectation, n)
		for i, tab := range tabs {
			ws[i] = tab.expect(fmt.Appendf(nil, "R%dY", v), nil)
		}
		if err := tabs[0].conn.send(ctx, fmt.Appendf(nil, "echo R$((%d+1))Y\r", v-1)); err != nil {
			closeShell(sh, tabs)
			return nil, nil, fmt.Errorf("send ready mark: %w", err)
		}
		var errs []error
		for i, tab := range tabs {
			errs = append(errs, tab.wait(ws[i], barrierWait))
		}
		if err := errors.Join(errs...); err == nil {
			return sh, tabs, nil
		} else if !errors.Is(err, errNoMark) || ctx.Err() != nil {
			closeShell(sh, tabs)
			return nil, nil, err
		}
	}
	closeShell(sh, tabs)
	return nil, nil, fmt.Errorf("%s: %w: no ready mark in %d tabs after 20 tries", t.name, errNoMark, n)
}

func closeShell(sh *termShell, tabs []*termTab) {
	var wg sync.WaitGroup
	for _, tab := range tabs {
		wg.Go(tab.close)
	}
	wg.Wait()
	sh.end()
}

// echoRun puts the shell's terminal in raw mode without echo and runs cat,
// then times keys single bytes, each sent once the previous one is back.
func echoRun(ctx context.Context, t termTarget, keys int) ([]time.Duration, error) {
	sh, tabs, err := openTabs(ctx, t, 1)
	if err != nil {
		return nil, err
	}
	defer closeShell(sh, tabs)
	tab := tabs[0]
	w := tab.expect([]byte("K2Z"), nil)
	if err := tab.conn.send(ctx, []byte("stty raw -echo; echo K$((1+1))Z; exec cat\r")); err != nil {
		return nil, fmt.Errorf("send echo command: %w", err)
	}
	if err := tab.wait(w, 10*time.Second); err != nil {
		return nil, err
	}
	ds := make([]time.Duration, 0, keys)
	for i := range keys {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		k := []byte{keyByte(i)}
		w := tab.expect(k, nil)
		start := time.Now()
		if err := tab.conn.send(ctx, k); err != nil {
			return nil, fmt.Errorf("send key %d: %w", i, err)
		}
		if err := tab.wait(w, 10*time.Second); err != nil {
			return nil, fmt.Errorf("key %d: %w", i, err)
		}
		ds = append(ds, w.startAt.Sub(start))
	}
	return ds, nil
}

// loadAvg is the first field of /proc/loadavg ("?" when unreadable).
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Fields(string(b))[0]
}

// loopbackHost checks a host:port flag: the tool only talks to loopback.
func loopbackHost(flagName, hp string) error {
	if hp == "" {
		return nil
	}
	host, _, err := net.SplitHostPort(hp)
	ip := net.ParseIP(host)
	if err != nil || (host != "localhost" && (ip == nil || !ip.IsLoopback())) {
		return fmt.Errorf("--%s %q: want 127.0.0.1:PORT: %w", flagName, hp, ErrNotLoopback)
	}
	return nil
}

package main

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"
)

// runSessions creates sessions cumulatively up to each size in --sessions,
// each with an idle sdk worker (the CLI starts lazily, on the first
// message) and --terminals terminal workers running `sleep`, then reads
// the server's RSS. Children are separate processes and not counted.
// --parallel requests create them; --keep leaves them for a restart
// (scripts/bench-idle.sh).
func runSessions(ctx context.Context, c *client, cfg config) error {
	if cfg.pid == 0 {
		return fmt.Errorf("sessions needs --pid")
	}
	cur, _, err := rss(cfg.pid)
	if err != nil {
		return err
	}
	fmt.Printf("scenario=sessions (sdk idle + %d terminals running sleep per session)\nsessions=0 workers=0 rss=%s\n", cfg.terminals, mib(cur))
	var ids []string
	if !cfg.keep {
		defer func() { deleteAll(c, ids) }()
	}
	for _, want := range cfg.sessions {
		start := time.Now()
		got, err := createSessions(ctx, c, want-len(ids), cfg)
		ids = append(ids, got...)
		if err != nil {
			return fmt.Errorf("session %d: %w", len(ids), err)
		}
		took := time.Since(start)
		time.Sleep(2 * time.Second) // let start-up garbage be collected before reading RSS
		cur, peak, err := rss(cfg.pid)
		if err != nil {
			return err
		}
		fmt.Printf("sessions=%d workers=%d rss=%s peak=%s create=%s\n", len(ids), (1+cfg.terminals)*len(ids), mib(cur), mib(peak), took.Round(time.Millisecond))
	}
	return nil
}

// createSessions creates n sessions with cfg.parallel requests in flight
// and returns the ids of those created.
func createSessions(ctx context.Context, c *client, n int, cfg config) ([]string, error) {
	var (
		mu   sync.Mutex
		ids  []string
		errs []error
		wg   sync.WaitGroup
	)
	next := make(chan struct{})
	go func() {
		defer close(next)
		for range n {
			select {
			case next <- struct{}{}:
			case <-ctx.Done():
				return
			}
		}
	}()
	for range max(cfg.parallel, 1) {
		wg.Go(func() {
			for range next {
				id, err := sessionWith(ctx, c, cfg.terminals)
				mu.Lock()
				if id != "" {
					ids = append(ids, id)
				}
				if err != nil {
					errs = append(errs, err)
				}
				mu.Unlock()
				if err != nil {
					return
				}
			}
		})
	}
	wg.Wait()
	for range next { // a worker that failed left the rest unsent
	}
	return ids, errors.Join(errs...)
}

func sessionWith(ctx context.Context, c *client, terminals int) (string, error) {
	s, err := c.newSession(ctx, "sdk")
	if err != nil {
		return "", err
	}
	for range terminals {
		if _, err := c.newWorker(ctx, s.ID, map[string]any{"kind": "terminal", "command": []string{"sleep", "3600"}}); err != nil {
			return s.ID, err
		}
	}
	return s.ID, nil
}

// deleteAll removes the sessions with a few requests in flight.
func deleteAll(c *client, ids []string) {
	sem := make(chan struct{}, runtime.NumCPU()*2)
	var wg sync.WaitGroup
	for _, id := range ids {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			_ = c.deleteSession(context.Background(), id)
		})
	}
	wg.Wait()
}

package main

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"time"
)

// runSessions creates sessions cumulatively up to each size in --sessions,
// each with an idle sdk worker (the CLI starts lazily, on the first
// message) and two terminal workers running `sleep`, then reads the
// server's RSS. Children are separate processes and not counted.
func runSessions(ctx context.Context, c *client, cfg config) error {
	if cfg.pid == 0 {
		return fmt.Errorf("sessions needs --pid")
	}
	cur, _, err := rss(cfg.pid)
	if err != nil {
		return err
	}
	fmt.Printf("scenario=sessions (sdk idle + 2 terminals running sleep per session)\nsessions=0 workers=0 rss=%s\n", mib(cur))
	var ids []string
	defer func() { deleteAll(c, ids) }()
	for _, want := range cfg.sessions {
		start := time.Now()
		for len(ids) < want {
			id, err := sessionWith3(ctx, c)
			if id != "" {
				ids = append(ids, id)
			}
			if err != nil {
				return fmt.Errorf("session %d: %w", len(ids), err)
			}
		}
		took := time.Since(start)
		time.Sleep(2 * time.Second) // let start-up garbage be collected before reading RSS
		cur, peak, err := rss(cfg.pid)
		if err != nil {
			return err
		}
		fmt.Printf("sessions=%d workers=%d rss=%s peak=%s create=%s\n", len(ids), 3*len(ids), mib(cur), mib(peak), took.Round(time.Millisecond))
	}
	return nil
}

func sessionWith3(ctx context.Context, c *client) (string, error) {
	s, err := c.newSession(ctx, "sdk")
	if err != nil {
		return "", err
	}
	for range 2 {
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

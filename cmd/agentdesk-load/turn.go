package main

import (
	"bytes"
	"context"
	"fmt"
	"time"
)

// runTurn measures what a chat turn costs, for the sandbox's price in
// docs/performance.md: for each of --repeat new sessions (of --agent, at
// --sandbox), the first turn (the CLI starts, answers initialize and the
// turn) and a second turn of the same CLI, each from the input's POST to
// the result frame. Run the server with the real CLI against the fake API
// (internal/testkit/fakeapi/cmd/fakeapi), whose echo answers at once.
func runTurn(ctx context.Context, c *client, cfg config) error {
	var first, next []float64
	for range cfg.repeat {
		f, n, err := turnOnce(ctx, c, cfg.agent)
		if err != nil {
			return err
		}
		first, next = append(first, f), append(next, n)
	}
	level := c.sandbox
	if level == "" {
		level = "off"
	}
	fmt.Printf("scenario=turn agent=%s sandbox=%s sessions=%d first-turn median=%.0fms min=%.0fms  next-turn median=%.0fms min=%.0fms\n",
		cfg.agent, level, cfg.repeat, median(first), minOf(first), median(next), minOf(next))
	return nil
}

func turnOnce(ctx context.Context, c *client, agent string) (first, next float64, err error) {
	s, err := c.newSession(ctx, agent)
	if err != nil {
		return 0, 0, err
	}
	defer c.deleteSession(context.Background(), s.ID)
	if len(s.Workers) == 0 {
		return 0, 0, fmt.Errorf("session %s has no agent worker", s.ID)
	}
	wid := s.Workers[0].ID
	conn, err := c.dial(ctx, s.ID, wid, "")
	if err != nil {
		return 0, 0, err
	}
	defer conn.CloseNow()
	defer watch(ctx, conn)()
	in := frames{conn: conn}
	if err := readUntil(&in, historyEnd); err != nil {
		return 0, 0, err
	}
	var ms [2]float64
	for i := range ms {
		start := time.Now()
		if err := c.input(ctx, s.ID, wid, fmt.Sprintf("turn %d", i)); err != nil {
			return 0, 0, err
		}
		if err := readUntil(&in, resultT); err != nil {
			return 0, 0, err
		}
		ms[i] = float64(time.Since(start).Microseconds()) / 1000
	}
	return ms[0], ms[1], nil
}

// readUntil reads frames until one holds want.
func readUntil(in *frames, want []byte) error {
	for {
		_, b, err := in.read()
		if err != nil {
			return fmt.Errorf("read: %w", err)
		}
		if bytes.Contains(b, want) {
			return nil
		}
	}
}

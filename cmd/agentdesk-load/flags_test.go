package main

import (
	"errors"
	"testing"
	"time"
)

// TestBaseURL: --base-url adds another agentdesk build to the term
// scenario's rounds, with its own token, and like --url it must be a
// loopback start-up URL, since the tool runs shells there.
func TestBaseURL(t *testing.T) {
	cfg, err := parseFlags([]string{"--url", "http://127.0.0.1:1/?token=a",
		"--base-url", "http://127.0.0.1:2/?token=b", "--base-pid", "7", "--scenario", "term"})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.baseURL == nil || cfg.baseURL.Host != "127.0.0.1:2" || cfg.baseToken != "b" || cfg.basePID != 7 {
		t.Fatalf("base %v token %q pid %d, want 127.0.0.1:2, b, 7", cfg.baseURL, cfg.baseToken, cfg.basePID)
	}
	if cfg.token != "a" {
		t.Fatalf("--url token %q, want a", cfg.token)
	}
	_, err = parseFlags([]string{"--url", "http://127.0.0.1:1/?token=a", "--base-url", "http://10.0.0.1:2/?token=b"})
	if !errors.Is(err, ErrNotLoopback) {
		t.Fatalf("non-loopback --base-url: err %v, want ErrNotLoopback", err)
	}
	cfg, err = parseFlags([]string{"--url", "http://127.0.0.1:1/?token=a"})
	if err != nil || cfg.baseURL != nil {
		t.Fatalf("without --base-url: base %v, err %v; want none", cfg.baseURL, err)
	}
}

// TestAnyBusy: a server counts as busy when it used more than the limit
// between two readings, whatever the others did.
func TestAnyBusy(t *testing.T) {
	ms := time.Millisecond
	before := []time.Duration{0, 100 * ms, 5 * ms}
	for _, tc := range []struct {
		after []time.Duration
		want  bool
	}{
		{[]time.Duration{0, 110 * ms, 5 * ms}, false}, // one tick: quiet
		{[]time.Duration{0, 100 * ms, 25 * ms}, true}, // the third worked
		{[]time.Duration{0, 100 * ms, 5 * ms}, false},
	} {
		if got := anyBusy(before, tc.after, 10*ms); got != tc.want {
			t.Errorf("anyBusy(%v, %v) = %v, want %v", before, tc.after, got, tc.want)
		}
	}
}

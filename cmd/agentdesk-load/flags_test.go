package main

import (
	"errors"
	"testing"
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

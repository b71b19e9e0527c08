package codex

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestPrepareHome: a chat's CODEX_HOME is made 0700 and gets the user's
// login and config.toml, and nothing else of theirs; a copy Codex
// refreshed (newer) is kept, a newer one of the user's replaces it; the
// user's files are never written.
func TestPrepareHome(t *testing.T) {
	dir := t.TempDir()
	user, home := filepath.Join(dir, "user"), filepath.Join(dir, "data", "codex", "s1")
	if err := os.MkdirAll(filepath.Join(user, "sessions"), 0o700); err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	put := func(path, text string, at time.Time) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, at, at); err != nil {
			t.Fatal(err)
		}
	}
	get := func(path string) string {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	put(filepath.Join(user, "auth.json"), `{"OPENAI_API_KEY":"user"}`, t0)
	put(filepath.Join(user, "config.toml"), "model = \"a\"\n", t0)
	put(filepath.Join(user, "history.jsonl"), "private\n", t0)
	put(filepath.Join(user, "sessions", "rollout.jsonl"), "private\n", t0)

	if err := PrepareHome(home, user); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(home); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("home: %v %v", fi, err)
	}
	if get(filepath.Join(home, "auth.json")) != `{"OPENAI_API_KEY":"user"}` || get(filepath.Join(home, "config.toml")) != "model = \"a\"\n" {
		t.Fatal("the login and config were not copied")
	}
	for _, other := range []string{"history.jsonl", "sessions"} {
		if _, err := os.Stat(filepath.Join(home, other)); !os.IsNotExist(err) {
			t.Fatalf("%s of the user's was copied: %v", other, err)
		}
	}

	put(filepath.Join(home, "auth.json"), `{"OPENAI_API_KEY":"refreshed"}`, t0.Add(time.Hour))
	put(filepath.Join(user, "config.toml"), "model = \"b\"\n", t0.Add(time.Hour))
	if err := PrepareHome(home, user); err != nil {
		t.Fatal(err)
	}
	if got := get(filepath.Join(home, "auth.json")); got != `{"OPENAI_API_KEY":"refreshed"}` {
		t.Fatalf("an older login replaced Codex's refreshed one: %s", got)
	}
	if got := get(filepath.Join(home, "config.toml")); got != "model = \"b\"\n" {
		t.Fatalf("the user's newer config.toml was not copied: %s", got)
	}
	if got := get(filepath.Join(user, "auth.json")); got != `{"OPENAI_API_KEY":"user"}` {
		t.Fatalf("the user's login was written: %s", got)
	}

	if err := PrepareHome(filepath.Join(dir, "data", "codex", "s2"), ""); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "data", "codex", "s2", "auth.json")); !os.IsNotExist(err) {
		t.Fatalf("no seed, yet a login: %v", err)
	}
}

// TestUserHome: the user's CODEX_HOME is theirs when set, else ~/.codex.
func TestUserHome(t *testing.T) {
	for _, tc := range []struct {
		env  []string
		want string
	}{
		{[]string{"HOME=/h", "CODEX_HOME=/c"}, "/c"},
		{[]string{"HOME=/h"}, "/h/.codex"},
		{[]string{"HOME=/h", "CODEX_HOME="}, "/h/.codex"},
		{nil, ""},
	} {
		if got := UserHome(tc.env); got != tc.want {
			t.Errorf("UserHome(%q) = %q, want %q", tc.env, got, tc.want)
		}
	}
}

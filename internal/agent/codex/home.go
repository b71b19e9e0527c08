package codex

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/agentdesk/agentdesk/internal/filecopy"
)

// seeded are the files of the user's CODEX_HOME a home of agentdesk's
// gets: the login and the configuration (model provider, model). Nothing
// else of theirs goes in: their threads, history and logs stay theirs.
var seeded = []string{"auth.json", "config.toml"}

// UserHome is the user's own CODEX_HOME in env: its CODEX_HOME, else
// .codex in its HOME; "" when env has neither.
func UserHome(env []string) string {
	if h := lookup(env, "CODEX_HOME"); h != "" {
		return h
	}
	if h := lookup(env, "HOME"); h != "" {
		return filepath.Join(h, ".codex")
	}
	return ""
}

// PrepareHome makes home, a CODEX_HOME of agentdesk's (mode 0700, with
// its parents), and copies seed's login and config.toml into it, each
// when seed's is newer than home's (Codex refreshes the login it holds;
// a newer one of the user's wins). Nothing is ever written to seed; seed
// "" or missing files copy nothing.
func PrepareHome(home, seed string) error {
	if err := os.MkdirAll(home, 0o700); err != nil {
		return fmt.Errorf("create the chat's CODEX_HOME: %w", err)
	}
	if seed == "" || filepath.Clean(seed) == filepath.Clean(home) {
		return nil
	}
	for _, name := range seeded {
		if err := filecopy.Newer(filepath.Join(seed, name), filepath.Join(home, name)); err != nil {
			return fmt.Errorf("copy the user's codex %s into the chat's CODEX_HOME: %w", name, err)
		}
	}
	return nil
}

// lookup is the value of key in env, the last entry winning.
func lookup(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if len(env[i]) > len(key) && env[i][:len(key)] == key && env[i][len(key)] == '=' {
			return env[i][len(key)+1:]
		}
	}
	return ""
}

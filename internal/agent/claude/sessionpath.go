package claude

import (
	"os"
	"path/filepath"
	"strings"
)

// ConfigDir returns the directory the CLI keeps its configuration and
// session files in when it runs with the environment env ("KEY=value", as
// given to the child): $CLAUDE_CONFIG_DIR when set and not empty, else
// $HOME/.claude. It returns "" when env has neither. A variable set twice
// counts with its last value, as for the child.
func ConfigDir(env []string) string {
	if d := lookupEnv(env, "CLAUDE_CONFIG_DIR"); d != "" {
		return d
	}
	if h := lookupEnv(env, "HOME"); h != "" {
		return filepath.Join(h, ".claude")
	}
	return ""
}

// maxProjects bounds the project directories FindSessionFile looks in.
const maxProjects = 100000

// FindSessionFile returns the session file of sessionID and whether it
// exists. It tries SessionFilePath(configDir, cwd, sessionID) first, then
// every configDir/projects/*/<sessionID>.jsonl: --resume appends to the
// file of the directory the conversation was created in, which need not be
// cwd (the session may have moved, or the slug of its real path changed).
// When several match, the most recently modified wins. A sessionID that is
// not a plain file name is never found.
func FindSessionFile(configDir, cwd, sessionID string) (string, bool) {
	name := sessionID + ".jsonl"
	if configDir == "" || sessionID == "" || filepath.Base(name) != name || strings.ContainsAny(sessionID, `/\`) {
		return "", false
	}
	if p := SessionFilePath(configDir, cwd, sessionID); isFile(p) {
		return p, true
	}
	root := filepath.Join(configDir, "projects")
	dirs, err := os.ReadDir(root)
	if err != nil {
		return "", false
	}
	var best string
	var bestMod int64
	for _, d := range dirs[:min(len(dirs), maxProjects)] {
		p := filepath.Join(root, d.Name(), name)
		fi, err := os.Stat(p)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if mod := fi.ModTime().UnixNano(); best == "" || mod > bestMod {
			best, bestMod = p, mod
		}
	}
	return best, best != ""
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

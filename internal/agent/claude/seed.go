package claude

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// On a bare config the interactive CLI stops at start-up: the onboarding
// check (which exits offline), the trust dialog for the cwd, and the
// "use this API key?" dialog whose default is No (claude-cli.md §9).
// SeedConfig merges into the CLI's config file the keys that skip them.

// keyTailLen is how much of ANTHROPIC_API_KEY the CLI records as approved.
const keyTailLen = 20

// seedMu serialises seeding within this process: two workers starting at
// once would otherwise each write back the file without the other's change.
var seedMu sync.Mutex

// SeedResult is what SeedConfig changed: nothing when Changes is empty.
type SeedResult struct {
	File    string
	Changes []string // what was done, for a person to read
}

// configFile is the CLI's config file for a child environment:
// $CLAUDE_CONFIG_DIR/.claude.json when set, else $HOME/.claude.json.
func configFile(env []string) (string, error) {
	if d := lookupEnv(env, "CLAUDE_CONFIG_DIR"); d != "" {
		return filepath.Join(d, ".claude.json"), nil
	}
	if h := lookupEnv(env, "HOME"); h != "" {
		return filepath.Join(h, ".claude.json"), nil
	}
	return "", errors.New("the child environment has neither CLAUDE_CONFIG_DIR nor HOME")
}

// SeedConfig marks onboarding as done, cwd (resolved, as the CLI keys it)
// as trusted, and approves the child's ANTHROPIC_API_KEY, keeping every
// other key of the file. It writes only when something changes, through a
// temporary file renamed over the old one (the file keeps its mode; a new
// one gets 0600). A key the user once rejected in the CLI stays rejected.
// env is the child's environment (ChildEnv), which says where the file is.
// Safe for concurrent use within this process.
//
// dirs are more directories to mark trusted: the --add-dir ones, which the
// interactive CLI otherwise asks about at every start ("Adding a new
// directory … one you trust?"); the person named them in the session's
// limits, and the chat's CLI (-p) takes them without asking.
func SeedConfig(env []string, cwd string, dirs ...string) (SeedResult, error) {
	file, err := configFile(env)
	if err != nil {
		return SeedResult{}, err
	}
	res := SeedResult{File: file}
	if real, err := filepath.EvalSymlinks(file); err == nil {
		file = real // a dotfile manager's symlink stays a symlink
	}
	trusted := make([]string, 0, 1+len(dirs))
	for _, d := range append([]string{cwd}, dirs...) {
		trusted = append(trusted, resolved(d))
	}
	keyTail := lookupEnv(env, "ANTHROPIC_API_KEY")
	keyTail = keyTail[max(len(keyTail)-keyTailLen, 0):]

	seedMu.Lock()
	defer seedMu.Unlock()
	doc, mode, err := readConfig(file)
	if err != nil {
		return res, err
	}
	if res.Changes, err = merge(doc, trusted, keyTail); err != nil || len(res.Changes) == 0 {
		return res, err
	}
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return res, fmt.Errorf("encode %s: %w", file, err)
	}
	if err := writeAtomic(file, append(data, '\n'), mode); err != nil {
		return res, err
	}
	return res, nil
}

// readConfig reads the file as a JSON object, and its mode. A missing or
// empty file is an empty object with mode 0600; anything that is not a
// JSON object is an error, so that nothing is clobbered.
func readConfig(file string) (map[string]json.RawMessage, fs.FileMode, error) {
	doc := map[string]json.RawMessage{}
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return doc, 0o600, nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("read claude config: %w", err)
	}
	mode := fs.FileMode(0o600)
	if fi, err := os.Stat(file); err == nil {
		mode = fi.Mode().Perm()
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return doc, mode, nil
	}
	if err := json.Unmarshal(data, &doc); err != nil || doc == nil {
		return nil, 0, fmt.Errorf("read claude config %s: not a JSON object", file)
	}
	return doc, mode, nil
}

// resolved is dir as the CLI keys its projects: absolute, symlinks
// resolved (as far as they resolve).
func resolved(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return dir
}

// merge applies the seed keys to doc and says what changed.
// hasCompletedProjectOnboarding is set together with the trust only: the
// CLI drops it when it rewrites the file, and adding it back at every
// start would report a change each time.
func merge(doc map[string]json.RawMessage, dirs []string, keyTail string) ([]string, error) {
	var changes []string
	if string(doc["hasCompletedOnboarding"]) != "true" {
		doc["hasCompletedOnboarding"] = json.RawMessage("true")
		changes = append(changes, "marked onboarding as complete")
	}
	for _, dir := range dirs {
		trusted, err := trust(doc, dir)
		if err != nil {
			return nil, err
		}
		if trusted {
			changes = append(changes, "marked "+dir+" as trusted")
		}
	}
	if keyTail == "" {
		return changes, nil
	}
	approved, err := approveKey(doc, keyTail)
	if err != nil {
		return nil, err
	}
	if approved {
		changes = append(changes, "approved the key in ANTHROPIC_API_KEY")
	}
	return changes, nil
}

// trust marks dir's project trusted unless it is, and reports whether it
// changed doc.
func trust(doc map[string]json.RawMessage, dir string) (bool, error) {
	projects, err := object(doc, "projects")
	if err != nil {
		return false, err
	}
	project, err := object(projects, dir)
	if err != nil {
		return false, err
	}
	if string(project["hasTrustDialogAccepted"]) == "true" {
		return false, nil
	}
	project["hasTrustDialogAccepted"] = json.RawMessage("true")
	project["hasCompletedProjectOnboarding"] = json.RawMessage("true")
	if err := setObject(projects, dir, project); err != nil {
		return false, err
	}
	return true, setObject(doc, "projects", projects)
}

// approveKey adds keyTail to customApiKeyResponses.approved unless it is
// there already or was rejected.
func approveKey(doc map[string]json.RawMessage, keyTail string) (bool, error) {
	resp, err := object(doc, "customApiKeyResponses")
	if err != nil {
		return false, err
	}
	var approved, rejected []string
	if err := list(resp, "approved", &approved); err != nil {
		return false, err
	}
	if err := list(resp, "rejected", &rejected); err != nil {
		return false, err
	}
	for _, k := range append(approved, rejected...) {
		if k == keyTail {
			return false, nil
		}
	}
	if rejected == nil {
		rejected = []string{}
	}
	for key, v := range map[string][]string{"approved": append(approved, keyTail), "rejected": rejected} {
		if err := setObject(resp, key, v); err != nil {
			return false, err
		}
	}
	return true, setObject(doc, "customApiKeyResponses", resp)
}

// object decodes m[key] as an object: empty when absent or null, an error
// when it is something else.
func object(m map[string]json.RawMessage, key string) (map[string]json.RawMessage, error) {
	out := map[string]json.RawMessage{}
	if raw, ok := m[key]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &out); err != nil || out == nil {
			return nil, fmt.Errorf("claude config: %q is not a JSON object", key)
		}
	}
	return out, nil
}

// list decodes m[key] as a list of strings (nil when absent).
func list(m map[string]json.RawMessage, key string, out *[]string) error {
	if raw, ok := m[key]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, out); err != nil {
			return fmt.Errorf("claude config: %q is not a list of strings", key)
		}
	}
	return nil
}

func setObject(m map[string]json.RawMessage, key string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode claude config %q: %w", key, err)
	}
	m[key] = b
	return nil
}

// writeAtomic replaces file with data: a reader (the CLI starting in
// another session) sees the old file or the new one, never a torn one.
func writeAtomic(file string, data []byte, mode fs.FileMode) (err error) {
	dir := filepath.Dir(file)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("write claude config: %w", err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(file)+".agentdesk-*")
	if err != nil {
		return fmt.Errorf("write claude config: %w", err)
	}
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(f.Name())
		}
	}()
	if err := f.Chmod(mode); err != nil {
		return fmt.Errorf("write claude config: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("write claude config: %w", err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("write claude config: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write claude config: %w", err)
	}
	if err := os.Rename(f.Name(), file); err != nil {
		return fmt.Errorf("write claude config: %w", err)
	}
	return nil
}

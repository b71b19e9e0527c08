package agentbox

import (
	"errors"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strconv"

	"github.com/pelletier/go-toml/v2"

	"github.com/agentdesk/agentdesk/internal/agent/codex"
	"github.com/agentdesk/agentdesk/worker"
)

// The built-in OpenAI provider's addresses (agents.md §C): the API, and
// for a ChatGPT login its backend and the login's refresh.
var openAIURLs = []string{"https://api.openai.com/v1", "https://chatgpt.com", "https://auth.openai.com"}

// builtin are Codex's other built-in providers (the local "oss" ones), at
// their default ports.
var builtin = map[string]string{
	"ollama":   "http://localhost:11434/v1",
	"lmstudio": "http://localhost:1234/v1",
}

// Codex is what Codex's CLI needs in a box: its home (CODEX_HOME), the
// OPENAI_* variables, and what the user's config.toml says, read each
// time a session's box is worked out: the active model provider's address
// (kept in the box: config.toml works unchanged there) and the variable
// holding its key (env_key). Its login and config.toml are copied in from
// the user's CODEX_HOME (codex.UserHome of the server's environment).
func Codex(wcfg worker.Config, log *slog.Logger) worker.AgentBox {
	user := codex.UserHome(wcfg.ChildEnv)
	return worker.AgentBox{
		ConfigVar: "CODEX_HOME", ConfigName: ".codex",
		Pass:       []string{"OPENAI_*"},
		FromConfig: func() ([]string, []string) { return codexReach(user, log) },
		Prepare:    func(dir string, _ worker.Session) error { return codex.PrepareHome(dir, user) },
	}
}

// codexConfig is what agentdesk reads of a config.toml.
type codexConfig struct {
	ModelProvider string `toml:"model_provider"`
	OpenAIBaseURL string `toml:"openai_base_url"`
	Profile       string `toml:"profile"`
	Profiles      map[string]struct {
		ModelProvider string `toml:"model_provider"`
	} `toml:"profiles"`
	Providers map[string]struct {
		BaseURL string `toml:"base_url"`
		EnvKey  string `toml:"env_key"`
	} `toml:"model_providers"`
}

// codexReach reads home's config.toml: the addresses of its active
// provider, and the variable of its key. A missing file is Codex's
// default, the built-in OpenAI provider. An address the box cannot keep
// (http off loopback) is left out, said in the log: Codex then reports
// that it cannot connect, and the rest of the box works.
func codexReach(home string, log *slog.Logger) (urls, pass []string) {
	var c codexConfig
	if home != "" {
		b, err := os.ReadFile(filepath.Join(home, "config.toml"))
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			log.Warn("sandboxed sessions: cannot read the codex config: a Codex chat in a box reaches the built-in OpenAI provider only", "err", err)
		default:
			if err := toml.Unmarshal(b, &c); err != nil {
				log.Warn("sandboxed sessions: cannot read the codex config: a Codex chat in a box reaches the built-in OpenAI provider only", "err", err)
				c = codexConfig{}
			}
		}
	}
	name := c.ModelProvider
	if p, ok := c.Profiles[c.Profile]; ok && p.ModelProvider != "" {
		name = p.ModelProvider
	}
	if p, ok := c.Providers[name]; ok && p.BaseURL != "" {
		urls = []string{p.BaseURL}
		if p.EnvKey != "" {
			pass = []string{p.EnvKey}
		}
	} else if u, ok := builtin[name]; ok {
		urls = []string{u}
	} else {
		urls = append([]string(nil), openAIURLs...)
		if c.OpenAIBaseURL != "" {
			urls[0] = c.OpenAIBaseURL
		}
	}
	return keepable(urls, log), pass
}

// keepable are the urls a box can reach at their own address: https, or
// http on 127.0.0.1 or localhost at a port from 1024 (sandbox.Endpoint:
// the bridge listens on that port in the box, whose processes have no
// capability to bind a lower one).
func keepable(urls []string, log *slog.Logger) []string {
	var out []string
	for _, s := range urls {
		if !keptInBox(s) {
			log.Warn("sandboxed sessions: a Codex chat in a workspace box cannot reach this API address (only https, or http on 127.0.0.1 or localhost at a port from 1024); use the level workspace+net", "url", s)
			continue
		}
		out = append(out, s)
	}
	return out
}

func keptInBox(s string) bool {
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return false
	case u.Scheme == "https":
		return true
	case u.Scheme != "http" || (u.Hostname() != "127.0.0.1" && u.Hostname() != "localhost"):
		return false
	}
	port, err := strconv.Atoi(u.Port())
	return err == nil && port >= 1024
}

package claude_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
)

func TestArgs(t *testing.T) {
	base := []string{"-p", "--input-format", "stream-json", "--output-format", "stream-json",
		"--verbose", "--include-partial-messages", "--permission-prompt-tool", "stdio"}
	tests := []struct {
		name string
		o    claude.Options
		want []string
	}{
		{"zero", claude.Options{}, nil},
		{"new session", claude.Options{SessionID: "s1"}, []string{"--session-id", "s1"}},
		{"resume", claude.Options{SessionID: "s1", Resume: true}, []string{"--resume", "s1"}},
		{"resume without id", claude.Options{Resume: true}, nil},
		{"model", claude.Options{Model: "claude-sonnet-4-5"}, []string{"--model", "claude-sonnet-4-5"}},
		{"mode", claude.Options{PermissionMode: "acceptEdits"}, []string{"--permission-mode", "acceptEdits"}},
		{"one tool", claude.Options{AllowedTools: []string{"Bash"}}, []string{"--allowedTools", "Bash"}},
		{"tools", claude.Options{AllowedTools: []string{"Bash(git diff:*)", " ", "Read"}},
			[]string{"--allowedTools", "Bash(git diff:*),Read"}},
		{"empty tools", claude.Options{AllowedTools: []string{""}}, nil},
		{"bypass offered", claude.Options{AllowBypass: true}, []string{"--allow-dangerously-skip-permissions"}},
		{"everything", claude.Options{SessionID: "s2", Resume: true, Model: "m", PermissionMode: "plan",
			AllowedTools: []string{"Edit"}, Path: "/x/claude", Dir: "/tmp", Env: []string{"A=1"}},
			[]string{"--resume", "s2", "--model", "m", "--permission-mode", "plan", "--allowedTools", "Edit"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := claude.Args(tt.o)
			want := append(slices.Clone(base), tt.want...)
			if !slices.Equal(got, want) {
				t.Errorf("Args = %q\nwant   %q", got, want)
			}
		})
	}
}

func TestArgsDoesNotAlias(t *testing.T) {
	a := claude.Args(claude.Options{SessionID: "a"})
	b := claude.Args(claude.Options{SessionID: "b"})
	if a[len(a)-1] != "a" || b[len(b)-1] != "b" {
		t.Fatalf("calls share storage: %q %q", a, b)
	}
}

func TestChildEnv(t *testing.T) {
	base := []string{"PATH=/bin", "AGENTDESK_TOKEN=secret", "HOME=/h", "DISABLE_TELEMETRY=0", "AGENTDESK_X=1"}
	got := claude.ChildEnv(base, "/cfg", "HOME=/other", "ANTHROPIC_API_KEY=k")
	env := map[string]string{}
	for _, kv := range got {
		k, v, _ := strings.Cut(kv, "=")
		if _, dup := env[k]; dup {
			t.Errorf("duplicate %s", k)
		}
		env[k] = v
	}
	want := map[string]string{
		"PATH": "/bin", "HOME": "/other", "ANTHROPIC_API_KEY": "k", "CLAUDE_CONFIG_DIR": "/cfg",
		"DISABLE_TELEMETRY": "1", "DISABLE_ERROR_REPORTING": "1", "DISABLE_AUTOUPDATER": "1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC":             "1",
		"CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL": "1",
	}
	for k, v := range want {
		if env[k] != v {
			t.Errorf("%s = %q, want %q", k, env[k], v)
		}
	}
	for k := range env {
		if strings.HasPrefix(k, "AGENTDESK_") {
			t.Errorf("%s leaked into the child", k)
		}
	}
	if len(env) != len(want) {
		t.Errorf("env = %q", got)
	}
	if base[1] != "AGENTDESK_TOKEN=secret" || base[3] != "DISABLE_TELEMETRY=0" {
		t.Errorf("base modified: %q", base)
	}
	for _, kv := range claude.ChildEnv(base, "") {
		if strings.HasPrefix(kv, "CLAUDE_CONFIG_DIR=") {
			t.Errorf("no config dir given, yet %s", kv)
		}
	}
}

package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/agentdesk/agentdesk/internal/testkit/fakeclaude/fakeclaudetest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestLoadScript(t *testing.T) {
	dir, err := fakeclaudetest.FixtureDir()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		file  string
		turns []string // per turn: the line types, space separated
	}{
		{"a_new_session.jsonl", []string{"system assistant result"}},
		{"f_permission_stdio.transcript.jsonl", []string{
			"system assistant assistant control_request user assistant result",
			"system assistant assistant control_request user assistant result"}},
		{"e_long_lived.transcript.jsonl", []string{
			"system assistant result", "system assistant result",
			"system assistant user result", "system assistant result"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			turns, err := loadScript(filepath.Join(dir, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, turn := range turns {
				var types []string
				for _, line := range turn {
					var h struct{ Type string }
					if err := json.Unmarshal([]byte(line), &h); err != nil || strings.Contains(line, "\n") {
						t.Fatalf("bad line %q: %v", line, err)
					}
					types = append(types, h.Type)
				}
				got = append(got, strings.Join(types, " "))
			}
			if strings.Join(got, "|") != strings.Join(tt.turns, "|") {
				t.Fatalf("turns\n%q\nwant\n%q", got, tt.turns)
			}
		})
	}
}

func TestSubst(t *testing.T) {
	f := &fake{sessionID: "sid", cwd: `/a "b"`}
	got := f.subst(`{"s":"{{SESSION_ID}}","c":"{{CWD}}","u":["{{UUID}}","{{UUID}}"]}`)
	var v struct {
		S, C string
		U    []string
	}
	if err := json.Unmarshal([]byte(got), &v); err != nil {
		t.Fatalf("%s: %v", got, err)
	}
	if v.S != "sid" || v.C != `/a "b"` || len(v.U[0]) != 36 || v.U[0] == v.U[1] {
		t.Fatalf("subst = %s", got)
	}
}

func TestPromptText(t *testing.T) {
	for in, want := range map[string]string{
		`"hi"`: "hi",
		`[{"type":"text","text":"a"},{"type":"image"},{"type":"text","text":"b"}]`: "a\nb",
		`null`: "",
	} {
		if got := promptText(json.RawMessage(in)); got != want {
			t.Errorf("promptText(%s) = %q, want %q", in, got, want)
		}
	}
}

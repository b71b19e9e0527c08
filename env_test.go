package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestChildrenSeeNoAgentdeskVariables runs the binary with its settings in
// the environment (the token above all): a terminal's shell sees none of
// them, only the marker that finds it again (AGENTDESK_WORKER).
func TestChildrenSeeNoAgentdeskVariables(t *testing.T) {
	const token = "00112233445566778899aabbccddeeff"
	t.Setenv("AGENTDESK_TOKEN", token)
	t.Setenv("AGENTDESK_CLAUDE", "/nonexistent/claude")
	p := start(t, t.TempDir())
	defer p.stop(t, syscall.SIGINT)
	code, b := p.api(t, "POST", "/api/sessions", `{"cwd":"`+t.TempDir()+`","agent":"none"}`)
	if code != 201 {
		t.Fatalf("create session: %d %s", code, b)
	}
	var s struct{ ID string }
	_ = json.Unmarshal(b, &s)
	out := filepath.Join(t.TempDir(), "env")
	body := `{"kind":"terminal","command":["/bin/sh","-c","env > ` + out + `.tmp; mv ` + out + `.tmp ` + out + `; echo $$ > ` + out + `.pid"]}`
	if code, b := p.api(t, "POST", "/api/sessions/"+s.ID+"/workers", body); code != 201 {
		t.Fatalf("create terminal: %d %s", code, b)
	}
	waitPID(t, out+".pid") // written after the environment
	env, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range strings.Split(string(env), "\n") {
		if strings.HasPrefix(kv, "AGENTDESK_") && !strings.HasPrefix(kv, "AGENTDESK_WORKER=") {
			t.Errorf("the shell sees %s", kv)
		}
	}
	if strings.Contains(string(env), token) || !strings.Contains(string(env), "AGENTDESK_WORKER=") {
		t.Fatalf("shell environment:\n%s", env)
	}
}

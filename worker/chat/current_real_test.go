package chat

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentdesk/agentdesk/worker"
)

// The Worker object says what the CLI runs (issue 22, item 2): with
// nothing chosen, the model and mode of the user's own settings.json, as
// the CLI reports them; after a change, the new mode. The choices stay
// apart: nothing chosen stays "".
func TestRealCurrentSettings(t *testing.T) {
	s := newReal(t)
	dir := filepath.Join(s.home, ".claude")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	settings := `{"model":"claude-haiku-4-5","permissions":{"defaultMode":"acceptEdits"}}`
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	h := s.harness(t, harnessOptions{})
	a := attach(t, h.rt, "")
	send(t, h, "hello there")
	a.until(isResult)
	info := h.waitInfo(func(i worker.Info) bool { return i.Current != nil && i.Current.Model != "" })
	want := worker.Current{Model: "claude-haiku-4-5", PermissionMode: "acceptEdits"}
	if *info.Current != want || info.Model != "" || info.PermissionMode != "" {
		t.Fatalf("worker: current %+v, chosen %q/%q; want current %+v, nothing chosen", *info.Current, info.Model, info.PermissionMode, want)
	}

	if err := h.rt.ApplySettings(t.Context(), worker.Settings{PermissionMode: "plan"}); err != nil {
		t.Fatal(err)
	}
	info = h.waitInfo(func(i worker.Info) bool { return i.Current.PermissionMode == "plan" })
	if info.Current.Model != want.Model {
		t.Errorf("the mode change lost the model: %+v", *info.Current)
	}
}

package codex

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/launch"
	"github.com/agentdesk/agentdesk/internal/testkit/fakeopenai"
)

// The parts of app-server's schema this package relies on are kept in
// testdata/schema (listed in its FILES). The protocol is experimental: the
// pinned CLI must still print them exactly, or this package needs a look.
func TestSchemaMatchesPinnedCLI(t *testing.T) {
	bin := fakeopenai.RequireCodex(t)
	out := t.TempDir()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	p, err := launch.Local{}.Start(ctx, launch.Spec{
		Argv: []string{bin, "app-server", "generate-json-schema", "--out", out},
		Env:  []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "CODEX_HOME=" + t.TempDir()},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Wait(); err != nil {
		t.Fatalf("generate-json-schema: %v", err)
	}
	list, err := os.ReadFile(filepath.Join("testdata", "schema", "FILES"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range strings.Fields(string(list)) {
		kept, err := os.ReadFile(filepath.Join("testdata", "schema", name))
		if err != nil {
			t.Fatal(err)
		}
		now, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Errorf("%s: the CLI no longer prints it: %v", name, err)
			continue
		}
		if !bytes.Equal(kept, now) {
			t.Errorf("%s changed in the CLI: compare testdata/schema/%s with its output", name, name)
		}
	}
}

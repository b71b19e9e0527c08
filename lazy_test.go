package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/markdown"
	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker/tools"
)

// lazyChild marks the test binary run by TestStartLoadsNoFeature: a fresh
// process, where nothing but start-up has run.
const lazyChild = "AGENTDESK_LAZY_CHILD"

// TestStartLoadsNoFeature: starting the server builds neither the markdown
// renderer (goldmark) nor the search
// index (bleve); each is built when first used, and then works. It runs in
// a process of its own, since any earlier test may have used them.
func TestStartLoadsNoFeature(t *testing.T) {
	if os.Getenv(lazyChild) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestStartLoadsNoFeature$", "-test.v")
		cmd.Env = append(os.Environ(), lazyChild+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestStartLoadsNoFeature") {
			t.Fatalf("start-up in a fresh process: %v\n%s", err, out)
		}
		return
	}
	dir := t.TempDir()
	store, err := persist.Open(filepath.Join(dir, "agentdesk.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	mgr := quietManager(store)
	ctx := context.Background()
	if err := mgr.Load(ctx); err != nil {
		t.Fatal(err)
	}
	defer mgr.Close(ctx)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	bridge := tools.New(tools.Options{Log: log})
	dom, err := openDomain(config{dataDir: dir}, store, mgr, bridge, log)
	if err != nil {
		t.Fatal(err)
	}
	defer dom.close()
	o := dom.options()
	if markdown.Built() {
		t.Error("start-up built the markdown renderer")
	}
	if dom.finder.Opened() {
		t.Error("start-up opened the search index")
	}
	if css := o.HighlightCSS(); !strings.Contains(css, ".hl-kw") || markdown.Built() {
		t.Errorf("the code blocks' stylesheet: built the renderer %v, %.80q", markdown.Built(), css)
	}
	if html, err := markdown.Render("```go\nfunc main() {}\n```"); err != nil || !strings.Contains(html, `<code class="language-go">`) || !markdown.Built() {
		t.Errorf("first render: %v, %q, built %v", err, html, markdown.Built())
	}
	if res, err := dom.finder.Search("anything", 10, ""); err != nil || len(res.Hits) != 0 || !dom.finder.Opened() {
		t.Errorf("first search: %+v, %v, opened %v", res, err, dom.finder.Opened())
	}
}

// Budgets of a started server that has answered nothing yet (empty data
// dir), in KiB of /proc/PID/status: measured 22.0-22.4 MiB VmRSS and
// 3.9-4.0 MiB RssAnon on the 2-core test machine once chroma left the
// binary (round 7; with it, 28.1-28.5 and 6.2-6.6: docs/performance.md,
// issue 29). A new dependency whose init runs at start (chroma added ~6
// MiB, bleve as much), or a feature loaded at start again, goes over.
const (
	idleRSSBudget  = 26 << 10
	idleAnonBudget = 6 << 10
)

// TestIdleFootprint guards the idle server's memory against growth.
func TestIdleFootprint(t *testing.T) {
	p := start(t, t.TempDir())
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, l := range strings.Split(string(b), "\n") {
		var k string
		var v int
		if n, _ := fmt.Sscanf(l, "%s %d kB", &k, &v); n == 2 {
			got[strings.TrimSuffix(k, ":")] = v
		}
	}
	t.Logf("idle: VmRSS %d KiB, RssAnon %d KiB, RssFile %d KiB", got["VmRSS"], got["RssAnon"], got["RssFile"])
	if got["VmRSS"] == 0 || got["VmRSS"] > idleRSSBudget || got["RssAnon"] > idleAnonBudget {
		t.Fatalf("idle server: VmRSS %d KiB (budget %d), RssAnon %d KiB (budget %d)",
			got["VmRSS"], idleRSSBudget, got["RssAnon"], idleAnonBudget)
	}
}

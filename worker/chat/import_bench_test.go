package chat

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
)

// syntheticSession returns session-file lines of about size bytes: turns
// shaped like the CLI's (a typed prompt, bookkeeping lines, a markdown
// answer with code, a Bash tool call and its result, a closing answer),
// alternating between the terminal UI and stream-json.
func syntheticSession(size int) []string {
	var lines []string
	total, parent := 0, "null"
	add := func(s string) { lines = append(lines, s); total += len(s) + 1 }
	for turn := 0; total < size; turn++ {
		ep := []string{"cli", "sdk-cli"}[turn%2]
		id := func(k int) string { return fmt.Sprintf("%08x-0000-4000-8000-%012x", turn, k) }
		common := fmt.Sprintf(`"isSidechain":false,"userType":"external","entrypoint":%q,"cwd":"/srv/work","sessionId":%q,"version":"2.1.330","gitBranch":"main","timestamp":"2026-11-22T10:43:49.824Z"`, ep, importConv)
		entry := func(k int, typ, msg, extra string) {
			add(fmt.Sprintf(`{"parentUuid":%s,"type":%q,"message":%s,"uuid":%q,%s%s}`, parent, typ, msg, id(k), common, extra))
			parent = `"` + id(k) + `"`
		}
		add(fmt.Sprintf(`{"type":"queue-operation","operation":"enqueue","timestamp":"2026-11-22T10:43:49.800Z","sessionId":%q,"content":"turn %d"}`, importConv, turn))
		entry(1, "user", fmt.Sprintf(`{"role":"user","content":"Turn %d: please look at the failing test in worker/sdk and fix it, then run the tests again."}`, turn), `,"promptSource":"typed"`)
		add(`{"type":"attachment","attachment":{"type":"date","date":"2026-11-22"},"rendered":"<system-reminder>` + strings.Repeat("context ", 150) + `</system-reminder>",` + common + `}`)
		add(`{"type":"api-request","id":"r","params":{"model":"claude-opus-5-5","max_tokens":128000},"tail":[` + strings.Repeat(`{"role":"user","content":"x"},`, 40) + `{}]}`)
		text := fmt.Sprintf("## Turn %d\\n\\nI looked at **the test**. The fix:\\n\\n```go\\nfunc add(a, b int) int {\\n\\treturn a + b // %d\\n}\\n```\\n\\n- runs `go vet`\\n- then `go test -race`", turn, turn)
		entry(2, "assistant", `{"id":"msg_1","type":"message","role":"assistant","model":"claude-opus-5-5","content":[{"type":"text","text":"`+text+`"}],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":2560,"output_tokens":34}}`, `,"requestId":"req_1","apiBlockIndex":0`)
		entry(3, "assistant", `{"id":"msg_1","type":"message","role":"assistant","model":"claude-opus-5-5","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"go test ./...","description":"Run the tests"}}],"stop_reason":"tool_use","usage":{"input_tokens":2560,"output_tokens":34}}`, `,"requestId":"req_1","apiBlockIndex":1`)
		out := strings.Repeat("ok  \tgithub.com/agentdesk/agentdesk/worker/sdk\t1.234s\\n", 40)
		entry(4, "user", `{"role":"user","content":[{"tool_use_id":"toolu_1","type":"tool_result","content":"`+out+`","is_error":false}]}`, `,"toolUseResult":{"stdout":"`+out+`","stderr":"","interrupted":false}`)
		entry(5, "assistant", `{"id":"msg_2","type":"message","role":"assistant","model":"claude-opus-5-5","content":[{"type":"text","text":"All tests pass now."}],"stop_reason":"end_turn","usage":{"input_tokens":2600,"output_tokens":8}}`, "")
		add(fmt.Sprintf(`{"type":"last-prompt","lastPrompt":"turn %d","leafUuid":%s,"sessionId":%q}`, turn, parent, importConv))
	}
	return lines
}

// BenchmarkImport5MB measures a new worker's import of a 5 MB session
// file: scan, filter, markdown, commit (fsync'ed store) and publish, from
// newRuntime until the last frame is published.
func BenchmarkImport5MB(b *testing.B) {
	cfg, cwd := b.TempDir(), b.TempDir()
	path := claude.SessionFilePath(cfg, cwd, importConv)
	writeSessionFile(b, path, syntheticSession(5<<20))
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(fi.Size())
	conv := importConv
	var msgs int
	for i := 0; b.Loop(); i++ {
		st, err := persist.Open(filepath.Join(b.TempDir(), fmt.Sprintf("db%d", i)), nil)
		if err != nil {
			b.Fatal(err)
		}
		r, err := newRuntime(worker.Env{
			Info:    worker.Info{ID: "w1", SessionID: "s1", Kind: worker.KindSDK},
			Session: worker.Session{ID: "s1", Cwd: cwd, ClaudeSessionID: &conv},
			Store:   st,
		}, claude.NewDriver(claude.Config{ConfigDir: cfg}))
		if err != nil {
			b.Fatal(err)
		}
		<-r.imported
		r.Stop(context.Background()) // the publisher drains the queue first
		b.StopTimer()
		if msgs = int(r.journal.published()); msgs == 0 {
			b.Fatal("nothing imported")
		}
		st.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(msgs), "msgs/op")
	b.ReportMetric(float64(fi.Size())/(1<<20), "MB/file")
}

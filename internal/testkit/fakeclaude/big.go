package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/google/uuid"
)

// bigSpec is FAKECLAUDE_BIG: count lines of about size bytes each.
type bigSpec struct {
	count, size int
	kind        string // "tool", "text" or "mixed"
}

// parseBig reads FAKECLAUDE_BIG ("<count>x<bytes>", e.g. "12x30000000")
// and FAKECLAUDE_BIG_KIND.
func parseBig(spec, kind string) (bigSpec, error) {
	n, size, ok := strings.Cut(spec, "x")
	b := bigSpec{kind: kind}
	var err1, err2 error
	b.count, err1 = strconv.Atoi(n)
	b.size, err2 = strconv.Atoi(size)
	if !ok || err1 != nil || err2 != nil || b.count < 1 || b.size < 1 {
		return bigSpec{}, fmt.Errorf("FAKECLAUDE_BIG: want <count>x<bytes>, got %q", spec)
	}
	switch b.kind {
	case "":
		b.kind = "mixed"
	case "tool", "text", "mixed":
	default:
		return bigSpec{}, fmt.Errorf("FAKECLAUDE_BIG_KIND: want tool, text or mixed, got %q", kind)
	}
	return b, nil
}

// bigTurn writes init, the big lines and a result. A "tool" line is the
// user line that carries a tool's output (as for a Read of a large file);
// a "text" line is an assistant message with one huge markdown text block;
// "mixed" alternates them, tool first. The payload is printable ASCII
// lines of 79 characters, so the JSON escapes only the newlines.
func (f *fake) bigTurn() {
	f.emitJSON(f.initLine())
	payload := bigPayload(f.big.size)
	for i := range f.big.count {
		tool := f.big.kind == "tool" || (f.big.kind == "mixed" && i%2 == 0)
		if tool {
			f.writeBig(`{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_big","type":"tool_result","content":"`, payload)
		} else {
			f.writeBig(`{"type":"assistant","message":{"id":"msg_big","type":"message","role":"assistant","model":"claude-opus-5-5","content":[{"type":"text","text":"`, payload)
		}
		// Progress, for tests that check how far a reader let it get.
		fmt.Fprintf(os.Stderr, "fakeclaude: big line %d of %d written\n", i+1, f.big.count)
	}
	f.emitJSON(f.resultLine("big done", f.next))
	f.next++
	f.lastError = false
}

// writeBig writes head, the payload, and the end of the line with a fresh
// uuid, without building the line in memory.
func (f *fake) writeBig(head, payload string) {
	f.out.WriteString(head)
	f.out.WriteString(payload)
	fmt.Fprintf(f.out, `"}]},"parent_tool_use_id":null,"session_id":%q,"uuid":%q}`+"\n", f.sessionID, uuid.NewString())
	f.out.Flush()
}

// bigPayload returns size bytes of JSON string content: lines of text
// separated by the escape \n.
func bigPayload(size int) string {
	const line = "the quick brown fox jumps over the lazy dog, 0123456789 abcdefghijklmnopq"
	var b strings.Builder
	b.Grow(size)
	for b.Len() < size {
		b.WriteString(line[:min(len(line), size-b.Len())])
		if b.Len()+2 <= size {
			b.WriteString(`\n`)
		}
	}
	return b.String()
}

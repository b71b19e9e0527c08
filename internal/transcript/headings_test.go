package transcript

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// TestReplyHeadingsGoBelowTheTranscripts exports a reply with its own
// outline (ATX and setext headings, a # in a fence and in indented code)
// and checks, by parsing the whole document, that its only # is the
// title and its ## are the messages: the reply's headings start at ###.
func TestReplyHeadingsGoBelowTheTranscripts(t *testing.T) {
	reply := "# Plan\n\nSteps:\n\n## Step one\n\n```sh\n# a comment, not a heading\n```\n\n    # indented code\n\n" +
		"Setext title\n===\n\nSmall\n---\n\n> # Quoted\n\n- ##### Deep\n\n###### Deepest\n\n#hashtag\n"
	line, _ := json.Marshal(map[string]any{"type": "assistant", "message": map[string]any{
		"content": []map[string]string{{"type": "text", "text": reply}}}})
	prompt, _ := json.Marshal(map[string]any{"type": "user", "message": map[string]any{"content": "# My question"}})
	var doc strings.Builder
	if err := WriteHeader(&doc, Header{Title: "Chat", Exported: time.Unix(0, 0)}); err != nil {
		t.Fatal(err)
	}
	for _, l := range [][]byte{prompt, line} {
		if err := WriteMessage(&doc, l); err != nil {
			t.Fatal(err)
		}
	}
	out := doc.String()

	var got []string
	src := []byte(out)
	_ = ast.Walk(mdParser.Parse(text.NewReader(src)), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if h, ok := n.(*ast.Heading); ok && entering {
			got = append(got, strings.Repeat("#", h.Level)+" "+string(h.Lines().Value(src)))
		}
		return ast.WalkContinue, nil
	})
	want := []string{"# Chat", "## User", "### My question", "## Claude", "### Plan", "#### Step one",
		"### Setext title", "#### Small", "### Quoted", "###### Deep", "###### Deepest"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("headings:\n got  %q\n want %q\n%s", got, want, out)
	}
	for _, kept := range []string{"# a comment, not a heading\n", "    # indented code\n", "\n#hashtag\n"} {
		if !strings.Contains(out, kept) {
			t.Fatalf("%q changed:\n%s", kept, out)
		}
	}
}

// FuzzDemoteHeadings: whatever a reply holds, its demoted form has no
// heading with text above level 3 (the transcript's own levels).
func FuzzDemoteHeadings(f *testing.F) {
	for _, s := range []string{"# a\n", "a\n===\n", "> b\n> ---\n", "- # c\n", "```\n# d\n```\n", "#\n", "x\ny\n---", "  ## e ##\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, md string) {
		out := []byte(demoteHeadings(md))
		_ = ast.Walk(mdParser.Parse(text.NewReader(out)), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if h, ok := n.(*ast.Heading); ok && entering && h.Level < 1+ownLevels && h.Lines().Len() > 0 {
				t.Fatalf("%q → %q holds a level-%d heading", md, out, h.Level)
			}
			return ast.WalkContinue, nil
		})
	})
}

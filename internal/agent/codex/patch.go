package codex

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// change is one file of a fileChange item. Diff is the file's content for
// an added (or deleted) file, unified-diff hunks for an update.
type change struct {
	Path string `json:"path"`
	Kind struct {
		Type     string `json:"type"` // add, delete, update
		MovePath string `json:"move_path"`
	} `json:"kind"`
	Diff string `json:"diff"`
}

type fileItem struct {
	ID      string   `json:"id"`
	Status  string   `json:"status"` // inProgress, completed, failed, declined
	Changes []change `json:"changes"`
}

// callID is the tool call id of change i of item id: the item's own when
// it changes one file.
func callID(id string, i, n int) string {
	if n == 1 {
		return id
	}
	return fmt.Sprintf("%s#%d", id, i)
}

// fileUses shows a file change as the chat shows Claude's edits, one call
// per file: a new file as a Write of its content, an update as an Edit of
// its hunks' lines, a deletion as an Edit that removes everything.
func (t *Translator) fileUses(item json.RawMessage) []Out {
	f := params[fileItem](item)
	t.files[f.ID] = f.Changes
	out := make([]Out, 0, len(f.Changes))
	for i, c := range f.Changes {
		name, input := editCall(c)
		out = append(out, t.toolUse(callID(f.ID, i, len(f.Changes)), name, input))
	}
	return out
}

func editCall(c change) (string, map[string]any) {
	switch c.Kind.Type {
	case "add":
		return "Write", map[string]any{"file_path": c.Path, "content": c.Diff}
	case "delete":
		return "Edit", map[string]any{"file_path": c.Path, "old_string": c.Diff, "new_string": ""}
	}
	old, updated := hunkSides(parseHunks(c.Diff))
	in := map[string]any{"file_path": c.Path, "old_string": old, "new_string": updated}
	if c.Kind.MovePath != "" {
		in["move_path"] = c.Kind.MovePath
	}
	return "Edit", in
}

// fileResults are the calls' results: applied, failed or declined; an
// update's hunks go along as structuredPatch, which the chat's diff view
// numbers by.
func (t *Translator) fileResults(item json.RawMessage) []Out {
	f := params[fileItem](item)
	if len(f.Changes) == 0 {
		f.Changes = t.files[f.ID]
	}
	delete(t.files, f.ID)
	declined := f.Status == "declined"
	text := map[string]string{"completed": "Applied.", "declined": "The user declined this change.",
		"failed": "The change could not be applied."}[f.Status]
	out := make([]Out, 0, len(f.Changes))
	for i, c := range f.Changes {
		meta := map[string]any{"filePath": c.Path, "status": f.Status}
		if c.Kind.Type == "update" {
			meta["structuredPatch"] = parseHunks(c.Diff)
		}
		out = append(out, t.toolResult(callID(f.ID, i, len(f.Changes)), text, f.Status != "completed", declined, meta))
	}
	return out
}

// hunk is one hunk of a unified diff, in the shape the chat's Edit view
// reads (Claude's structuredPatch).
type hunk struct {
	OldStart int      `json:"oldStart"`
	OldLines int      `json:"oldLines"`
	NewStart int      `json:"newStart"`
	NewLines int      `json:"newLines"`
	Lines    []string `json:"lines"`
}

// parseHunks reads the hunks of a unified diff; lines before the first
// hunk header (file headers) are skipped, and so is anything malformed.
func parseHunks(diff string) []hunk {
	var out []hunk
	for _, line := range strings.Split(strings.TrimSuffix(diff, "\n"), "\n") {
		if strings.HasPrefix(line, "@@") {
			if h, ok := hunkHeader(line); ok {
				out = append(out, h)
			}
			continue
		}
		if len(out) == 0 || line == "" || strings.IndexByte(" +-\\", line[0]) < 0 {
			continue
		}
		h := &out[len(out)-1]
		h.Lines = append(h.Lines, line)
	}
	return out
}

// hunkHeader reads "@@ -a[,b] +c[,d] @@…" (a missing count is 1).
func hunkHeader(line string) (hunk, bool) {
	f := strings.Fields(line)
	if len(f) < 3 || !strings.HasPrefix(f[1], "-") || !strings.HasPrefix(f[2], "+") {
		return hunk{}, false
	}
	os, ol, ok1 := rangeOf(f[1][1:])
	ns, nl, ok2 := rangeOf(f[2][1:])
	return hunk{OldStart: os, OldLines: ol, NewStart: ns, NewLines: nl}, ok1 && ok2
}

func rangeOf(s string) (start, lines int, ok bool) {
	a, b, has := strings.Cut(s, ",")
	start, err := strconv.Atoi(a)
	if err != nil {
		return 0, 0, false
	}
	lines = 1
	if has {
		if lines, err = strconv.Atoi(b); err != nil {
			return 0, 0, false
		}
	}
	return start, lines, true
}

// hunkSides are the old and the new text of the hunks' lines.
func hunkSides(hs []hunk) (string, string) {
	var old, updated strings.Builder
	for _, h := range hs {
		for _, l := range h.Lines {
			switch l[0] {
			case ' ':
				old.WriteString(l[1:] + "\n")
				updated.WriteString(l[1:] + "\n")
			case '-':
				old.WriteString(l[1:] + "\n")
			case '+':
				updated.WriteString(l[1:] + "\n")
			}
		}
	}
	return old.String(), updated.String()
}

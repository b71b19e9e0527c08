package filelist

import (
	"slices"
	"testing"
)

func TestRank(t *testing.T) {
	files := []string{
		"README.md",
		"docs/api-extensions.md",
		"docs/API.md",
		"frontend/src/panes/chat/composer.ts",
		"frontend/src/panes/chat/completion.ts",
		"frontend/src/panes/chat/pane.ts",
		"internal/filelist/rank.go",
		"internal/filelist/rank_test.go",
		"server/files.go",
		"server/capabilities.go",
		"vendor/github.com/someone/project/composer.ts",
		"comp/o/ser.txt",
	}
	x := NewIndex(files)
	tests := []struct {
		q     string
		limit int
		want  []string
	}{
		// The whole name first, then the name's start, then a shorter path.
		{"rank.go", 50, []string{"internal/filelist/rank.go", "internal/filelist/rank_test.go"}},
		{"rank", 50, []string{"internal/filelist/rank.go", "internal/filelist/rank_test.go"}},
		// Case is ignored; name matches beat path matches; shorter wins a tie.
		{"COMPOSER", 50, []string{"frontend/src/panes/chat/composer.ts", "vendor/github.com/someone/project/composer.ts", "comp/o/ser.txt"}},
		// Contiguous in a directory name, at a boundary.
		{"filelist", 3, []string{"internal/filelist/rank.go", "internal/filelist/rank_test.go"}},
		// Fuzzy: letters in order; in the name and at word starts first.
		// (composer.ts's letters sit closer together than completion.ts's.)
		{"cmpts", 50, []string{"frontend/src/panes/chat/composer.ts", "vendor/github.com/someone/project/composer.ts", "frontend/src/panes/chat/completion.ts"}},
		{"sfg", 50, []string{"server/files.go"}},
		{"api", 2, []string{"docs/API.md", "docs/api-extensions.md"}},
		{"zzz", 50, []string{}},
		// Empty: shallow and short first.
		{"", 3, []string{"README.md", "docs/API.md", "server/files.go"}},
		{"", 0, []string{}},
	}
	for _, tt := range tests {
		got := x.Rank(tt.q, tt.limit)
		if !slices.Equal(got, tt.want) {
			t.Errorf("Rank(%q, %d) = %q\nwant %q", tt.q, tt.limit, got, tt.want)
		}
	}
}

// The limit keeps the best, not the first found.
func TestRankLimitKeepsBest(t *testing.T) {
	var files []string
	for i := range 500 {
		files = append(files, "deep/dir/"+string(rune('a'+i%26))+string(rune('a'+i/26))+"/main_helper.go")
	}
	files = append(files, "main.go")
	got := NewIndex(files).Rank("main.go", 5)
	if len(got) != 5 || got[0] != "main.go" {
		t.Fatalf("Rank = %q, want main.go first of 5", got)
	}
}

// Lower-casing may change a path's length outside ASCII; names stay found.
func TestRankNonASCII(t *testing.T) {
	x := NewIndex([]string{"İstanbul/Straße.go", "ȺB/c.go", "plain.go"})
	for i, name := range []string{"straße.go", "c.go", "plain.go"} {
		if got := x.lower[i][x.base[i]:]; got != name {
			t.Errorf("name of %q = %q, want %q", x.files[i], got, name)
		}
	}
	for q, want := range map[string]string{"straße": "İstanbul/Straße.go", "c.go": "ȺB/c.go", "plain": "plain.go"} {
		if got := x.Rank(q, 1); !slices.Equal(got, []string{want}) {
			t.Errorf("Rank(%q) = %q, want %q", q, got, want)
		}
	}
}

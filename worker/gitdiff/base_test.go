package gitdiff

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDefaultBase(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T) (dir, want string)
	}{
		{"main", func(t *testing.T) (string, string) {
			r := newRepo(t, "main")
			r.commit("1")
			fork := r.commit("2")
			r.git("checkout", "-q", "-b", "feature")
			r.commit("3")
			r.git("checkout", "-q", "main")
			r.commit("4 on main")
			r.git("checkout", "-q", "feature")
			return r.dir, fork
		}},
		{"master", func(t *testing.T) (string, string) {
			r := newRepo(t, "master")
			fork := r.commit("1")
			r.git("checkout", "-q", "-b", "feature")
			r.commit("2")
			return r.dir, fork
		}},
		{"on main itself", func(t *testing.T) (string, string) {
			r := newRepo(t, "main")
			r.commit("1")
			return r.dir, r.commit("2")
		}},
		{"origin HEAD before main", originHeadCase},
		{"root commit", func(t *testing.T) (string, string) {
			r := newRepo(t, "dev")
			root := r.commit("1")
			r.commit("2")
			r.commit("3")
			return r.dir, root
		}},
		{"main unrelated to HEAD", func(t *testing.T) (string, string) {
			r := newRepo(t, "main")
			r.commit("main 1")
			r.git("checkout", "-q", "--orphan", "other")
			root := r.commit("other 1")
			r.commit("other 2")
			return r.dir, root
		}},
		{"no commits", func(t *testing.T) (string, string) {
			r := newRepo(t, "main")
			return r.dir, "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, want := tt.setup(t)
			got, err := DefaultBase(t.Context(), dir)
			if err != nil || got != want {
				t.Fatalf("DefaultBase = %q, %v; want %q", got, err, want)
			}
		})
	}
}

// originHeadCase clones a bare repository whose default branch is "trunk"
// and adds a local main pointing elsewhere: origin/HEAD must win.
func originHeadCase(t *testing.T) (string, string) {
	src := newRepo(t, "trunk")
	src.commit("1")
	older := src.commit("2")
	tip := src.commit("3")
	tmp := t.TempDir()
	bare := filepath.Join(tmp, "bare.git")
	runGit(t, tmp, "clone", "-q", "--bare", src.dir, bare)
	clone := &testRepo{t: t, dir: filepath.Join(tmp, "clone")}
	runGit(t, tmp, "clone", "-q", bare, clone.dir)
	if got := clone.git("rev-parse", "--abbrev-ref", "origin/HEAD"); got != "origin/trunk" {
		t.Fatalf("origin/HEAD = %q", got)
	}
	clone.git("branch", "main", older)
	clone.git("checkout", "-q", "-b", "feature")
	clone.commit("4")
	return clone.dir, tip
}

func TestComputeNoCommits(t *testing.T) {
	r := newRepo(t, "main")
	r.write("staged.txt", "s\n")
	r.git("add", "staged.txt")
	r.write("untracked.txt", "u\n")
	base, err := DefaultBase(t.Context(), r.dir)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Compute(t.Context(), r.dir, base, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d.Head != nil || len(d.Files) != 2 || d.Files[0].Status != StatusAdded || d.Files[1].Status != StatusUntracked {
		t.Fatalf("diff = %+v", d)
	}
}

func TestResolveBase(t *testing.T) {
	r := newRepo(t, "main")
	first := r.commit("1")
	r.git("tag", "v1")
	second := r.commit("2")
	tree := r.git("rev-parse", "HEAD^{tree}")
	tests := []struct {
		base, want string
	}{
		{"HEAD", second},
		{"main", second},
		{"HEAD~1", first},
		{"HEAD^", first},
		{"v1", first},
		{first[:8], first},
		{second, second},
		{"refs/heads/main", second},
		{"main@{0}", second},
	}
	for _, tt := range tests {
		got, err := ResolveBase(t.Context(), r.dir, tt.base)
		if err != nil || got != tt.want {
			t.Errorf("ResolveBase(%q) = %q, %v; want %q", tt.base, got, err, tt.want)
		}
	}
	if _, err := ResolveBase(t.Context(), r.dir, tree); !errors.Is(err, ErrInvalidBase) {
		t.Errorf("a tree sha: err = %v, want ErrInvalidBase", err)
	}
}

func TestHostileBaseRefused(t *testing.T) {
	r := newRepo(t, "main")
	r.write("file", "x\n")
	r.commit("1")
	marker := filepath.Join(t.TempDir(), "pwned")
	hostile := []string{
		"--upload-pack=touch " + marker,
		"--output=" + marker,
		"-x",
		"-",
		"../..",
		"a..b",
		"HEAD...main",
		"HEAD:file",
		":/1",
		"HEAD^{/1}",
		"/etc/passwd",
		" HEAD",
		"HEAD\n",
		"HE\x00AD",
		"HEAD\x7f",
		"main*",
		"",
		strings.Repeat("a", 300),
		"no-such-ref",
	}
	for _, base := range hostile {
		if got, err := ResolveBase(t.Context(), r.dir, base); !errors.Is(err, ErrInvalidBase) {
			t.Errorf("ResolveBase(%q) = %q, %v; want ErrInvalidBase", base, got, err)
		}
		if _, err := Compute(t.Context(), r.dir, base, nil); !errors.Is(err, ErrInvalidBase) {
			t.Errorf("Compute(base %q) err = %v, want ErrInvalidBase", base, err)
		}
	}
	missing := strings.Repeat("a", 40) // well-formed, not in the repository
	if _, err := Compute(t.Context(), r.dir, missing, nil); !errors.Is(err, ErrInvalidBase) {
		t.Errorf("Compute(missing sha) err = %v, want ErrInvalidBase", err)
	}
	if _, err := os.Stat(marker); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("hostile base ran something: %v", err)
	}
}

func TestHostilePathRefused(t *testing.T) {
	r := newRepo(t, "main")
	r.write("file", "x\n")
	base := r.commit("1")
	outside := filepath.Join(filepath.Dir(r.dir), "secret.txt")
	if err := os.WriteFile(outside, []byte("secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"", ".", "..", "../..", "../secret.txt", "/etc/passwd", outside,
		"a/../file", "./file", "file/", "a//file", "x\x00y"} {
		if f, err := ComputeFile(t.Context(), r.dir, base, p); !errors.Is(err, ErrInvalidPath) {
			t.Errorf("ComputeFile(%q) = %+v, %v; want ErrInvalidPath", p, f, err)
		}
	}
	// Pathspec magic is taken literally, not as a pattern.
	for _, p := range []string{":(glob)*", "*", "--", "-x"} {
		if _, err := ComputeFile(t.Context(), r.dir, base, p); !errors.Is(err, ErrUnchanged) {
			t.Errorf("ComputeFile(%q) err = %v, want ErrUnchanged", p, err)
		}
	}
}

package gitdiff

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	// A private HOME keeps the developer's ~/.gitconfig (and its global
	// excludes) out of the tests.
	home, err := os.MkdirTemp("", "gitdiff-home-")
	if err != nil {
		panic(err)
	}
	os.Setenv("HOME", home)
	os.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	goleak.VerifyTestMain(m, goleak.Cleanup(func(code int) {
		os.RemoveAll(home)
		os.Exit(code)
	}))
}

// testRepo is a scratch repository for one test.
type testRepo struct {
	t   testing.TB
	dir string
}

// newRepo makes an empty repository whose initial branch is branch.
func newRepo(t testing.TB, branch string) *testRepo {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "repo")
	r := &testRepo{t: t, dir: dir}
	r.git("init", "-q", "-b", branch, dir)
	return r
}

// git runs a setup command in the repository, failing the test on error.
func (r *testRepo) git(args ...string) string {
	r.t.Helper()
	return runGit(r.t, r.dir, args...)
}

func runGit(t testing.TB, dir string, args ...string) string {
	t.Helper()
	full := append([]string{"-c", "user.name=Test", "-c", "user.email=test@example.com",
		"-c", "commit.gpgsign=false", "-c", "core.fileMode=true"}, args...)
	cmd := exec.Command("git", full...)
	if _, err := os.Stat(dir); err == nil {
		cmd.Dir = dir
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

func (r *testRepo) write(name, content string) {
	r.t.Helper()
	p := filepath.Join(r.dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func (r *testRepo) remove(name string) {
	r.t.Helper()
	if err := os.Remove(filepath.Join(r.dir, name)); err != nil {
		r.t.Fatal(err)
	}
}

// commit stages everything and commits, returning the new sha.
func (r *testRepo) commit(msg string) string {
	r.t.Helper()
	r.git("add", "-A")
	r.git("commit", "-q", "--allow-empty", "-m", msg)
	return r.git("rev-parse", "HEAD")
}

// lines returns n numbered lines "line 1\n"...
func lines(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString("line ")
		b.WriteString(strconv.Itoa(i))
		b.WriteByte('\n')
	}
	return b.String()
}

package markdown

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// plainSamples are texts the fast path should take, and near misses it
// must refuse or get right.
var plainSamples = []string{
	"flood line", "Let me check the tests.", "Done!", `He said "yes", it's fine.`,
	"Line one\nline two", "Para one.\n\nPara two.\n\n\nPara three", "\n\nleading", "trailing\n\n",
	"well-known a+b=c", "- item", "+ item", "= heading", "1. item", "12. item", "2024 was a year.",
	"3.14 is pi", "Title\n===", "Title\n---", "a  b", "a \nb", " lead", "trail ", "\tx",
	"visit www.example.com", "WWW.EXAMPLE.COM", "naïve café — “quoted” … ‘x’", "日本語のテキスト",
	"x\u00a0y", "\ufffd", "a\x00b", "a\rb", "{attr} ^x$ 100%", "a/b/c?d;e",
	"**b**", "_i_", "`c`", "[l](u)", "<b>", "a & b", "# h", "> q", "|t|", "~~s~~", `a\b`, "x: y", "a@b.c",
}

// plainAlphabet leans on characters near the fast path's edges.
var plainAlphabet = []string{
	"a", "b", "Z", "0", "1", "9", " ", " ", "\n", "\n\n", ".", ",", "!", "?", "'", `"`, "-", "+", "=",
	"/", "%", "$", "^", "{", "}", ";", "é", "—", "“", "www", "w.", "1.", "\t", "*", "_", ":", "&",
}

func randomText(r *rand.Rand) string {
	var b strings.Builder
	for range 1 + r.IntN(24) {
		b.WriteString(plainAlphabet[r.IntN(len(plainAlphabet))])
	}
	return b.String()
}

func checkPlain(t *testing.T, src string) bool {
	t.Helper()
	got, ok := plainHTML(src)
	if !ok {
		return false
	}
	want, err := renderGoldmark(src)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("plainHTML(%q) = %q, goldmark gives %q", src, got, want)
	}
	return true
}

func TestPlainMatches(t *testing.T) {
	taken := 0
	for _, s := range plainSamples {
		if checkPlain(t, s) {
			taken++
		}
	}
	if taken < 10 {
		t.Errorf("fast path took only %d samples", taken)
	}
	r := rand.New(rand.NewPCG(1, 2))
	taken = 0
	const n = 200000
	for range n {
		if checkPlain(t, randomText(r)) {
			taken++
		}
	}
	t.Logf("fast path took %d of %d random texts", taken, n)
	if taken < n/100 {
		t.Errorf("fast path took only %d of %d random texts", taken, n)
	}
}

func TestPlainRefuses(t *testing.T) {
	for _, s := range []string{"**b**", "- item", "1. item", "www.x.com", "a\rb", "\ufffd", "a & b", " lead"} {
		if _, ok := plainHTML(s); ok {
			t.Errorf("plainHTML took %q", s)
		}
	}
}

// FuzzPlain compares the fast path with goldmark wherever it applies.
func FuzzPlain(f *testing.F) {
	for _, s := range plainSamples {
		f.Add(s)
	}
	for _, s := range fuzzRenderSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) { checkPlain(t, src) })
}

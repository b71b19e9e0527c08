package search

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
)

var tokenizerSeeds = []string{
	"", " ", "go test ./internal/search/ -run TestX", "a.b a. .a 3.14 1,000 1;2 a,b a:b a'b it's",
	"snake_case _x x_ __ _1 1_ a__b", "CamelCase ABC123 123abc 007", "\r\n\t\v\f x\r\ny",
	`"quoted" (parens) [x] {y} <z> a-b a/b a\b a"b`, "café naïve 日本語 emoji 👍🏽 x", "a\u200db \u00a0",
	"make build && ./bin/app --flag=value # comment", "v1.2.3 10.0.0.1:8080 user@host.com",
}

// TestWordsTokenizerAgrees: the fast path gives exactly the unicode
// tokenizer's tokens (term, offsets, position, type), on chosen texts and
// on random ones made of the characters where the word rules differ.
func TestWordsTokenizerAgrees(t *testing.T) {
	for _, s := range tokenizerSeeds {
		checkTokens(t, []byte(s))
	}
	r := rand.New(rand.NewPCG(5, 6))
	const alphabet = "aZ09.:',;_ -\t\n\r\"/@#"
	for range 20000 {
		b := make([]byte, r.IntN(24))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		checkTokens(t, b)
	}
}

func checkTokens(t *testing.T, b []byte) {
	t.Helper()
	got, want := tokensString(asciiTokenizer{}.Tokenize(b)), tokensString(slowTokenizer.Tokenize(b))
	if got != want {
		t.Fatalf("%q:\nfast    %s\nunicode %s", b, got, want)
	}
}

func tokensString(ts analysis.TokenStream) string {
	s := ""
	for _, t := range ts {
		s += fmt.Sprintf("[%q %d-%d p%d t%d]", t.Term, t.Start, t.End, t.Position, t.Type)
	}
	return s
}

func FuzzWordsTokenizer(f *testing.F) {
	for _, s := range tokenizerSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkTokens(t, b) })
}

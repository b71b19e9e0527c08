package search

import (
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/registry"
)

// wordsTokenizer is bleve's unicode tokenizer (Unicode word boundaries,
// UAX #29) with a fast path for ASCII text. The segmenter's state machine
// was a sixth of the indexing CPU, while most of what is indexed is ASCII
// where the rules are few: a run of letters and digits is one word, any
// other ASCII character but . : ' , ; _ ends a word on both sides. So an
// ASCII text is cut at those characters; a run of only letters and digits
// is a word; a run holding . : ' , ; or _ (where the rules look at the
// neighbours: "a.b", "3.14", "snake_case") and any text that is not ASCII
// go to the unicode tokenizer. The tokens are exactly the unicode
// tokenizer's (TestWordsTokenizerAgrees, FuzzWordsTokenizer).
const wordsTokenizer = "words_unicode_ascii"

func init() {
	registry.RegisterTokenizer(wordsTokenizer, func(map[string]any, *registry.Cache) (analysis.Tokenizer, error) {
		return asciiTokenizer{}, nil
	})
}

type asciiTokenizer struct{}

var slowTokenizer = unicode.NewUnicodeTokenizer()

// wordByte: letters, digits and the characters the word rules join on.
var wordByte, joinByte [256]bool

func init() {
	for c := '0'; c <= '9'; c++ {
		wordByte[c] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		wordByte[c], wordByte[c-'a'+'A'] = true, true
	}
	for _, c := range []byte(".:',;_") {
		wordByte[c], joinByte[c] = true, true
	}
}

func (asciiTokenizer) Tokenize(input []byte) analysis.TokenStream {
	for _, c := range input {
		if c >= 0x80 {
			return slowTokenizer.Tokenize(input)
		}
	}
	rv := make(analysis.TokenStream, 0, len(input)/5+1)
	var chunk []analysis.Token // tokens are allocated in chunks, not one by one
	pos := 1
	add := func(t analysis.Token) {
		if len(chunk) == cap(chunk) {
			chunk = make([]analysis.Token, 0, max(16, min(1024, (len(input)-t.End)/5)))
		}
		t.Position = pos
		pos++
		chunk = append(chunk, t)
		rv = append(rv, &chunk[len(chunk)-1])
	}
	for i := 0; i < len(input); {
		if !wordByte[input[i]] {
			i++
			continue
		}
		j, join, letter := i, false, false
		for ; j < len(input) && wordByte[input[j]]; j++ {
			c := input[j]
			join = join || joinByte[c]
			letter = letter || c > '9'
		}
		if !join {
			typ := analysis.Numeric
			if letter {
				typ = analysis.AlphaNumeric
			}
			add(analysis.Token{Term: input[i:j], Start: i, End: j, Type: typ})
		} else {
			for _, t := range slowTokenizer.Tokenize(input[i:j]) {
				add(analysis.Token{Term: t.Term, Start: i + t.Start, End: i + t.End, Type: t.Type})
			}
		}
		i = j
	}
	return rv
}

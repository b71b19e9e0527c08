package jsonscan

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestValueAgreesWithEncodingJSON: one value and nothing else is valid
// exactly when encoding/json says so (the callers' fuzzers go further).
func TestValueAgreesWithEncodingJSON(t *testing.T) {
	cases := []string{
		`{}`, `[]`, `{"a":[1,-2.5e+3,true,false,null,"x\u00e9\n"]}`, ` {"a" : { "b" : [ ] } } `,
		`{`, `{"a"}`, `{"a":}`, `[1,]`, `01`, `1.`, `-`, `"\x"`, `"\u12"`, `tru`, `{"a":1,}`, `"` + "\x01" + `"`,
		strings.Repeat("[", 50) + strings.Repeat("]", 50),
	}
	for _, c := range cases {
		s := Scanner{B: []byte(c), MaxDepth: 100}
		got := s.Value(0)
		s.WS()
		got = got && s.I == len(s.B)
		if want := json.Valid([]byte(c)); got != want {
			t.Errorf("%q: scanner says %v, encoding/json %v", c, got, want)
		}
	}
}

func TestDepthLimit(t *testing.T) {
	deep := strings.Repeat("[", 11) + strings.Repeat("]", 11)
	if s := (Scanner{B: []byte(deep), MaxDepth: 10}); s.Value(0) {
		t.Fatal("nesting past MaxDepth accepted")
	}
	if s := (Scanner{B: []byte(deep), MaxDepth: 11}); !s.Value(0) {
		t.Fatal("nesting at MaxDepth refused")
	}
}

func TestUnquote(t *testing.T) {
	for raw, want := range map[string]string{`"plain"`: "plain", `"a\nb"`: "a\nb", `"\u00e9"`: "é"} {
		if got, ok := Unquote([]byte(raw)); !ok || got != want {
			t.Errorf("Unquote(%s) = %q, %v", raw, got, ok)
		}
	}
	if _, ok := Unquote([]byte(`12`)); ok {
		t.Error("a number unquoted as a string")
	}
}

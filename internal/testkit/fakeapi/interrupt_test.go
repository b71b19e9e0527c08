package fakeapi

import "testing"

// TestAfterInterrupt: a prompt merged with an interrupted one is decided
// by its new part.
func TestAfterInterrupt(t *testing.T) {
	for in, want := range map[string]string{
		"hello": "hello",
		"slow please\n[Request interrupted by user]\nlook at this": "look at this",
		"a [Request interrupted by user for tool use] b":           "b",
		"[Request interrupted by user]":                            "",
	} {
		if got := afterInterrupt(in); got != want {
			t.Errorf("afterInterrupt(%q) = %q, want %q", in, got, want)
		}
	}
}

package persist

import (
	"fmt"
	"testing"
)

func TestMessagesBefore(t *testing.T) {
	s := newStore(t)
	mustWait(t, s.AppendMessages("w", msgs(1, 8)))
	cases := []struct {
		before uint64
		limit  int
		want   string
	}{
		{0, 3, "[8 7 6]"},
		{0, 100, "[8 7 6 5 4 3 2 1]"},
		{5, 2, "[4 3]"},
		{1, 5, "[]"},
		{100, 2, "[8 7]"},
		{0, 0, "[]"},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("before %d limit %d", tc.before, tc.limit), func(t *testing.T) {
			got, err := s.MessagesBeforePage("w", tc.before, 0, tc.limit, 0)
			must(t, err)
			if fmt.Sprint(seqs(got)) != tc.want {
				t.Errorf("seqs = %v, want %s", seqs(got), tc.want)
			}
			for _, m := range got {
				if want := msg(m.Seq); m.UUID != want.UUID || string(m.Data) != string(want.Data) {
					t.Errorf("message %d = %+v", m.Seq, m)
				}
			}
		})
	}
	if got, _ := s.MessagesBeforePage("unknown", 0, 0, 5, 0); len(got) != 0 {
		t.Errorf("unknown worker has %d messages", len(got))
	}
}

// TestMessagesBeforePage checks the lower bound and the byte bound of a
// page read backwards: it stops at afterSeq, stops once maxBytes are read,
// and still returns one message when that one alone is over the bound.
func TestMessagesBeforePage(t *testing.T) {
	s := newStore(t)
	mustWait(t, s.AppendMessages("w", msgs(1, 8)))
	size := len(msg(1).Data)
	cases := []struct {
		before, after uint64
		limit, bytes  int
		want          string
	}{
		{0, 5, 100, 0, "[8 7 6]"},
		{7, 3, 100, 0, "[6 5 4]"},
		{7, 3, 2, 0, "[6 5]"},
		{0, 0, 100, 2 * size, "[8 7]"},
		{0, 0, 100, 1, "[8]"},
		{4, 3, 100, 0, "[]"},
		{0, 8, 100, 0, "[]"},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("before %d after %d limit %d bytes %d", tc.before, tc.after, tc.limit, tc.bytes), func(t *testing.T) {
			got, err := s.MessagesBeforePage("w", tc.before, tc.after, tc.limit, tc.bytes)
			must(t, err)
			if fmt.Sprint(seqs(got)) != tc.want {
				t.Errorf("seqs = %v, want %s", seqs(got), tc.want)
			}
		})
	}
}

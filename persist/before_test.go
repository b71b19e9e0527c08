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
			got, err := s.MessagesBefore("w", tc.before, tc.limit)
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
	if got, _ := s.MessagesBefore("unknown", 0, 5); len(got) != 0 {
		t.Errorf("unknown worker has %d messages", len(got))
	}
}

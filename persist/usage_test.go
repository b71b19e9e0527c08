package persist

import (
	"errors"
	"testing"
)

func usageRange(t *testing.T, s *Store, from, to string) []string {
	t.Helper()
	var out []string
	if err := s.UsageRange(from, to, func(v []byte) error { out = append(out, string(v)); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestUsageCountedOnce offers the same result twice (as the live path and
// a catch-up after a restart both may, on different days): it is kept
// once, with its first day, and survives a reopen.
func TestUsageCountedOnce(t *testing.T) {
	path := dbPath(t)
	s := openStore(t, path, nil)
	mustWait(t, s.PutUsage("w1", 4, "2026-11-23", []byte("a")))
	mustWait(t, s.PutUsage("w1", 4, "2026-11-24", []byte("a-again")))
	mustWait(t, s.PutUsage("w1", 9, "2026-11-24", []byte("b")))
	mustWait(t, s.PutUsage("w2", 4, "2026-11-25", []byte("c")))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openStore(t, path, nil)
	if got := usageRange(t, s, "2026-11-01", "2026-11-30"); len(got) != 3 || got[0] != "a" || got[1] != "b" || got[2] != "c" {
		t.Errorf("range: %q, want [a b c]", got)
	}
	if got := usageRange(t, s, "2026-11-24", "2026-11-24"); len(got) != 1 || got[0] != "b" {
		t.Errorf("one day: %q, want [b]", got)
	}
	if got := usageRange(t, s, "2026-11-26", "2026-12-31"); len(got) != 0 {
		t.Errorf("empty range: %q", got)
	}
	if m, err := s.UsageMark("w1"); err != nil || m != 9 {
		t.Errorf("mark %d, %v; want 9", m, err)
	}
	mustWait(t, s.SetUsageMark("w1", 5)) // never lowers
	if m, _ := s.UsageMark("w1"); m != 9 {
		t.Errorf("mark lowered to %d", m)
	}
}

func TestUsageRejectsBadInput(t *testing.T) {
	s := newStore(t)
	for _, c := range []struct {
		wid string
		seq uint64
		day string
	}{{"", 1, "2026-11-24"}, {"w", 0, "2026-11-24"}, {"w", 1, "2026-11"}} {
		if err := wait(t, s.PutUsage(c.wid, c.seq, c.day, []byte("x"))); !errors.Is(err, ErrInvalid) {
			t.Errorf("PutUsage(%q, %d, %q): %v, want ErrInvalid", c.wid, c.seq, c.day, err)
		}
	}
	if got := usageRange(t, s, "0000-00-00", "9999-99-99"); len(got) != 0 {
		t.Errorf("stored after rejections: %q", got)
	}
	if err := s.UsageRange("2026", "2026-11-24", func([]byte) error { return nil }); !errors.Is(err, ErrInvalid) {
		t.Errorf("bad range: %v", err)
	}
}

func TestRateLimitLatest(t *testing.T) {
	s := newStore(t)
	if v, err := s.Records().RateLimit(); err != nil || v != nil {
		t.Fatalf("empty store: %q, %v", v, err)
	}
	mustWait(t, s.Records().PutRateLimit([]byte(`{"status":"allowed"}`)))
	mustWait(t, s.Records().PutRateLimit([]byte(`{"status":"rejected"}`)))
	if v, err := s.Records().RateLimit(); err != nil || string(v) != `{"status":"rejected"}` {
		t.Errorf("latest: %q, %v", v, err)
	}
}

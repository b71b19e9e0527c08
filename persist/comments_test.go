package persist

import (
	"errors"
	"testing"
)

// TestCommentsLiveWithTheSession: a session's comments survive a reopen,
// cannot be stored for a session that does not exist, and go with the
// session when it is deleted.
func TestCommentsLiveWithTheSession(t *testing.T) {
	path := dbPath(t)
	s := openStore(t, path, nil)
	set := func(v string) func([]byte) ([]byte, error) {
		return func([]byte) ([]byte, error) { return []byte(v), nil }
	}
	if err := s.Records().UpdateComments("nope", set(`[1]`)); !errors.Is(err, ErrNotFound) {
		t.Fatalf("comments of a missing session: %v", err)
	}
	must(t, s.Records().PutSession("s1", []byte(`{}`)))
	must(t, s.Records().PutSession("s2", []byte(`{}`)))
	must(t, s.Records().UpdateComments("s1", set(`[1]`)))
	must(t, s.Records().UpdateComments("s2", set(`[2]`)))
	boom := errors.New("boom")
	if err := s.Records().UpdateComments("s1", func([]byte) ([]byte, error) { return nil, boom }); !errors.Is(err, boom) || !errors.Is(err, ErrAborted) {
		t.Fatalf("aborted update: %v", err)
	}
	must(t, s.Close())

	s = openStore(t, path, nil)
	if v, err := s.Records().Comments("s1"); err != nil || string(v) != `[1]` {
		t.Fatalf("after reopen: %q %v", v, err)
	}
	must(t, s.Records().DeleteSession("s1"))
	must(t, s.Records().PutSession("s1", []byte(`{}`)))
	if v, err := s.Records().Comments("s1"); err != nil || v != nil {
		t.Fatalf("a deleted session's comments came back: %q %v", v, err)
	}
	if v, _ := s.Records().Comments("s2"); string(v) != `[2]` {
		t.Fatalf("another session's comments: %q", v)
	}
	must(t, s.Records().UpdateComments("s2", set("")))
	if v, _ := s.Records().Comments("s2"); v != nil {
		t.Fatalf("emptied comments still stored: %q", v)
	}
}

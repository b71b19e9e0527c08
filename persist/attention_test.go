package persist

import "testing"

// The attention marks are one value, replaced by each put and kept across
// a reopen.
func TestAttentionMarks(t *testing.T) {
	path := dbPath(t)
	s := openStore(t, path, nil)
	if v, err := s.Records().AttentionMarks(); err != nil || v != nil {
		t.Fatalf("empty store: %q, %v", v, err)
	}
	mustWait(t, s.Records().PutAttentionMarks([]byte(`{"unseen":{"w1":{}}}`)))
	mustWait(t, s.Records().PutAttentionMarks([]byte(`{"unseen":{}}`)))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openStore(t, path, nil)
	if v, err := s.Records().AttentionMarks(); err != nil || string(v) != `{"unseen":{}}` {
		t.Fatalf("after reopen: %q, %v", v, err)
	}
}

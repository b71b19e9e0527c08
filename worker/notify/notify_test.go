package notify

import (
	"os"
	"path/filepath"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// A corrupt keys file stops the start with a clear error and stays as it
// was: new keys would invalidate every subscription.
func TestPushCorruptKeysRefuseStart(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "vapid.json")
	if err := os.WriteFile(p, []byte(`{"publicKey":"x","privateKey":"y"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := New(Options{Dir: dir}); err == nil {
		t.Fatal("New accepted a corrupt vapid.json")
	}
	if b, _ := os.ReadFile(p); string(b) != `{"publicKey":"x","privateKey":"y"}` {
		t.Fatalf("vapid.json was replaced: %s", b)
	}
}

// A session is viewed while some connection shows it, until that
// connection shows another or ends; a nil View (push off) does nothing.
func TestViews(t *testing.T) {
	s, err := New(Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	a, b := s.View(), s.View()
	a.Show("s1")
	b.Show("s1")
	a.Show("s2")
	if !s.views.viewing("s1") || !s.views.viewing("s2") {
		t.Fatal("a shown session is not viewed")
	}
	b.Close()
	b.Show("s1") // after Close: ignored
	if s.views.viewing("s1") {
		t.Fatal("a session is viewed after its connection ended")
	}
	var off *View
	off.Show("s1")
	off.Close()
}

// The VAPID contact is the public URL when it is https.
func TestSubject(t *testing.T) {
	for in, want := range map[string]string{
		"https://desk.example.com/": "https://desk.example.com",
		"http://desk.example.com":   "mailto:agentdesk@localhost",
		"":                          "mailto:agentdesk@localhost",
	} {
		if got := subject(in); got != want {
			t.Errorf("subject(%q) = %q, want %q", in, got, want)
		}
	}
}

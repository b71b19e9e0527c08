package push

import (
	"crypto/ecdh"
	"crypto/rand"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func validSub(t *testing.T, endpoint string) Subscription {
	t.Helper()
	k, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return Subscription{Endpoint: endpoint, Keys: SubKeys{P256dh: b64.EncodeToString(k.PublicKey().Bytes()), Auth: b64.EncodeToString(make([]byte, 16))}}
}

func TestValidate(t *testing.T) {
	good := validSub(t, "https://push.example.test/x")
	cases := []struct {
		name   string
		mod    func(*Subscription)
		wantOK bool
	}{
		{"https", func(*Subscription) {}, true},
		{"padded base64url", func(s *Subscription) { s.Keys.Auth += "==" }, true},
		{"http loopback", func(s *Subscription) { s.Endpoint = "http://127.0.0.1:8080/p" }, true},
		{"http localhost", func(s *Subscription) { s.Endpoint = "http://localhost/p" }, true},
		{"http ipv6 loopback", func(s *Subscription) { s.Endpoint = "http://[::1]:9/p" }, true},
		{"http elsewhere", func(s *Subscription) { s.Endpoint = "http://push.example.test/p" }, false},
		{"relative", func(s *Subscription) { s.Endpoint = "/push" }, false},
		{"userinfo", func(s *Subscription) { s.Endpoint = "https://u:p@push.example.test/" }, false},
		{"ftp", func(s *Subscription) { s.Endpoint = "ftp://push.example.test/" }, false},
		{"too long", func(s *Subscription) { s.Endpoint = "https://push.example.test/" + strings.Repeat("a", 2048) }, false},
		{"compressed point", func(s *Subscription) { s.Keys.P256dh = b64.EncodeToString(make([]byte, 33)) }, false},
		{"off the curve", func(s *Subscription) { p := make([]byte, 65); p[0] = 4; s.Keys.P256dh = b64.EncodeToString(p) }, false},
		{"auth 15 bytes", func(s *Subscription) { s.Keys.Auth = b64.EncodeToString(make([]byte, 15)) }, false},
		{"auth not base64", func(s *Subscription) { s.Keys.Auth = "!!!!" }, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := good
			c.mod(&s)
			err := Validate(s)
			var inv *InvalidError
			if c.wantOK != (err == nil) || (err != nil && !errors.As(err, &inv)) {
				t.Fatalf("Validate(%+v) = %v", s, err)
			}
		})
	}
}

// The store keeps at most MaxSubscriptions; a full store refuses a new
// endpoint but still replaces a known one.
func TestStoreCap(t *testing.T) {
	p := filepath.Join(t.TempDir(), "subs.json")
	st, err := OpenStore(p)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < MaxSubscriptions; i++ {
		if err := st.Add(validSub(t, "https://push.example.test/"+string(rune('a'+i%26))+strings.Repeat("x", i))); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Add(validSub(t, "https://push.example.test/new")); !errors.Is(err, ErrFull) {
		t.Fatalf("101st: %v", err)
	}
	if err := st.Add(validSub(t, "https://push.example.test/a")); err != nil {
		t.Fatalf("replace in a full store: %v", err)
	}
	again, err := OpenStore(p)
	if err != nil || len(again.List()) != MaxSubscriptions {
		t.Fatalf("reopened: %d %v", len(again.List()), err)
	}
	if err := os.WriteFile(p, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenStore(p); err == nil {
		t.Fatal("a corrupt file opened")
	}
}

func FuzzValidate(f *testing.F) {
	f.Add("https://push.example.test/x", "BAZH", "MTIz")
	f.Add("http://127.0.0.1/", "", "")
	f.Fuzz(func(t *testing.T, endpoint, p256dh, auth string) {
		err := Validate(Subscription{Endpoint: endpoint, Keys: SubKeys{P256dh: p256dh, Auth: auth}})
		var inv *InvalidError
		if err != nil && !errors.As(err, &inv) {
			t.Fatalf("not an InvalidError: %v", err)
		}
	})
}

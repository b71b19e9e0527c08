package server

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/push"
)

// pushed is one request the fake push service received.
type pushed struct {
	header http.Header
	body   []byte
}

// fakePushService is a push service on 127.0.0.1 that records each request
// and answers status (201 unless set).
type fakePushService struct {
	*httptest.Server
	got    chan pushed
	status atomic.Int32
}

func newFakePushService(t *testing.T) *fakePushService {
	t.Helper()
	f := &fakePushService{got: make(chan pushed, 16)}
	f.status.Store(http.StatusCreated)
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		f.got <- pushed{header: r.Header.Clone(), body: b}
		w.WriteHeader(int(f.status.Load()))
	}))
	t.Cleanup(f.Close)
	return f
}

// next waits for the next push; the deadline only guards a failure.
func (f *fakePushService) next(t *testing.T) pushed {
	t.Helper()
	select {
	case p := <-f.got:
		return p
	case <-time.After(2 * time.Minute):
		t.Fatal("no push arrived")
		return pushed{}
	}
}

// subscriber is a browser's side of a subscription: its own P-256 key and
// auth secret.
type subscriber struct {
	priv *ecdh.PrivateKey
	auth []byte
	sub  push.Subscription
}

func newSubscriber(t *testing.T, endpoint string) subscriber {
	t.Helper()
	priv, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	auth := make([]byte, 16)
	_, _ = rand.Read(auth)
	b64 := base64.RawURLEncoding
	return subscriber{priv: priv, auth: auth, sub: push.Subscription{Endpoint: endpoint,
		Keys: push.SubKeys{P256dh: b64.EncodeToString(priv.PublicKey().Bytes()), Auth: b64.EncodeToString(auth)}}}
}

// decrypt reads an aes128gcm body (RFC 8188) encrypted for the subscriber
// (RFC 8291, section 3.4) and returns the message.
func (s subscriber) decrypt(t *testing.T, p pushed) []byte {
	t.Helper()
	if ce := p.header.Get("Content-Encoding"); ce != "aes128gcm" {
		t.Fatalf("Content-Encoding %q", ce)
	}
	b := p.body
	if len(b) < 21+65 || b[20] != 65 {
		t.Fatalf("bad aes128gcm header: % x", b[:min(len(b), 22)])
	}
	salt, rs, asPublic, records := b[:16], binary.BigEndian.Uint32(b[16:20]), b[21:86], b[86:]
	if int(rs) < len(records) {
		t.Fatalf("more than one record (rs %d, %d bytes)", rs, len(records))
	}
	as, err := ecdh.P256().NewPublicKey(asPublic)
	if err != nil {
		t.Fatal(err)
	}
	secret, err := s.priv.ECDH(as)
	if err != nil {
		t.Fatal(err)
	}
	prkKey, _ := hkdf.Extract(sha256.New, secret, s.auth)
	info := "WebPush: info\x00" + string(s.priv.PublicKey().Bytes()) + string(asPublic)
	ikm, _ := hkdf.Expand(sha256.New, prkKey, info, 32)
	prk, _ := hkdf.Extract(sha256.New, ikm, salt)
	cek, _ := hkdf.Expand(sha256.New, prk, "Content-Encoding: aes128gcm\x00", 16)
	nonce, _ := hkdf.Expand(sha256.New, prk, "Content-Encoding: nonce\x00", 12)
	block, _ := aes.NewCipher(cek)
	gcm, _ := cipher.NewGCM(block)
	plain, err := gcm.Open(nil, nonce, records, nil)
	if err != nil {
		t.Fatalf("decrypt: %v", err)
	}
	plain = bytes.TrimRight(plain, "\x00")
	if len(plain) == 0 || plain[len(plain)-1] != 0x02 {
		t.Fatal("the last record lacks its 0x02 delimiter")
	}
	return plain[:len(plain)-1]
}

// checkVAPID verifies the Authorization header: "vapid t=<jwt>, k=<key>",
// k the server's public key, the JWT signed with it (ES256) for the
// endpoint's origin, not expired.
func checkVAPID(t *testing.T, p pushed, serverKey, origin string) {
	t.Helper()
	h := p.header.Get("Authorization")
	var tok, k string
	for _, part := range strings.Split(strings.TrimPrefix(h, "vapid "), ",") {
		part = strings.TrimSpace(part)
		if v, ok := strings.CutPrefix(part, "t="); ok {
			tok = v
		} else if v, ok := strings.CutPrefix(part, "k="); ok {
			k = v
		}
	}
	if !strings.HasPrefix(h, "vapid ") || k != serverKey || tok == "" {
		t.Fatalf("Authorization %q, server key %s", h, serverKey)
	}
	raw, _ := base64.RawURLEncoding.DecodeString(k)
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), raw)
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		t.Fatalf("JWT %q", tok)
	}
	sig, _ := base64.RawURLEncoding.DecodeString(parts[2])
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	r, s := new(big.Int).SetBytes(sig[:min(32, len(sig))]), new(big.Int).SetBytes(sig[min(32, len(sig)):])
	if len(sig) != 64 || !ecdsa.Verify(pub, digest[:], r, s) {
		t.Fatal("the VAPID JWT's signature does not verify with the server's key")
	}
	var hdr struct{ Alg string }
	var claims struct {
		Aud, Sub string
		Exp      int64
	}
	hb, _ := base64.RawURLEncoding.DecodeString(parts[0])
	cb, _ := base64.RawURLEncoding.DecodeString(parts[1])
	_ = json.Unmarshal(hb, &hdr)
	_ = json.Unmarshal(cb, &claims)
	if hdr.Alg != "ES256" || claims.Aud != origin || claims.Exp <= time.Now().Unix() || !strings.HasPrefix(claims.Sub, "mailto:") {
		t.Fatalf("JWT header %s claims %s, want aud %s", hb, cb, origin)
	}
}

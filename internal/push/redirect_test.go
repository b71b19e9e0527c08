package push

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"
	"testing"
)

// logCh is a slog handler that passes each record's message on.
type logCh chan string

func (h logCh) Enabled(context.Context, slog.Level) bool { return true }
func (h logCh) Handle(_ context.Context, r slog.Record) error {
	h <- r.Message
	return nil
}
func (h logCh) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h logCh) WithGroup(string) slog.Handler      { return h }

// TestRedirectIsNotFollowed subscribes an endpoint Validate accepts whose
// server redirects elsewhere (any address, one Validate would refuse):
// the sender stops at the redirect, and the target gets nothing.
func TestRedirectIsNotFollowed(t *testing.T) {
	var hits atomic.Int32
	hit := make(chan struct{}, 1)
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		select {
		case hit <- struct{}{}:
		default:
		}
		w.WriteHeader(http.StatusCreated)
	}))
	defer target.Close()
	endpoint := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL+"/internal", http.StatusTemporaryRedirect)
	}))
	defer endpoint.Close()

	store, err := OpenStore(filepath.Join(t.TempDir(), "subs.json"))
	if err != nil {
		t.Fatal(err)
	}
	sub := validSub(t, endpoint.URL+"/push/1")
	if err := Validate(sub); err != nil {
		t.Fatal(err)
	}
	if err := store.Add(sub); err != nil {
		t.Fatal(err)
	}
	keys, err := LoadKeys(filepath.Join(t.TempDir(), "vapid.json"))
	if err != nil {
		t.Fatal(err)
	}
	logs := make(logCh, 16)
	// The server's own client is passed in, as main does: its settings
	// must not bring redirects back.
	s := NewSender(SenderOptions{Keys: keys, Store: store, Subject: "mailto:a@localhost",
		Client: &http.Client{}, Log: slog.New(logs)})
	ctx, cancel := context.WithCancel(t.Context())
	s.Start(ctx)
	defer func() { cancel(); s.Wait() }()
	s.Enqueue(Message{Payload: []byte(`{"title":"x"}`)})

	select {
	case msg := <-logs:
		if msg != "push: the push service redirected; not followed" {
			t.Fatalf("log: %q; want the redirect refused", msg)
		}
	case <-hit:
		t.Fatal("the sender followed the redirect to its target")
	}
	if n := hits.Load(); n != 0 {
		t.Fatalf("the redirect target got %d requests", n)
	}
}

package push

import (
	"crypto/ecdh"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"os"
	"strings"
	"sync"
)

// MaxSubscriptions caps the stored subscriptions; each push goes to all.
const MaxSubscriptions = 100

// Subscription is a browser's PushSubscription as its toJSON() gives it.
type Subscription struct {
	Endpoint       string   `json:"endpoint"`
	ExpirationTime *float64 `json:"expirationTime,omitempty"`
	Keys           SubKeys  `json:"keys"`
}

// SubKeys are the browser's ECDH public key (p256dh, 65 bytes) and auth
// secret (16 bytes), base64url.
type SubKeys struct {
	P256dh string `json:"p256dh"`
	Auth   string `json:"auth"`
}

// ErrFull says MaxSubscriptions are stored already.
var ErrFull = errors.New("too many push subscriptions")

// ErrUnknown says no subscription has that endpoint.
var ErrUnknown = errors.New("no such push subscription")

// InvalidError is a subscription refused; its message names the field.
type InvalidError struct{ Msg string }

func (e *InvalidError) Error() string { return e.Msg }

func invalid(format string, a ...any) error { return &InvalidError{Msg: fmt.Sprintf(format, a...)} }

// Validate checks a subscription: an https endpoint (http only to a
// loopback host, for tests), a P-256 point and a 16-byte auth secret.
func Validate(s Subscription) error {
	if len(s.Endpoint) > 2048 {
		return invalid("endpoint: longer than 2048 characters")
	}
	u, err := url.Parse(s.Endpoint)
	if err != nil || u.Host == "" || u.User != nil {
		return invalid("endpoint: must be an absolute https URL")
	}
	if u.Scheme != "https" && !(u.Scheme == "http" && loopbackHost(u.Hostname())) {
		return invalid("endpoint: must be https (http only to a loopback address)")
	}
	p, err := decodeKey(s.Keys.P256dh)
	if err != nil || len(p) != 65 {
		return invalid("keys.p256dh: must be a base64url uncompressed P-256 point (65 bytes)")
	}
	if _, err := ecdh.P256().NewPublicKey(p); err != nil {
		return invalid("keys.p256dh: not a point on P-256")
	}
	if a, err := decodeKey(s.Keys.Auth); err != nil || len(a) != 16 {
		return invalid("keys.auth: must be a base64url secret of 16 bytes")
	}
	return nil
}

// decodeKey reads base64url with or without padding.
func decodeKey(s string) ([]byte, error) {
	return b64.DecodeString(strings.TrimRight(s, "="))
}

func loopbackHost(h string) bool {
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// Store keeps the subscriptions in a 0600 JSON file (path "" keeps them in
// memory), rewritten whole on each change before the change is answered.
type Store struct {
	path string
	mu   sync.Mutex
	subs []Subscription
}

// OpenStore reads path; a missing file is an empty store, an unreadable
// one an error.
func OpenStore(path string) (*Store, error) {
	st := &Store{path: path}
	if path == "" {
		return st, nil
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read push subscriptions: %w", err)
	}
	if err := json.Unmarshal(b, &st.subs); err != nil {
		return nil, fmt.Errorf("push subscriptions %s are not valid JSON: %w", path, err)
	}
	return st, nil
}

// Add stores s (validate it first); the same endpoint again replaces it.
func (st *Store) Add(s Subscription) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	next := make([]Subscription, 0, len(st.subs)+1)
	for _, o := range st.subs {
		if o.Endpoint != s.Endpoint {
			next = append(next, o)
		}
	}
	if len(next) >= MaxSubscriptions {
		return ErrFull
	}
	return st.commit(append(next, s))
}

// Remove deletes the subscription of endpoint; ErrUnknown if none.
func (st *Store) Remove(endpoint string) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	next := make([]Subscription, 0, len(st.subs))
	for _, o := range st.subs {
		if o.Endpoint != endpoint {
			next = append(next, o)
		}
	}
	if len(next) == len(st.subs) {
		return ErrUnknown
	}
	return st.commit(next)
}

// List returns a copy of the subscriptions.
func (st *Store) List() []Subscription {
	st.mu.Lock()
	defer st.mu.Unlock()
	return append([]Subscription(nil), st.subs...)
}

// commit writes next and only then makes it current.
func (st *Store) commit(next []Subscription) error {
	if st.path != "" {
		b, err := json.Marshal(next)
		if err != nil {
			return fmt.Errorf("encode push subscriptions: %w", err)
		}
		if err := writeFile(st.path, b); err != nil {
			return fmt.Errorf("store push subscriptions: %w", err)
		}
	}
	st.subs = next
	return nil
}

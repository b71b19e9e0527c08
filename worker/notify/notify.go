// Package notify is Web Push (docs/api-extensions.md, "Web Push"): the
// server's VAPID keys and the browsers' subscriptions (kept by
// internal/push in the data dir), which session each /ws/app tab shows
// (views.go), and the sender's goroutine that pushes every new attention
// item that no visible tab shows.
package notify

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/agentdesk/agentdesk/internal/push"
	"github.com/agentdesk/agentdesk/worker/attention"
)

// Subscription is a browser's push subscription, as it sends it.
type Subscription = push.Subscription

// The failures of Subscribe and Unsubscribe callers tell apart.
type InvalidError = push.InvalidError // a subscription that is not one: its Msg says why

var (
	ErrFull    = push.ErrFull    // MaxSubscriptions browsers are subscribed already
	ErrUnknown = push.ErrUnknown // no subscription has that endpoint
)

// MaxSubscriptions is the most browsers subscribed at once.
const MaxSubscriptions = push.MaxSubscriptions

// Options configures a Service.
type Options struct {
	// Dir keeps the keys (vapid.json) and subscriptions
	// (push-subscriptions.json): the data dir.
	Dir string
	// PublicURL is the address users open, e.g. https://desk.example.com:
	// when it is https it is the VAPID contact, else a local mailto:.
	PublicURL string
	Client    *http.Client // sends the pushes; nil: one with a 10 s timeout
	Log       *slog.Logger
}

// Service is Web Push. Its goroutine (the sender) runs from Start to
// Close. Safe for concurrent use.
type Service struct {
	keys   push.Keys
	store  *push.Store
	sender *push.Sender
	views  views

	cancel context.CancelFunc
}

// New loads (or makes) the keys and loads the subscriptions. Corrupt keys
// are an error and stay as they are: new keys would invalidate every
// subscription.
func New(o Options) (*Service, error) {
	keys, err := push.LoadKeys(filepath.Join(o.Dir, "vapid.json"))
	if err != nil {
		return nil, err
	}
	store, err := push.OpenStore(filepath.Join(o.Dir, "push-subscriptions.json"))
	if err != nil {
		return nil, err
	}
	sender := push.NewSender(push.SenderOptions{Keys: keys, Store: store, Subject: subject(o.PublicURL), Client: o.Client, Log: o.Log})
	return &Service{keys: keys, store: store, sender: sender, views: views{by: map[int]string{}}}, nil
}

// subject is the VAPID contact: the public URL when it is https, else a
// local mailto: (push services want one of the two forms).
func subject(publicURL string) string {
	u, err := url.Parse(strings.TrimSuffix(publicURL, "/"))
	if err == nil && u.Scheme == "https" && u.Host != "" {
		return u.Scheme + "://" + u.Host
	}
	return "mailto:agentdesk@localhost"
}

// Start runs the sender's goroutine until Close.
func (s *Service) Start() {
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	s.sender.Start(ctx)
}

// Close stops the sender and waits for it; pushes not sent yet are
// dropped.
func (s *Service) Close() {
	if s.cancel != nil {
		s.cancel()
	}
	s.sender.Wait()
}

// PublicKey is the server's VAPID public key, for the browser's subscribe.
func (s *Service) PublicKey() string { return s.keys.PublicKey }

// Subscribe checks sub and stores it, replacing one with its endpoint.
func (s *Service) Subscribe(sub Subscription) error {
	if err := push.Validate(sub); err != nil {
		return err
	}
	return s.store.Add(sub)
}

// Unsubscribe removes the subscription with endpoint.
func (s *Service) Unsubscribe(endpoint string) error { return s.store.Remove(endpoint) }

// Subscriptions lists the stored subscriptions.
func (s *Service) Subscriptions() []Subscription { return s.store.List() }

// payload is what the service worker receives (frontend/sw.js).
type payload struct {
	Title     string   `json:"title"`
	Body      string   `json:"body"`
	URL       string   `json:"url"`
	Tag       string   `json:"tag"`
	SessionID string   `json:"sessionId"`
	WorkerID  string   `json:"workerId"`
	Kind      string   `json:"kind"`
	RequestID string   `json:"requestId,omitempty"`
	Actions   []action `json:"actions,omitempty"`
}

type action struct {
	Action string `json:"action"`
	Title  string `json:"title"`
}

// what names each kind of item that is pushed; the others (stalled) are
// not.
var what = map[string]string{
	attention.KindPermission: "needs your permission",
	attention.KindQuestion:   "Claude asks a question",
	attention.KindPlan:       "a plan to review",
	attention.KindFinished:   "Claude finished",
	attention.KindError:      "the worker failed",
}

// Notify pushes each item that no visible tab shows to every
// subscription: attention.Options.OnNew. It runs under the attention
// list's lock, so it only queues.
func (s *Service) Notify(items []attention.Item) {
	if len(s.store.List()) == 0 {
		return
	}
	for _, it := range items {
		w, ok := what[it.Kind]
		if !ok || s.views.viewing(it.SessionID) {
			continue
		}
		b, err := json.Marshal(newPayload(it, w))
		if err != nil {
			continue
		}
		sum := sha256.Sum256([]byte(it.WorkerID))
		s.sender.Enqueue(push.Message{Payload: b, Topic: base64.RawURLEncoding.EncodeToString(sum[:24]), Urgent: it.Kind != attention.KindFinished})
	}
}

func newPayload(it attention.Item, what string) payload {
	label := it.SessionTitle
	if label == "" {
		label = "agentdesk"
	}
	p := payload{
		Title: attention.Clip(label) + ": " + what, Body: attention.Clip(it.Title),
		URL:       "/s/" + url.PathEscape(it.SessionID) + "/w/" + url.PathEscape(it.WorkerID),
		Tag:       "agentdesk-" + it.SessionID + "-" + it.WorkerID,
		SessionID: it.SessionID, WorkerID: it.WorkerID, Kind: it.Kind, RequestID: it.RequestID(),
	}
	if it.Kind == attention.KindPermission && p.RequestID != "" {
		p.Actions = []action{{Action: "allow", Title: "Allow"}, {Action: "deny", Title: "Deny"}}
	}
	return p
}

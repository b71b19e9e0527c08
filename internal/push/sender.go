package push

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	webpush "github.com/SherClockHolmes/webpush-go"
)

const (
	// QueueSize bounds the messages waiting to be sent; more are dropped.
	QueueSize = 64
	// SendTimeout bounds one request to a push service.
	SendTimeout = 10 * time.Second
	// ttl is how long a push service keeps a message for a browser that is
	// offline: a wait older than half a day is better seen in the inbox.
	ttl = 12 * 60 * 60
)

// Message is one notification for every subscription.
type Message struct {
	Payload []byte // the JSON the service worker reads
	// Topic lets the push service replace an undelivered message of the
	// same topic (at most 32 base64url characters).
	Topic string
	// Urgent asks for delivery even to a device saving power.
	Urgent bool
}

// SenderOptions configures a Sender.
type SenderOptions struct {
	Keys  Keys
	Store *Store
	// Subject is the VAPID contact: an https URL or a mailto: address.
	Subject string
	// Client sends the requests (nil: one with SendTimeout). The Sender
	// uses a copy that never follows a redirect: Validate checked the
	// endpoint, not where its server may send us.
	Client *http.Client
	Log    *slog.Logger
}

// Sender sends Messages from one goroutine, owned by Start's context.
type Sender struct {
	o     SenderOptions
	queue chan Message
	wg    sync.WaitGroup
}

// NewSender makes a Sender; Start runs it.
func NewSender(o SenderOptions) *Sender {
	c := http.Client{Timeout: SendTimeout}
	if o.Client != nil {
		c = *o.Client
	}
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	o.Client = &c
	if o.Log == nil {
		o.Log = slog.Default()
	}
	return &Sender{o: o, queue: make(chan Message, QueueSize)}
}

// Start sends queued messages until ctx ends; Wait waits for that.
func (s *Sender) Start(ctx context.Context) {
	s.wg.Go(func() { s.run(ctx) })
}

// Wait returns when the goroutine of Start has ended.
func (s *Sender) Wait() { s.wg.Wait() }

// Enqueue queues m without waiting; false when the queue is full and m
// was dropped.
func (s *Sender) Enqueue(m Message) bool {
	select {
	case s.queue <- m:
		return true
	default:
		s.o.Log.Warn("push: queue full, notification dropped")
		return false
	}
}

func (s *Sender) run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case m := <-s.queue:
			for _, sub := range s.o.Store.List() {
				if ctx.Err() != nil {
					return
				}
				s.deliver(ctx, m, sub)
			}
		}
	}
}

// deliver sends m to sub. A push service answering 404 or 410 says the
// subscription is gone for good: it is deleted.
func (s *Sender) deliver(ctx context.Context, m Message, sub Subscription) {
	rctx, cancel := context.WithTimeout(ctx, SendTimeout)
	defer cancel()
	urgency := webpush.UrgencyNormal
	if m.Urgent {
		urgency = webpush.UrgencyHigh
	}
	res, err := webpush.SendNotificationWithContext(rctx, m.Payload, &webpush.Subscription{
		Endpoint: sub.Endpoint,
		Keys:     webpush.Keys{P256dh: sub.Keys.P256dh, Auth: sub.Keys.Auth},
	}, &webpush.Options{
		HTTPClient: s.o.Client, Subscriber: strings.TrimPrefix(s.o.Subject, "mailto:"),
		VAPIDPublicKey: s.o.Keys.PublicKey, VAPIDPrivateKey: s.o.Keys.PrivateKey,
		TTL: ttl, Topic: m.Topic, Urgency: urgency,
	})
	if err != nil {
		if ctx.Err() == nil { // not shutting down
			s.o.Log.Warn("push: send failed", "endpoint", origin(sub.Endpoint), "err", err)
		}
		return
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	res.Body.Close()
	switch {
	case res.StatusCode == http.StatusNotFound || res.StatusCode == http.StatusGone:
		if err := s.o.Store.Remove(sub.Endpoint); err != nil && !errors.Is(err, ErrUnknown) {
			s.o.Log.Warn("push: could not delete an expired subscription", "err", err)
		}
	case res.StatusCode/100 == 3:
		s.o.Log.Warn("push: the push service redirected; not followed", "endpoint", origin(sub.Endpoint), "status", res.StatusCode)
	case res.StatusCode/100 != 2:
		s.o.Log.Warn("push: refused", "endpoint", origin(sub.Endpoint), "status", res.StatusCode)
	}
}

// origin is what the log says of an endpoint: its path is a capability.
func origin(endpoint string) string {
	if i := strings.Index(endpoint, "://"); i >= 0 {
		if j := strings.IndexByte(endpoint[i+3:], '/'); j >= 0 {
			return endpoint[:i+3+j]
		}
	}
	return endpoint
}

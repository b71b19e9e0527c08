package server

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"path/filepath"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/push"
	"github.com/agentdesk/agentdesk/internal/wire"
)

// pushService is Web Push (docs/api-extensions.md, "Web Push"): the VAPID
// keys and subscriptions in the data dir, and the sender's goroutine.
type pushService struct {
	keys   push.Keys
	store  *push.Store
	sender *push.Sender
}

// newPushService loads (or makes) vapid.json and push-subscriptions.json
// in dataDir. subject is the VAPID contact.
func newPushService(dataDir, subject string, client *http.Client, log *slog.Logger) (*pushService, error) {
	keys, err := push.LoadKeys(filepath.Join(dataDir, "vapid.json"))
	if err != nil {
		return nil, err
	}
	store, err := push.OpenStore(filepath.Join(dataDir, "push-subscriptions.json"))
	if err != nil {
		return nil, err
	}
	sender := push.NewSender(push.SenderOptions{Keys: keys, Store: store, Subject: subject, Client: client, Log: log})
	return &pushService{keys: keys, store: store, sender: sender}, nil
}

// pushSubject is the VAPID contact: the public URL when it is https, else
// a local mailto: (push services want one of the two forms).
func pushSubject(public *url.URL) string {
	if public != nil && public.Scheme == "https" {
		return public.Scheme + "://" + public.Host
	}
	return "mailto:agentdesk@localhost"
}

func (s *Server) pushRoutes(api *echo.Group) {
	api.GET("/push/key", s.pushKey)
	api.POST("/push/subscriptions", s.addPushSubscription)
	api.DELETE("/push/subscriptions", s.removePushSubscription)
}

func (s *Server) pushOn() error {
	if s.push == nil {
		return newError(http.StatusNotFound, wire.CodeNotFound, "push notifications are off: the server runs without a data dir")
	}
	return nil
}

func (s *Server) pushKey(c echo.Context) error {
	if err := s.pushOn(); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]string{"publicKey": s.push.keys.PublicKey})
}

func (s *Server) addPushSubscription(c echo.Context) error {
	if err := s.pushOn(); err != nil {
		return err
	}
	var sub push.Subscription
	if err := bind(c, &sub); err != nil {
		return err
	}
	var inv *push.InvalidError
	if err := push.Validate(sub); errors.As(err, &inv) {
		return newError(http.StatusBadRequest, wire.CodeInvalidField, inv.Msg)
	}
	if err := s.push.store.Add(sub); errors.Is(err, push.ErrFull) {
		return newError(http.StatusConflict, wire.CodeConflict, fmt.Sprintf("%d browsers are subscribed already; unsubscribe one first", push.MaxSubscriptions))
	} else if err != nil {
		e := newError(http.StatusInternalServerError, wire.CodeStorageUnavailable, "the subscription could not be stored")
		e.Internal = err
		return e
	}
	return c.JSON(http.StatusCreated, sub)
}

func (s *Server) removePushSubscription(c echo.Context) error {
	if err := s.pushOn(); err != nil {
		return err
	}
	var req struct {
		Endpoint string `json:"endpoint"`
	}
	if err := bind(c, &req); err != nil {
		return err
	}
	if err := s.push.store.Remove(req.Endpoint); errors.Is(err, push.ErrUnknown) {
		return newError(http.StatusNotFound, wire.CodeNotFound, "no subscription has that endpoint")
	} else if err != nil {
		e := newError(http.StatusInternalServerError, wire.CodeStorageUnavailable, "the subscription could not be removed")
		e.Internal = err
		return e
	}
	return c.NoContent(http.StatusNoContent)
}

// pushPayload is what the service worker receives (frontend/sw.js).
type pushPayload struct {
	Title     string       `json:"title"`
	Body      string       `json:"body"`
	URL       string       `json:"url"`
	Tag       string       `json:"tag"`
	SessionID string       `json:"sessionId"`
	WorkerID  string       `json:"workerId"`
	Kind      string       `json:"kind"`
	RequestID string       `json:"requestId,omitempty"`
	Actions   []pushAction `json:"actions,omitempty"`
}

type pushAction struct {
	Action string `json:"action"`
	Title  string `json:"title"`
}

// pushWhat names each kind of item that is pushed; the others (stalled)
// are not.
var pushWhat = map[string]string{
	attnPermission: "needs your permission",
	attnQuestion:   "Claude asks a question",
	attnPlan:       "a plan to review",
	attnFinished:   "Claude finished",
	attnError:      "the worker failed",
}

// pushItems is attention's onNew: each new item that no visible tab shows
// goes to every subscription. It runs under attention.mu, so it only
// queues.
func (s *Server) pushItems(items []attentionItem) {
	if len(s.push.store.List()) == 0 {
		return
	}
	for _, it := range items {
		what, ok := pushWhat[it.Kind]
		if !ok || s.views.viewing(it.SessionID) {
			continue
		}
		b, err := json.Marshal(newPushPayload(it, what))
		if err != nil {
			continue
		}
		sum := sha256.Sum256([]byte(it.WorkerID))
		s.push.sender.Enqueue(push.Message{Payload: b, Topic: base64.RawURLEncoding.EncodeToString(sum[:24]), Urgent: it.Kind != attnFinished})
	}
}

func newPushPayload(it attentionItem, what string) pushPayload {
	label := it.SessionTitle
	if label == "" {
		label = "agentdesk"
	}
	p := pushPayload{
		Title: clip(label) + ": " + what, Body: clip(it.Title),
		URL:       "/s/" + url.PathEscape(it.SessionID) + "/w/" + url.PathEscape(it.WorkerID),
		Tag:       "agentdesk-" + it.SessionID + "-" + it.WorkerID,
		SessionID: it.SessionID, WorkerID: it.WorkerID, Kind: it.Kind, RequestID: requestID(it.Request),
	}
	if it.Kind == attnPermission && p.RequestID != "" {
		p.Actions = []pushAction{{Action: "allow", Title: "Allow"}, {Action: "deny", Title: "Deny"}}
	}
	return p
}

// newItems returns the items of next whose key is not in prev.
func newItems(prev, next []attentionItem) []attentionItem {
	had := map[string]bool{}
	for _, it := range prev {
		had[itemKey(it)] = true
	}
	var out []attentionItem
	for _, it := range next {
		if !had[itemKey(it)] {
			out = append(out, it)
		}
	}
	return out
}

func itemKey(it attentionItem) string {
	return it.WorkerID + "|" + it.Kind + "|" + requestID(it.Request)
}

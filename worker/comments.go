package worker

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker/review"
)

// Comments returns the review comments stored with session sid, in the
// order they were made (docs/api-extensions.md, "Review comments").
// Outdated is not set: it depends on the files now (review.Mark).
func (m *Manager) Comments(sid string) ([]review.Comment, error) {
	if _, err := m.Session(sid); err != nil {
		return nil, err
	}
	raw, err := m.store.Records().Comments(sid)
	if err != nil {
		return nil, err
	}
	return decodeComments(raw)
}

// UpdateComments replaces session sid's comments with what fn returns for
// the stored ones, in one transaction, and returns them once committed.
// An error from fn writes nothing and is returned as it is. fn runs on the
// store's writer: it must be quick (no git, no file reads).
func (m *Manager) UpdateComments(sid string, fn func([]review.Comment) ([]review.Comment, error)) ([]review.Comment, error) {
	if _, err := m.Session(sid); err != nil {
		return nil, err
	}
	var out []review.Comment
	var fnErr error
	err := m.store.Records().UpdateComments(sid, func(old []byte) ([]byte, error) {
		cs, err := decodeComments(old)
		if err != nil {
			return nil, err
		}
		next, err := fn(cs)
		if err != nil {
			fnErr = err
			return nil, err
		}
		out = next
		if len(next) == 0 {
			return nil, nil
		}
		return json.Marshal(next)
	})
	switch {
	case fnErr != nil:
		return nil, fnErr
	case errors.Is(err, persist.ErrNotFound):
		return nil, fmt.Errorf("session %q: %w", sid, ErrNotFound)
	case err != nil:
		return nil, err
	}
	return out, nil
}

func decodeComments(raw []byte) ([]review.Comment, error) {
	if len(raw) == 0 {
		return []review.Comment{}, nil
	}
	var cs []review.Comment
	if err := json.Unmarshal(raw, &cs); err != nil {
		return nil, fmt.Errorf("decode comments: %w", err)
	}
	return cs, nil
}

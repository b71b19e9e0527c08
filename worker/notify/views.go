package notify

import "sync"

// views knows which session each /ws/app connection shows in a visible
// tab (its "viewing" frames), so that no push goes out for a session the
// user is looking at. A connection's entry goes when its socket ends.
type views struct {
	mu   sync.Mutex
	next int
	by   map[int]string // connection → session id ("" none)
}

// View is one /ws/app connection's view; nil (push is off) does nothing.
type View struct {
	vs *views
	id int
}

// View registers a connection viewing nothing; Close forgets it.
func (s *Service) View() *View {
	v := &s.views
	v.mu.Lock()
	defer v.mu.Unlock()
	v.next++
	v.by[v.next] = ""
	return &View{vs: v, id: v.next}
}

// Show says the connection's tab shows session sid ("" none, or hidden).
func (w *View) Show(sid string) {
	if w == nil {
		return
	}
	w.vs.mu.Lock()
	defer w.vs.mu.Unlock()
	if _, ok := w.vs.by[w.id]; ok {
		w.vs.by[w.id] = sid
	}
}

// Close forgets the connection.
func (w *View) Close() {
	if w == nil {
		return
	}
	w.vs.mu.Lock()
	defer w.vs.mu.Unlock()
	delete(w.vs.by, w.id)
}

// viewing reports whether some connection shows sid.
func (v *views) viewing(sid string) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, s := range v.by {
		if s == sid {
			return true
		}
	}
	return false
}

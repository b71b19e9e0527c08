package filelist

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// CacheOptions configures a Cache; zero fields take the defaults.
type CacheOptions struct {
	// TTL is how long a listing is reused while its Stamp is unchanged
	// (default 5 s). A file made deep in the tree changes no stamp, so it
	// shows after at most TTL; one in the root or added to git at once.
	TTL time.Duration
	// Timeout bounds one listing (default 5 s): a slow git or disk ends
	// the request instead of holding it.
	Timeout time.Duration
	// MaxDirs is how many directories' listings are kept (default 32); the
	// least recently used goes first.
	MaxDirs int
	// List lists a directory (default List); tests replace it.
	List func(ctx context.Context, dir string) ([]string, error)
}

// Cache keeps one Index per directory. It is safe for concurrent use and
// starts no goroutines: a listing runs in the caller that needs it, one at
// a time per directory; callers meanwhile get the previous listing.
type Cache struct {
	o  CacheOptions
	mu sync.Mutex
	m  map[string]*entry // by directory
}

type entry struct {
	busy  chan struct{} // holds a token while a listing runs
	idx   *Index        // nil until the first listing; guarded by Cache.mu
	stamp string
	at    time.Time // when idx was listed
	used  time.Time // last asked for, for eviction
}

// NewCache returns an empty cache; o may be nil.
func NewCache(o *CacheOptions) *Cache {
	c := &Cache{m: map[string]*entry{}}
	if o != nil {
		c.o = *o
	}
	if c.o.TTL <= 0 {
		c.o.TTL = 5 * time.Second
	}
	if c.o.Timeout <= 0 {
		c.o.Timeout = 5 * time.Second
	}
	if c.o.MaxDirs <= 0 {
		c.o.MaxDirs = 32
	}
	if c.o.List == nil {
		c.o.List = List
	}
	return c
}

// Index returns dir's listing: the cached one while it is fresh, else a
// new one. While another caller lists dir, it returns the previous listing
// at once when there is one, and otherwise waits for that caller (bounded
// by ctx). A failed listing falls back to the previous one when there is
// one.
func (c *Cache) Index(ctx context.Context, dir string) (*Index, error) {
	stamp := Stamp(dir)
	e, idx := c.lookup(dir, stamp)
	if idx != nil {
		return idx, nil
	}
	select {
	case e.busy <- struct{}{}:
	default:
		if old := c.current(e); old != nil {
			return old, nil // a listing is on its way; don't queue behind it
		}
		select {
		case e.busy <- struct{}{}:
		case <-ctx.Done():
			return nil, fmt.Errorf("wait for file listing: %w", ctx.Err())
		}
	}
	defer func() { <-e.busy }()
	if _, idx := c.lookup(dir, stamp); idx != nil {
		return idx, nil // the caller we waited for made it
	}
	lctx, cancel := context.WithTimeout(ctx, c.o.Timeout)
	defer cancel()
	files, err := c.o.List(lctx, dir)
	if err != nil {
		if old := c.current(e); old != nil {
			return old, nil
		}
		return nil, err
	}
	idx = NewIndex(files)
	c.mu.Lock()
	e.idx, e.stamp, e.at = idx, stamp, time.Now()
	c.mu.Unlock()
	return idx, nil
}

// lookup finds or makes dir's entry, and returns its listing when it is
// still fresh for stamp.
func (c *Cache) lookup(dir, stamp string) (*entry, *Index) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	e := c.m[dir]
	if e == nil {
		c.evict()
		e = &entry{busy: make(chan struct{}, 1)}
		c.m[dir] = e
	}
	e.used = now
	if e.idx != nil && e.stamp == stamp && now.Sub(e.at) < c.o.TTL {
		return e, e.idx
	}
	return e, nil
}

func (c *Cache) current(e *entry) *Index {
	c.mu.Lock()
	defer c.mu.Unlock()
	return e.idx
}

// evict drops the least recently used entry when the cache is full. An
// entry dropped while being listed just finishes unseen. Called with mu.
func (c *Cache) evict() {
	if len(c.m) < c.o.MaxDirs {
		return
	}
	var oldest string
	for d, e := range c.m {
		if oldest == "" || e.used.Before(c.m[oldest].used) {
			oldest = d
		}
	}
	delete(c.m, oldest)
}

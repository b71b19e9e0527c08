package chat

import "sync"

// coalescer runs a function on a goroutine whenever poked, once per burst:
// a poke while it runs makes it run once more, never twice at once, and
// no goroutine is left once nothing is pending.
type coalescer struct {
	mu      sync.Mutex
	dirty   bool // poked since fn last started
	running bool
}

// poke makes fn run (again) soon, on a goroutine of wg. The caller keeps
// wg above zero while it pokes (wg.Go may not race a Wait at zero).
func (c *coalescer) poke(wg *sync.WaitGroup, fn func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dirty = true
	if !c.running {
		c.running = true
		wg.Go(func() { c.run(fn) })
	}
}

func (c *coalescer) run(fn func()) {
	for {
		c.mu.Lock()
		if !c.dirty {
			c.running = false
			c.mu.Unlock()
			return
		}
		c.dirty = false
		c.mu.Unlock()
		fn()
	}
}

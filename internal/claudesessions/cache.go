package claudesessions

import "sync"

// maxCached bounds the summaries kept between listings (a summary is
// under a kilobyte).
const maxCached = 20000

// cache keeps each file's summary while the file keeps its size and
// modification time: the CLI only appends, so a file that changed shows
// a new size or time. A listing then reads only the files that changed.
var cache = struct {
	sync.Mutex
	m map[string]Summary
}{m: map[string]Summary{}}

// summary is Summarize of f, from the cache when f has not changed.
func summary(f file) (Summary, error) {
	cache.Lock()
	s, ok := cache.m[f.path]
	cache.Unlock()
	if ok && s.Size == f.size && s.LastActivity.Equal(f.mod) {
		return s, nil
	}
	s, err := Summarize(f.path)
	if err != nil {
		return s, err
	}
	remember(s)
	return s, nil
}

func remember(s Summary) {
	cache.Lock()
	defer cache.Unlock()
	if len(cache.m) >= maxCached {
		n := 0
		for p := range cache.m { // a random quarter makes room
			delete(cache.m, p)
			if n++; n >= maxCached/4 {
				break
			}
		}
	}
	cache.m[s.Path] = s
}

// forgetSummaries empties the cache (for tests and benchmarks).
func forgetSummaries() {
	cache.Lock()
	defer cache.Unlock()
	clear(cache.m)
}

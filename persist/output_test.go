package persist

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
)

// pattern returns n bytes that differ at every offset mod 251, so a read at
// the wrong offset shows.
func pattern(from, n int) []byte {
	out := make([]byte, n)
	for i := range out {
		out[i] = byte((from + i) % 251)
	}
	return out
}

// appendAll appends pieces of the given sizes from the current end and
// returns the new end.
func appendAll(t *testing.T, s *Store, id string, end int, sizes ...int) int {
	t.Helper()
	for _, n := range sizes {
		mustWait(t, s.AppendOutput(id, int64(end), pattern(end, n)))
		end += n
	}
	return end
}

func TestReadOutputAtOffsets(t *testing.T) {
	s := openStore(t, dbPath(t), &Options{OutputCap: 1 << 20}) // nothing dropped
	end := appendAll(t, s, "w", 0, 3, 1, 500, 7, 300000, 2)
	cases := []struct {
		from      int64
		max       int
		wantStart int64
		wantLen   int
	}{
		{0, 10, 0, 10},
		{0, end, 0, end},
		{0, end + 100, 0, end},
		{2, 3, 2, 3},
		{4, 1, 4, 1},
		{503, 9, 503, 9},
		{150000, 200000, 150000, int(end) - 150000},
		{int64(end) - 1, 10, int64(end) - 1, 1},
		{-5, 4, 0, 4},
		{int64(end), 10, int64(end), 0},
		{int64(end) + 99, 10, int64(end), 0},
		{10, 0, 10, 0},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("from %d max %d", tc.from, tc.max), func(t *testing.T) {
			data, at, err := s.ReadOutput("w", tc.from, tc.max)
			must(t, err)
			if at != tc.wantStart || len(data) != tc.wantLen {
				t.Fatalf("got %d bytes at %d, want %d at %d", len(data), at, tc.wantLen, tc.wantStart)
			}
			if !bytes.Equal(data, pattern(int(at), len(data))) {
				t.Errorf("wrong bytes")
			}
		})
	}
	if data, at, err := s.ReadOutput("unknown", 5, 10); data != nil || at != 0 || err != nil {
		t.Errorf("unknown worker: %q at %d, %v", data, at, err)
	}
	if start, e, _ := s.OutputRange("w"); start != 0 || e != int64(end) {
		t.Errorf("range = %d..%d, want 0..%d", start, e, end)
	}
}

// checkOutput verifies the stored output of id against everything appended
// (total bytes, produced by pattern) and the cap.
func checkOutput(t *testing.T, s *Store, id string, total int, cap int64) {
	t.Helper()
	start, end, err := s.OutputRange(id)
	must(t, err)
	size := end - start
	if end != int64(total) || size > cap || (int64(total) >= cap && size <= cap-int64(s.chunkMax)) {
		t.Fatalf("range %d..%d (size %d) for %d bytes, cap %d, chunk %d", start, end, size, total, cap, s.chunkMax)
	}
	data, at, err := s.ReadOutput(id, 0, total)
	must(t, err)
	if at != start || !bytes.Equal(data, pattern(int(start), int(size))) {
		t.Fatalf("read %d bytes at %d, want %d at %d", len(data), at, size, start)
	}
	offs, lens := chunkKeys(t, s, id)
	next := start
	for i, off := range offs {
		if off != next || lens[i] == 0 || lens[i] > s.chunkMax {
			t.Fatalf("chunk %d at %d len %d, want at %d", i, off, lens[i], next)
		}
		next += int64(lens[i])
	}
	if next != end {
		t.Fatalf("chunks end at %d, want %d", next, end)
	}
}

func TestOutputCapDropsOldest(t *testing.T) {
	const cap = 64
	s := openStore(t, dbPath(t), &Options{OutputCap: cap})
	end := 0
	for range 10 {
		end = appendAll(t, s, "w", end, 20)
		checkOutput(t, s, "w", end, cap)
	}
	start, _, _ := s.OutputRange("w")
	if start == 0 {
		t.Fatal("start did not move")
	}
	// Offsets are never reused: neither the old start nor a dropped offset.
	for _, off := range []int64{0, start, start + 1} {
		if err := wait(t, s.AppendOutput("w", off, []byte("x"))); !errors.Is(err, ErrOffset) {
			t.Errorf("append at %d: %v", off, err)
		}
	}
	data, at, _ := s.ReadOutput("w", 0, 5)
	if at != start || !bytes.Equal(data, pattern(int(start), 5)) {
		t.Errorf("read before start: %d bytes at %d", len(data), at)
	}
}

func TestOutputAppendLargerThanCap(t *testing.T) {
	const cap = 64
	s := openStore(t, dbPath(t), &Options{OutputCap: cap})
	end := appendAll(t, s, "w", 0, 10, 1000)
	checkOutput(t, s, "w", end, cap)
	if start, _, _ := s.OutputRange("w"); start != int64(end-cap) {
		t.Errorf("start = %d, want %d", start, end-cap)
	}
	end = appendAll(t, s, "w", end, 3)
	checkOutput(t, s, "w", end, cap)
}

func TestOutputModel(t *testing.T) {
	caps := []int64{1, 7, 64, 1000, 5000}
	for _, cap := range caps {
		t.Run(fmt.Sprintf("cap %d", cap), func(t *testing.T) {
			s := openStore(t, dbPath(t), &Options{OutputCap: cap})
			r := rand.New(rand.NewPCG(1, uint64(cap)))
			end := 0
			for range 60 {
				// Queue several appends before waiting, so batches merge them.
				var results []<-chan error
				for range 1 + r.IntN(5) {
					n := r.IntN(3 * int(cap))
					results = append(results, s.AppendOutput("w", int64(end), pattern(end, n)))
					end += n
				}
				for _, c := range results {
					mustWait(t, c)
				}
				checkOutput(t, s, "w", end, cap)
			}
		})
	}
}

func TestSmallAppendsShareAChunk(t *testing.T) {
	s := newStore(t)
	// Keystroke echoes, committed one by one.
	for i := range 100 {
		mustWait(t, s.AppendOutput("typed", int64(i), []byte{'k'}))
	}
	if offs, _ := chunkKeys(t, s, "typed"); len(offs) != 1 {
		t.Errorf("100 one-byte commits made %d chunks", len(offs))
	}
	// A big tail is not rewritten, but appends inside one commit merge.
	end := appendAll(t, s, "w", 0, 2*mergeBelow)
	release := hold(t, s)
	var results []<-chan error
	for i := range 100 {
		results = append(results, s.AppendOutput("w", int64(end+i), pattern(end+i, 1)))
	}
	release()
	for _, c := range results {
		mustWait(t, c)
	}
	if offs, _ := chunkKeys(t, s, "w"); len(offs) != 2 {
		t.Errorf("100 appends in one commit made %d chunks after the first", len(offs)-1)
	}
	checkOutput(t, s, "w", end+100, DefaultOutputCap)
}

func TestAppendOutputRejects(t *testing.T) {
	s := newStore(t)
	end := appendAll(t, s, "w", 0, 10)
	cases := []struct {
		name   string
		worker string
		off    int64
		want   error
	}{
		{"behind end", "w", 5, ErrOffset},
		{"ahead of end", "w", 11, ErrOffset},
		{"first append not at 0", "fresh", 3, ErrOffset},
		{"negative", "w", -1, ErrInvalid},
		{"empty worker", "", 0, ErrInvalid},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := wait(t, s.AppendOutput(tc.worker, tc.off, []byte("x"))); !errors.Is(err, tc.want) {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
		})
	}
	mustWait(t, s.AppendOutput("w", int64(end), nil)) // empty append at the end is fine
	checkOutput(t, s, "w", end, DefaultOutputCap)
}

// TestOutputGapAfterCrash: a writer that showed offsets it never stored
// reserved them first; the next writer starts past the reservation, and
// reads treat the hole as dropped bytes.
func TestOutputGapAfterCrash(t *testing.T) {
	s := newStore(t)
	mustWait(t, s.AppendOutput("w", 0, []byte("0123456789")))
	if err := <-s.ReserveOutput("w", 20); err != nil {
		t.Fatal(err)
	}
	// Bytes 10..15 were published live, then the process died.
	next, err := s.OutputNext("w")
	if err != nil || next != 20 {
		t.Fatalf("next = %d, %v; want 20", next, err)
	}
	if err := wait(t, s.AppendOutput("w", 25, []byte("x"))); !errors.Is(err, ErrOffset) {
		t.Fatalf("append beyond the reservation: %v", err)
	}
	mustWait(t, s.AppendOutput("w", 20, []byte("abc")))
	mustWait(t, s.AppendOutput("w", 23, []byte("de")))
	data, at, err := s.ReadOutput("w", 5, 100)
	if err != nil || string(data) != "56789" || at != 5 {
		t.Fatalf("read before the gap: %q at %d, %v", data, at, err)
	}
	data, at, err = s.ReadOutput("w", 12, 100)
	if err != nil || string(data) != "abcde" || at != 20 {
		t.Fatalf("read from inside the gap: %q at %d, %v; want abcde at 20", data, at, err)
	}
	if _, end, _ := s.OutputRange("w"); end != 25 {
		t.Fatalf("end = %d, want 25", end)
	}
	// A clean close gives the reservation back: the next writer continues
	// at the end.
	if err := <-s.ReserveOutput("w", 25); err != nil {
		t.Fatal(err)
	}
	if next, _ := s.OutputNext("w"); next != 25 {
		t.Fatalf("next after release = %d, want 25", next)
	}
}

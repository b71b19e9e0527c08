package persist

import (
	"errors"
	"fmt"
	"sync"
	"testing"
)

func seqs(ms []Message) []uint64 {
	var out []uint64
	for _, m := range ms {
		out = append(out, m.Seq)
	}
	return out
}

func TestMessagesAfter(t *testing.T) {
	s := newStore(t)
	mustWait(t, s.AppendMessages("w", msgs(1, 3)))
	mustWait(t, s.AppendMessages("w", msgs(4, 8)))
	cases := []struct {
		after uint64
		limit int
		want  string
	}{
		{0, 0, "[1 2 3 4 5 6 7 8]"},
		{0, 2, "[1 2]"},
		{4, 0, "[5 6 7 8]"},
		{4, 1, "[5]"},
		{5, 10, "[6 7 8]"},
		{8, 0, "[]"},
		{100, 0, "[]"},
		{^uint64(0), 0, "[]"},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("after %d limit %d", tc.after, tc.limit), func(t *testing.T) {
			got, err := s.MessagesAfter("w", tc.after, tc.limit)
			must(t, err)
			if fmt.Sprint(seqs(got)) != tc.want {
				t.Errorf("seqs = %v, want %s", seqs(got), tc.want)
			}
			for _, m := range got {
				if want := msg(m.Seq); m.UUID != want.UUID || string(m.Data) != string(want.Data) {
					t.Errorf("message %d = %+v", m.Seq, m)
				}
			}
		})
	}
	if got, _ := s.MessagesAfter("unknown", 0, 0); len(got) != 0 {
		t.Errorf("unknown worker has %d messages", len(got))
	}
}

func TestSeqOfAndCounts(t *testing.T) {
	s := newStore(t)
	if last, err := s.LastSeq("w"); err != nil || last != 0 {
		t.Errorf("empty last seq = %d, %v", last, err)
	}
	mustWait(t, s.AppendMessages("w", msgs(1, 4)))
	mustWait(t, s.AppendMessages("other", msgs(1, 2)))
	for _, tc := range []struct {
		uuid string
		seq  uint64
		err  error
	}{
		{"uuid-1", 1, nil},
		{"uuid-4", 4, nil},
		{"uuid-9", 0, ErrNotFound},
		{"", 0, ErrNotFound},
	} {
		seq, err := s.SeqOf("w", tc.uuid)
		if seq != tc.seq || !errors.Is(err, tc.err) {
			t.Errorf("SeqOf(%q) = %d, %v; want %d, %v", tc.uuid, seq, err, tc.seq, tc.err)
		}
	}
	if _, err := s.SeqOf("unknown", "uuid-1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown worker: %v", err)
	}
	if last, _ := s.LastSeq("w"); last != 4 {
		t.Errorf("last seq = %d", last)
	}
	if n, _ := s.MessageCount("w"); n != 4 {
		t.Errorf("count = %d", n)
	}
	if n, _ := s.MessageCount("unknown"); n != 0 {
		t.Errorf("unknown count = %d", n)
	}
}

func TestAppendMessagesRejects(t *testing.T) {
	s := newStore(t)
	mustWait(t, s.AppendMessages("w", msgs(1, 3)))
	cases := []struct {
		name   string
		worker string
		msgs   []Message
		want   error
	}{
		{"seq equal to last", "w", []Message{{Seq: 3, UUID: "x"}}, ErrSeq},
		{"seq below last", "w", []Message{{Seq: 1, UUID: "x"}}, ErrSeq},
		{"seq zero", "new", []Message{{Seq: 0, UUID: "x"}}, ErrSeq},
		{"gap after last", "w", []Message{{Seq: 5, UUID: "x"}}, ErrSeq},
		{"empty log not from 1", "new", []Message{{Seq: 2, UUID: "x"}}, ErrSeq},
		{"not increasing in batch", "w", []Message{{Seq: 4, UUID: "x"}, {Seq: 4, UUID: "y"}}, ErrSeq},
		{"gap in batch", "w", []Message{{Seq: 4, UUID: "x"}, {Seq: 6, UUID: "y"}}, ErrSeq},
		{"stored uuid", "w", []Message{{Seq: 4, UUID: "x"}, {Seq: 5, UUID: "uuid-2"}}, ErrDuplicate},
		{"uuid twice in batch", "w", []Message{{Seq: 4, UUID: "x"}, {Seq: 5, UUID: "x"}}, ErrDuplicate},
		{"empty uuid", "w", []Message{{Seq: 4}}, ErrInvalid},
		{"empty worker", "", msgs(1, 1), ErrInvalid},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := wait(t, s.AppendMessages(tc.worker, tc.msgs)); !errors.Is(err, tc.want) {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
		})
	}
	// A rejected batch writes nothing, not even its valid first message.
	if got, _ := s.MessagesAfter("w", 0, 0); fmt.Sprint(seqs(got)) != "[1 2 3]" {
		t.Errorf("log = %v", seqs(got))
	}
	if n, _ := s.MessageCount("w"); n != 3 {
		t.Errorf("count = %d", n)
	}
	mustWait(t, s.AppendMessages("w", nil)) // nothing to append is fine
}

func TestDataIsCopied(t *testing.T) {
	s := newStore(t)
	m := []Message{{Seq: 1, UUID: "u", Data: []byte("before")}}
	c := s.AppendMessages("w", m)
	copy(m[0].Data, "AFTER!") // the caller may reuse its buffers at once
	mustWait(t, c)
	if got, _ := s.MessagesAfter("w", 0, 0); string(got[0].Data) != "before" {
		t.Errorf("data = %q", got[0].Data)
	}
}

func TestConcurrentAppendersKeepOrder(t *testing.T) {
	s := newStore(t)
	const workers, perWorker = 8, 300
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Go(func() {
			id := fmt.Sprintf("w%d", w)
			// Pipelined: the next append is queued before the last commits,
			// so any reordering in the writer would fail with ErrSeq.
			var results []<-chan error
			for i := uint64(1); i <= perWorker; i++ {
				results = append(results, s.AppendMessages(id, []Message{msg(i)}))
			}
			for _, c := range results {
				if err := <-c; err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for w := range workers {
		id := fmt.Sprintf("w%d", w)
		got, err := s.MessagesAfter(id, 0, 0)
		must(t, err)
		if len(got) != perWorker {
			t.Fatalf("%s has %d messages", id, len(got))
		}
		for i, m := range got {
			if m.Seq != uint64(i+1) || m.UUID != msg(m.Seq).UUID {
				t.Fatalf("%s message %d = %+v", id, i, m)
			}
		}
	}
}

package persist

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// pipelineDepth is how many appends a benchmark keeps in flight, like a
// producer that does not wait for each commit.
const pipelineDepth = 4096

// sdkMessage is about the size of a typical stream-json assistant message.
var sdkMessage = fmt.Appendf(nil, `{"type":"assistant","message":{"content":[{"type":"text","text":%q}]}}`, strings.Repeat("word ", 80))

// randomUUID looks like the CLI's v4 uuids: random, so index inserts land
// all over the uuid bucket instead of at its end.
func randomUUID(r *rand.Rand) string {
	return fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", r.Uint32(), r.Uint32()&0xffff, r.Uint32()&0xfff, r.Uint32()&0xfff, r.Uint64()&0xffffffffffff)
}

func benchStores(b *testing.B, run func(b *testing.B, s *Store)) {
	for _, noSync := range []bool{false, true} {
		b.Run(fmt.Sprintf("nosync=%v", noSync), func(b *testing.B) {
			run(b, openStore(b, dbPath(b), &Options{NoSync: noSync}))
		})
	}
}

// BenchmarkAppendMessages measures the cost per message under group commit:
// one producer appends one message per call and never waits for a commit
// until pipelineDepth are in flight.
func BenchmarkAppendMessages(b *testing.B) {
	benchStores(b, func(b *testing.B, s *Store) {
		ring := make([]<-chan error, 0, pipelineDepth)
		r := rand.New(rand.NewPCG(1, 2))
		b.SetBytes(int64(len(sdkMessage)))
		b.ResetTimer()
		for i := range b.N {
			if len(ring) == cap(ring) {
				mustWait(b, ring[0])
				ring = ring[1:]
			}
			seq := uint64(i + 1)
			ring = append(ring, s.AppendMessages("w", []Message{{Seq: seq, UUID: randomUUID(r), Data: sdkMessage}}))
		}
		for _, c := range ring {
			mustWait(b, c)
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
	})
}

// BenchmarkAppendMessagesWaitEach is the latency of one append when the
// producer waits for each commit (no grouping possible).
func BenchmarkAppendMessagesWaitEach(b *testing.B) {
	benchStores(b, func(b *testing.B, s *Store) {
		r := rand.New(rand.NewPCG(1, 2))
		for i := range b.N {
			seq := uint64(i + 1)
			mustWait(b, s.AppendMessages("w", []Message{{Seq: seq, UUID: randomUUID(r), Data: sdkMessage}}))
		}
	})
}

// BenchmarkMessagesAfter10k reads the 10,000 messages after a cursor in the
// middle of a 20,000-message log.
func BenchmarkMessagesAfter10k(b *testing.B) {
	s := openStore(b, dbPath(b), &Options{NoSync: true})
	const total, batch = 20000, 500
	r := rand.New(rand.NewPCG(1, 2))
	var cursorUUID string
	for from := uint64(1); from <= total; from += batch {
		ms := make([]Message, batch)
		for i := range ms {
			seq := from + uint64(i)
			ms[i] = Message{Seq: seq, UUID: randomUUID(r), Data: sdkMessage}
			if seq == total/2 {
				cursorUUID = ms[i].UUID
			}
		}
		mustWait(b, s.AppendMessages("w", ms))
	}
	cursor, err := s.SeqOf("w", cursorUUID)
	must(b, err)
	b.ResetTimer()
	for b.Loop() {
		got, err := s.MessagesAfter("w", cursor, 10000)
		if err != nil || len(got) != 10000 {
			b.Fatalf("got %d messages, %v", len(got), err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/10k")
}

// BenchmarkAppendOutput appends PTY reads of 4 KiB, pipelined, with the
// default 8 MiB cap (so old chunks are dropped as it runs).
func BenchmarkAppendOutput(b *testing.B) {
	benchStores(b, func(b *testing.B, s *Store) {
		data := make([]byte, 4096)
		ring := make([]<-chan error, 0, pipelineDepth)
		b.SetBytes(int64(len(data)))
		b.ResetTimer()
		for i := range b.N {
			if len(ring) == cap(ring) {
				mustWait(b, ring[0])
				ring = ring[1:]
			}
			ring = append(ring, s.AppendOutput("w", int64(i*len(data)), data))
		}
		for _, c := range ring {
			mustWait(b, c)
		}
	})
}

// BenchmarkAppendOutputStream appends output the way a streaming PTY Log
// does: 512 KiB at a time, two appends in flight, with the default 8 MiB
// cap, and reports the process CPU and the bytes written to the file per
// 100 MB of output.
func BenchmarkAppendOutputStream(b *testing.B) {
	benchStores(b, func(b *testing.B, s *Store) {
		const size = 512 << 10
		var ring []<-chan error
		cpu0, w0 := procCPU(), writtenBytes()
		b.SetBytes(size)
		b.ResetTimer()
		for i := range b.N {
			if len(ring) == 2 {
				mustWait(b, ring[0])
				ring = ring[1:]
			}
			ring = append(ring, s.AppendOutput("w", int64(i)*size, make([]byte, size)))
		}
		for _, c := range ring {
			mustWait(b, c)
		}
		per := 100e6 / float64(b.N*size)
		b.ReportMetric((procCPU()-cpu0).Seconds()*per, "cpu-s/100MB")
		b.ReportMetric(float64(writtenBytes()-w0)*per/1e6, "MB-written/100MB")
	})
}

package ptyagent

import (
	"testing"
	"time"
)

// recordedOutput is the raw output of a recorded session, concatenated.
func recordedOutput(b *testing.B) []byte {
	var out []byte
	for _, e := range loadRecording(b, "manual_mode.jsonl") {
		out = append(out, e.data...)
	}
	return out
}

// BenchmarkDetectorWrite is the cost the PTY reader pays per byte: the
// screen model parsing the real CLI's output.
func BenchmarkDetectorWrite(b *testing.B) {
	out := recordedOutput(b)
	d := newDetector(120, 32, time.Now)
	b.SetBytes(int64(len(out)))
	b.ReportAllocs()
	for b.Loop() {
		_, _ = d.Write(out)
	}
}

// BenchmarkDetectorEval is the cost of one activity decision after output
// (render the screen, match the patterns), paid once per wake-up.
func BenchmarkDetectorEval(b *testing.B) {
	d := newDetector(120, 32, time.Now)
	_, _ = d.Write(recordedOutput(b))
	b.ReportAllocs()
	for b.Loop() {
		d.dirty = true
		d.eval()
	}
}

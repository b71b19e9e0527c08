package chat

import "testing"

// BenchmarkTextBlocks compares the narrow walk with json.Unmarshal on a
// typical assistant line.
func BenchmarkTextBlocks(b *testing.B) {
	raw := benchLine(7).Raw
	b.Run("walk", func(b *testing.B) {
		for b.Loop() {
			if _, ok := textBlocks(raw); !ok {
				b.Fatal("refused")
			}
		}
	})
	b.Run("unmarshal", func(b *testing.B) {
		for b.Loop() {
			if _, err := decodeTextBlocks(raw); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkRenderHTML is the render step of the pipeline for a line with
// markdown (benchLine) and one without (the fake CLI's flood line), now
// and as it was (renderHTMLReference).
func BenchmarkRenderHTML(b *testing.B) {
	flood := []byte(`{"type":"assistant","message":{"id":"msg_flood","type":"message","role":"assistant","model":"claude-opus-5-5","content":[{"type":"text","text":"flood line"}],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":1}},"parent_tool_use_id":null,"session_id":"s","uuid":"u"}`)
	for _, c := range []struct {
		name string
		raw  []byte
	}{{"markdown", benchLine(7).Raw}, {"plain", flood}} {
		b.Run(c.name+"/now", func(b *testing.B) {
			for b.Loop() {
				_, _, _ = renderHTML(c.raw)
			}
		})
		b.Run(c.name+"/before", func(b *testing.B) {
			for b.Loop() {
				_, _ = renderHTMLReference(c.raw)
			}
		})
	}
}

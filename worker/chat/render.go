package chat

import (
	"log/slog"
	"runtime"
	"sync"
)

// minParallel is the number of assistant lines in a batch from which
// rendering is spread over several goroutines.
const minParallel = 4

// renderAll fills in the html of the assistant entries of a batch. A burst
// of lines is rendered on every core: markdown and the line decode are the
// costliest step of the pipeline, and the only one that can run in
// parallel without changing the order.
func renderAll(es []entry, log *slog.Logger) {
	var idx []int
	for i := range es {
		if es[i].kind == kStored && es[i].typ == "assistant" {
			idx = append(idx, i)
		}
	}
	workers := min(runtime.GOMAXPROCS(0), len(idx)/minParallel+1)
	if workers <= 1 {
		for _, i := range idx {
			render(&es[i], log)
		}
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for k := w; k < len(idx); k += workers {
				render(&es[idx[k]], log)
			}
		})
	}
	wg.Wait()
}

func render(e *entry, log *slog.Logger) {
	html, truncated, err := renderHTML(e.msg)
	if err != nil {
		log.Warn("render assistant markdown", "err", err)
	}
	e.html, e.htmlTruncated = html, truncated
}

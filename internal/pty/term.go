package pty

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/agentdesk/agentdesk/internal/childproc"
	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/internal/wire"
)

// Default terminal size when the worker does not name one.
const (
	DefaultCols = 120
	DefaultRows = 32
)

// Reporter is what a Term tells the manager of its worker: narrow
// reports, not field writes. worker.Reporter has these methods; the kind
// passes its own. Each is safe to call from any goroutine.
type Reporter interface {
	// Failed: the process could not start (status error, err's text).
	Failed(err error)
	// Exited: the process ended with code, or by signal sig when sig is
	// not ""; note, when not "", says why (the worker's error).
	Exited(code int, sig string, note string)
	// Size: the terminal was resized.
	Size(cols, rows int)
	// Problem sets (msg not "") the worker's error without a change of
	// status.
	Problem(msg string)
}

// TermOptions configures NewTerm. Store, ID and Report are required.
type TermOptions struct {
	Name   string // the kind, in errors and log lines: "terminal", "pty-agent"
	ID     string // the worker whose output this is
	Store  Store
	Report Reporter
	Log    *slog.Logger // nil: discard
	// Cols and Rows are the size asked for; either <= 0 means
	// DefaultCols x DefaultRows.
	Cols, Rows int
	// Record keeps the identity of a process that started, so that a start
	// after a crash can end it; Forget drops it once the process ended.
	// Either may be nil.
	Record func(childproc.Ident) error
	Forget func() error
	// OnInput, when set, sees input that reached the process.
	OnInput func(data []byte)
	// OnResize, when set, sees each change of size, in order, before it
	// is reported.
	OnResize func(cols, rows int)
	// OnExit, when set, runs when the process has ended for good, before
	// the tabs get the exit frame; stopping says Stop ended it.
	OnExit func(stopping bool)
	// ExitNote, when set, gives the worker's error for an exit with a
	// failing code ("" for none).
	ExitNote func(code int) string
}

// Term is what the PTY worker kinds (terminal, pty-agent) share: one
// process at a time on a PTY, its output Log, its size, the tail frames
// every attaching tab gets after history-end (activity, error, exit), and
// the reports of its start, failures and exit. The kind decides what runs
// and when; Surface is the part its runtime shows to the server.
//
// All methods are safe for concurrent use, except where a method says it
// belongs to the kind's goroutine. The kind's goroutine is started with
// Go; Stop waits for it.
type Term struct {
	o    TermOptions
	log  *Log
	slog *slog.Logger

	procMu sync.Mutex
	proc   *Proc // nil when none was started: restored, or failed to start
	// unusable is why input cannot reach a process at all (a missing
	// binary), nil otherwise. Set by Fail before New returns.
	unusable error

	sizeMu     sync.Mutex // held across the PTY, OnResize and Size, to keep the order
	cols, rows int

	tailMu sync.Mutex // orders tail updates and their publishing
	tail   [numSlots][]byte

	storeMsg string // why output was not stored; the kind's goroutine's

	stopping atomic.Bool // Stop, not the process, ended the process
	stopOnce sync.Once
	wg       sync.WaitGroup
}

// NewTerm opens the worker's output log. The caller must Stop the Term.
func NewTerm(o TermOptions) (*Term, error) {
	log, err := OpenLog(o.Store, o.ID)
	if err != nil {
		return nil, fmt.Errorf("open %s %s: %w", o.Name, o.ID, err)
	}
	t := &Term{o: o, log: log, slog: o.Log, cols: o.Cols, rows: o.Rows}
	if t.slog == nil {
		t.slog = slog.New(slog.DiscardHandler)
	}
	t.slog = t.slog.With("worker", o.ID)
	if t.cols <= 0 || t.rows <= 0 {
		t.cols, t.rows = DefaultCols, DefaultRows
	}
	return t, nil
}

// Log is the output log: a kind writes its own notes into it.
func (t *Term) Log() *Log { return t.log }

// Logger is the worker's logger (TermOptions.Log, with the worker's id).
func (t *Term) Logger() *slog.Logger { return t.slog }

// Surface is the part of the Term a worker's runtime embeds.
func (t *Term) Surface() Surface { return Surface{t} }

// Size returns the current terminal size.
func (t *Term) Size() (cols, rows int) {
	t.sizeMu.Lock()
	defer t.sizeMu.Unlock()
	return t.cols, t.rows
}

// Start runs a process at the current size, its output into the Log
// (o.Log and the size are set here), and records it. It starts none once
// Stop has begun. The caller reports the worker running.
func (t *Term) Start(o Options) error {
	o.Log = t.log
	o.Cols, o.Rows = t.Size() // not under procMu: Resize takes sizeMu, then procMu
	t.procMu.Lock()
	defer t.procMu.Unlock()
	if t.stopping.Load() {
		return fmt.Errorf("start %s: %w", t.o.Name, wire.ErrNotRunning)
	}
	p, err := Start(o)
	if err != nil {
		return err
	}
	t.proc = p
	if t.o.Record != nil {
		if err := t.o.Record(p.Ident()); err != nil {
			t.slog.Warn("record "+t.o.Name+" process", "err", err)
		}
	}
	return nil
}

// Go runs the kind's goroutine, which Stop waits for.
func (t *Term) Go(fn func()) { t.wg.Go(fn) }

// Current returns the process, nil when none was started.
func (t *Term) Current() *Proc {
	t.procMu.Lock()
	defer t.procMu.Unlock()
	return t.proc
}

// Usable says why input cannot reach the process, or nil.
func (t *Term) Usable() error {
	if t.unusable != nil {
		return t.unusable
	}
	if !alive(t.Current()) {
		return wire.ErrNotRunning
	}
	return nil
}

// alive reports whether p was started and has not ended.
func alive(p *Proc) bool {
	if p == nil {
		return false
	}
	select {
	case <-p.Done():
		return false
	default:
		return true
	}
}

// Failed is closed when output could not be stored (Log.Failed).
func (t *Term) Failed() <-chan struct{} { return t.log.Failed() }

// Stop ends the process's session (SIGHUP and SIGTERM, then SIGKILL after
// DefaultGrace or when ctx ends) and waits for it and the kind's
// goroutine, then ends the live streams. It leaves the worker's status to
// the manager. Safe to call more than once; later calls return once the
// first is done.
func (t *Term) Stop(ctx context.Context) error {
	t.stopOnce.Do(func() {
		t.stopping.Store(true)
		// After stopping is set, Start starts no other process.
		if p := t.Current(); p != nil {
			_ = p.Stop(ctx)
		}
		t.wg.Wait()
		t.log.Close()
	})
	return nil
}

// Stopping reports whether Stop has begun.
func (t *Term) Stopping() bool { return t.stopping.Load() }

// The tail frames every new attachment gets after history-end, in order.
const (
	slotActivity = iota
	slotError
	slotExit
	numSlots
)

// publishTail sets a tail frame and sends it live, under one lock with
// the log, so that each tab gets it exactly once: live when it attached
// before, in its replay when after.
func (t *Term) publishTail(slot int, frame []byte) {
	t.tailMu.Lock()
	defer t.tailMu.Unlock()
	t.tail[slot] = frame
	t.log.PublishTail(hub.Frame{Data: frame}, t.tailFrames()...)
}

// setTail sets a tail frame without publishing it.
func (t *Term) setTail(slot int, frame []byte) {
	t.tailMu.Lock()
	defer t.tailMu.Unlock()
	t.tail[slot] = frame
	t.log.SetTail(t.tailFrames()...)
}

func (t *Term) tailFrames() []hub.Frame {
	var frames []hub.Frame
	for _, f := range t.tail {
		if f != nil {
			frames = append(frames, hub.Frame{Data: f})
		}
	}
	return frames
}

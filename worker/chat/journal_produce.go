package chat

import "github.com/agentdesk/agentdesk/persist"

// produce numbers, stores and queues entries, in order. It blocks only
// while the store's or the publisher's queue is full.
func (j *journal) produce(es []entry) error {
	return j.produceAck(es, nil, nil)
}

// produceCommitted is produce that waits until the stored entries are
// committed and published (the echo to the tabs), and returns the
// commit's error: what it returns nil for is on disk.
func (j *journal) produceCommitted(es []entry) error {
	return j.produceDequeue(es, nil)
}

// produceDequeue is produceCommitted whose commit also removes the queue
// item dq (when not nil) that the stored user message delivers.
func (j *journal) produceDequeue(es []entry, dq *dequeue) error {
	ack := make(chan error, 1)
	if err := j.produceAck(es, ack, dq); err != nil {
		return err
	}
	// The publisher answers every batch it was given, also while the
	// journal closes: close closes the queue and the publisher drains it.
	return <-ack
}

func (j *journal) produceAck(es []entry, ack chan<- error, dq *dequeue) error {
	// Wait for room before taking mu: the publisher may need mu (nextBatch)
	// before it drains the batch whose bytes we wait for.
	j.inflight.wait()
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return errStopped
	}
	if rb := j.rb.take(); rb != nil {
		j.seq, j.epoch = rb.seq, rb.epoch
	}
	b := batch{entries: es, epoch: j.epoch, ack: ack, dq: dq}
	msgs := j.number(&b)
	j.inflight.add(b.size)
	switch {
	case dq != nil:
		b.commit = j.store.AppendMessagesDequeue(j.wid, msgs, dq.sid, dq.id, dq.content)
	case len(msgs) > 0:
		b.commit = j.store.AppendMessages(j.wid, msgs)
	}
	if j.queue == nil {
		j.queue = make(chan batch, queueLen)
		q := j.queue
		j.wg.Go(func() { j.publish(q) })
	}
	j.queue <- b
	return nil
}

// number gives b's stored entries their seqs and builds every entry's
// frame, and returns the messages to store. The caller holds mu.
func (j *journal) number(b *batch) []persist.Message {
	var msgs []persist.Message
	for i := range b.entries {
		e := &b.entries[i]
		switch e.kind {
		case kStored:
			j.seq++
			if b.first == 0 {
				b.first = j.seq
			}
			e.seq = j.seq
			if e.wrap != nil && e.html == nil {
				e.frame = wrapFrame(e.seq, e.msg, e.wrap, e.htmlTruncated)
			} else {
				e.frame = sdkFrame(e.seq, e.msg, e.html, e.htmlTruncated)
			}
			msgs = append(msgs, persist.Message{Seq: e.seq, UUID: e.uuid, Data: e.frame, Blobs: e.blobs})
		case kStream:
			e.frame = sdkFrame(j.seq, e.msg, nil, false)
		}
		e.msg, e.html, e.wrap, e.blobs = nil, nil, nil, nil // the frame (or the store) holds them: let a large message go
		b.size += len(e.frame)
	}
	return msgs
}

// endTurn ends a turn the agent never ran (it could not start, or a
// Cancel kept the message from it): the activity goes back to idle.
func (j *journal) endTurn() {
	if err := j.produce([]entry{{kind: kExit}}); err != nil {
		j.log.Debug("end turn after stop", "err", err)
	}
}

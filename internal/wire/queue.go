package wire

import "time"

// The queue of an sdk worker's chat (docs/api-extensions.md, "Queue").

// TypeQueue is the frame {"type":"queue","items":[QueueItem]}.
const TypeQueue = "queue"

// The values of "when" on POST …/input and the socket's user-message.
const (
	WhenNow   = "now"   // into the running turn (steer), or a turn now
	WhenQueue = "queue" // after the running turn, through the queue
)

// QueueItem is one queued user message as the API shows it.
type QueueItem struct {
	ID        string     `json:"id"`
	Content   string     `json:"content"`
	CreatedAt time.Time  `json:"createdAt"`
	NotBefore *time.Time `json:"notBefore,omitempty"`
	// Attachments are the files queued with the message; absent when none.
	Attachments []QueueAttachment `json:"attachments,omitempty"`
}

// QueueAttachment is a queued message's file: URL serves its bytes
// (GET …/attachments/:id) while it waits.
type QueueAttachment struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	MediaType string `json:"mediaType"`
	Size      int    `json:"size"`
	URL       string `json:"url,omitempty"`
}

// Queue is {"type":"queue","items":[…]}, the whole queue in delivery
// order (an empty array, never null).
func Queue(items []QueueItem) []byte {
	if items == nil {
		items = []QueueItem{}
	}
	return mustJSON(struct {
		Type  string      `json:"type"`
		Items []QueueItem `json:"items"`
	}{TypeQueue, items})
}

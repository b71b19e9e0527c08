package wire

// Limits a client sees (API.md, "Limits", and the REST history).
const (
	// MaxBody is the largest REST request body (413 too_large beyond it).
	MaxBody = 1 << 20
	// MaxClientFrame is the largest WebSocket frame a client may send
	// (close 1009 beyond it).
	MaxClientFrame = 1 << 20
	// PageDefault and PageMax bound a page of the REST message history.
	PageDefault = 500
	PageMax     = 5000
)

package wire

// Limits a client sees (API.md, "Limits", and the REST history).
const (
	// MaxBody is the largest REST request body (413 too_large beyond it).
	MaxBody = 1 << 20
	// MaxClientFrame is the largest WebSocket frame a client may send
	// (close 1009 beyond it).
	MaxClientFrame = 1 << 20
	// MaxInputBody is the body limit of POST …/input, and MaxInputFrame
	// the frame limit of an sdk socket's user-message, both raised from
	// 1 MiB to carry attachments: 30 MiB of files are 40 MiB of base64,
	// plus the text (256 KiB) and the JSON around them.
	MaxInputBody  = 42 << 20
	MaxInputFrame = 42 << 20
	// PageDefault and PageMax bound a page of the REST message history.
	PageDefault = 500
	PageMax     = 5000
)

// Limits of the Files tab's API (docs/api-extensions.md, "Files"). Their
// reasons are in SECURITY.md.
const (
	// FSPageDefault and FSPageMax bound one page of a folder listing: a
	// folder of 100,000 entries lists in pages, never in one answer.
	FSPageDefault = 500
	FSPageMax     = 5000
	// FSViewBytes is how much of a file the first view shows; a larger
	// file is marked partial and offered as a download.
	FSViewBytes = 1 << 20
	// FSEditBytes is the largest file the editor saves (PUT body) and the
	// largest whose ETag is a hash of its content; a larger file's ETag
	// is made of its inode, size and modification time.
	FSEditBytes = 8 << 20
	// FSUploadFile and FSUploadRequest bound an upload (POST …/fs/upload):
	// one file, and the whole multipart body. FSUploadFiles bounds how
	// many files one request carries.
	FSUploadFile    = 1 << 30
	FSUploadRequest = 2 << 30
	FSUploadFiles   = 1000
)

// MaxToolFrame is the frame limit of /ws/tools, raised from 1 MiB so that
// a provider's tool result can carry an image (a screenshot).
const MaxToolFrame = 8 << 20

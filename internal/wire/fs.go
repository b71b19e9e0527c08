package wire

// Frame types of a files worker's socket (docs/api-extensions.md,
// "Files"). A client sends {"type":"watch","paths":[…]} with the folders
// it shows; the server answers fs-watching with the ones it watches, then
// fs-changed whenever the entries of some of them (or their git marks)
// may have changed.
const (
	TypeFSWatch    = "watch"
	TypeFSWatching = "fs-watching"
	TypeFSChanged  = "fs-changed"
)

// MaxFSWatch bounds the folders one socket may watch.
const MaxFSWatch = 1000

// FSWatching is {"type":"fs-watching","paths"}: the folders now watched
// for this socket (paths it asked for that are not folders of the tree
// are left out). The client reloads them: they may have changed while it
// was away.
func FSWatching(paths []string) []byte {
	return mustJSON(struct {
		Type  string   `json:"type"`
		Paths []string `json:"paths"`
	}{TypeFSWatching, nonNil(paths)})
}

// FSChanged is {"type":"fs-changed","paths"}: folders whose listing may
// have changed. Every socket gets every change; a client reloads the
// folders it shows.
func FSChanged(paths []string) []byte {
	return mustJSON(struct {
		Type  string   `json:"type"`
		Paths []string `json:"paths"`
	}{TypeFSChanged, nonNil(paths)})
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

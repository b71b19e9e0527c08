package persist

import (
	"os"
	"syscall"
	"unsafe"
)

var pageSize = os.Getpagesize()

// dropPages tells the kernel that this process no longer needs the pages
// of the database map under b, a large value just copied out of a read
// transaction. Replaying 360 MB of tool results otherwise leaves 360 MB of
// the file mapped, counted in the server's RSS until memory runs short.
// bbolt maps the file read-only and shared, so the pages stay in the page
// cache and a later read maps them again with the same bytes; only whole
// pages inside b are dropped.
func dropPages(b []byte) {
	if len(b) < 2*pageSize {
		return
	}
	addr := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	off := (pageSize - int(addr%uintptr(pageSize))) % pageSize
	n := (len(b) - off) / pageSize * pageSize
	_ = syscall.Madvise(b[off:off+n], syscall.MADV_DONTNEED) // advice only
}

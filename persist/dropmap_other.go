//go:build !linux

package persist

// dropPages is dropmap_linux.go's; elsewhere the kernel decides alone.
func dropPages([]byte) {}

// Package archtest holds the tests that keep the module's shape: the import
// rules of docs/ARCHITECTURE.md (rules.go lists them), the most methods a
// type may have, and goleak in every package's TestMain. It reads the
// source with go/parser only, so it needs no build of the module and no
// tool beyond the Go toolchain's standard library. It has no code of its
// own: importing it gives nothing.
package archtest

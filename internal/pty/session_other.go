//go:build !linux

package pty

// sessionMembers is not implemented outside Linux: Stop then reaches the
// child's process group only.
func sessionMembers(int) []int { return nil }

// Package wire is the one Go home of API.md's protocol: the socket frames
// every worker kind sends, the machine codes of error answers and frames,
// the sentinel errors that map to them, and the size limits a client sees.
//
// It knows nothing of sessions or workers: the server, the domain
// (worker/) and the machinery under internal/ all import it, and it
// imports none of them. A frame or a code that is written anywhere else is
// a second home; add it here instead.
package wire

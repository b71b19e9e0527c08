package main

import (
	"embed"
	"io/fs"
)

// dist is the built SPA. frontend/dist/.gitkeep is committed so that this
// compiles before the frontend is built; the server then explains how to
// build it.
//
//go:embed all:frontend/dist
var dist embed.FS

func frontendFS() fs.FS {
	sub, err := fs.Sub(dist, "frontend/dist")
	if err != nil {
		panic(err) // the path is a constant
	}
	return sub
}

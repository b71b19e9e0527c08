package claudesessions

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// Bounds on what one listing looks at.
const (
	maxProjects = 10000
	maxFiles    = 100000
	readers     = 4 // files summarized at once
)

// Project is one working directory with conversations.
type Project struct {
	Cwd          string    `json:"cwd"`
	Sessions     int       `json:"sessions"`
	LastActivity time.Time `json:"lastActivity"`
}

// file is one session file found in a project directory.
type file struct {
	path string
	size int64
	mod  time.Time
}

// Projects lists the working directories with conversations under
// configDir, the most recently active first. A project's directory comes
// from the head of its newest session file (the slug of a path loses
// characters). No projects directory is an empty list.
func Projects(configDir string) ([]Project, error) {
	dirs, err := projectDirs(configDir)
	if err != nil {
		return nil, err
	}
	byCwd := map[string]*Project{}
	for _, d := range dirs {
		files := sessionFiles(d)
		if len(files) == 0 {
			continue
		}
		s, err := summary(files[0])
		if err != nil || s.Cwd == "" {
			continue // unreadable, or not a conversation yet
		}
		p := byCwd[s.Cwd]
		if p == nil {
			p = &Project{Cwd: s.Cwd}
			byCwd[s.Cwd] = p
		}
		p.Sessions += len(files)
		if files[0].mod.After(p.LastActivity) {
			p.LastActivity = files[0].mod
		}
	}
	out := make([]Project, 0, len(byCwd))
	for _, p := range byCwd {
		out = append(out, *p)
	}
	slices.SortFunc(out, func(a, b Project) int { return b.LastActivity.Compare(a.LastActivity) })
	return out, nil
}

// Sessions lists the conversations held for cwd, the most recently active
// first, each read from its head and tail only.
func Sessions(configDir, cwd string) ([]Summary, error) {
	dirs, err := projectDirs(configDir)
	if err != nil {
		return nil, err
	}
	var files []file
	for _, d := range dirs {
		fl := sessionFiles(d)
		if len(fl) == 0 {
			continue
		}
		if head, err := summary(fl[0]); err != nil || head.Cwd != cwd {
			continue
		}
		files = append(files, fl...)
	}
	out := summarizeAll(files[:min(len(files), maxFiles)])
	kept := out[:0]
	for _, s := range out {
		if s.Cwd == cwd || s.Cwd == "" { // "": a file whose head holds no line with a cwd yet
			kept = append(kept, s)
		}
	}
	slices.SortFunc(kept, func(a, b Summary) int {
		return cmp.Or(b.LastActivity.Compare(a.LastActivity), strings.Compare(a.ID, b.ID))
	})
	return kept, nil
}

// summarizeAll reads the files on a few goroutines (the reads are disk
// bound) and returns the summaries that could be read, in no order.
func summarizeAll(files []file) []Summary {
	out := make([]Summary, len(files))
	ok := make([]bool, len(files))
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(readers, len(files)) {
		wg.Go(func() {
			for i := range next {
				s, err := summary(files[i])
				out[i], ok[i] = s, err == nil
			}
		})
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	kept := out[:0]
	for i, s := range out {
		if ok[i] {
			kept = append(kept, s)
		}
	}
	return kept
}

// projectDirs returns the directories under configDir/projects.
func projectDirs(configDir string) ([]string, error) {
	if configDir == "" {
		return nil, errors.New("no Claude config directory: set CLAUDE_CONFIG_DIR or HOME")
	}
	root := filepath.Join(configDir, "projects")
	entries, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", root, err)
	}
	var dirs []string
	for _, e := range entries[:min(len(entries), maxProjects)] {
		if e.IsDir() {
			dirs = append(dirs, filepath.Join(root, e.Name()))
		}
	}
	return dirs, nil
}

// sessionFiles returns the session files of a project directory, the
// newest first. Symbolic links are not followed.
func sessionFiles(dir string) []file {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []file
	for _, e := range entries[:min(len(entries), maxFiles)] {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		out = append(out, file{path: filepath.Join(dir, e.Name()), size: fi.Size(), mod: fi.ModTime().UTC()})
	}
	slices.SortFunc(out, func(a, b file) int { return b.mod.Compare(a.mod) })
	return out
}

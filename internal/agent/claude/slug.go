package claude

import (
	"path/filepath"
	"strconv"
	"unicode/utf16"
)

// maxSlug is the length past which the CLI cuts a slug and appends a hash.
const maxSlug = 200

// Slug returns the CLI's project directory name for an (already resolved)
// cwd, per claude-cli.md §8: every UTF-16 code unit that is not an ASCII
// letter or digit becomes '-', and a slug over 200 characters is cut to 200
// plus "-" and base 36 of |Java String.hashCode(path)|. Slug does not touch
// the file system; SessionFilePath resolves symlinks first.
func Slug(path string) string {
	units := utf16.Encode([]rune(path))
	b := make([]byte, len(units))
	var h int32 // wraps like Java's int
	for i, u := range units {
		h = 31*h + int32(u)
		if isAlnum(u) {
			b[i] = byte(u)
		} else {
			b[i] = '-'
		}
	}
	if len(b) <= maxSlug {
		return string(b)
	}
	a := int64(h)
	if a < 0 {
		a = -a
	}
	return string(b[:maxSlug]) + "-" + strconv.FormatInt(a, 36)
}

func isAlnum(u uint16) bool {
	return u >= 'a' && u <= 'z' || u >= 'A' && u <= 'Z' || u >= '0' && u <= '9'
}

// SessionFilePath returns where the CLI stores session sessionID started in
// cwd: configDir/projects/<slug>/<sessionID>.jsonl. configDir is
// $CLAUDE_CONFIG_DIR when the child has it, else $HOME/.claude. cwd is made
// absolute and its symlinks resolved, as the CLI does; when that fails (the
// directory is gone) the cleaned path is used as is.
func SessionFilePath(configDir, cwd, sessionID string) string {
	if abs, err := filepath.Abs(cwd); err == nil {
		cwd = abs
	}
	if real, err := filepath.EvalSymlinks(cwd); err == nil {
		cwd = real
	}
	return filepath.Join(configDir, "projects", Slug(cwd), sessionID+".jsonl")
}

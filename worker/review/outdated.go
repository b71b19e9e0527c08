package review

import (
	"context"
	"slices"
)

// Mark sets Outdated on each comment: its quoted lines are no longer the
// lines at the same place of the same side, now (the work-tree file for
// new; the file at base, the diff's current base, for old). A file that is
// gone, or shorter than the range, makes its comments outdated. Each file
// is read once. A file that cannot be read leaves its comments as they
// are: being unable to look is not evidence of a change.
func Mark(ctx context.Context, top, base string, cs []Comment) {
	type key struct{ path, side string }
	files := map[key][]string{}
	failed := map[key]bool{}
	for i := range cs {
		c := &cs[i]
		k := key{c.Path, c.Side}
		lines, ok := files[k]
		if !ok && !failed[k] {
			l, err := Lines(ctx, top, base, c.Path, c.Side)
			switch {
			case err == nil:
				lines, ok = l, true
				files[k] = l
			case isNoFile(err):
				ok = true
				files[k] = nil
			default:
				failed[k] = true
			}
		}
		if !ok {
			continue
		}
		c.Outdated = c.EndLine > len(lines) || !slices.Equal(lines[c.StartLine-1:c.EndLine], c.Quote)
	}
}

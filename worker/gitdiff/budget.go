package gitdiff

// budget tracks the limits of one computation. It is not safe for
// concurrent use. A limit of -1 means unlimited.
type budget struct {
	fileBytes  int // per file
	fileLines  int // per file
	files      int // files that may still get hunks
	totalBytes int // hunk bytes that may still be kept
	scan       int // untracked bytes that may still be read only to count lines
}

func newBudget(o Options) *budget {
	return &budget{
		fileBytes:  o.MaxFileBytes,
		fileLines:  o.MaxFileLines,
		files:      o.MaxFiles,
		totalBytes: o.MaxTotalBytes,
		scan:       maxScanBytes,
	}
}

// admit reports whether one more file may get hunks at all.
func (b *budget) admit() bool {
	return b.files != 0 && b.totalBytes != 0
}

// fits reports whether a file of n bytes and lines diff lines may keep its
// hunks.
func (b *budget) fits(n, lines int) bool {
	return within(n, b.fileBytes) && within(lines, b.fileLines) && within(n, b.totalBytes)
}

// spend records a file of n bytes that kept its hunks.
func (b *budget) spend(n int) {
	if b.files > 0 {
		b.files--
	}
	if b.totalBytes > 0 {
		b.totalBytes = max(0, b.totalBytes-n)
	}
}

// lineCap is the longest line worth keeping: anything longer overflows the
// file or total limit anyway. -1 means no cap.
func (b *budget) lineCap() int {
	switch {
	case b.fileBytes < 0:
		return b.totalBytes
	case b.totalBytes < 0:
		return b.fileBytes
	}
	return min(b.fileBytes, b.totalBytes)
}

func within(n, limit int) bool { return limit < 0 || n <= limit }

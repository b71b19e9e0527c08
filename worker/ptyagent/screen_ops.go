package ptyagent

import "slices"

func (s *screen) lineFeed() {
	s.wrapNext = false
	switch {
	case s.y == s.bot:
		s.scrollUp(1)
	case s.y < s.rows-1:
		s.y++
	}
}

func (s *screen) reverseIndex() {
	s.wrapNext = false
	switch {
	case s.y == s.top:
		s.scrollDown(1)
	case s.y > 0:
		s.y--
	}
}

// moveTo places the cursor, clamped to the screen.
func (s *screen) moveTo(x, y int) {
	s.x, s.y = min(max(x, 0), s.cols-1), min(max(y, 0), s.rows-1)
	s.wrapNext = false
}

// erase blanks the cells from (y0, x0) to (y1, x1) inclusive, in reading order.
func (s *screen) erase(y0, x0, y1, x1 int) {
	for y := max(y0, 0); y <= min(y1, s.rows-1); y++ {
		from, to := 0, s.cols-1
		if y == y0 {
			from = x0
		}
		if y == y1 {
			to = x1
		}
		row := s.cells[y]
		for x := max(from, 0); x <= min(to, s.cols-1); x++ {
			row[x] = 0
		}
	}
}

// scrollUp moves the scroll region's lines up by n, blanking the bottom.
// Rows are rotated, not reallocated.
func (s *screen) scrollUp(n int) {
	region := s.cells[s.top : s.bot+1]
	n = min(n, len(region))
	rotate(region, n)
	for _, row := range region[len(region)-n:] {
		clear(row)
	}
}

// scrollDown moves the scroll region's lines down by n, blanking the top.
func (s *screen) scrollDown(n int) {
	region := s.cells[s.top : s.bot+1]
	n = min(n, len(region))
	rotate(region, len(region)-n)
	for _, row := range region[:n] {
		clear(row)
	}
}

// rotate moves rows left by n in place: row n comes first.
func rotate(rows [][]rune, n int) {
	slices.Reverse(rows[:n])
	slices.Reverse(rows[n:])
	slices.Reverse(rows)
}

func (s *screen) enterAlt() {
	if s.main != nil {
		return
	}
	s.main = s.cells
	s.cells = regrid(nil, s.cols, s.rows)
}

func (s *screen) leaveAlt() {
	if s.main == nil {
		return
	}
	s.cells, s.main = s.main, nil
}

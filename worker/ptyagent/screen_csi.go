package ptyagent

// maxParam bounds a CSI parameter, so a hostile "\x1b[99999999999A" can
// neither overflow nor loop long.
const maxParam = 1 << 16

// csiByte advances a control sequence: parameters, then a final byte.
func (s *screen) csiByte(b byte) {
	switch {
	case b >= '0' && b <= '9':
		if s.nparam == 0 {
			s.nparam = 1
		}
		if i := s.nparam - 1; i < maxParams {
			s.params[i] = min(s.params[i]*10+int(b-'0'), maxParam)
		}
	case b == ';' || b == ':':
		if s.nparam == 0 {
			s.nparam = 1
		}
		if s.nparam < maxParams {
			s.params[s.nparam] = 0
		}
		s.nparam++
	case b == '?' || b == '>' || b == '<' || b == '=':
		s.private = b
	case b >= 0x20 && b <= 0x2f:
		// Intermediate bytes ("\x1b[>4;2m" variants, DECSCUSR "\x1b[2 q"):
		// none of the sequences with them moves the cursor or the text.
		s.private = b
	case b >= 0x40 && b <= 0x7e:
		s.state = stGround
		s.dispatch(b)
	case b == 0x1b:
		s.state = stEsc // an aborted sequence
	case b < 0x20:
		s.control(b) // C0 controls act inside a sequence too
	}
}

// param returns parameter i, or def when it is absent or 0.
func (s *screen) param(i, def int) int {
	if i >= s.nparam || i >= maxParams || s.params[i] == 0 {
		return def
	}
	return s.params[i]
}

// dispatch runs a complete CSI sequence.
func (s *screen) dispatch(final byte) {
	if s.private != 0 {
		if s.private == '?' && (final == 'h' || final == 'l') {
			s.privateMode(final == 'h')
		}
		return
	}
	n := s.param(0, 1)
	switch final {
	case 'A':
		s.moveTo(s.x, s.y-n)
	case 'B', 'e':
		s.moveTo(s.x, s.y+n)
	case 'C', 'a':
		s.moveTo(s.x+n, s.y)
	case 'D':
		s.moveTo(s.x-n, s.y)
	case 'E':
		s.moveTo(0, s.y+n)
	case 'F':
		s.moveTo(0, s.y-n)
	case 'G', '`':
		s.moveTo(n-1, s.y)
	case 'd':
		s.moveTo(s.x, n-1)
	case 'H', 'f':
		s.moveTo(s.param(1, 1)-1, n-1)
	case 'J':
		s.eraseDisplay(s.param(0, 0))
	case 'K':
		s.eraseLine(s.param(0, 0))
	case 'X':
		s.erase(s.y, s.x, s.y, s.x+n-1)
	default:
		s.edit(final, n)
	}
}

// edit runs the sequences that insert, delete or scroll.
func (s *screen) edit(final byte, n int) {
	switch final {
	case 'P':
		row := s.cells[s.y]
		n = min(n, s.cols-s.x)
		copy(row[s.x:], row[s.x+n:])
		clear(row[s.cols-n:])
	case '@':
		row := s.cells[s.y]
		n = min(n, s.cols-s.x)
		copy(row[s.x+n:], row[s.x:])
		clear(row[s.x : s.x+n])
	case 'L', 'M':
		if s.y < s.top || s.y > s.bot {
			return
		}
		top := s.top
		s.top = s.y
		if final == 'L' {
			s.scrollDown(n)
		} else {
			s.scrollUp(n)
		}
		s.top = top
		s.x = 0
	case 'S':
		s.scrollUp(n)
	case 'T':
		s.scrollDown(n)
	case 'r':
		top, bot := s.param(0, 1)-1, s.param(1, s.rows)-1
		if top < bot && bot < s.rows {
			s.top, s.bot = top, bot
		} else {
			s.top, s.bot = 0, s.rows-1
		}
		s.moveTo(0, 0)
	case 's':
		s.saveX, s.saveY = s.x, s.y
	case 'u':
		s.moveTo(s.saveX, s.saveY)
	}
}

func (s *screen) eraseDisplay(mode int) {
	switch mode {
	case 0:
		s.erase(s.y, s.x, s.rows-1, s.cols-1)
	case 1:
		s.erase(0, 0, s.y, s.x)
	case 2, 3:
		s.erase(0, 0, s.rows-1, s.cols-1)
	}
}

func (s *screen) eraseLine(mode int) {
	switch mode {
	case 0:
		s.erase(s.y, s.x, s.y, s.cols-1)
	case 1:
		s.erase(s.y, 0, s.y, s.x)
	case 2:
		s.erase(s.y, 0, s.y, s.cols-1)
	}
}

// privateMode handles DEC private modes: only the alternate screen matters
// here (1049 also saves and restores the cursor, 47 and 1047 do not).
func (s *screen) privateMode(set bool) {
	for i := 0; i < min(s.nparam, maxParams); i++ {
		switch s.params[i] {
		case 47, 1047, 1049:
			if s.params[i] == 1049 && set {
				s.saveX, s.saveY = s.x, s.y
			}
			if set {
				s.enterAlt()
			} else {
				s.leaveAlt()
			}
			if s.params[i] == 1049 && !set {
				s.moveTo(s.saveX, s.saveY)
			}
		}
	}
}

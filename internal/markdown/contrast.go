package markdown

import (
	"math"

	"github.com/alecthomas/chroma/v2"
)

// MinContrast is the WCAG 2.1 AA contrast ratio for normal-size text,
// which every code token keeps against its background in both themes.
const MinContrast = 4.5

// targetContrast is what colours are moved to: a hair above MinContrast,
// so that a browser's own rounding never lands a token just below it.
const targetContrast = 4.6

// luminance is the WCAG relative luminance of c, from 0 (black) to 1.
func luminance(c chroma.Colour) float64 {
	lin := func(v uint8) float64 {
		s := float64(v) / 255
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.Red()) + 0.7152*lin(c.Green()) + 0.0722*lin(c.Blue())
}

// Contrast is the WCAG contrast ratio of two colours, from 1 to 21.
func Contrast(a, b chroma.Colour) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// mix is c moved the fraction t (0 to 1) of the way to to, per channel.
func mix(c, to chroma.Colour, t float64) chroma.Colour {
	ch := func(a, b uint8) uint8 { return uint8(math.Round(float64(a) + (float64(b)-float64(a))*t)) }
	return chroma.NewColour(ch(c.Red(), to.Red()), ch(c.Green(), to.Green()), ch(c.Blue(), to.Blue()))
}

var (
	black = chroma.NewColour(0, 0, 0)
	white = chroma.NewColour(255, 255, 255)
)

// onLight says whether bg is light: black text stands out more on it than white.
func onLight(bg chroma.Colour) bool { return Contrast(black, bg) > Contrast(white, bg) }

// readableOn returns fg when it reaches targetContrast on bg, else fg
// moved toward black (on a light bg) or white (on a dark one) just far
// enough: the hue stays, only the lightness changes.
func readableOn(fg, bg chroma.Colour) chroma.Colour {
	if Contrast(fg, bg) >= targetContrast {
		return fg
	}
	to := white
	if onLight(bg) {
		to = black
	}
	for i := 1; i <= 100; i++ {
		if c := mix(fg, to, float64(i)/100); Contrast(c, bg) >= targetContrast {
			return c
		}
	}
	return to
}

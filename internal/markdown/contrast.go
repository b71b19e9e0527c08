package markdown

import (
	"fmt"
	"math"
)

// MinContrast is the WCAG 2.1 AA contrast ratio for normal-size text,
// which every code token keeps against its background in both themes.
const MinContrast = 4.5

// rgb is a colour of the stylesheet.
type rgb struct{ r, g, b uint8 }

// parseHex reads a #rrggbb colour.
func parseHex(s string) (rgb, error) {
	var c rgb
	if len(s) != 7 || s[0] != '#' {
		return c, fmt.Errorf("colour %q: want #rrggbb", s)
	}
	if _, err := fmt.Sscanf(s[1:], "%02x%02x%02x", &c.r, &c.g, &c.b); err != nil {
		return c, fmt.Errorf("colour %q: %w", s, err)
	}
	return c, nil
}

// luminance is the WCAG relative luminance of c, from 0 (black) to 1.
func luminance(c rgb) float64 {
	lin := func(v uint8) float64 {
		s := float64(v) / 255
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.r) + 0.7152*lin(c.g) + 0.0722*lin(c.b)
}

// contrast is the WCAG contrast ratio of two colours, from 1 to 21.
func contrast(a, b rgb) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

package markdown

import (
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
)

func TestContrastOfKnownPairs(t *testing.T) {
	c := chroma.MustParseColour
	for _, tc := range []struct {
		a, b string
		want float64
	}{
		{"#000000", "#ffffff", 21},
		{"#ffffff", "#ffffff", 1},
		{"#777777", "#ffffff", 4.48}, // the classic grey just under AA
		{"#e6edf3", "#f7f7f7", 1.10}, // github-dark's text on github's background
	} {
		if got := Contrast(c(tc.a), c(tc.b)); math.Abs(got-tc.want) > 0.01 {
			t.Errorf("Contrast(%s, %s) = %.3f, want %.2f", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestReadableOnKeepsHueAndReachesAA(t *testing.T) {
	c := chroma.MustParseColour
	for _, tc := range []struct{ fg, bg string }{
		{"#e6edf3", "#f7f7f7"}, {"#79c0ff", "#ffffff"}, {"#6e7681", "#0d1117"}, {"#8250df", "#e0ece7"},
	} {
		got := readableOn(c(tc.fg), c(tc.bg))
		if r := Contrast(got, c(tc.bg)); r < targetContrast {
			t.Errorf("readableOn(%s, %s) = %s at %.2f:1", tc.fg, tc.bg, got, r)
		}
	}
	if got := readableOn(c("#1f2328"), c("#ffffff")); got != c("#1f2328") {
		t.Errorf("a readable colour changed to %s", got)
	}
}

var (
	cssComment = regexp.MustCompile(`(?s)/\*.*?\*/`)
	// cssRule matches one rule of a stylesheet: its selectors and declarations.
	cssRule = regexp.MustCompile(`([^{}]+)\{([^}]*)\}`)
)

// parseCSS maps each selector of css to its declarations (property → value).
func parseCSS(css string) map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, m := range cssRule.FindAllStringSubmatch(cssComment.ReplaceAllString(css, ""), -1) {
		decl := map[string]string{}
		for _, d := range strings.Split(m[2], ";") {
			if k, v, ok := strings.Cut(d, ":"); ok {
				decl[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
		}
		for _, sel := range strings.Split(m[1], ",") {
			sel = strings.TrimSpace(sel)
			if out[sel] == nil {
				out[sel] = map[string]string{}
			}
			for k, v := range decl {
				out[sel][k] = v
			}
		}
	}
	return out
}

// TestEveryTokenReadableInBothThemes reads the served stylesheet as the
// browser applies it to a token <span class="hl-X"> inside <pre
// class="hl-chroma">: in the light theme a light rule wins over a dark
// one, a token without a rule of its own takes the block's colour, and a
// dark rule the light theme does not override shows through. Every text
// token type keeps WCAG AA contrast (4.5:1) on its background in both.
func TestEveryTokenReadableInBothThemes(t *testing.T) {
	rules := parseCSS(CSS())
	// first returns prop of the first selector that sets it.
	first := func(prop string, sels ...string) string {
		for _, s := range sels {
			if v := rules[s][prop]; v != "" {
				return v
			}
		}
		return ""
	}
	themes := map[string][]string{"dark": {""}, "light": {LightScope + " ", ""}}
	checked := 0
	for theme, scopes := range themes {
		for _, tt := range textTypes() {
			var sels []string
			for _, sc := range scopes {
				sels = append(sels, sc+".hl-chroma .hl-"+chroma.StandardTypes[tt])
			}
			for _, sc := range scopes {
				sels = append(sels, sc+".hl-chroma")
			}
			fg, bg := first("color", sels...), first("background-color", sels...)
			if fg == "" || bg == "" {
				t.Fatalf("%s theme, %s: no colour (%q) or background (%q) in the stylesheet", theme, tt, fg, bg)
			}
			if r := Contrast(chroma.MustParseColour(fg), chroma.MustParseColour(bg)); r < MinContrast {
				t.Errorf("%s theme, %s (.hl-%s): %s on %s is %.2f:1, want at least %.1f:1",
					theme, tt, chroma.StandardTypes[tt], fg, bg, r, MinContrast)
			}
			checked++
		}
	}
	if checked < 150 {
		t.Fatalf("only %d token colours checked", checked)
	}
}

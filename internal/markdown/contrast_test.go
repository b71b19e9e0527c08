package markdown

import (
	"math"
	"regexp"
	"strings"
	"testing"
)

func mustHex(t *testing.T, s string) rgb {
	t.Helper()
	c, err := parseHex(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestContrastOfKnownPairs(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want float64
	}{
		{"#000000", "#ffffff", 21},
		{"#ffffff", "#ffffff", 1},
		{"#777777", "#ffffff", 4.48}, // the classic grey just under AA
		{"#e6edf3", "#f7f7f7", 1.10}, // github-dark's text on github's background
	} {
		if got := contrast(mustHex(t, tc.a), mustHex(t, tc.b)); math.Abs(got-tc.want) > 0.01 {
			t.Errorf("contrast(%s, %s) = %.3f, want %.2f", tc.a, tc.b, got, tc.want)
		}
	}
	for _, bad := range []string{"red", "#fff", "#gggggg", ""} {
		if _, err := parseHex(bad); err == nil {
			t.Errorf("parseHex(%q) took it", bad)
		}
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

// lightScope is the selector the page sets on <html> in the light theme.
const lightScope = `:root[data-theme="light"] `

// TestEveryTokenReadableInBothThemes reads the served stylesheet as the
// browser applies it to a token <span class="hl-X"> inside a code block:
// in the light theme a light rule wins over a dark one, a token without a
// colour of its own takes the block's colour and background. Every token
// class has a light rule of its own (else a dark colour would show through
// in the light theme), and every one keeps WCAG AA contrast (4.5:1) on its
// background in both themes, as does the block's plain text.
func TestEveryTokenReadableInBothThemes(t *testing.T) {
	rules := parseCSS(CSS())
	const block = ".md pre"
	var tokens []string
	for sel := range rules {
		if rest, ok := strings.CutPrefix(sel, block+" "); ok {
			tokens = append(tokens, rest)
		}
	}
	if len(tokens) < 15 {
		t.Fatalf("only %d token classes in the stylesheet: %v", len(tokens), tokens)
	}
	// first returns prop of the first selector that sets it.
	first := func(prop string, sels ...string) string {
		for _, s := range sels {
			if v := rules[s][prop]; v != "" {
				return v
			}
		}
		return ""
	}
	checked := 0
	for _, tok := range append(tokens, "") {
		for theme, scopes := range map[string][]string{"dark": {""}, "light": {lightScope, ""}} {
			var sels []string
			for _, sc := range scopes {
				sels = append(sels, strings.TrimSpace(sc+block+" "+tok))
			}
			if theme == "light" && tok != "" && rules[sels[0]] == nil {
				t.Errorf("no light rule for %s: the dark one shows through", tok)
			}
			for _, sc := range scopes {
				sels = append(sels, sc+block)
			}
			fg, bg := first("color", sels...), first("background-color", sels...)
			r := contrast(mustHex(t, fg), mustHex(t, bg))
			if r < MinContrast {
				t.Errorf("%s theme, %q: %s on %s is %.2f:1, want at least %.1f:1", theme, tok, fg, bg, r, MinContrast)
			}
			checked++
		}
	}
	t.Logf("%d colours checked", checked)
}

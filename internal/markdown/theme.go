package markdown

import (
	"fmt"
	"regexp"
	"strings"

	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/styles"
)

// LightStyle is the chroma style of code blocks in the light theme. Its
// rules only apply under LightScope, which the page sets on <html> while
// the light theme is on; Style's rules apply otherwise.
const LightStyle = "github"

// LightScope is the selector that turns the light rules on.
const LightScope = `:root[data-theme="light"]`

// ruleSelector matches the selector of one chroma CSS line:
// "/* Keyword */ .hl-chroma .hl-k { color: #cf222e }".
var ruleSelector = regexp.MustCompile(`(?m)^(/\*[^*]*\*/ )?([^{/][^{]*?) \{`)

// scopedCSS writes style's stylesheet with every selector under scope.
func scopedCSS(format []chromahtml.Option, style, scope string) (string, error) {
	var b strings.Builder
	if err := chromahtml.New(format...).WriteCSS(&b, styles.Get(style)); err != nil {
		return "", fmt.Errorf("write %s css: %w", style, err)
	}
	return ruleSelector.ReplaceAllStringFunc(b.String(), func(line string) string {
		m := ruleSelector.FindStringSubmatch(line)
		sels := strings.Split(m[2], ",")
		for i, s := range sels {
			sels[i] = scope + " " + strings.TrimSpace(s)
		}
		return m[1] + strings.Join(sels, ", ") + " {"
	}), nil
}

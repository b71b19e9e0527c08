package markdown

import (
	"strings"
	"testing"
)

// TestCSSHasLightTheme checks that the stylesheet carries the light
// style's token colours, each rule scoped to the light theme so the dark
// rules stay the default.
func TestCSSHasLightTheme(t *testing.T) {
	css := CSS()
	var light, dark int
	for _, line := range strings.Split(css, "\n") {
		if !strings.Contains(line, "{") {
			continue
		}
		if strings.Contains(line, LightScope+" .hl-") {
			light++
			if strings.Count(line, ".hl-chroma") > 0 && !strings.Contains(line, LightScope+" .hl-chroma") {
				t.Errorf("a light rule with an unscoped selector: %s", line)
			}
		} else {
			dark++
		}
	}
	if light < 20 || dark < 20 {
		t.Fatalf("%d light and %d dark rules; want both themes", light, dark)
	}
	if !strings.Contains(css, LightScope+" .hl-chroma .hl-k {") {
		t.Errorf("no scoped keyword rule in:\n%s", css)
	}
}

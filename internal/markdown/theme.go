package markdown

import (
	"fmt"
	"slices"
	"strings"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/styles"
)

// LightStyle is the chroma style of code blocks in the light theme. Its
// rules only apply under LightScope, which the page sets on <html> while
// the light theme is on; Style's rules apply otherwise.
const LightStyle = "github"

// LightScope is the selector that turns the light rules on.
const LightScope = `:root[data-theme="light"]`

// layout token types style a block's lines, not its text; the default
// theme's rules (chroma's own CSS) hold them for both themes.
var layout = map[chroma.TokenType]bool{
	chroma.Background: true, chroma.PreWrapper: true, chroma.Line: true, chroma.CodeLine: true,
	chroma.LineNumbers: true, chroma.LineNumbersTable: true, chroma.LineHighlight: true,
	chroma.LineTable: true, chroma.LineTableTD: true, chroma.LineLink: true,
}

// textTypes are the token types that colour text, in a stable order.
func textTypes() []chroma.TokenType {
	var out []chroma.TokenType
	for t, cls := range chroma.StandardTypes {
		if cls != "" && !layout[t] {
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return out
}

// readableStyle is the named chroma style with its plain text given an
// explicit colour and every token's colour at targetContrast on the
// background it is drawn on. Styles pick colours by eye: github-dark has
// greys for comments, github has none for plain text, and a colour just
// under WCAG AA is easy to miss.
func readableStyle(name string) (*chroma.Style, error) {
	style := styles.Get(name)
	if style.Name != name {
		return nil, fmt.Errorf("no chroma style %q", name)
	}
	b := style.Builder()
	bg := style.Get(chroma.Background)
	if !bg.Colour.IsSet() {
		bg.Colour = style.Get(chroma.Text).Colour
	}
	if !bg.Colour.IsSet() {
		// github leaves plain text to the page: GitHub's own text colours.
		bg.Colour = chroma.MustParseColour("#1f2328")
		if !onLight(bg.Background) {
			bg.Colour = chroma.MustParseColour("#e6edf3")
		}
	}
	bg.Colour = readableOn(bg.Colour, bg.Background)
	b.AddEntry(chroma.Background, bg)
	for _, t := range textTypes() {
		e := style.Get(t)
		if !e.Colour.IsSet() {
			e.Colour = bg.Colour
		}
		if c := readableOn(e.Colour, e.Background); c != style.Get(t).Colour {
			e.Colour = c
			b.AddEntry(t, e)
		}
	}
	out, err := b.Build()
	if err != nil {
		return nil, fmt.Errorf("readable %s: %w", name, err)
	}
	return out, nil
}

// themeCSS is the stylesheet of both themes: chroma's own CSS of the dark
// style (the default, with the layout rules), then the light style under
// LightScope with a rule for every text token type, each with its colour
// written out. Chroma leaves out what equals the background's entry, and
// a rule left out in the light theme would let the dark colour through.
func themeCSS(format []chromahtml.Option) (string, error) {
	dark, err := readableStyle(Style)
	if err != nil {
		return "", err
	}
	light, err := readableStyle(LightStyle)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if err := chromahtml.New(format...).WriteCSS(&b, dark); err != nil {
		return "", fmt.Errorf("write %s css: %w", Style, err)
	}
	writeExplicit(&b, light, dark)
	return b.String(), nil
}

// writeExplicit writes style's rules under LightScope: the block's own
// colours, then one rule per text token type with its colour, and its
// background and font where either style sets them.
func writeExplicit(b *strings.Builder, style, other *chroma.Style) {
	bg, otherBg := style.Get(chroma.Background), other.Get(chroma.Background)
	for _, sel := range []string{"bg", "chroma"} {
		fmt.Fprintf(b, "%s .%s%s { color: %s; background-color: %s }\n", LightScope, classPrefix, sel, bg.Colour, bg.Background)
	}
	for _, t := range textTypes() {
		e, o := style.Get(t), other.Get(t)
		decl := []string{"color: " + e.Colour.String()}
		if e.Background != bg.Background || o.Background != otherBg.Background {
			decl = append(decl, "background-color: "+e.Background.String())
		}
		decl = appendFlag(decl, e.Bold, o.Bold, "font-weight", "bold")
		decl = appendFlag(decl, e.Italic, o.Italic, "font-style", "italic")
		decl = appendFlag(decl, e.Underline, o.Underline, "text-decoration", "underline")
		fmt.Fprintf(b, "/* %s */ %s .%schroma .%s%s { %s }\n", t, LightScope, classPrefix, classPrefix, chroma.StandardTypes[t], strings.Join(decl, "; "))
	}
}

// appendFlag adds prop: on when the style sets the flag, and resets it
// when only the other style does.
func appendFlag(decl []string, mine, other chroma.Trilean, prop, on string) []string {
	switch {
	case mine == chroma.Yes:
		return append(decl, prop+": "+on)
	case other == chroma.Yes:
		off := "normal"
		if prop == "text-decoration" {
			off = "none"
		}
		return append(decl, prop+": "+off)
	}
	return decl
}

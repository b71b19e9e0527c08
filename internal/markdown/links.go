package markdown

import (
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// relValue keeps linked sites from learning where the user came from or
// reaching back into the agentdesk tab.
var relValue = []byte("nofollow noopener noreferrer")

// linkTransformer drops links and images whose destination has a scheme
// other than http, https or mailto (images: http, https), and marks every
// remaining link to open in a new tab with relValue. goldmark's own
// dangerous-URL check stays as a second line of defence.
type linkTransformer struct{}

func (linkTransformer) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	src := reader.Source()
	var drop []ast.Node
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch v := n.(type) {
		case *ast.Link:
			if !safeURL(v.Destination, false) {
				drop = append(drop, n)
				return ast.WalkContinue, nil
			}
			markLink(n)
		case *ast.AutoLink:
			if v.AutoLinkType == ast.AutoLinkURL && !safeURL(v.URL(src), false) {
				drop = append(drop, n)
				return ast.WalkSkipChildren, nil
			}
			markLink(n)
		case *ast.Image:
			if !safeURL(v.Destination, true) {
				drop = append(drop, n)
			}
		}
		return ast.WalkContinue, nil
	})
	for _, n := range drop {
		unwrap(n, src)
	}
}

func markLink(n ast.Node) {
	n.SetAttributeString("rel", relValue)
	n.SetAttributeString("target", []byte("_blank"))
}

// unwrap replaces n by its children (a link's text, an image's alt text),
// or by its literal text for an autolink, so the words stay but the link
// goes.
func unwrap(n ast.Node, src []byte) {
	parent := n.Parent()
	if parent == nil {
		return
	}
	if al, ok := n.(*ast.AutoLink); ok {
		parent.ReplaceChild(parent, n, ast.NewString(al.Label(src)))
		return
	}
	for c := n.FirstChild(); c != nil; {
		next := c.NextSibling()
		parent.InsertBefore(parent, n, c)
		c = next
	}
	parent.RemoveChild(parent, n)
}

// safeURL reports whether a destination may be rendered. Relative URLs and
// fragments are fine; a scheme must be http or https (or mailto for links).
// Browsers ignore control characters and spaces inside a scheme
// ("java\tscript:"), so those are removed before looking.
func safeURL(raw []byte, image bool) bool {
	// goldmark decodes entities when it writes the href: look at what the
	// browser will see.
	u := string(util.ResolveEntityNames(util.ResolveNumericReferences(raw)))
	u = strings.Map(func(r rune) rune {
		if r <= ' ' || r == 0x7f {
			return -1
		}
		return r
	}, u)
	i := strings.IndexAny(u, ":/?#")
	if i < 0 || u[i] != ':' {
		return true // no scheme: relative
	}
	switch strings.ToLower(u[:i]) {
	case "http", "https":
		return true
	case "mailto":
		return !image
	}
	return false
}

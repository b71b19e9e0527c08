package review

import (
	"fmt"
	"strconv"
	"strings"
)

// Message is the one user message that sends comments to the agent: a
// short intro, then per comment its place (path:start-end and the side),
// the quoted lines in a fenced block with their numbers, and the comment.
// The fence is longer than any run of backticks in the quote, so quoted
// Markdown cannot close it.
func Message(cs []Comment) string {
	var b strings.Builder
	noun := "comments"
	if len(cs) == 1 {
		noun = "comment"
	}
	fmt.Fprintf(&b, "Review of your changes: %d %s on the diff. Each names a file and lines, quotes them, and says what to change. Please address each one.\n", len(cs), noun)
	for i, c := range cs {
		fmt.Fprintf(&b, "\n## %d. %s (%s)\n\n", i+1, place(c), sideName(c))
		fence := fenceFor(c.Quote)
		width := len(strconv.Itoa(c.EndLine))
		b.WriteString(fence + "\n")
		for j, l := range c.Quote {
			fmt.Fprintf(&b, "%*d | %s\n", width, c.StartLine+j, l)
		}
		b.WriteString(fence + "\n\n")
		b.WriteString(strings.TrimSpace(c.Body) + "\n")
	}
	return b.String()
}

func place(c Comment) string {
	if c.StartLine == c.EndLine {
		return fmt.Sprintf("%s:%d", c.Path, c.StartLine)
	}
	return fmt.Sprintf("%s:%d-%d", c.Path, c.StartLine, c.EndLine)
}

func sideName(c Comment) string {
	if c.Side == SideOld {
		b := c.Base
		if len(b) > 12 {
			b = b[:12]
		}
		return "old side: the file as it was at " + b + ", before your changes"
	}
	return "new side: the file as it is now"
}

func fenceFor(lines []string) string {
	longest := 0
	for _, l := range lines {
		run := 0
		for _, r := range l {
			if r == '`' {
				run++
				longest = max(longest, run)
			} else {
				run = 0
			}
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}

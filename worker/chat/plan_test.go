package chat

import (
	"strings"
	"testing"
)

func TestPlanHTML(t *testing.T) {
	h := planHTML("# Plan\n\n**bold** <script>x</script>")
	if !strings.Contains(h, "<strong>bold</strong>") || strings.Contains(h, "<script") {
		t.Fatalf("plan html: %q", h)
	}
	if planHTML("") != "" {
		t.Fatal("html for no plan")
	}
}

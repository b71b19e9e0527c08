package server

import (
	"errors"
	"net/http"
	"os"
	"path"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
)

// treeAPI serves the Files tab (docs/api-extensions.md, "Files"): the
// session's folder read and changed through internal/fsview, which keeps
// every path inside it. Handlers only decode, call and encode.
type treeAPI struct {
	s     *Server
	trees *worker.Trees
}

func (a treeAPI) routes(api *echo.Group) {
	g := api.Group("/sessions/:sid/fs")
	g.GET("/list", a.fsList)
	g.GET("/stat", a.fsStat)
	g.GET("/view", a.fsView)
	g.GET("/file", a.fsFile)
	g.HEAD("/file", a.fsFile)
	g.PUT("/file", a.fsSave)
	g.POST("/upload", a.fsUpload)
	g.GET("/archive", a.fsArchive)
	g.POST("/mkdir", a.fsMkdir)
	g.POST("/move", a.fsMove)
	g.DELETE("", a.fsDelete)
}

// tree opens the session's folder. The caller closes it.
func (a treeAPI) tree(c echo.Context) (*worker.Tree, error) {
	return a.trees.Open(c.Param("sid"))
}

// withTree runs f with the session's folder open.
func (a treeAPI) withTree(c echo.Context, f func(*worker.Tree) error) error {
	t, err := a.tree(c)
	if err != nil {
		return err
	}
	defer t.Close()
	return f(t)
}

// fsList answers GET …/fs/list?path=&cursor=&limit=: one page of a folder.
func (a treeAPI) fsList(c echo.Context) error {
	limit := 0
	if v := c.QueryParam("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > wire.FSPageMax {
			return newError(http.StatusBadRequest, wire.CodeInvalidField, "limit: must be a whole number from 1 to "+strconv.Itoa(wire.FSPageMax))
		}
		limit = n
	}
	return a.withTree(c, func(t *worker.Tree) error {
		page, err := t.List(c.Request().Context(), c.QueryParam("path"), c.QueryParam("cursor"), limit)
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, page)
	})
}

// fsStat answers GET …/fs/stat?path=: one entry, and what git could
// restore of it.
func (a treeAPI) fsStat(c echo.Context) error {
	return a.withTree(c, func(t *worker.Tree) error {
		info, err := t.Stat(c.Request().Context(), c.QueryParam("path"))
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, info)
	})
}

// fsView answers GET …/fs/view?path=: a file's first view.
func (a treeAPI) fsView(c echo.Context) error {
	return a.withTree(c, func(t *worker.Tree) error {
		v, err := t.View(c.QueryParam("path"))
		if err != nil {
			return err
		}
		c.Response().Header().Set("ETag", v.ETag)
		c.Response().Header().Set("Cache-Control", "no-store")
		return c.JSON(http.StatusOK, v)
	})
}

// fsFile answers GET and HEAD …/fs/file?path=[&download=1]: the file's
// bytes with its ETag (Range and If-None-Match work), never rendered as
// the app's origin: a sandbox CSP, nosniff, and a Content-Type from
// worker.Tree's Sniff (HTML and SVG never as documents).
func (a treeAPI) fsFile(c echo.Context) error {
	return a.withTree(c, func(t *worker.Tree) error {
		f, err := t.Open(c.QueryParam("path"))
		if err != nil {
			return err
		}
		defer f.Close()
		ctype, content, err := f.Content()
		if err != nil {
			return err
		}
		disp := "inline"
		if c.QueryParam("download") == "1" || worker.ServeAsAttachment(ctype) {
			disp = "attachment"
		}
		h := c.Response().Header()
		h.Set("Content-Type", ctype)
		h.Set("Content-Disposition", contentDisposition(disp, path.Base(f.Path)))
		h.Set("ETag", f.ETag)
		h.Set("Cache-Control", "no-cache")
		fileHeaders(h, ctype)
		http.ServeContent(c.Response(), c.Request(), "", f.MTime, content)
		return nil
	})
}

// fileHeaders keep a served file from acting as the app: a sandboxed
// document (a unique origin: no cookies, no script, no access to the
// app), nosniff, and no framing, except a PDF by the app's own pages (the
// viewer shows it in an iframe; Chromium's PDF viewer loads in a
// sandboxed frame, checked by e2e/files.test.mjs).
func fileHeaders(h http.Header, ctype string) {
	h.Set("X-Content-Type-Options", "nosniff")
	ancestors := "'none'"
	if ctype == "application/pdf" {
		ancestors = "'self'"
		h.Set("X-Frame-Options", "SAMEORIGIN")
	}
	h.Set("Content-Security-Policy", "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; frame-ancestors "+ancestors)
}

// fsSave answers PUT …/fs/file?path=: the body replaces the file when
// If-Match names the version on disk (412 conflict otherwise), or creates
// it with If-None-Match: * (412 when it exists). One of them is required,
// so that no save overwrites what it did not read.
func (a treeAPI) fsSave(c echo.Context) error {
	r := c.Request()
	ifMatch, create := r.Header.Get("If-Match"), r.Header.Get("If-None-Match") == "*"
	if ifMatch == "" && !create {
		return newError(http.StatusPreconditionRequired, wire.CodeInvalidField,
			"send If-Match with the ETag you read, or If-None-Match: * to create a new file")
	}
	if r.ContentLength > wire.FSEditBytes {
		return tooLargeBody(wire.FSEditBytes)
	}
	return a.withTree(c, func(t *worker.Tree) error {
		saved, err := t.Save(c.QueryParam("path"), r.Body, ifMatch, create)
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return newError(http.StatusRequestTimeout, wire.CodeTimeout, "request body took too long to arrive; nothing was saved")
		}
		if err != nil {
			return err
		}
		c.Response().Header().Set("ETag", saved.ETag)
		status := http.StatusOK
		if create {
			status = http.StatusCreated
		}
		return c.JSON(status, saved)
	})
}

package server

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
)

// uploadOverhead is what a multipart body may carry beyond its files'
// bytes (boundaries and part headers), within wire.FSUploadRequest's
// check on Content-Length.
const uploadOverhead = 1 << 20

// fsUpload answers POST …/fs/upload?path=&replace=1: the multipart
// body's files, streamed into the folder path, all or none. A name that
// exists answers 409 conflict unless replace=1.
func (a treeAPI) fsUpload(c echo.Context) error {
	r := c.Request()
	if r.ContentLength > wire.FSUploadRequest+uploadOverhead {
		return uploadTooLarge()
	}
	r.Body = http.MaxBytesReader(c.Response(), r.Body, wire.FSUploadRequest+uploadOverhead)
	a.rollingBodyDeadline(c)
	mr, err := r.MultipartReader()
	if err != nil {
		return newError(http.StatusBadRequest, wire.CodeInvalidField, "send the files as multipart/form-data")
	}
	return a.withTree(c, func(t *worker.Tree) error {
		if free, err := t.Free(); err == nil && r.ContentLength > free {
			return newError(http.StatusInsufficientStorage, wire.CodeStorageFull, "the disk has no room for this upload; free some space and try again")
		}
		up, err := t.StartUpload(c.QueryParam("path"), worker.UploadOptions{Replace: c.QueryParam("replace") == "1"})
		if err != nil {
			return err
		}
		defer up.Abort()
		for {
			part, err := mr.NextPart()
			if err == io.EOF {
				break
			}
			if err != nil {
				return uploadReadErr(err)
			}
			name, err := partFileName(part.Header.Get("Content-Disposition"))
			if err != nil {
				return err
			}
			if err := up.Add(name, part); err != nil {
				return uploadReadErr(err)
			}
		}
		saved, err := up.Commit()
		if err != nil {
			return err
		}
		return c.JSON(http.StatusCreated, map[string][]worker.SavedFile{"files": saved})
	})
}

// partFileName reads a part's file name as sent: mime/multipart's
// FileName would cut "../x" to "x", and a name with a slash must be
// refused, not changed.
func partFileName(disp string) (string, error) {
	_, params, err := mime.ParseMediaType(disp)
	name, ok := params["filename"]
	if err != nil || !ok {
		return "", newError(http.StatusBadRequest, wire.CodeInvalidField, "every part must be a file (Content-Disposition with a filename)")
	}
	return name, nil
}

// uploadReadErr answers a body that broke off or ran over its limit.
func uploadReadErr(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return uploadTooLarge()
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return newError(http.StatusBadRequest, wire.CodeInvalidField, "the upload broke off before its end; nothing was kept")
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return newError(http.StatusRequestTimeout, wire.CodeTimeout, "the upload stalled; nothing was kept")
	}
	return err
}

func uploadTooLarge() error {
	return newError(http.StatusRequestEntityTooLarge, wire.CodeTooLarge,
		fmt.Sprintf("an upload may carry at most %d MiB (%d MiB a file)", wire.FSUploadRequest>>20, wire.FSUploadFile>>20))
}

// rollingBodyDeadline replaces the body's fixed deadline (BodyTimeout
// from the end of the headers) by one that moves with progress: an
// upload of a gigabyte over a slow link may take minutes, but one that
// stalls for BodyTimeout is still cut.
func (a treeAPI) rollingBodyDeadline(c echo.Context) {
	rc := http.NewResponseController(c.Response().Writer)
	r := c.Request()
	r.Body = &rollingBody{ReadCloser: r.Body, rc: rc, d: a.s.limits.BodyTimeout}
}

type rollingBody struct {
	io.ReadCloser
	rc   *http.ResponseController
	d    time.Duration
	last time.Time
}

func (b *rollingBody) Read(p []byte) (int, error) {
	// Move the deadline well before it can fire during a read that waits.
	if now := time.Now(); now.Sub(b.last) > min(time.Second, b.d/4) {
		b.last = now
		_ = b.rc.SetReadDeadline(now.Add(b.d))
	}
	return b.ReadCloser.Read(p)
}

// fsArchive answers GET …/fs/archive?path=&format=zip|tar.gz: the folder
// streamed as an archive, or with size=1 what it holds (files, folders,
// bytes before compression) as JSON, to show before the download.
func (a treeAPI) fsArchive(c echo.Context) error {
	format := c.QueryParam("format")
	if err := worker.CheckArchiveFormat(format); err != nil {
		return err
	}
	return a.withTree(c, func(t *worker.Tree) error {
		ctx := c.Request().Context()
		if c.QueryParam("size") == "1" {
			size, err := t.Measure(ctx, c.QueryParam("path"))
			if err != nil {
				return err
			}
			return c.JSON(http.StatusOK, size)
		}
		h := c.Response().Header()
		h.Set("Content-Type", map[string]string{worker.ArchiveZip: "application/zip", worker.ArchiveTarGz: "application/gzip"}[format])
		h.Set("Content-Disposition", contentDisposition("attachment", t.ArchiveName(c.QueryParam("path"), format)))
		h.Set("Cache-Control", "no-store")
		fileHeaders(h, "")
		out := &deadlineWriter{w: c.Response(), rc: http.NewResponseController(c.Response().Writer)}
		err := t.Archive(ctx, out, c.QueryParam("path"), format)
		if err != nil && c.Response().Committed {
			// A cut archive must not end like a whole one: drop the
			// connection instead of sending the last chunk.
			a.s.log.Warn("archive broke off", "path", c.QueryParam("path"), "err", err)
			panic(http.ErrAbortHandler)
		}
		return err
	})
}

// archiveStall is how long one write of an archive may wait for a client
// that stopped reading before the download is dropped.
const archiveStall = 60 * time.Second

// deadlineWriter gives each write to the client archiveStall: a slow
// reader slows the archive down (back-pressure), a gone one ends it.
type deadlineWriter struct {
	w    io.Writer
	rc   *http.ResponseController
	last time.Time
}

func (d *deadlineWriter) Write(p []byte) (int, error) {
	if now := time.Now(); now.Sub(d.last) > time.Second {
		d.last = now
		_ = d.rc.SetWriteDeadline(now.Add(archiveStall))
	}
	return d.w.Write(p)
}

type pathBody struct {
	Path string `json:"path"`
}

type moveBody struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// fsMkdir answers POST …/fs/mkdir {"path"}.
func (a treeAPI) fsMkdir(c echo.Context) error {
	var b pathBody
	if err := bind(c, &b); err != nil {
		return err
	}
	return a.withTree(c, func(t *worker.Tree) error {
		if err := t.Mkdir(b.Path); err != nil {
			return err
		}
		return c.JSON(http.StatusCreated, b)
	})
}

// fsMove answers POST …/fs/move {"from","to"}: a rename that never
// replaces (409 conflict when to exists).
func (a treeAPI) fsMove(c echo.Context) error {
	var b moveBody
	if err := bind(c, &b); err != nil {
		return err
	}
	return a.withTree(c, func(t *worker.Tree) error {
		if err := t.Move(b.From, b.To); err != nil {
			return err
		}
		return c.JSON(http.StatusOK, pathBody{Path: b.To})
	})
}

// fsDelete answers DELETE …/fs?path=&recursive=1.
func (a treeAPI) fsDelete(c echo.Context) error {
	return a.withTree(c, func(t *worker.Tree) error {
		if err := t.Delete(c.QueryParam("path"), c.QueryParam("recursive") == "1"); err != nil {
			return err
		}
		return c.NoContent(http.StatusNoContent)
	})
}

package web

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
)

// AcceptsGzip reports whether the request's client takes gzip.
func AcceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(coding), "gzip") && strings.ReplaceAll(params, " ", "") != "q=0" {
			return true
		}
	}
	return false
}

// Gzip compresses b: at gzip.BestCompression for what is made once and
// sent many times, gzip.DefaultCompression for what is made per request.
func Gzip(b []byte, level int) []byte {
	var out bytes.Buffer
	w, err := gzip.NewWriterLevel(&out, level)
	if err != nil {
		panic(err) // a level that is not one of gzip's own
	}
	w.Write(b)
	w.Close()
	return out.Bytes()
}

// compressed keeps the gzipped static text files, made on first request:
// they never change while the binary runs.
type compressed struct {
	mu    sync.Mutex
	files map[string][]byte
}

func (c *compressed) get(fsys fs.FS, name string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if b, ok := c.files[name]; ok {
		return b, true
	}
	raw, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, false
	}
	if c.files == nil {
		c.files = map[string][]byte{}
	}
	c.files[name] = Gzip(raw, gzip.BestCompression)
	return c.files[name], true
}

// serveGzipped answers with the gzipped text file name of fsys when the
// client takes gzip; false leaves the request to the file server.
func (c *compressed) serveGzipped(w http.ResponseWriter, r *http.Request, fsys fs.FS, name string) bool {
	ext := path.Ext(name)
	if ext != ".css" && ext != ".js" && ext != ".svg" {
		return false
	}
	w.Header().Add("Vary", "Accept-Encoding")
	if !AcceptsGzip(r) {
		return false
	}
	b, ok := c.get(fsys, name)
	if !ok {
		return false
	}
	w.Header().Set("Content-Type", mime.TypeByExtension(ext))
	w.Header().Set("Content-Encoding", "gzip")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	if r.Method != http.MethodHead {
		io.Copy(w, bytes.NewReader(b))
	}
	return true
}

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
	"time"

	"github.com/andybalholm/brotli"
)

// Content codings the site sends: brotli to clients that take it (every
// current browser over HTTPS and on localhost), a tenth to a fifth smaller
// than gzip on our scripts and pages; gzip to the others.
const (
	Brotli = "br"
	GZip   = "gzip"
)

// Encoding chooses the content coding for the request's client: Brotli,
// GZip, or "" for none.
func Encoding(r *http.Request) string {
	br, gz := false, false
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.ReplaceAll(params, " ", "") == "q=0" {
			continue
		}
		switch strings.ToLower(strings.TrimSpace(coding)) {
		case Brotli:
			br = true
		case GZip:
			gz = true
		}
	}
	switch {
	case br:
		return Brotli
	case gz:
		return GZip
	}
	return ""
}

// Compression effort: the most for what is made once and sent many
// times, a quick level for what is made per request. Brotli's level 5
// takes about twice gzip's default time on a game page and makes it a
// tenth smaller; its lower levels lose to gzip.
type Effort int

const (
	PerRequest Effort = iota
	Once
)

// Compress encodes b in coding (Brotli or GZip) with the given effort.
func Compress(b []byte, coding string, effort Effort) []byte {
	var out bytes.Buffer
	var w io.WriteCloser
	switch coding {
	case Brotli:
		level := 5
		if effort == Once {
			level = brotli.BestCompression
		}
		w = brotli.NewWriterLevel(&out, level)
	case GZip:
		level := gzip.DefaultCompression
		if effort == Once {
			level = gzip.BestCompression
		}
		w, _ = gzip.NewWriterLevel(&out, level) // both levels are gzip's own
	default:
		panic("web: no content coding " + coding) // a programmer's mistake
	}
	w.Write(b)
	w.Close()
	return out.Bytes()
}

// compressed keeps the static text files as they are sent: scripts and
// style sheets compacted (compactScript, compactStyle), then compressed
// in each coding. Each is made on its first request, independently of
// the others, so that one slow brotli pass holds up only the requests for
// that file; they never change while the binary runs.
type compressed struct {
	mu    sync.Mutex
	files map[string]*compressedFile // by coding and name, "br:js/game.js"; "" is no coding
}

type compressedFile struct {
	once sync.Once
	body []byte
	ok   bool
}

func (c *compressed) get(fsys fs.FS, name, coding string) ([]byte, bool) {
	c.mu.Lock()
	if c.files == nil {
		c.files = map[string]*compressedFile{}
	}
	f, ok := c.files[coding+":"+name]
	if !ok {
		f = &compressedFile{}
		c.files[coding+":"+name] = f
	}
	c.mu.Unlock()
	f.once.Do(func() {
		raw, err := fs.ReadFile(fsys, name)
		if err != nil {
			return
		}
		switch path.Ext(name) {
		case ".js":
			raw = []byte(compactScript(string(raw)))
		case ".css":
			raw = []byte(compactStyle(string(raw)))
		}
		f.body, f.ok = raw, true
		if coding != "" {
			f.body = Compress(raw, coding, Once)
		}
	})
	return f.body, f.ok
}

// textType is the Content-Type of a text file of ours by its extension.
// A script's names no charset: a module script is read as UTF-8 whatever
// its type says, a classic one as its page, and every page of the site is
// UTF-8. The charset would be fifteen bytes in each of the dozen answers
// a game page loads, which a phone on a slow network waits for.
func textType(ext string) string {
	if ext == ".js" {
		return "text/javascript"
	}
	return mime.TypeByExtension(ext)
}

// serveText answers with the text file name of fsys as it is sent,
// compressed when the client takes a coding of ours; false leaves the
// request to the file server.
func (c *compressed) serveText(w http.ResponseWriter, r *http.Request, fsys fs.FS, name string) bool {
	ext := path.Ext(name)
	if ext != ".css" && ext != ".js" && ext != ".svg" {
		return false
	}
	w.Header().Add("Vary", "Accept-Encoding")
	coding := Encoding(r)
	b, ok := c.get(fsys, name, coding)
	if !ok {
		return false
	}
	w.Header().Set("Content-Type", textType(ext))
	if coding == "" {
		http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(b))
		return true
	}
	w.Header().Set("Content-Encoding", coding)
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	if r.Method != http.MethodHead {
		io.Copy(w, bytes.NewReader(b))
	}
	return true
}

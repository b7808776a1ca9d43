package web

import "strings"

// A script is read as a run of pieces: code, comments, quoted strings,
// the text parts of templates and regular expressions. That is enough to
// find the strings a script names and to drop its comments and
// indentation before it is sent, without a parser: the source stays as
// it is written, with its comments.

type pieceKind int

const (
	pieceCode pieceKind = iota
	pieceComment
	pieceQuoted   // '...' or "...", quotes included
	pieceTemplate // a text part of a template: `...${, }...${, }...` or `...`
	pieceRegex    // /.../ without its flags
)

// scanScript calls fn with each piece of src, in order; the pieces put
// together are src.
func scanScript(src string, fn func(kind pieceKind, text string)) {
	depth := []int{} // brace depth of each template expression we are in
	start := 0       // of the code piece under way
	flush := func(i int) {
		if i > start {
			fn(pieceCode, src[start:i])
		}
	}
	// regexMayStart reports whether a slash at i starts a regular
	// expression rather than dividing: after an operator, a bracket, a
	// comma or a keyword such as return.
	regexMayStart := func(i int) bool {
		j := i - 1
		for j >= 0 && (src[j] == ' ' || src[j] == '\t' || src[j] == '\n') {
			j--
		}
		if j < 0 {
			return true
		}
		if strings.ContainsRune("(,=:[!&|?{};+-*%<>~^", rune(src[j])) {
			return true
		}
		for _, kw := range []string{"return", "typeof", "case"} {
			if strings.HasSuffix(src[:j+1], kw) {
				return true
			}
		}
		return false
	}
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			flush(i)
			end := strings.IndexByte(src[i:], '\n')
			if end < 0 {
				end = len(src) - i
			}
			fn(pieceComment, src[i:i+end])
			i += end
			start = i
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			flush(i)
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				end = len(src) - i - 4
			}
			fn(pieceComment, src[i:i+end+4])
			i += end + 4
			start = i
		case c == '/' && regexMayStart(i):
			flush(i)
			j, class := i+1, false
			for ; j < len(src) && src[j] != '\n'; j++ {
				if src[j] == '\\' {
					j++
				} else if src[j] == '[' {
					class = true
				} else if src[j] == ']' {
					class = false
				} else if src[j] == '/' && !class {
					break
				}
			}
			j = min(j+1, len(src))
			fn(pieceRegex, src[i:j])
			i, start = j, j
		case c == '\'' || c == '"':
			flush(i)
			j := i + 1
			for ; j < len(src) && src[j] != c && src[j] != '\n'; j++ {
				if src[j] == '\\' {
					j++
				}
			}
			j = min(j+1, len(src))
			fn(pieceQuoted, src[i:j])
			i, start = j, j
		case c == '`' || (c == '}' && len(depth) > 0 && depth[len(depth)-1] == 0):
			flush(i)
			if c == '}' {
				depth = depth[:len(depth)-1]
			}
			j := i + 1
			for ; j < len(src) && src[j] != '`'; j++ {
				if src[j] == '\\' {
					j++
				} else if src[j] == '$' && j+1 < len(src) && src[j+1] == '{' {
					j++
					depth = append(depth, 0)
					break
				}
			}
			j = min(j+1, len(src))
			fn(pieceTemplate, src[i:j])
			i, start = j, j
		default:
			if len(depth) > 0 && c == '{' {
				depth[len(depth)-1]++
			} else if len(depth) > 0 && c == '}' {
				depth[len(depth)-1]--
			}
			i++
		}
	}
	flush(i)
}

// literals lists the strings of a script: each '...' and "...", and each
// text part of a template `...${x}...`, without quotes and escapes.
func literals(src string) []string {
	var out []string
	scanScript(src, func(kind pieceKind, text string) {
		switch kind {
		case pieceQuoted:
			out = append(out, unescape(text[1:len(text)-1]))
		case pieceTemplate:
			text = strings.TrimPrefix(strings.TrimPrefix(text, "`"), "}")
			text = strings.TrimSuffix(strings.TrimSuffix(text, "`"), "${")
			out = append(out, unescape(text))
		}
	})
	return out
}

// unescape drops the backslashes of a string's escapes: good enough to
// read message keys, which have none.
func unescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			if i == len(s) {
				break
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// compactScript is src without its comments, blank lines and indentation:
// what a browser needs of it, a quarter smaller compressed. Line breaks
// stay, since a line break can end a statement; a comment within a line
// leaves a space, since it may part two words.
func compactScript(src string) string {
	var b strings.Builder
	lineStart := true
	scanScript(src, func(kind pieceKind, text string) {
		switch kind {
		case pieceComment:
			if !lineStart && strings.HasPrefix(text, "/*") {
				b.WriteByte(' ')
			}
		case pieceCode:
			for _, r := range text {
				switch {
				case r == '\n':
					if !lineStart {
						b.WriteByte('\n')
					}
					lineStart = true
				case lineStart && (r == ' ' || r == '\t'):
				default:
					b.WriteRune(r)
					lineStart = false
				}
			}
		default:
			b.WriteString(text)
			lineStart = false
		}
	})
	return b.String()
}

// compactStyle is a style sheet without its comments, blank lines,
// indentation, and the spaces and line breaks around its punctuation that
// mean nothing: the game page carries its styles, and every byte of them
// counts on a phone's first visit. Our sheets have no "/*", and no ": "
// or ";}" that matters, within a string.
func compactStyle(src string) string {
	var b strings.Builder
	for len(src) > 0 {
		i := strings.Index(src, "/*")
		if i < 0 {
			i = len(src)
		}
		b.WriteString(src[:i])
		src = src[i:]
		if end := strings.Index(src, "*/"); end >= 0 {
			src = src[end+2:]
		} else {
			src = ""
		}
	}
	var out strings.Builder
	for _, line := range strings.Split(b.String(), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "":
			continue
		case strings.HasSuffix(line, " {"):
			line = strings.TrimSuffix(line, " {") + "{"
		case strings.HasSuffix(line, ";") && !strings.Contains(line, "{"):
			// A declaration: "color: red;".
			line = strings.Replace(line, ": ", ":", 1)
		}
		out.WriteString(line)
		// A line that ends in punctuation needs no break after it; any
		// other (a selector going on, say) keeps it.
		if !strings.ContainsAny(line[len(line)-1:], ";{},") {
			out.WriteString("\n")
		}
	}
	return strings.ReplaceAll(out.String(), ";}", "}")
}

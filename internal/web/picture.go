package web

import (
	"encoding/json"
	"fmt"
	"html/template"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A picture is a board position drawn from the same geometry as the
// board scripts (boards/*.js): as SVG in the game page, so that the
// position shows before any script runs, and as PNG for the previews that
// messengers show of a link. The SVG carries the scripts' classes, so the
// site's style sheets colour it; the PNG is painted in the light theme's
// colours.
type picture struct {
	class  string // of the svg element: the board's name
	box    [4]float64
	shapes []shape
}

// shape is one element of a picture. An empty class draws nothing in SVG
// (it is only in the PNG); a zero fill or stroke paints nothing in PNG.
type shape struct {
	group string // SVG: the class of a group the shape opens, such as "cell white"
	close bool   // SVG: the shape closes the group it is in
	kind  byte   // 'p' polygon, 'c' circle, 'l' line (through points, pairwise), 't' text
	class string
	pts   []float64 // x, y, x, y, ...
	r     float64
	text  string
	size  float64 // of a text in the PNG: the height of its glyphs; 0 is 8

	fill, stroke color.RGBA
	width        float64 // of the stroke
}

// Colours of the light theme (site.css), for the PNG.
var (
	colBG         = color.RGBA{0xf6, 0xf3, 0xec, 0xff}
	colCell       = color.RGBA{0xe9, 0xdf, 0xc8, 0xff}
	colCellLine   = color.RGBA{0x7d, 0x6f, 0x55, 0xff}
	colWhite      = color.RGBA{0xfb, 0xfb, 0xf8, 0xff}
	colWhiteLine  = color.RGBA{0x3a, 0x3a, 0x3a, 0xff}
	colBlack      = color.RGBA{0x22, 0x22, 0x22, 0xff}
	colBlackLine  = color.RGBA{0x00, 0x00, 0x00, 0xff}
	colMark       = color.RGBA{0xd5, 0x5e, 0x00, 0xff}
	colWin        = color.RGBA{0xe6, 0x9f, 0x00, 0xff}
	colRed        = color.RGBA{0xc4, 0x30, 0x2b, 0xff}
	colLinesFaint = color.RGBA{0xb0, 0xa4, 0x8c, 0xff}
	colMuted      = color.RGBA{0x5b, 0x62, 0x5e, 0xff}
)

// coordGlyph is the height of the coordinates' glyphs in a PNG, in
// drawing units, for a board whose style sheet sets their font size:
// about the height of the font's capitals and digits.
func coordGlyph(fontSize float64) float64 { return 0.7 * fontSize }

// boardPicture draws game's position from its view, as the engine gives
// it (the value of game.State.View or its JSON).
func boardPicture(name string, view any) (picture, error) {
	data, err := json.Marshal(view)
	if err != nil {
		return picture{}, err
	}
	switch name {
	case "havannah":
		var v struct {
			Size    int      `json:"size"`
			Stones  string   `json:"stones"`
			Last    string   `json:"last"`
			Winning []string `json:"winning"`
		}
		if err := json.Unmarshal(data, &v); err != nil {
			return picture{}, err
		}
		return havannahPicture(v.Size, v.Stones, v.Last, v.Winning)
	case "dvonn":
		var v struct {
			Stacks []struct {
				Space  string `json:"space"`
				Height int    `json:"height"`
				Top    string `json:"top"`
				Dvonns int    `json:"dvonns"`
			} `json:"stacks"`
			Last *struct {
				To string `json:"to"`
			} `json:"last"`
		}
		if err := json.Unmarshal(data, &v); err != nil {
			return picture{}, err
		}
		stacks := map[string]dvonnStack{}
		for _, s := range v.Stacks {
			stacks[s.Space] = dvonnStack{s.Height, s.Top, s.Dvonns}
		}
		last := ""
		if v.Last != nil {
			last = v.Last.To
		}
		return dvonnPicture(stacks, last), nil
	case "fanorona":
		var v struct {
			Board string `json:"board"`
		}
		if err := json.Unmarshal(data, &v); err != nil {
			return picture{}, err
		}
		return fanoronaPicture(v.Board)
	}
	return picture{}, fmt.Errorf("no picture of game %q", name)
}

// Havannah: boards/havannah.js.
func havannahPicture(size int, stones, last string, winning []string) (picture, error) {
	if size < 2 || size > 20 {
		return picture{}, fmt.Errorf("havannah picture: size %d", size)
	}
	const r = 10.0
	w, h := math.Sqrt(3)*r, 1.5*r
	centre := func(row, col int) (float64, float64) { return w * (float64(col) - float64(row)/2), h * float64(row) }
	p := picture{class: "havannah"}
	var xs, ys []float64
	win := map[string]bool{}
	for _, c := range winning {
		win[c] = true
	}
	i := 0
	n := size
	for row := 0; row <= 2*n-2; row++ {
		for col := 0; col <= 2*n-2; col++ {
			if row-col > n-1 || col-row > n-1 {
				continue
			}
			name := string(rune('a'+row)) + strconv.Itoa(col+1)
			x, y := centre(row, col)
			xs, ys = append(xs, x-r, x+r), append(ys, y-r, y+r)
			colour := ""
			if i < len(stones) {
				colour = map[byte]string{'w': "white", 'b': "black"}[stones[i]]
			}
			i++
			classes := strings.TrimSpace(strings.Join([]string{"cell", colour, map[bool]string{true: "last"}[name == last], map[bool]string{true: "win"}[win[name]]}, " "))
			hex := make([]float64, 0, 12)
			for k := range 6 {
				a := math.Pi / 180 * float64(60*k-90)
				hex = append(hex, x+r*math.Cos(a), y+r*math.Sin(a))
			}
			cell := shape{group: strings.Join(strings.Fields(classes), " "), kind: 'p', pts: hex, fill: colCell, stroke: colCellLine, width: 0.6}
			if win[name] {
				cell.fill = blend(colCell, colWin, 0.45)
			}
			// Only what shows is drawn: the page's board script adds the
			// rest when it takes over.
			p.shapes = append(p.shapes, cell)
			if colour != "" {
				stone := shape{kind: 'c', class: "stone", pts: []float64{x, y}, r: r * 0.72, width: 0.9, fill: colWhite, stroke: colWhiteLine}
				if colour == "black" {
					stone.fill, stone.stroke = colBlack, colBlackLine
				}
				p.shapes = append(p.shapes, stone)
			}
			if name == last {
				p.shapes = append(p.shapes, shape{kind: 'c', class: "mark", pts: []float64{x, y}, r: r * 0.22, fill: colMark})
			}
			p.shapes[len(p.shapes)-1].close = true
		}
	}
	if i != len(stones) {
		return picture{}, fmt.Errorf("havannah picture: %d stones for %d cells", len(stones), i)
	}
	for row := 0; row <= 2*n-2; row++ {
		x, y := centre(row, max(0, row-(n-1))-1)
		p.shapes = append(p.shapes, shape{kind: 't', class: "coord", pts: []float64{x, y}, text: string(rune('a' + row)), fill: colMuted, size: coordGlyph(6)})
		xs, ys = append(xs, x), append(ys, y)
	}
	for col := 0; col <= 2*n-2; col++ {
		x, y := centre(max(0, col-(n-1))-1, col)
		p.shapes = append(p.shapes, shape{kind: 't', class: "coord", pts: []float64{x, y}, text: strconv.Itoa(col + 1), fill: colMuted, size: coordGlyph(6)})
		xs, ys = append(xs, x), append(ys, y)
	}
	pad := r * 0.6
	minX, minY := minOf(xs)-pad, minOf(ys)-pad
	p.box = [4]float64{round1(minX), round1(minY), round1(maxOf(xs) - minX + pad), round1(maxOf(ys) - minY + pad)}
	return p, nil
}

type dvonnStack struct {
	height int
	top    string
	dvonns int
}

// DVONN: boards/dvonn.js.
func dvonnPicture(stacks map[string]dvonnStack, last string) picture {
	const w = 24.0
	h := w * math.Sqrt(3) / 2
	rows := [5][2]int{{0, 8}, {0, 9}, {0, 10}, {1, 10}, {2, 10}}
	centre := func(col, row int) (float64, float64) { return w * (float64(col) - float64(row)/2), -h * float64(row) }
	on := func(col, row int) bool { return row >= 0 && row < 5 && col >= rows[row][0] && col <= rows[row][1] }
	p := picture{class: "dvonn"}
	var xs, ys []float64
	extend := func(x, y, r float64) { xs, ys = append(xs, x-r, x+r), append(ys, y-r, y+r) }

	var plate []float64
	for _, c := range [][2]int{{0, 0}, {8, 0}, {10, 2}, {10, 4}, {2, 4}, {0, 2}} {
		x, y := centre(c[0], c[1])
		plate = append(plate, x, y)
	}
	p.shapes = append(p.shapes, shape{kind: 'p', class: "plate", pts: plate, fill: colCell, stroke: colCell, width: w * 1.1})
	var lines []float64
	for row := range 5 {
		for col := rows[row][0]; col <= rows[row][1]; col++ {
			x, y := centre(col, row)
			for _, d := range [][2]int{{1, 0}, {0, 1}, {1, 1}} {
				if on(col+d[0], row+d[1]) {
					x2, y2 := centre(col+d[0], row+d[1])
					lines = append(lines, x, y, x2, y2)
				}
			}
		}
	}
	p.shapes = append(p.shapes, shape{kind: 'l', class: "lines", pts: lines, stroke: colLinesFaint, width: 0.8})
	for row := range 5 {
		for col := rows[row][0]; col <= rows[row][1]; col++ {
			x, y := centre(col, row)
			extend(x, y, w*0.6)
			name := string(rune('A'+col)) + strconv.Itoa(row+1)
			s, ok := stacks[name]
			if !ok {
				p.shapes = append(p.shapes, shape{kind: 'c', class: "hole", pts: []float64{x, y}, r: 0.27 * w, stroke: colCellLine, width: 0.8})
				continue
			}
			classes := "space " + s.top
			if s.dvonns > 0 && s.top != "red" {
				classes += " has-dvonn"
			}
			if name == last {
				classes += " last"
			}
			disc := shape{group: classes, kind: 'c', class: "disc", pts: []float64{x, y}, r: 0.41 * w, width: 1}
			ink := colBlack
			switch s.top {
			case "white":
				disc.fill, disc.stroke = colWhite, colWhiteLine
			case "black":
				disc.fill, disc.stroke, ink = colBlack, colBlackLine, colWhite
			default:
				disc.fill, disc.stroke, ink = colRed, colBlackLine, colWhite
			}
			ring := shape{kind: 'c', class: "dvonn-ring", pts: []float64{x, y}, r: 0.41 * w * 0.74}
			if s.dvonns > 0 && s.top != "red" {
				ring.stroke, ring.width = colRed, 2.4
			}
			height := shape{kind: 't', class: "height", pts: []float64{x, y}, text: strconv.Itoa(s.height), fill: ink}
			mark := shape{kind: 'c', class: "last-mark", pts: []float64{x + 0.41*w*0.72, y - 0.41*w*0.72}, r: w * 0.11, close: true}
			if name == last {
				mark.fill, mark.stroke, mark.width = colMark, colBG, 1
			}
			p.shapes = append(p.shapes, disc, ring, height, mark)
		}
	}
	label := func(text string, col, row, tc, tr int) {
		x0, y0 := centre(col, row)
		x1, y1 := centre(tc, tr)
		x, y := x0+0.8*(x1-x0), y0+0.8*(y1-y0)
		p.shapes = append(p.shapes, shape{kind: 't', class: "coord", pts: []float64{x, y}, text: text, fill: colMuted, size: coordGlyph(8)})
		extend(x, y, 5)
	}
	for row, r := range rows {
		label(strconv.Itoa(row+1), r[0], row, r[0]-1, row)
	}
	for col := 0; col <= 10; col++ {
		first, lastRow := -1, -1
		for row := range 5 {
			if on(col, row) {
				if first < 0 {
					first = row
				}
				lastRow = row
			}
		}
		letter := string(rune('A' + col))
		label(letter, col, first, col, first-1)
		if lastRow == 4 {
			label(letter, col, lastRow, col, lastRow+1)
		}
	}
	minX, minY := minOf(xs), minOf(ys)
	p.box = [4]float64{round1(minX), round1(minY), round1(maxOf(xs) - minX), round1(maxOf(ys) - minY)}
	return p
}

// Fanorona: boards/fanorona.js.
func fanoronaPicture(board string) (picture, error) {
	if len(board) != 45 {
		return picture{}, fmt.Errorf("fanorona picture: a board of %d points", len(board))
	}
	const s = 10.0
	xy := func(i int) (float64, float64) { return float64(i%9) * s, float64(4-i/9) * s }
	p := picture{class: "fanorona", box: [4]float64{-10, -6, 96, 56}}
	p.shapes = append(p.shapes, shape{kind: 'p', class: "bg", pts: []float64{-5, -5, 8*s + 5, -5, 8*s + 5, 4*s + 5, -5, 4*s + 5}, fill: colCell})
	var lines []float64
	for i := range 45 {
		x, y := xy(i)
		f, r := i%9, i/9
		dirs := [][2]int{{1, 0}, {0, 1}}
		if (f+r)%2 == 0 {
			dirs = append(dirs, [2]int{1, 1}, [2]int{1, -1})
		}
		for _, d := range dirs {
			if f+d[0] < 0 || f+d[0] >= 9 || r+d[1] < 0 || r+d[1] >= 5 {
				continue
			}
			x2, y2 := xy((r+d[1])*9 + f + d[0])
			lines = append(lines, x, y, x2, y2)
		}
	}
	p.shapes = append(p.shapes, shape{kind: 'l', class: "lines", pts: lines, stroke: colCellLine, width: 0.45})
	for f := range 9 {
		p.shapes = append(p.shapes, shape{kind: 't', class: "coord", pts: []float64{float64(f) * s, 4*s + 7}, text: string(rune('a' + f)), fill: colMuted, size: coordGlyph(3.8)})
	}
	for r := range 5 {
		p.shapes = append(p.shapes, shape{kind: 't', class: "coord", pts: []float64{-8, float64(4-r) * s}, text: strconv.Itoa(r + 1), fill: colMuted, size: coordGlyph(3.8)})
	}
	for i := range 45 {
		x, y := xy(i)
		piece := shape{kind: 'c', class: "piece", pts: []float64{x, y}, r: 3.4, width: 0.5, close: true}
		switch board[i] {
		case 'W':
			piece.group, piece.fill, piece.stroke = "pt white", colWhite, colWhiteLine
		case 'B':
			piece.group, piece.fill, piece.stroke = "pt black", colBlack, colBlackLine
		default:
			continue // an empty point is where the lines meet
		}
		p.shapes = append(p.shapes, piece)
	}
	return p, nil
}

// SVG writes the picture for the page: the scripts' classes, no colours.
func (p picture) SVG() template.HTML {
	var b strings.Builder
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }
	fmt.Fprintf(&b, `<svg class="board-svg %s" viewBox="%s %s %s %s" role="img">`, p.class,
		strconv.FormatFloat(p.box[0], 'f', 1, 64), strconv.FormatFloat(p.box[1], 'f', 1, 64),
		strconv.FormatFloat(p.box[2], 'f', 1, 64), strconv.FormatFloat(p.box[3], 'f', 1, 64))
	open := false
	coords := false
	for _, s := range p.shapes {
		label := s.kind == 't' && s.class == "coord"
		if coords && !label {
			b.WriteString(`</g>`)
			coords = false
		}
		if s.group != "" {
			if open {
				b.WriteString(`</g>`)
			}
			fmt.Fprintf(&b, `<g class="%s">`, template.HTMLEscapeString(s.group))
			open = true
		}
		if label && !coords {
			if open {
				b.WriteString(`</g>`)
				open = false
			}
			b.WriteString(`<g class="coords" aria-hidden="true">`)
			coords = true
		}
		cls := ""
		if s.class != "" && s.class != "coord" {
			cls = ` class="` + s.class + `"`
		}
		switch s.kind {
		case 'p':
			pts := make([]string, 0, len(s.pts)/2)
			for i := 0; i+1 < len(s.pts); i += 2 {
				pts = append(pts, f(s.pts[i])+","+f(s.pts[i+1]))
			}
			if s.class == "plate" {
				fmt.Fprintf(&b, `<polygon%s points="%s" stroke-width="%s" stroke-linejoin="round"/>`, cls, strings.Join(pts, " "), f(s.width))
			} else {
				fmt.Fprintf(&b, `<polygon%s points="%s"/>`, cls, strings.Join(pts, " "))
			}
		case 'c':
			fmt.Fprintf(&b, `<circle%s cx="%s" cy="%s" r="%s"/>`, cls, f(s.pts[0]), f(s.pts[1]), f(s.r))
		case 'l':
			var d strings.Builder
			for i := 0; i+3 < len(s.pts); i += 4 {
				fmt.Fprintf(&d, "M%s %sL%s %s", f(s.pts[i]), f(s.pts[i+1]), f(s.pts[i+2]), f(s.pts[i+3]))
			}
			fmt.Fprintf(&b, `<path%s d="%s"/>`, cls, d.String())
		case 't':
			fmt.Fprintf(&b, `<text%s x="%s" y="%s" dy="0.35em">%s</text>`, cls, f(s.pts[0]), f(s.pts[1]), template.HTMLEscapeString(s.text))
		}
		if s.close && open {
			b.WriteString(`</g>`)
			open = false
		}
	}
	if coords {
		b.WriteString(`</g>`)
	}
	if open {
		b.WriteString(`</g>`)
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// PNG paints the picture into a width × height image, the board centred
// with a margin, and writes it as PNG. It is centred on the board it
// paints, not on the page's view box: the coordinates stand on some sides
// only, and the view box leaves room where the page needs it.
func (p picture) PNG(w io.Writer, width, height int) error {
	img := image.NewRGBA(image.Rect(0, 0, width, height))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = colBG.R, colBG.G, colBG.B, 0xff
	}
	box := p.painted()
	margin := 0.05 * float64(min(width, height))
	scale := math.Min((float64(width)-2*margin)/box[2], (float64(height)-2*margin)/box[3])
	ox := (float64(width)-box[2]*scale)/2 - box[0]*scale
	oy := (float64(height)-box[3]*scale)/2 - box[1]*scale
	c := canvas{img: img, scale: scale, ox: ox, oy: oy}
	for _, s := range p.shapes {
		switch s.kind {
		case 'p':
			if s.fill.A != 0 {
				c.polygon(s.pts, s.fill)
			}
			if s.stroke.A != 0 && s.width > 0 {
				n := len(s.pts)
				for i := 0; i < n; i += 2 {
					c.segment(s.pts[i], s.pts[i+1], s.pts[(i+2)%n], s.pts[(i+3)%n], s.width, s.stroke)
				}
			}
		case 'c':
			c.circle(s.pts[0], s.pts[1], s.r, s.fill, s.stroke, s.width)
		case 'l':
			for i := 0; i+3 < len(s.pts); i += 4 {
				c.segment(s.pts[i], s.pts[i+1], s.pts[i+2], s.pts[i+3], s.width, s.stroke)
			}
		case 't':
			if s.fill.A != 0 {
				c.text(s.pts[0], s.pts[1], s.text, s.glyphHeight(), s.fill)
			}
		}
	}
	return png.Encode(w, img)
}

// painted is the box, x, y, width, height, that holds what the PNG paints
// and has the board (everything but texts) in its middle.
func (p picture) painted() [4]float64 {
	all := [4]float64{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)} // x0, y0, x1, y1
	board := all
	grow := func(b *[4]float64, e [4]float64) {
		b[0], b[1], b[2], b[3] = math.Min(b[0], e[0]), math.Min(b[1], e[1]), math.Max(b[2], e[2]), math.Max(b[3], e[3])
	}
	for _, s := range p.shapes {
		e, ok := s.extent()
		if !ok {
			continue
		}
		grow(&all, e)
		if s.kind != 't' {
			grow(&board, e)
		}
	}
	if math.IsInf(board[0], 0) {
		return p.box
	}
	cx, cy := (board[0]+board[2])/2, (board[1]+board[3])/2
	w := math.Max(cx-all[0], all[2]-cx)
	h := math.Max(cy-all[1], all[3]-cy)
	return [4]float64{cx - w, cy - h, 2 * w, 2 * h}
}

// extent is the box, x0, y0, x1, y1, of what the PNG paints of s; false
// when it paints nothing.
func (s shape) extent() ([4]float64, bool) {
	switch s.kind {
	case 'p', 'l':
		if s.fill.A == 0 && s.stroke.A == 0 {
			return [4]float64{}, false
		}
		half := 0.0
		if s.stroke.A != 0 {
			half = s.width / 2
		}
		var xs, ys []float64
		for i := 0; i+1 < len(s.pts); i += 2 {
			xs, ys = append(xs, s.pts[i]), append(ys, s.pts[i+1])
		}
		return [4]float64{minOf(xs) - half, minOf(ys) - half, maxOf(xs) + half, maxOf(ys) + half}, true
	case 'c':
		if s.fill.A == 0 && s.stroke.A == 0 {
			return [4]float64{}, false
		}
		r := s.r + s.width/2
		return [4]float64{s.pts[0] - r, s.pts[1] - r, s.pts[0] + r, s.pts[1] + r}, true
	case 't':
		if s.fill.A == 0 {
			return [4]float64{}, false
		}
		h := s.glyphHeight()
		w := textWidth(s.text, h)
		return [4]float64{s.pts[0] - w/2, s.pts[1] - h/2, s.pts[0] + w/2, s.pts[1] + h/2}, true
	}
	return [4]float64{}, false
}

func (s shape) glyphHeight() float64 {
	if s.size == 0 {
		return 8
	}
	return s.size
}

// canvas paints shapes given in drawing units, smoothing edges by testing
// 4×4 points in each pixel.
type canvas struct {
	img           *image.RGBA
	scale, ox, oy float64
}

const samples = 4

// paint covers the pixels of the box (drawing units) where inside holds
// for the share of their sample points, with col.
func (c canvas) paint(x0, y0, x1, y1 float64, col color.RGBA, inside func(x, y float64) bool) {
	b := c.img.Bounds()
	px0 := max(b.Min.X, int(math.Floor(x0*c.scale+c.ox)))
	py0 := max(b.Min.Y, int(math.Floor(y0*c.scale+c.oy)))
	px1 := min(b.Max.X-1, int(math.Ceil(x1*c.scale+c.ox)))
	py1 := min(b.Max.Y-1, int(math.Ceil(y1*c.scale+c.oy)))
	for py := py0; py <= py1; py++ {
		for px := px0; px <= px1; px++ {
			hit := 0
			for sy := range samples {
				for sx := range samples {
					x := (float64(px) + (float64(sx)+0.5)/samples - c.ox) / c.scale
					y := (float64(py) + (float64(sy)+0.5)/samples - c.oy) / c.scale
					if inside(x, y) {
						hit++
					}
				}
			}
			if hit == 0 {
				continue
			}
			a := float64(hit) / (samples * samples) * float64(col.A) / 255
			i := c.img.PixOffset(px, py)
			pix := c.img.Pix[i : i+3]
			pix[0] = uint8(float64(pix[0])*(1-a) + float64(col.R)*a + 0.5)
			pix[1] = uint8(float64(pix[1])*(1-a) + float64(col.G)*a + 0.5)
			pix[2] = uint8(float64(pix[2])*(1-a) + float64(col.B)*a + 0.5)
		}
	}
}

func (c canvas) polygon(pts []float64, col color.RGBA) {
	xs, ys := make([]float64, 0, len(pts)/2), make([]float64, 0, len(pts)/2)
	for i := 0; i+1 < len(pts); i += 2 {
		xs, ys = append(xs, pts[i]), append(ys, pts[i+1])
	}
	c.paint(minOf(xs), minOf(ys), maxOf(xs), maxOf(ys), col, func(x, y float64) bool {
		in := false
		for i, j := 0, len(xs)-1; i < len(xs); j, i = i, i+1 {
			if (ys[i] > y) != (ys[j] > y) && x < (xs[j]-xs[i])*(y-ys[i])/(ys[j]-ys[i])+xs[i] {
				in = !in
			}
		}
		return in
	})
}

// segment paints a line of the given width with round ends.
func (c canvas) segment(x1, y1, x2, y2, width float64, col color.RGBA) {
	h := width / 2
	dx, dy := x2-x1, y2-y1
	l2 := dx*dx + dy*dy
	c.paint(math.Min(x1, x2)-h, math.Min(y1, y2)-h, math.Max(x1, x2)+h, math.Max(y1, y2)+h, col, func(x, y float64) bool {
		t := 0.0
		if l2 > 0 {
			t = math.Max(0, math.Min(1, ((x-x1)*dx+(y-y1)*dy)/l2))
		}
		ex, ey := x-(x1+t*dx), y-(y1+t*dy)
		return ex*ex+ey*ey <= h*h
	})
}

func (c canvas) circle(x, y, r float64, fill, stroke color.RGBA, width float64) {
	if fill.A != 0 {
		c.paint(x-r, y-r, x+r, y+r, fill, func(px, py float64) bool { return (px-x)*(px-x)+(py-y)*(py-y) <= r*r })
	}
	if stroke.A != 0 && width > 0 {
		h := width / 2
		c.paint(x-r-h, y-r-h, x+r+h, y+r+h, stroke, func(px, py float64) bool {
			d := math.Hypot(px-x, py-y)
			return d >= r-h && d <= r+h
		})
	}
}

// glyphs are 3×5 pictures of the digits and letters that a board
// writes, a row per string: heights of DVONN's stacks and coordinates.
// Each letter has its own case, as the board's page writes it: a small
// letter is a row shorter than a capital, unless it reaches above the
// others (b, d, f, h, ...), and one that would reach below the line (g,
// j, p, q, y) is raised to fit.
var glyphs = map[rune][5]string{
	'0': {"###", "#.#", "#.#", "#.#", "###"}, '1': {".#.", "##.", ".#.", ".#.", "###"},
	'2': {"###", "..#", "###", "#..", "###"}, '3': {"###", "..#", "###", "..#", "###"},
	'4': {"#.#", "#.#", "###", "..#", "..#"}, '5': {"###", "#..", "###", "..#", "###"},
	'6': {"###", "#..", "###", "#.#", "###"}, '7': {"###", "..#", "..#", "..#", "..#"},
	'8': {"###", "#.#", "###", "#.#", "###"}, '9': {"###", "#.#", "###", "..#", "###"},
	'A': {".#.", "#.#", "###", "#.#", "#.#"}, 'B': {"##.", "#.#", "##.", "#.#", "##."},
	'C': {".##", "#..", "#..", "#..", ".##"}, 'D': {"##.", "#.#", "#.#", "#.#", "##."},
	'E': {"###", "#..", "##.", "#..", "###"}, 'F': {"###", "#..", "##.", "#..", "#.."},
	'G': {".##", "#..", "#.#", "#.#", ".##"}, 'H': {"#.#", "#.#", "###", "#.#", "#.#"},
	'I': {"###", ".#.", ".#.", ".#.", "###"}, 'J': {"..#", "..#", "..#", "#.#", ".#."},
	'K': {"#.#", "#.#", "##.", "#.#", "#.#"}, 'L': {"#..", "#..", "#..", "#..", "###"},
	'M': {"#.#", "###", "###", "#.#", "#.#"}, 'N': {"##.", "#.#", "#.#", "#.#", "#.#"},
	'O': {".#.", "#.#", "#.#", "#.#", ".#."}, 'P': {"##.", "#.#", "##.", "#..", "#.."},
	'Q': {".#.", "#.#", "#.#", "##.", ".##"}, 'R': {"##.", "#.#", "##.", "#.#", "#.#"},
	'S': {".##", "#..", ".#.", "..#", "##."}, 'T': {"###", ".#.", ".#.", ".#.", ".#."},
	'U': {"#.#", "#.#", "#.#", "#.#", "###"}, 'V': {"#.#", "#.#", "#.#", "#.#", ".#."},
	'W': {"#.#", "#.#", "###", "###", "#.#"}, 'X': {"#.#", "#.#", ".#.", "#.#", "#.#"},
	'Y': {"#.#", "#.#", ".#.", ".#.", ".#."}, 'Z': {"###", "..#", ".#.", "#..", "###"},
	'a': {"...", ".##", "#.#", "#.#", ".##"}, 'b': {"#..", "##.", "#.#", "#.#", "##."},
	'c': {"...", ".##", "#..", "#..", ".##"}, 'd': {"..#", ".##", "#.#", "#.#", ".##"},
	'e': {"...", ".#.", "###", "#..", ".##"}, 'f': {".##", ".#.", "###", ".#.", ".#."},
	'g': {"...", ".##", "#.#", ".##", "##."}, 'h': {"#..", "##.", "#.#", "#.#", "#.#"},
	'i': {".#.", "...", ".#.", ".#.", ".#."}, 'j': {"..#", "...", "..#", "#.#", ".#."},
	'k': {"#..", "#..", "#.#", "##.", "#.#"}, 'l': {"#..", "#..", "#..", "#..", ".##"},
	'm': {"...", "###", "###", "#.#", "#.#"}, 'n': {"...", "##.", "#.#", "#.#", "#.#"},
	'o': {"...", ".#.", "#.#", "#.#", ".#."}, 'p': {"...", "##.", "#.#", "##.", "#.."},
	'q': {"...", ".##", "#.#", ".##", "..#"}, 'r': {"...", ".##", "#..", "#..", "#.."},
	's': {"...", ".##", "#..", "..#", "##."}, 't': {".#.", "###", ".#.", ".#.", ".##"},
	'u': {"...", "#.#", "#.#", "#.#", ".##"}, 'v': {"...", "#.#", "#.#", "#.#", ".#."},
	'w': {"...", "#.#", "#.#", "###", "#.#"}, 'x': {"...", "#.#", ".#.", ".#.", "#.#"},
	'y': {"...", "#.#", "#.#", ".##", "##."}, 'z': {"...", "###", ".#.", "#..", "###"},
}

// textWidth is the width of text written h drawing units high.
func textWidth(text string, h float64) float64 {
	cell := h / 5
	return float64(utf8.RuneCountInString(text))*4*cell - cell
}

// text writes text centred on x, y, its glyphs h drawing units high.
func (c canvas) text(x, y float64, text string, h float64, col color.RGBA) {
	cell := h / 5 // drawing units per glyph square
	left, top := x-textWidth(text, h)/2, y-h/2
	for k, ch := range []rune(text) {
		glyph, ok := glyphs[ch]
		if !ok {
			continue
		}
		for row, line := range glyph {
			for col2, on := range line {
				if on != '#' {
					continue
				}
				x0 := left + float64(k*4+col2)*cell
				y0 := top + float64(row)*cell
				c.paint(x0, y0, x0+cell, y0+cell, col, func(px, py float64) bool {
					return px >= x0 && px < x0+cell && py >= y0 && py < y0+cell
				})
			}
		}
	}
}

func blend(a, b color.RGBA, t float64) color.RGBA {
	mix := func(x, y uint8) uint8 { return uint8(float64(x)*(1-t) + float64(y)*t + 0.5) }
	return color.RGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 0xff}
}

func minOf(v []float64) float64 {
	m := math.Inf(1)
	for _, x := range v {
		m = math.Min(m, x)
	}
	return m
}

func maxOf(v []float64) float64 {
	m := math.Inf(-1)
	for _, x := range v {
		m = math.Max(m, x)
	}
	return m
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }

// BoardSVG draws the position of game name from its view as the page's
// first picture of the board, before the board script replaces it.
func BoardSVG(name string, view any) (template.HTML, error) {
	p, err := boardPicture(name, view)
	if err != nil {
		return "", err
	}
	return p.SVG(), nil
}

// BoardPNG paints the position of game name from its view as a width ×
// height PNG.
func BoardPNG(w io.Writer, name string, view any, width, height int) error {
	p, err := boardPicture(name, view)
	if err != nil {
		return err
	}
	return p.PNG(w, width, height)
}

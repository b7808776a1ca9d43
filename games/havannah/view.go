package havannah

// View is the position as the front end draws it.
//
//	{"size":8, "swap":false,
//	 "stones":"..w..b...",          one of . w b per cell, row-major from a1
//	 "last":"e5",                   the last stone placed (or swapped), "" at the start
//	 "swapped":false,               whether the pie rule was used
//	 "structures":["fork","ring"],  what the winning move completed
//	 "winning":["d4","e5",...]}     the winning group's cells
type View struct {
	Size       int      `json:"size"`
	Swap       bool     `json:"swap"`
	Stones     string   `json:"stones"`
	Last       string   `json:"last"`
	Swapped    bool     `json:"swapped"`
	Structures []string `json:"structures"`
	Winning    []string `json:"winning"`
}

func (s *State) View() any {
	stones := make([]byte, len(s.geo.cells))
	for i, c := range s.geo.cells {
		stones[i] = ".wb"[s.cell[c]]
	}
	v := View{
		Size:       s.geo.size,
		Swap:       s.swapRule,
		Stones:     string(stones),
		Swapped:    s.swapped,
		Structures: s.won.Names(),
		Winning:    s.WinningCells(),
	}
	if s.ply > 0 {
		v.Last = s.name(int(s.last))
	}
	if v.Structures == nil {
		v.Structures = []string{}
	}
	if v.Winning == nil {
		v.Winning = []string{}
	}
	return v
}

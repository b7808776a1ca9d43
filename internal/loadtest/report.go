package loadtest

import (
	"encoding/json"
	"fmt"
	"io"
)

// WriteText prints the report for people.
func (r *Report) WriteText(w io.Writer) {
	fmt.Fprintf(w, "target      %s, %d %s games, %d watchers each, thinking %s\n", r.Target, r.Games, r.Game, r.Watchers, r.Think)
	if r.Computer > 0 {
		fmt.Fprintf(w, "beside      %d games against the computer at level %d\n", r.Computer, r.Level)
	}
	if r.PlayersNice != 0 {
		fmt.Fprintf(w, "players     at niceness %d\n", r.PlayersNice)
	}
	if r.WatchersNice != 0 {
		fmt.Fprintf(w, "watchers    at niceness %d\n", r.WatchersNice)
	}
	fmt.Fprintf(w, "set up      %.1fs; measured %.1fs; %d games finished\n", r.SetupSeconds, r.Seconds, r.GamesFinished)
	fmt.Fprintf(w, "moves       %d, %.1f/s\n", r.Moves, r.MovesPerSecond)
	rows := []latencyRow{{"opponent", r.Opponent}}
	if r.Watchers > 0 {
		rows = append(rows, latencyRow{"watchers", r.WatchersLatency})
	}
	if r.Computer > 0 {
		rows = append(rows, latencyRow{"computer", r.ComputerLatency})
	}
	writeLatencies(w, rows)
	if s := r.SiteMove; s != nil {
		fmt.Fprintf(w, "site's part %d moves as the site timed them (%s): mean %.2f ms; p50 %s, p95 %s, p99 %s\n",
			s.Count, moveMetric, s.Mean, atMost(s.P50), atMost(s.P95), atMost(s.P99))
	} else if r.SiteMoveNote != "" {
		fmt.Fprintf(w, "site's part not measured: %s\n", r.SiteMoveNote)
	}
	fmt.Fprintf(w, "errors      %d\n", r.Errors)
	for _, e := range r.FirstErrors {
		fmt.Fprintf(w, "  %s\n", e)
	}
	if r.Server != nil {
		writeUsage(w, "server", r.Server)
	} else {
		fmt.Fprintf(w, "server      not measured: %s\n", r.ServerNote)
	}
	if r.Self != nil {
		writeUsage(w, "loadtest", r.Self)
	}
	if r.WatchersProcess != nil {
		writeUsage(w, "watchers", r.WatchersProcess)
	}
	if m := r.Machine; m != nil {
		fmt.Fprintf(w, "machine     %d processors: %.0f%% busy, %.1f%% taken by the host\n", m.Processors, m.BusyPercent, m.StolenPercent)
	}
}

// atMost tells a quantile known only as its bucket's upper bound.
func atMost(ms float64) string {
	if ms < 0 {
		return "beyond the last bucket"
	}
	return fmt.Sprintf("≤ %.2f ms", ms)
}

func writeUsage(w io.Writer, name string, u *Usage) {
	fmt.Fprintf(w, "%-11s pid %d: CPU %.1fs (%.0f%% of a core), RSS %.0f MB (peak %.0f MB)\n", name, u.PID, u.CPUSeconds, u.CPUPercent, u.RSSMB, u.PeakRSSMB)
}

type latencyRow struct {
	name string
	l    Latency
}

// writeLatencies prints a table of latencies, a row each.
func writeLatencies(w io.Writer, rows []latencyRow) {
	fmt.Fprintf(w, "%-11s %9s %9s %9s %9s %9s\n", "latency", "count", "p50 ms", "p95 ms", "p99 ms", "max ms")
	for _, r := range rows {
		fmt.Fprintf(w, "%-11s %9d %9.2f %9.2f %9.2f %9.2f\n", r.name, r.l.Count, r.l.P50, r.l.P95, r.l.P99, r.l.Max)
	}
}

// WriteJSON prints the report as one JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	if r.FirstErrors == nil {
		r.FirstErrors = []string{}
	}
	return writeJSON(w, r)
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// FloorReport is what Floor measured.
type FloorReport struct {
	Pairs   int     `json:"pairs"`
	Think   string  `json:"think"`
	Latency Latency `json:"latency"`
}

// WriteText prints the floor for people.
func (f *FloorReport) WriteText(w io.Writer) {
	pairs := fmt.Sprintf("%d pairs", f.Pairs)
	if f.Pairs == 1 {
		pairs = "1 pair"
	}
	fmt.Fprintf(w, "floor       a relay that does nothing, %s, a message from each every %s\n", pairs, f.Think)
	writeLatencies(w, []latencyRow{{"opponent", f.Latency}})
}

// WriteJSON prints the floor as one JSON object.
func (f *FloorReport) WriteJSON(w io.Writer) error { return writeJSON(w, f) }

package loadtest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The process that serves the target, read from /proc (Linux).

// clockTicks is USER_HZ, the unit of the CPU times in /proc/PID/stat; it
// is 100 on every Linux architecture Go supports.
const clockTicks = 100

// listenerPID finds the process listening on TCP port: the socket's inode
// from /proc/net/tcp{,6}, then the process holding a descriptor of it.
func listenerPID(port int) (int, error) {
	inodes := map[string]bool{}
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for line := range strings.Lines(string(data)) {
			// sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
			fields := strings.Fields(line)
			if len(fields) < 10 || fields[3] != "0A" { // 0A: LISTEN
				continue
			}
			_, hexPort, ok := strings.Cut(fields[1], ":")
			if p, err := strconv.ParseInt(hexPort, 16, 32); ok && err == nil && int(p) == port {
				inodes["socket:["+fields[9]+"]"] = true
			}
		}
	}
	if len(inodes) == 0 {
		return 0, fmt.Errorf("nothing on this machine listens on port %d", port)
	}
	fds, _ := filepath.Glob("/proc/[0-9]*/fd/*")
	for _, fd := range fds {
		if link, err := os.Readlink(fd); err == nil && inodes[link] {
			pid, err := strconv.Atoi(strings.Split(fd, "/")[2])
			if err == nil {
				return pid, nil
			}
		}
	}
	return 0, fmt.Errorf("no process visible here holds the listener on port %d", port)
}

// usage is what a process has used so far.
type usage struct {
	cpu  time.Duration // user and system
	rss  int64         // bytes
	nice int           // of its first thread
}

func readUsage(pid int) (usage, error) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return usage{}, err
	}
	// The command name in parentheses may hold spaces: count fields
	// after its closing parenthesis. utime and stime are fields 14 and 15,
	// nice 19.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return usage{}, fmt.Errorf("/proc/%d/stat: unexpected format", pid)
	}
	fields := strings.Fields(string(stat[i+1:]))
	if len(fields) < 17 {
		return usage{}, fmt.Errorf("/proc/%d/stat: unexpected format", pid)
	}
	utime, err1 := strconv.ParseInt(fields[11], 10, 64)
	stime, err2 := strconv.ParseInt(fields[12], 10, 64)
	nice, err3 := strconv.Atoi(fields[16])
	if err1 != nil || err2 != nil || err3 != nil {
		return usage{}, fmt.Errorf("/proc/%d/stat: unexpected format", pid)
	}
	u := usage{cpu: time.Duration(utime+stime) * time.Second / clockTicks, nice: nice}
	status, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return usage{}, err
	}
	defer status.Close()
	sc := bufio.NewScanner(status)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				return usage{}, fmt.Errorf("/proc/%d/status: VmRSS %q", pid, rest)
			}
			u.rss = kb << 10
			return u, nil
		}
	}
	return usage{}, fmt.Errorf("/proc/%d/status has no VmRSS", pid)
}

// Usage is a process's share of the machine during the measurement.
type Usage struct {
	PID        int     `json:"pid"`
	CPUSeconds float64 `json:"cpu_s"`
	CPUPercent float64 `json:"cpu_percent"` // of one core
	RSSMB      float64 `json:"rss_mb"`      // at the end
	PeakRSSMB  float64 `json:"peak_rss_mb"` // the most seen, sampled every second
	Nice       int     `json:"nice"`        // at the end
}

// watcher samples a process's RSS while the load runs.
type watcher struct {
	pid   int
	start usage
	began time.Time
	peak  int64
}

func watch(pid int) (*watcher, error) {
	u, err := readUsage(pid)
	if err != nil {
		return nil, err
	}
	return &watcher{pid: pid, start: u, began: time.Now(), peak: u.rss}, nil
}

func (w *watcher) sample() {
	if u, err := readUsage(w.pid); err == nil {
		w.peak = max(w.peak, u.rss)
	}
}

func (w *watcher) finish() (Usage, error) {
	u, err := readUsage(w.pid)
	if err != nil {
		return Usage{}, err
	}
	w.peak = max(w.peak, u.rss)
	cpu := (u.cpu - w.start.cpu).Seconds()
	return Usage{
		PID:        w.pid,
		CPUSeconds: cpu,
		CPUPercent: 100 * cpu / time.Since(w.began).Seconds(),
		RSSMB:      float64(u.rss) / (1 << 20),
		PeakRSSMB:  float64(w.peak) / (1 << 20),
		Nice:       u.nice,
	}, nil
}

func selfPID() int { return os.Getpid() }

// Renice gives every thread of this process the niceness n; threads the
// runtime starts later inherit it from those that start them. (Linux
// counts niceness by thread, so setting it for the process's first
// thread alone would leave the others as they were.)
func Renice(n int) error {
	done := map[int]bool{}
	for range 5 {
		tasks, err := os.ReadDir("/proc/self/task")
		if err != nil {
			return err
		}
		more := false
		for _, task := range tasks {
			tid, err := strconv.Atoi(task.Name())
			if err != nil || done[tid] {
				continue
			}
			if err := syscall.Setpriority(syscall.PRIO_PROCESS, tid, n); err != nil && !errors.Is(err, syscall.ESRCH) {
				if errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.EPERM) {
					return fmt.Errorf("niceness %d: %w (below 0 needs root or CAP_SYS_NICE)", n, err)
				}
				return fmt.Errorf("niceness %d: %w", n, err)
			}
			done[tid], more = true, true
		}
		if !more {
			return nil
		}
	}
	return nil
}

// processorTimes is how the machine's processors have spent their time
// since it started, in ticks, from the first line of /proc/stat.
type processorTimes struct {
	processors         int
	busy, idle, stolen int64
}

func readProcessorTimes() (processorTimes, error) {
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		return processorTimes{}, err
	}
	return parseProcessorTimes(string(data))
}

// parseProcessorTimes reads /proc/stat: "cpu user nice system idle iowait
// irq softirq steal …" for all processors, then a line for each.
func parseProcessorTimes(stat string) (processorTimes, error) {
	var t processorTimes
	var fields []string
	for line := range strings.Lines(stat) {
		f := strings.Fields(line)
		switch {
		case len(f) > 0 && f[0] == "cpu":
			fields = f
		case len(f) > 0 && strings.HasPrefix(f[0], "cpu"):
			t.processors++
		}
	}
	switch {
	case fields == nil:
		return t, fmt.Errorf("/proc/stat: no line for all processors")
	case len(fields) < 9:
		return t, fmt.Errorf("/proc/stat: the line for all processors is cut short")
	}
	var n [8]int64
	for i := range n {
		v, err := strconv.ParseInt(fields[i+1], 10, 64)
		if err != nil {
			return t, fmt.Errorf("/proc/stat: %q is not a count of ticks", fields[i+1])
		}
		n[i] = v
	}
	t.busy = n[0] + n[1] + n[2] + n[5] + n[6]
	t.idle = n[3] + n[4]
	t.stolen = n[7]
	return t, nil
}

// Machine is how the machine's processors spent the measurement, as
// shares of all their time: on a shared machine, busy tells what else ran
// beside the site and the load, and stolen what the host of a virtual
// machine took for itself, which shows up as waits nothing here caused.
type Machine struct {
	Processors    int     `json:"processors"`
	BusyPercent   float64 `json:"busy_percent"`
	StolenPercent float64 `json:"stolen_percent"`
}

// since is the machine's share of the time from earlier to t.
func (t processorTimes) since(earlier processorTimes) Machine {
	busy, idle, stolen := t.busy-earlier.busy, t.idle-earlier.idle, t.stolen-earlier.stolen
	m := Machine{Processors: t.processors}
	if all := busy + idle + stolen; all > 0 {
		m.BusyPercent = 100 * float64(busy) / float64(all)
		m.StolenPercent = 100 * float64(stolen) / float64(all)
	}
	return m
}

package server

import "syscall"

// lowerThreadPriority gives the calling OS thread the lowest priority
// (nice 19). On Linux the priority is the thread's own, not the process's.
func lowerThreadPriority() error {
	return syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), 19)
}

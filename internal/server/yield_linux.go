package server

import "syscall"

// yieldProcessor lets the processor go to whatever else the system has
// ready to run, such as a process our last write woke up.
func yieldProcessor() { syscall.Syscall(syscall.SYS_SCHED_YIELD, 0, 0, 0) }

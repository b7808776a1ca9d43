//go:build !linux

package server

// lowerThreadPriority does nothing where threads have no priority of their
// own that a process may lower.
func lowerThreadPriority() error { return nil }

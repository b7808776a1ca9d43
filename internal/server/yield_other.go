//go:build !linux

package server

// yieldProcessor does nothing here: runtime.Gosched, called beside it,
// is all the giving way there is.
func yieldProcessor() {}

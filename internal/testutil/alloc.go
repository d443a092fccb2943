package testutil

import "runtime"

// Allocated runs f and returns the bytes the whole process allocated on the heap meanwhile
// (a loopback server's side of a test counts too).
func Allocated(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

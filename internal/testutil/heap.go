package testutil

import (
	"runtime"
	"sync"
	"time"
)

// PeakHeapGrowth runs fn while sampling HeapAlloc every 2 ms and returns how far the peak rose
// above the heap at the start, in bytes. Ceiling tests use it to prove a hostile input was
// refused without first allocating what it claims.
func PeakHeapGrowth(fn func()) uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base, peak := ms.HeapAlloc, ms.HeapAlloc
	var mu sync.Mutex
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		var m runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-time.After(2 * time.Millisecond):
			}
			runtime.ReadMemStats(&m)
			mu.Lock()
			peak = max(peak, m.HeapAlloc)
			mu.Unlock()
		}
	}()
	fn()
	runtime.ReadMemStats(&ms)
	close(done)
	<-stopped
	return max(peak, ms.HeapAlloc) - base
}

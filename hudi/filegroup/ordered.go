package filegroup

import (
	"container/heap"
	"context"
	"sync"

	"github.com/hudiscope/hudiscope/hudi/problem"
	"github.com/hudiscope/hudiscope/hudi/storage"
)

// walkOrdered walks the table (walkPartitions), builds each partition with build on its
// listing goroutine and hands the partitions to emit in path order, on the calling goroutine.
// A built partition is released once no directory still to be listed can hold a partition
// that sorts before it: every partition under a directory d has a path ≥ d (d itself or
// d + "/…"), so that is when its path is below the least unlisted directory.
func walkOrdered(ctx context.Context, store storage.Storage, problems *problem.Log, build func(dir string, files []storage.Entry) *Partition, emit func(*Partition) error) error {
	o := &ordering{wake: make(chan struct{}, 1), listedDirs: map[string]bool{}}
	o.drained = sync.NewCond(&o.mu)
	var walkErr error
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		walkErr = walkPartitionsTracked(ctx, store, problems, func(dir string, files []storage.Entry) {
			o.built(build(dir, files))
		}, o)
	}()
	var emitErr error
	deliver := func() {
		for _, p := range o.take() {
			if emitErr == nil {
				emitErr = emit(p)
			}
		}
	}
wait:
	for {
		select {
		case <-o.wake:
			deliver()
		case <-finished:
			break wait
		}
	}
	// Everything is listed: whatever is left is in order.
	o.mu.Lock()
	o.done = true
	o.mu.Unlock()
	o.advance()
	deliver()
	if emitErr != nil {
		return emitErr
	}
	return walkErr
}

// ordering holds built partitions until their turn.
type ordering struct {
	mu         sync.Mutex
	unlisted   stringHeap      // directories spawned and not listed yet (lazily deleted)
	listedDirs map[string]bool // popped lazily from unlisted
	ready      partHeap        // built, waiting for an unlisted directory below them
	out        []*Partition    // released, in order, for the emitting goroutine
	outGroups  int             // file groups in out
	drained    *sync.Cond      // out shrank
	done       bool
	wake       chan struct{}
}

func (o *ordering) spawned(dir string) {
	o.mu.Lock()
	heap.Push(&o.unlisted, dir)
	o.mu.Unlock()
}

func (o *ordering) listed(dir string) {
	o.mu.Lock()
	o.listedDirs[dir] = true
	o.mu.Unlock()
	o.advance()
}

func (o *ordering) built(p *Partition) {
	o.mu.Lock()
	heap.Push(&o.ready, p)
	o.mu.Unlock()
	o.advance()
}

// advance releases the ready partitions that sort below every unlisted directory.
func (o *ordering) advance() {
	o.mu.Lock()
	defer o.mu.Unlock()
	released := false
	for len(o.ready) > 0 {
		for len(o.unlisted) > 0 && o.listedDirs[o.unlisted[0]] {
			delete(o.listedDirs, o.unlisted[0])
			heap.Pop(&o.unlisted)
		}
		if !o.done && len(o.unlisted) > 0 && o.ready[0].Path >= o.unlisted[0] {
			break
		}
		p := heap.Pop(&o.ready).(*Partition)
		o.out = append(o.out, p)
		o.outGroups += 1 + len(p.FileGroups)
		released = true
	}
	if released {
		select {
		case o.wake <- struct{}{}:
		default:
		}
	}
}

// take returns the released partitions.
func (o *ordering) take() []*Partition {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := o.out
	o.out, o.outGroups = nil, 0
	o.drained.Broadcast()
	return out
}

// maxOutGroups is how many released file groups may wait for the emitting goroutine before
// new listings wait: the listings would otherwise take both cores from it, and the whole view
// would pile up before being written.
const maxOutGroups = 1 << 15

// wait holds a listing back while the emitting goroutine is behind. Only released partitions
// count: those still waiting for an earlier directory depend on listings finishing.
func (o *ordering) wait() {
	o.mu.Lock()
	for o.outGroups > maxOutGroups {
		o.drained.Wait()
	}
	o.mu.Unlock()
}

type stringHeap []string

func (h stringHeap) Len() int           { return len(h) }
func (h stringHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h stringHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *stringHeap) Push(x any)        { *h = append(*h, x.(string)) }
func (h *stringHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

type partHeap []*Partition

func (h partHeap) Len() int           { return len(h) }
func (h partHeap) Less(i, j int) bool { return h[i].Path < h[j].Path }
func (h partHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *partHeap) Push(x any)        { *h = append(*h, x.(*Partition)) }
func (h *partHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return x
}

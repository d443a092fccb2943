// Package ordered runs independent pieces of work on every core and hands the results back
// in input order — for pipelines whose output must keep the input's order (JSON written in
// path order, records merged in file order) while the work itself is parallel.
package ordered

import "sync"

// Stream takes inputs from next on one goroutine (it may do I/O: inputs are produced in
// order), runs work on each on workers goroutines, and calls consume with the results in input
// order on the calling goroutine, holding at most 2×workers inputs in flight. next returns
// ok=false at the end, or an error that ends the stream. Once consume fails it is not called
// again and no more input is taken. The first error of next or consume is returned.
func Stream[In, Out any](workers int, next func() (in In, ok bool, err error), work func(In) Out, consume func(Out) error) error {
	if workers <= 1 {
		for {
			in, ok, err := next()
			if err != nil || !ok {
				return err
			}
			if err := consume(work(in)); err != nil {
				return err
			}
		}
	}
	type job struct {
		in  In
		out chan Out
	}
	jobs := make(chan job)
	order := make(chan chan Out, 2*workers)
	stop := make(chan struct{})
	var nextErr error
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for j := range jobs {
				j.out <- work(j.in)
			}
		})
	}
	go func() {
		defer close(order)
		defer close(jobs)
		for {
			// The consumer drains what is queued after it fails, so a send below can succeed
			// after stop: look before taking more input.
			select {
			case <-stop:
				return
			default:
			}
			in, ok, err := next()
			if err != nil || !ok {
				nextErr = err
				return
			}
			j := job{in, make(chan Out, 1)}
			select {
			case order <- j.out:
			case <-stop:
				return
			}
			jobs <- j // workers drain jobs until it is closed
		}
	}()
	var err error
	for out := range order {
		v := <-out
		if err == nil {
			if err = consume(v); err != nil {
				close(stop) // the producer stops; what is queued still drains
			}
		}
	}
	wg.Wait()
	if err != nil {
		return err
	}
	return nextErr // read after order closed: the producer has returned
}

// Range is Stream over the indexes 0..n-1.
func Range[Out any](n, workers int, work func(i int) Out, consume func(Out) error) error {
	i := 0
	return Stream(workers, func() (int, bool, error) {
		if i >= n {
			return 0, false, nil
		}
		i++
		return i - 1, true, nil
	}, work, consume)
}

//go:build !unix

package records

// cpuSeconds is not measured here (cpu-s/op reads 0).
func cpuSeconds() float64 { return 0 }

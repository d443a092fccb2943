//go:build !purego

package jscan

import "golang.org/x/sys/cpu"

//go:noescape
func masksAVX2(p *byte, n int, q, br *uint64) int

// useAVX2 selects the vector masks; tests switch it off to check the
// portable ones.
var useAVX2 = cpu.X86.HasAVX2

// chunkMasks fills q[k] and br[k] for the k-th 64-byte chunk of b, for up
// to len(q) chunks (b holds at least that many), stopping before the first
// chunk with a backslash; it returns the number of chunks done.
func chunkMasks(b []byte, q, br []uint64) int {
	if !useAVX2 {
		return chunkMasksGeneric(b, q, br)
	}
	if n := len(q); n > 0 && len(br) >= n && len(b) >= 64*n {
		return masksAVX2(&b[0], n, &q[0], &br[0])
	}
	return 0
}

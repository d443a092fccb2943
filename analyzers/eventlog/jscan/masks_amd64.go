//go:build !purego

package jscan

import "golang.org/x/sys/cpu"

//go:noescape
func bracketsAVX2(p *byte, n int, in uint64, depth int, br *uint64) (done int, out uint64)

// useAVX2 selects the vector masks; tests switch it off to check the
// portable ones.
var useAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasPCLMULQDQ

// chunkBrackets fills br[k] with the bits of the brackets outside strings of
// the k-th 64-byte chunk of b, for up to len(br) chunks (b holds at least
// that many), stopping before the first chunk with a backslash, and after
// the first where the container may end: its closing brackets are at least
// depth, the brackets open at its start. in is all ones when b starts inside
// a string. It returns the number of chunks done and in for the byte after
// them.
func chunkBrackets(b []byte, in uint64, depth int, br []uint64) (int, uint64) {
	if !useAVX2 {
		return chunkBracketsGeneric(b, in, depth, br)
	}
	if n := len(br); n > 0 && len(b) >= 64*n {
		return bracketsAVX2(&b[0], n, in, depth, &br[0])
	}
	return 0, in
}

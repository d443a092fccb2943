//go:build !amd64 || purego

package jscan

// Without the vector masks (other architectures, or -tags purego to test the
// portable path on amd64).
var useAVX2 = false

func chunkBrackets(b []byte, in uint64, depth int, br []uint64) (int, uint64) {
	return chunkBracketsGeneric(b, in, depth, br)
}

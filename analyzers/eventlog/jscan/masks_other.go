//go:build !amd64 || purego

package jscan

// Without the vector masks (other architectures, or -tags purego to test the
// portable path on amd64).
var useAVX2 = false

func chunkMasks(b []byte, q, br []uint64) int { return chunkMasksGeneric(b, q, br) }

// Package bloom reads the bloom filters Hudi writes in base-file footers (Parquet key-value
// metadata org.apache.hudi.bloomfilter): SIMPLE filters (Hadoop's BloomFilter) and
// DYNAMIC_V0 filters (Hudi's InternalDynamicBloomFilter, a row of Hadoop bloom filters), both
// with Hadoop's MurmurHash, and tests record keys against them.
package bloom

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/hudiscope/hudiscope/hudi/internal/parquetsafe"
	"github.com/hudiscope/hudiscope/hudi/storage"
)

// Footer keys Hudi writes (HoodieBloomFilterWriteSupport, HoodieAvroWriteSupport).
const (
	FooterFilter   = "org.apache.hudi.bloomfilter"
	FooterTypeCode = "hoodie_bloom_filter_type_code"
	FooterMinKey   = "hoodie_min_record_key"
	FooterMaxKey   = "hoodie_max_record_key"
)

// maxBits bounds a filter's vector (a hostile footer cannot make it allocate more).
const maxBits = 1 << 31

// Filter is one deserialised filter: one Hadoop bloom filter (SIMPLE) or several (DYNAMIC_V0).
type Filter struct {
	Type  string
	parts []hadoop
}

type hadoop struct {
	nbHash     int
	vectorSize int
	bits       []byte
}

// Parse decodes a footer filter: typeCode is the footer's type code ("SIMPLE", "DYNAMIC_V0";
// "" is SIMPLE, as 0.x wrote before the code existed), serialized its base64 text.
func Parse(typeCode, serialized string) (*Filter, error) {
	b, err := base64.StdEncoding.DecodeString(serialized)
	if err != nil {
		return nil, fmt.Errorf("bloom filter: base64: %w", err)
	}
	f := &Filter{Type: typeCode}
	switch typeCode {
	case "", "SIMPLE":
		f.Type = "SIMPLE"
		h, _, err := readHadoop(b)
		if err != nil {
			return nil, err
		}
		f.parts = []hadoop{h}
	case "DYNAMIC_V0":
		// Filter header (version, nbHash, hashType, vectorSize), then nr, currentNbRecord and
		// the number of filters, then each filter as Hadoop writes it.
		if len(b) < 13+12 {
			return nil, errors.New("bloom filter: dynamic filter too short")
		}
		p := b[13+8:] // past the header, nr and currentNbRecord
		n := int(int32(binary.BigEndian.Uint32(p)))
		p = p[4:]
		if n <= 0 || n > len(p) {
			return nil, fmt.Errorf("bloom filter: %d filters in a %d-byte dynamic filter", n, len(b))
		}
		for range n {
			h, rest, err := readHadoop(p)
			if err != nil {
				return nil, err
			}
			f.parts, p = append(f.parts, h), rest
		}
	default:
		return nil, fmt.Errorf("bloom filter type %q is not read", typeCode)
	}
	return f, nil
}

// readHadoop reads one Hadoop BloomFilter as Filter.write and BloomFilter.write lay it out:
// int version (-1), int nbHash, byte hashType (1: MurmurHash), int vectorSize, then the bit
// vector (bit i in byte i/8, value 1<<(i%8)).
func readHadoop(b []byte) (hadoop, []byte, error) {
	if len(b) < 13 {
		return hadoop{}, nil, errors.New("bloom filter: header too short")
	}
	if v := int32(binary.BigEndian.Uint32(b)); v != -1 {
		return hadoop{}, nil, fmt.Errorf("bloom filter: version %d (want -1)", v)
	}
	h := hadoop{nbHash: int(int32(binary.BigEndian.Uint32(b[4:]))), vectorSize: int(int32(binary.BigEndian.Uint32(b[9:])))}
	if b[8] != 1 {
		return hadoop{}, nil, fmt.Errorf("bloom filter: hash type %d (only MurmurHash, 1, is read)", b[8])
	}
	if h.nbHash <= 0 || h.nbHash > 64 || h.vectorSize <= 0 || h.vectorSize > maxBits {
		return hadoop{}, nil, fmt.Errorf("bloom filter: %d hashes over %d bits", h.nbHash, h.vectorSize)
	}
	n := (h.vectorSize + 7) / 8
	if len(b) < 13+n {
		return hadoop{}, nil, fmt.Errorf("bloom filter: %d-bit vector in %d bytes", h.vectorSize, len(b)-13)
	}
	h.bits = b[13 : 13+n]
	return h, b[13+n:], nil
}

// MightContain reports whether key may be in the filter (false: it certainly is not).
func (f *Filter) MightContain(key string) bool {
	data := []byte(key)
	for _, h := range f.parts {
		if h.test(data) {
			return true
		}
	}
	return false
}

func (h hadoop) test(data []byte) bool {
	var seed int32
	for range h.nbHash {
		seed = murmur(data, seed)
		i := int(seed % int32(h.vectorSize))
		if i < 0 {
			i = -i
		}
		if h.bits[i/8]&(1<<(i%8)) == 0 {
			return false
		}
	}
	return true
}

// murmur is Hudi's MurmurHash.hash(data, seed) (MurmurHash2, 32 bits, bytes read as Java's
// signed bytes), checked against the Hudi 1.2.0 bundle's class: "799" seed 0 is -164748459,
// "12345678" seed 7 is -467483166.
func murmur(data []byte, seed int32) int32 {
	const m int32 = 0x5bd1e995
	const r = 24
	h := seed ^ int32(len(data))
	n4 := len(data) >> 2
	for i := range n4 {
		j := i << 2
		k := int32(int8(data[j+3]))
		k = k<<8 | int32(data[j+2])
		k = k<<8 | int32(data[j+1])
		k = k<<8 | int32(data[j])
		k *= m
		k ^= int32(uint32(k) >> r)
		k *= m
		h *= m
		h ^= k
	}
	// The tail is indexed from the end: with three bytes left the first is shifted by 16.
	if left := len(data) - n4<<2; left != 0 {
		end := len(data)
		if left >= 3 {
			h ^= int32(int8(data[end-3])) << 16
		}
		if left >= 2 {
			h ^= int32(int8(data[end-2])) << 8
		}
		h ^= int32(int8(data[end-1]))
		h *= m
	}
	h ^= int32(uint32(h) >> 13)
	h *= m
	h ^= int32(uint32(h) >> 15)
	return h
}

// Footer is what a base file's footer says about the record keys it holds.
type Footer struct {
	// Filter is nil when the footer carries none.
	Filter *Filter
	// MinKey and MaxKey bound the file's record keys (HasRange false when not written).
	MinKey, MaxKey string
	HasRange       bool
}

// ReadFooter reads the key metadata of the Parquet base file at path (footer only: no page is
// read). A filter that cannot be decoded is an error naming the file.
func ReadFooter(ctx context.Context, store storage.Storage, path string) (*Footer, error) {
	f, err := store.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	pf, err := parquetsafe.Open(f, f.Size(), path, parquetsafe.Limits{})
	if err != nil {
		return nil, err
	}
	out := &Footer{}
	out.MinKey, out.HasRange = pf.Lookup(FooterMinKey)
	var ok bool
	if out.MaxKey, ok = pf.Lookup(FooterMaxKey); !ok {
		out.HasRange = false
	}
	if text, ok := pf.Lookup(FooterFilter); ok {
		code, _ := pf.Lookup(FooterTypeCode)
		if out.Filter, err = Parse(code, text); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	return out, nil
}

// MayHold says whether the file may hold key: within the key range (when written) and
// passing the filter (when there is one).
func (f *Footer) MayHold(key string) bool {
	if f.HasRange && (key < f.MinKey || key > f.MaxKey) {
		return false
	}
	return f.Filter == nil || f.Filter.MightContain(key)
}

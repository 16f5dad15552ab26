package artifacts

import (
	"math/bits"
	"sync"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// recycler is an Arrow allocator that keeps freed buffers for the next
// batch. With Go's allocator every record was built from scratch: the
// embedding column alone grew by doubling to 8 MB a row group, and the
// writer's garbage (a few GB over a 100 MB corpus) kept the GC busy. Arrow
// frees a buffer when its last reference is released, so a buffer comes
// back only once the record that held it has been written.
//
// Buffers are kept by power-of-two class, at most keepPerClass of each and
// keepBytes in all: what keeps a run's peak memory where it was. It is
// safe for concurrent use.
type recycler struct {
	mu   sync.Mutex
	free [64][][]byte // by class: bits.Len of the capacity - 1
	kept int          // bytes in free
}

var _ memory.Allocator = (*recycler)(nil)

const (
	keepPerClass = 16
	keepBytes    = 8 << 20 // a batch's vectors (2 MB) and text, and a column's pages
	alignment    = 64      // Arrow's, for its vectorised kernels
)

func class(size int) int { return bits.Len(uint(max(size, 1) - 1)) }

// Allocate returns size zeroed bytes, 64-byte aligned, as memory.GoAllocator does.
func (r *recycler) Allocate(size int) []byte {
	c := class(size)
	r.mu.Lock()
	if n := len(r.free[c]); n > 0 {
		b := r.free[c][n-1]
		r.free[c][n-1] = nil
		r.free[c] = r.free[c][:n-1]
		r.kept -= cap(b)
		r.mu.Unlock()
		b = b[:size]
		clear(b)
		return b
	}
	r.mu.Unlock()
	capacity := 1 << c
	buf := make([]byte, capacity+alignment)
	shift := int(-uintptr(unsafe.Pointer(unsafe.SliceData(buf)))) & (alignment - 1)
	return buf[shift : shift+size : shift+capacity]
}

// Reallocate grows b in place when its class has room, like memory.GoAllocator.
func (r *recycler) Reallocate(size int, b []byte) []byte {
	if cap(b) >= size {
		return b[:size]
	}
	nb := r.Allocate(size)
	copy(nb, b)
	r.Free(b)
	return nb
}

// Free keeps b for a later Allocate of its class.
func (r *recycler) Free(b []byte) {
	if cap(b) == 0 || cap(b)&(cap(b)-1) != 0 {
		return // not one of ours (or empty): let the GC have it
	}
	c := class(cap(b))
	r.mu.Lock()
	if len(r.free[c]) < keepPerClass && r.kept+cap(b) <= keepBytes {
		r.free[c] = append(r.free[c], b[:0])
		r.kept += cap(b)
	}
	r.mu.Unlock()
}

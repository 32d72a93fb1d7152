package sqlite

import (
	"encoding/binary"
	"math"
	"slices"
	"sync"
)

// DefaultVectorCache is how many bytes of embeddings the Store keeps in
// memory when no WithVectorCache option says otherwise.
const DefaultVectorCache = 128 << 20

// vecCache keeps people's embeddings in memory, one set per person and
// vector table, so that a search computes cosine similarity over float32
// slices instead of asking vec0 to decode every BLOB of the person: about
// seven times faster at 10,000 (BenchmarkVectorScan). A set holds one
// person's vectors only and is found by the person's id, so a search never
// sees another person's vectors.
//
// The sets follow the database: every committed change to a person's
// vectors updates or drops their sets, and bumps the person's generation,
// so that a set read from a snapshot older than the change is never
// installed. Past the byte limit the least recently used sets go; a
// person whose vectors alone pass it is searched with vec0.
type vecCache struct {
	mu    sync.Mutex
	limit int64
	used  int64
	tick  uint64
	gen   map[string]uint64
	sets  map[vecKey]*vecSet
	// big holds the generation at which a person's vectors of a table were
	// found too many to cache: vec0 searches them until they change.
	big map[vecKey]uint64
}

type vecKey struct{ person, table string }

// vecSet is one person's vectors of one table: rows of dim float32, each of
// unit length (cosine similarity is their dot product).
type vecSet struct {
	mu   sync.RWMutex
	dim  int
	ids  []int64
	vals []float32
	// used is the tick of the last search, under vecCache.mu.
	used uint64
}

func newVecCache(limit int64) *vecCache {
	return &vecCache{limit: limit, gen: map[string]uint64{}, sets: map[vecKey]*vecSet{}, big: map[vecKey]uint64{}}
}

func (c *vecCache) enabled() bool { return c.limit > 0 }

// generation returns the person's generation, to be passed to install.
func (c *vecCache) generation(person string) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen[person]
}

// get returns the person's set of table, or nil; tooBig reports that the
// set, unchanged since, was found too big to cache.
func (c *vecCache) get(person, table string) (set *vecSet, tooBig bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := vecKey{person, table}
	set = c.sets[k]
	if set != nil {
		c.tick++
		set.used = c.tick
		return set, false
	}
	g, ok := c.big[k]
	if ok && g != c.gen[person] {
		delete(c.big, k)
		ok = false
	}
	return nil, ok
}

// markBig records that the person's vectors of table, as of gen, pass the
// limit.
func (c *vecCache) markBig(person, table string, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen[person] == gen {
		c.big[vecKey{person, table}] = gen
	}
}

func (set *vecSet) bytes() int64 { return int64(len(set.ids))*8 + int64(len(set.vals))*4 }

// install caches set unless the person's vectors changed since gen was read
// or the set alone passes the limit. It evicts the least recently used sets
// to make room.
func (c *vecCache) install(person, table string, gen uint64, set *vecSet) {
	c.mu.Lock()
	defer c.mu.Unlock()
	size := set.bytes()
	if c.gen[person] != gen || size > c.limit {
		return
	}
	k := vecKey{person, table}
	if old := c.sets[k]; old != nil {
		c.used -= old.bytes()
		delete(c.sets, k)
	}
	for c.used+size > c.limit && len(c.sets) > 0 {
		var lru vecKey
		first := true
		for k, s := range c.sets {
			if first || s.used < c.sets[lru].used {
				lru, first = k, false
			}
		}
		c.used -= c.sets[lru].bytes()
		delete(c.sets, lru)
	}
	c.tick++
	set.used = c.tick
	c.sets[k] = set
	c.used += size
}

// upsert sets the vector of rowid in the person's set of table, if cached.
func (c *vecCache) upsert(person, table string, rowid int64, v []float32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen[person]++
	set := c.sets[vecKey{person, table}]
	if set == nil {
		return
	}
	set.mu.Lock()
	defer set.mu.Unlock()
	before := set.bytes()
	if len(v) != set.dim {
		// Cannot happen: the table name carries the dimension.
		delete(c.sets, vecKey{person, table})
		c.used -= before
		return
	}
	i := indexOf(set.ids, rowid)
	if i < 0 {
		set.ids = append(set.ids, rowid)
		set.vals = append(set.vals, make([]float32, set.dim)...)
		i = len(set.ids) - 1
	}
	normalizeInto(set.vals[i*set.dim:(i+1)*set.dim], v)
	c.used += set.bytes() - before
}

// remove deletes rowids from every cached set of the person.
func (c *vecCache) remove(person string, rowids []int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen[person]++
	for k, set := range c.sets {
		if k.person != person {
			continue
		}
		set.mu.Lock()
		before := set.bytes()
		for _, id := range rowids {
			i := indexOf(set.ids, id)
			if i < 0 {
				continue
			}
			last := len(set.ids) - 1
			set.ids[i] = set.ids[last]
			copy(set.vals[i*set.dim:(i+1)*set.dim], set.vals[last*set.dim:])
			set.ids = set.ids[:last]
			set.vals = set.vals[:last*set.dim]
		}
		c.used += set.bytes() - before
		set.mu.Unlock()
	}
}

// drop forgets every cached set of the person.
func (c *vecCache) drop(person string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen[person]++
	for k := range c.big {
		if k.person == person {
			delete(c.big, k)
		}
	}
	for k, set := range c.sets {
		if k.person == person {
			c.used -= set.bytes()
			delete(c.sets, k)
		}
	}
}

func indexOf(ids []int64, id int64) int {
	for i, x := range ids {
		if x == id {
			return i
		}
	}
	return -1
}

// grow makes room for n more vectors.
func (set *vecSet) grow(n int) {
	if cap(set.ids)-len(set.ids) < n {
		set.ids = slices.Grow(set.ids, max(n, len(set.ids)))
		set.vals = slices.Grow(set.vals, max(n, len(set.ids))*set.dim)
	}
}

// add appends a vector given as sqlite-vec's float32 little-endian BLOB. A
// BLOB of another size is skipped.
func (set *vecSet) add(rowid int64, blob []byte) {
	if len(blob) != 4*set.dim {
		return
	}
	n := len(set.vals)
	set.vals = slices.Grow(set.vals, set.dim)[:n+set.dim]
	row := set.vals[n:]
	for i := range row {
		row[i] = math.Float32frombits(binary.LittleEndian.Uint32(blob[4*i:]))
	}
	normalizeInto(row, row)
	set.ids = append(set.ids, rowid)
}

// normalizeInto writes v scaled to unit length into dst; a zero vector
// stays zero.
func normalizeInto(dst, v []float32) {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	if n == 0 {
		copy(dst, v)
		return
	}
	inv := float32(1 / math.Sqrt(n))
	for i, x := range v {
		dst[i] = x * inv
	}
}

// nearest returns the rowids of up to k vectors most similar to q by cosine
// similarity, best first; ties keep the set's order. Zero vectors (no
// direction) are never returned.
func (set *vecSet) nearest(q []float32, k int) []int64 {
	if len(q) != set.dim || k <= 0 {
		return nil
	}
	u := make([]float32, len(q))
	normalizeInto(u, q)
	type hit struct {
		id  int64
		sim float32
	}
	top := make([]hit, 0, k)
	set.mu.RLock()
	for i, id := range set.ids {
		row := set.vals[i*set.dim : (i+1)*set.dim]
		sim := dot(u, row)
		if sim == 0 && isZero(row) {
			continue
		}
		if len(top) == k && sim <= top[k-1].sim {
			continue
		}
		if len(top) < k {
			top = append(top, hit{})
		}
		j := len(top) - 1
		for j > 0 && top[j-1].sim < sim {
			top[j] = top[j-1]
			j--
		}
		top[j] = hit{id, sim}
	}
	set.mu.RUnlock()
	out := make([]int64, len(top))
	for i, h := range top {
		out[i] = h.id
	}
	return out
}

// dot is the dot product of two vectors of equal length, in eight lanes
// (slicing as it goes lets the compiler drop the bounds checks).
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3, s4, s5, s6, s7 float32
	for len(a) >= 8 && len(b) >= 8 {
		s0 += a[0] * b[0]
		s1 += a[1] * b[1]
		s2 += a[2] * b[2]
		s3 += a[3] * b[3]
		s4 += a[4] * b[4]
		s5 += a[5] * b[5]
		s6 += a[6] * b[6]
		s7 += a[7] * b[7]
		a, b = a[8:], b[8:]
	}
	for i := range a {
		s0 += a[i] * b[i]
	}
	return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))
}

func isZero(v []float32) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

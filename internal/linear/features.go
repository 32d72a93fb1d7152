package linear

import (
	"cmp"
	"math"
	"slices"
)

// Bits is the size of the feature hash space: 2^Bits buckets.
const Bits = 18

// maxGramWord bounds the words whose character n-grams are taken: longer
// tokens (links, keyboard mashing) add only their word features.
const maxGramWord = 64

// Feature kinds, mixed into the hash so that a word and a character n-gram
// with the same bytes land in different buckets.
const (
	kindWord    = 0x9e3779b1
	kindBigram  = 0x85ebca77
	kindCharGrm = 0xc2b2ae3d
)

const (
	fnvOffset = 2166136261
	fnvPrime  = 16777619
)

// fmix is MurmurHash3's finalizer: FNV-1a leaves its low bits poorly mixed,
// and the bucket is taken from the low bits.
func fmix(h uint32) uint32 {
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}

// AppendHashes appends to dst the bucket (0 <= id < 2^bits) of every feature
// occurrence in canon, a canonical text (see safety.Normalize: lowercase
// ASCII words separated by single spaces, " . " between sentences): word
// unigrams, word bigrams within a sentence, and the character 3- to 5-grams
// of each word padded with a space on both sides. A feature that occurs
// several times is appended as often. It builds no strings.
func AppendHashes(dst []uint32, canon string, bits uint) []uint32 {
	mask := uint32(1)<<bits - 1
	prevStart, prevEnd := -1, -1
	for i := 0; i < len(canon); {
		for i < len(canon) && canon[i] == ' ' {
			i++
		}
		j := i
		for j < len(canon) && canon[j] != ' ' {
			j++
		}
		if j == i {
			break
		}
		w := canon[i:j]
		if w == "." {
			// A sentence mark: no feature of its own, and no bigram across it.
			prevStart = -1
			i = j
			continue
		}
		h := uint32(fnvOffset)
		for k := 0; k < len(w); k++ {
			h = (h ^ uint32(w[k])) * fnvPrime
		}
		dst = append(dst, fmix(h^kindWord)&mask)
		if prevStart >= 0 {
			b := uint32(fnvOffset)
			for k := prevStart; k < prevEnd; k++ {
				b = (b ^ uint32(canon[k])) * fnvPrime
			}
			b = (b ^ ' ') * fnvPrime
			b = (b ^ h) * fnvPrime // the second word enters by its own hash
			dst = append(dst, fmix(b^kindBigram)&mask)
		}
		prevStart, prevEnd = i, j
		if len(w) <= maxGramWord {
			dst = appendCharGrams(dst, w, mask)
		}
		i = j
	}
	return dst
}

// appendCharGrams appends the 3- to 5-grams of " w ". Each start position
// hashes its bytes once and emits the 3-, 4- and 5-gram on the way, with the
// gram length mixed in at the end.
func appendCharGrams(dst []uint32, w string, mask uint32) []uint32 {
	n := len(w) + 2
	at := func(p int) byte {
		if p == 0 || p == n-1 {
			return ' '
		}
		return w[p-1]
	}
	for s := 0; s+3 <= n; s++ {
		h := uint32(fnvOffset)
		for k := 0; k < 5 && s+k < n; k++ {
			h = (h ^ uint32(at(s+k))) * fnvPrime
			if k >= 2 {
				dst = append(dst, fmix(h^(kindCharGrm+uint32(k)))&mask)
			}
		}
	}
	return dst
}

// sublinear[c] is 1 + ln(c), the sublinear term frequency of a count c.
var sublinear = func() [64]float32 {
	var t [64]float32
	for c := 1; c < len(t); c++ {
		t[c] = float32(1 + math.Log(float64(c)))
	}
	return t
}()

// TF returns the sublinear term frequency 1 + ln(count) of a count >= 1.
func TF(count int) float32 {
	if count < len(sublinear) {
		return sublinear[count]
	}
	return float32(1 + math.Log(float64(count)))
}

// counter counts bucket occurrences in an open-addressing table that is
// reused between texts (see Model.Score's pool).
type counter struct {
	keys   []uint32 // bucket+1; 0 is an empty slot
	counts []uint32
	used   []int32 // occupied slots, in first-seen order
}

// count fills the table with the occurrences in ids.
func (c *counter) count(ids []uint32) {
	size := 256
	for size < 2*len(ids) {
		size <<= 1
	}
	if cap(c.keys) < size {
		c.keys = make([]uint32, size)
		c.counts = make([]uint32, size)
	}
	c.keys = c.keys[:size]
	c.counts = c.counts[:size]
	clear(c.keys)
	c.used = c.used[:0]
	m := uint32(size - 1)
	for _, id := range ids {
		key := id + 1
		s := fmix(key) & m
		for {
			k := c.keys[s]
			if k == key {
				c.counts[s]++
				break
			}
			if k == 0 {
				c.keys[s] = key
				c.counts[s] = 1
				c.used = append(c.used, int32(s))
				break
			}
			s = (s + 1) & m
		}
	}
}

// Doc is one text as a sparse vector of sublinear term frequencies: bucket
// ids in increasing order, with their 1 + ln(count).
type Doc struct {
	IDs []uint32
	TF  []float32
}

// NewDoc featurizes canon (see AppendHashes) into a Doc.
func NewDoc(canon string, bits uint) Doc {
	ids := AppendHashes(nil, canon, bits)
	var c counter
	c.count(ids)
	type pair struct {
		id uint32
		n  uint32
	}
	ps := make([]pair, len(c.used))
	for i, s := range c.used {
		ps[i] = pair{c.keys[s] - 1, c.counts[s]}
	}
	// Ids are unique, so any correct sort gives the same order.
	slices.SortFunc(ps, func(x, y pair) int { return cmp.Compare(x.id, y.id) })
	d := Doc{IDs: make([]uint32, len(ps)), TF: make([]float32, len(ps))}
	for i, p := range ps {
		d.IDs[i] = p.id
		d.TF[i] = TF(int(p.n))
	}
	return d
}

package llmtest

import (
	"hash/fnv"
	"math"
	"strings"
	"unicode"
)

// Embed returns the fake server's embedding of text: a deterministic,
// L2-normalized feature-hashing vector of dimension dim over the text's
// lower-cased words. Texts sharing words have a positive cosine
// similarity; identical texts have identical vectors. Text without words
// still gets a unit vector. It panics if dim < 1.
func Embed(text string, dim int) []float32 {
	if dim < 1 {
		panic("llmtest: Embed: dim must be at least 1")
	}
	v := make([]float64, dim)
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r)
	})
	if len(words) == 0 {
		words = []string{text}
	}
	for _, w := range words {
		h := fnv.New64a()
		_, _ = h.Write([]byte(w))
		sum := h.Sum64()
		sign := 1.0
		if sum>>63 == 1 {
			sign = -1
		}
		v[sum%uint64(dim)] += sign
	}
	var norm float64
	for _, x := range v {
		norm += x * x
	}
	norm = math.Sqrt(norm)
	out := make([]float32, dim)
	for i, x := range v {
		if norm > 0 {
			out[i] = float32(x / norm)
		}
	}
	if norm == 0 {
		// Hash collisions cancelled every word out: fall back to the
		// first word's slot so the vector is still unit length.
		h := fnv.New64a()
		_, _ = h.Write([]byte(words[0]))
		out[h.Sum64()%uint64(dim)] = 1
	}
	return out
}

package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"math"
	"slices"
	"sync"
)

// FTS5's bm25() scores every record that matches any query term, and for
// each it looks up the record's length: about 1.3 µs a record, 1 ms of the
// 1.8 ms a turn's retrieval took with 10,000 records. ftsRank computes the
// same BM25 in Go and looks up lengths only for the records that can still
// reach the top:
//
//	score(d) = Σ_i idf_i · tf·(k1+1) / (tf + k1·(1 − b + b·|d|/avgdl))
//	idf_i    = ln((N − n_i + 0.5) / (n_i + 0.5)), 1e-6 when not positive
//
// with FTS5's k1 = 1.2, b = 0.75, N and avgdl over the whole table, n_i the
// records matching term i. Every indexed term of a record is distinct
// (personTerms), so tf is 1 and score(d) = idfsum(d) · f(|d|), where f falls
// with |d| and is at most f(0). Records are taken by idfsum, best first;
// once the next one's idfsum · f(0) cannot beat the limit-th score, no
// later one can. Two words sharing a stem (running, runs) are the one case
// where FTS5 would count tf = 2; ftsRank counts 1.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// errFTSLayout: FTS5's shadow tables are not laid out as ftsRank expects
// (the caller falls back to bm25() in SQL).
var errFTSLayout = errors.New("unexpected FTS5 shadow table layout")

// ftsRank returns the rowids of memory_fts matching any of terms (person-
// prefixed), best BM25 first, at most limit.
func (s *Store) ftsRank(ctx context.Context, terms []string, limit int) ([]int64, error) {
	if len(terms) == 0 || limit <= 0 {
		return nil, nil
	}
	nRow, nToken, err := s.ftsTotals(ctx)
	if err != nil {
		return nil, err
	}
	if nRow == 0 {
		return nil, nil
	}
	type cand struct {
		rowid  int64
		idfsum float64
		score  float64
	}
	idx := map[int64]int{}
	var cands []cand
	var ids []int64
	for _, t := range terms {
		q, _ := ftsQuery([]string{t})
		ids = ids[:0]
		err := forEach(ctx, s.rd, func(row *sql.Rows) error {
			var id int64
			if err := row.Scan(&id); err != nil {
				return err
			}
			ids = append(ids, id)
			return nil
		}, `SELECT rowid FROM memory_fts WHERE memory_fts MATCH ?`, q)
		if err != nil {
			return nil, err
		}
		n := float64(len(ids))
		idf := math.Log((float64(nRow) - n + 0.5) / (n + 0.5))
		if idf <= 0 {
			idf = 1e-6
		}
		for _, id := range ids {
			i, ok := idx[id]
			if !ok {
				i = len(cands)
				idx[id] = i
				cands = append(cands, cand{rowid: id})
			}
			cands[i].idfsum += idf
		}
	}
	slices.SortFunc(cands, func(a, b cand) int {
		switch {
		case a.idfsum > b.idfsum:
			return -1
		case a.idfsum < b.idfsum:
			return 1
		}
		return 0
	})
	avgdl := float64(nToken) / float64(nRow)
	lenFactor := func(d float64) float64 {
		return (bm25K1 + 1) / (1 + bm25K1*(1-bm25B+bm25B*d/avgdl))
	}
	maxFactor := lenFactor(0)
	var top []cand // best first, at most limit
	const batch = 32
	for start := 0; start < len(cands); start += batch {
		if len(top) == limit && cands[start].idfsum*maxFactor < top[limit-1].score {
			break
		}
		part := cands[start:min(start+batch, len(cands))]
		ids = ids[:0]
		for _, c := range part {
			ids = append(ids, c.rowid)
		}
		sizes, err := s.ftsDocSizes(ctx, ids)
		if err != nil {
			return nil, err
		}
		for _, c := range part {
			d, ok := sizes[c.rowid]
			if !ok {
				return nil, errFTSLayout
			}
			c.score = c.idfsum * lenFactor(float64(d))
			if len(top) == limit && c.score <= top[limit-1].score {
				continue
			}
			// Equal scores: the lower rowid first.
			j, _ := slices.BinarySearchFunc(top, c, func(e, c cand) int {
				switch {
				case e.score > c.score, e.score == c.score && e.rowid < c.rowid:
					return -1
				}
				return 1
			})
			top = slices.Insert(top, j, c)
			if len(top) > limit {
				top = top[:limit]
			}
		}
	}
	out := make([]int64, len(top))
	for i, c := range top {
		out[i] = c.rowid
	}
	return out, nil
}

// ftsTotals reads FTS5's averages record: the number of rows and the
// number of tokens of the whole table. A table that never held a row has
// an empty record: no rows (not a layout error, which would send every
// search of a new database to the slower bm25() in SQL).
func (s *Store) ftsTotals(ctx context.Context) (nRow, nToken int64, err error) {
	var block []byte
	if err := s.rd.QueryRowContext(ctx, `SELECT block FROM memory_fts_data WHERE id = 1`).Scan(&block); err != nil {
		return 0, 0, err
	}
	if len(block) == 0 {
		return 0, 0, nil
	}
	v, n := fts5Varint(block)
	if n == 0 {
		return 0, 0, errFTSLayout
	}
	nRow, block = int64(v), block[n:]
	for len(block) > 0 {
		v, n := fts5Varint(block)
		if n == 0 {
			return 0, 0, errFTSLayout
		}
		nToken += int64(v)
		block = block[n:]
	}
	return nRow, nToken, nil
}

// maxDocLens bounds the lengths docLens keeps (about 40 bytes each);
// past it they are all dropped and read again as needed.
const maxDocLens = 1 << 20

// docLens keeps the token counts of memory_fts rows, which only change
// when a row is deleted (its rowid may then be reused). A deletion bumps
// gen once its transaction has ended, so that a count read before it is
// not kept after it.
type docLens struct {
	mu  sync.Mutex
	gen uint64
	m   map[int64]uint32
}

// forget drops the counts of deleted rows.
func (c *docLens) forget(rowids []int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	for _, id := range rowids {
		delete(c.m, id)
	}
}

// ftsDocSizes returns the token counts of the rows ids that exist.
func (s *Store) ftsDocSizes(ctx context.Context, ids []int64) (map[int64]uint32, error) {
	out := make(map[int64]uint32, len(ids))
	var missing []int64
	s.lens.mu.Lock()
	gen := s.lens.gen
	for _, id := range ids {
		if n, ok := s.lens.m[id]; ok {
			out[id] = n
		} else {
			missing = append(missing, id)
		}
	}
	s.lens.mu.Unlock()
	if len(missing) == 0 {
		return out, nil
	}
	read, err := s.readDocSizes(ctx, missing)
	if err != nil {
		return nil, err
	}
	s.lens.mu.Lock()
	defer s.lens.mu.Unlock()
	keep := s.lens.gen == gen
	if s.lens.m == nil || len(s.lens.m)+len(read) > maxDocLens {
		s.lens.m = make(map[int64]uint32, len(read))
	}
	for id, n := range read {
		out[id] = n
		if keep {
			s.lens.m[id] = n
		}
	}
	return out, nil
}

// readDocSizes reads the token counts of the rows ids from FTS5's docsize
// table.
func (s *Store) readDocSizes(ctx context.Context, ids []int64) (map[int64]uint32, error) {
	rows, err := s.rd.QueryContext(ctx, `SELECT id, sz FROM memory_fts_docsize WHERE id IN (SELECT value FROM json_each(?))`, idList(ids))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make(map[int64]uint32, len(ids))
	var id int64
	var sz []byte
	for rows.Next() {
		if err := rows.Scan(&id, &sz); err != nil {
			return nil, err
		}
		var total uint32
		for len(sz) > 0 {
			v, n := fts5Varint(sz)
			if n == 0 {
				return nil, errFTSLayout
			}
			total += uint32(v)
			sz = sz[n:]
		}
		out[id] = total
	}
	return out, rows.Err()
}

// fts5Varint decodes SQLite's variable-length integer (big-endian groups of
// seven bits, a ninth byte of eight), which FTS5 uses in its shadow tables.
// n is 0 when b ends inside it.
func fts5Varint(b []byte) (v uint64, n int) {
	for i := 0; i < 8; i++ {
		if i >= len(b) {
			return 0, 0
		}
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i]&0x80 == 0 {
			return v, i + 1
		}
	}
	if len(b) < 9 {
		return 0, 0
	}
	return v<<8 | uint64(b[8]), 9
}

package sqlite

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/havenbot/haven/memory"

	// sqlite-vec's vec0 virtual table, registered for every connection.
	_ "modernc.org/sqlite/vec"
)

// Embeddings live in sqlite-vec vec0 tables, one per embedding model and
// dimension (memory_vec_<dim>_<hash of model>), partitioned by person so a
// person's search reads only their vectors. The rowid is the record's
// memory_fts rowid. BenchmarkVectorScan compares vec0 with a brute-force scan
// of BLOBs (vec0 was about four times faster at every size) and with the
// Store's in-memory sets (veccache.go), which search is done with: about seven
// times faster than vec0 once a person's vectors are loaded. vec0 remains
// the store of record, and the search of a person with more vectors than
// the cache holds.

// vecTables caches the names of the vector tables that exist.
type vecTables struct {
	mu     sync.Mutex
	loaded bool
	names  map[string]bool
}

// vecTableName names the vector table of an embedding model and dimension.
func vecTableName(model string, dim int) string {
	h := fnv.New32a()
	h.Write([]byte(model))
	return fmt.Sprintf("memory_vec_%d_%08x", dim, h.Sum32())
}

func (s *Store) vecTableList(ctx context.Context, q rowsQueryer) (map[string]bool, error) {
	s.vec.mu.Lock()
	defer s.vec.mu.Unlock()
	if s.vec.loaded {
		return s.vec.names, nil
	}
	rows, err := q.QueryContext(ctx, `SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE 'memory\_vec\_%' ESCAPE '\'
		AND sql LIKE 'CREATE VIRTUAL TABLE%'`)
	if err != nil {
		return nil, fmt.Errorf("list vector tables: %w", err)
	}
	defer rows.Close()
	names := map[string]bool{}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		names[n] = true
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	s.vec.names, s.vec.loaded = names, true
	return names, nil
}

// vecBlob encodes v as sqlite-vec's float32 little-endian BLOB.
func vecBlob(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

// SetEmbedding stores the embedding of the person's active fact or episode
// under model. A record that is gone or inactive is skipped without error.
func (s *Store) SetEmbedding(ctx context.Context, personID string, ref memory.Ref, model string, v []float32) error {
	if len(v) == 0 || len(v) > 8192 || model == "" {
		return fmt.Errorf("set embedding of %s %d: need a model and 1-8192 dimensions, got %d", ref.Kind, ref.ID, len(v))
	}
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return fmt.Errorf("set embedding of %s %d: the vector holds NaN or Inf", ref.Kind, ref.ID)
		}
	}
	var q string
	switch ref.Kind {
	case memory.KindFact:
		q = `SELECT 1 FROM facts WHERE id = ? AND person_id = ? AND active = 1`
	case memory.KindEpisode:
		q = `SELECT 1 FROM episodes WHERE id = ? AND person_id = ?`
	default:
		return fmt.Errorf("set embedding: %s records are not embedded", ref.Kind)
	}
	name := vecTableName(model, len(v))
	stored := false
	err := s.write(ctx, func(tx *wtx) error {
		var one int
		if err := tx.QueryRowContext(ctx, q, ref.ID, personID).Scan(&one); errors.Is(err, sql.ErrNoRows) {
			return nil
		} else if err != nil {
			return err
		}
		names, err := s.vecTableList(ctx, tx)
		if err != nil {
			return err
		}
		if !names[name] {
			if _, err := tx.uncached().ExecContext(ctx, fmt.Sprintf(`CREATE VIRTUAL TABLE IF NOT EXISTS %s USING vec0 (
				person_id TEXT PARTITION KEY, embedding float[%d] distance_metric=cosine)`, name, len(v))); err != nil {
				return fmt.Errorf("create vector table: %w", err)
			}
		}
		rowid := ftsRowid(ref)
		if _, err := tx.ExecContext(ctx, `DELETE FROM `+name+` WHERE rowid = ?`, rowid); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO `+name+` (rowid, person_id, embedding) VALUES (?, ?, ?)`, rowid, personID, vecBlob(v)); err != nil {
			return err
		}
		stored = true
		return nil
	})
	if err != nil {
		// A failed transaction may have rolled back a table creation; a
		// failed commit may still have stored the vector.
		s.vec.mu.Lock()
		s.vec.loaded = false
		s.vec.mu.Unlock()
		s.vc.drop(personID)
		return fmt.Errorf("set embedding of %s %d: %w", ref.Kind, ref.ID, err)
	}
	if stored {
		s.vc.upsert(personID, name, ftsRowid(ref), v)
	}
	s.vec.mu.Lock()
	if s.vec.loaded {
		s.vec.names[name] = true
	}
	s.vec.mu.Unlock()
	return nil
}

// deleteVectors removes rowid from every vector table.
func (s *Store) deleteVectors(ctx context.Context, tx *wtx, rowid int64) error {
	names, err := s.vecTableList(ctx, tx)
	if err != nil {
		return err
	}
	for name := range names {
		if _, err := tx.ExecContext(ctx, `DELETE FROM `+name+` WHERE rowid = ?`, rowid); err != nil {
			return fmt.Errorf("delete vector: %w", err)
		}
	}
	return nil
}

// searchVectors returns the person's records nearest to v by cosine
// distance, among those embedded with model.
func (s *Store) searchVectors(ctx context.Context, personID, model string, v []float32, limit int) ([]memory.Ref, error) {
	names, err := s.vecTableList(ctx, s.rd)
	if err != nil {
		return nil, err
	}
	name := vecTableName(model, len(v))
	if !names[name] {
		return nil, nil
	}
	if s.vc.enabled() {
		set, err := s.personVectors(ctx, personID, name, len(v))
		if err != nil {
			return nil, err
		}
		if set != nil {
			ids := set.nearest(v, limit)
			out := make([]memory.Ref, len(ids))
			for i, id := range ids {
				out[i] = refOfRowid(id)
			}
			return out, nil
		}
	}
	rows, err := s.rd.QueryContext(ctx, `SELECT rowid FROM `+name+` WHERE embedding MATCH ? AND k = ? AND person_id = ? ORDER BY distance`,
		vecBlob(v), limit, personID)
	if err != nil {
		if strings.Contains(err.Error(), "no such table") {
			return nil, nil
		}
		return nil, err
	}
	defer rows.Close()
	var out []memory.Ref
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, refOfRowid(id))
	}
	return out, rows.Err()
}

// personVectors returns the person's vectors of table from the cache,
// loading them on a miss. It returns nil when they are too many to cache.
func (s *Store) personVectors(ctx context.Context, personID, table string, dim int) (*vecSet, error) {
	set, tooBig := s.vc.get(personID, table)
	if set != nil || tooBig {
		return set, nil
	}
	gen := s.vc.generation(personID)
	set, err := s.loadVectorChunks(ctx, personID, table, dim)
	if err != nil {
		// Not the chunk layout this build knows: read row by row.
		set, err = s.loadVectorRows(ctx, personID, table, dim)
	}
	if err != nil {
		if strings.Contains(err.Error(), "no such table") {
			return nil, nil
		}
		return nil, err
	}
	if set == nil {
		s.vc.markBig(personID, table, gen)
		return nil, nil
	}
	s.vc.install(personID, table, gen, set)
	return set, nil
}

// loadVectorRows reads the person's vectors through vec0, one row at a
// time: always right, but vec0 looks each row up on its own (about 26 µs a
// row). nil means more than the cache holds.
func (s *Store) loadVectorRows(ctx context.Context, personID, table string, dim int) (*vecSet, error) {
	rows, err := s.rd.QueryContext(ctx, `SELECT rowid, embedding FROM `+table+` WHERE person_id = ?`, personID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	set := &vecSet{dim: dim}
	var id int64
	var blob sql.RawBytes
	for rows.Next() {
		if err := rows.Scan(&id, &blob); err != nil {
			return nil, err
		}
		set.add(id, blob)
		if set.bytes() > s.vc.limit {
			return nil, nil
		}
	}
	return set, rows.Err()
}

// errChunkLayout: vec0's shadow tables are not laid out as loadVectorChunks
// expects.
var errChunkLayout = errors.New("unexpected vec0 chunk layout")

// loadVectorChunks reads the person's vectors straight from vec0's shadow
// tables, a chunk of up to 1,024 vectors at a time, a hundred times faster
// than loadVectorRows. The layout is sqlite-vec's (v0.1): <table>_chunks
// holds per chunk its partition key, a validity bitmap (bit i of byte i/8)
// and the rowids (little-endian int64); <table>_vector_chunks00 holds the
// chunk's vectors (little-endian float32). Anything else is
// errChunkLayout, and the caller falls back to loadVectorRows;
// TestVectorChunksMatchRows checks the two agree. nil means more than the
// cache holds.
func (s *Store) loadVectorChunks(ctx context.Context, personID, table string, dim int) (*vecSet, error) {
	// The slots of the person's chunks bound their vectors: allocate once
	// (within the cache's limit).
	var slots int64
	if err := s.rd.QueryRowContext(ctx, `SELECT coalesce(sum(size), 0) FROM `+table+`_chunks WHERE partition00 = ?`, personID).Scan(&slots); err != nil {
		return nil, err
	}
	rows, err := s.rd.QueryContext(ctx, `SELECT c.size, c.validity, c.rowids, v.vectors FROM `+table+`_chunks c
		JOIN `+table+`_vector_chunks00 v ON v.rowid = c.chunk_id WHERE c.partition00 = ?`, personID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	set := &vecSet{dim: dim}
	set.grow(int(min(slots, s.vc.limit/int64(8+4*dim)+1)))
	var size int
	var valid, ids, vecs sql.RawBytes
	for rows.Next() {
		if err := rows.Scan(&size, &valid, &ids, &vecs); err != nil {
			return nil, err
		}
		if size <= 0 || len(valid) != (size+7)/8 || len(ids) != 8*size || len(vecs) != 4*dim*size {
			return nil, errChunkLayout
		}
		set.grow(size)
		for i := range size {
			if valid[i/8]&(1<<(i%8)) == 0 {
				continue
			}
			set.add(int64(binary.LittleEndian.Uint64(ids[8*i:])), vecs[4*dim*i:4*dim*(i+1)])
		}
		if set.bytes() > s.vc.limit {
			return nil, nil
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// Free the room of empty slots (deleted vectors, a last chunk's rest).
	if spare := cap(set.ids) - len(set.ids); spare > len(set.ids)/4+16 {
		set.ids = slices.Clone(set.ids)
		set.vals = slices.Clone(set.vals)
	}
	return set, nil
}

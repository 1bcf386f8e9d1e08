/*
 * m2lsp.scoring._lattice: the MaxMatch lattice and its best paths, in C.
 *
 * The same algorithm as m2lsp/scoring/lattice.py (read that file's docstring first): the
 * NUS M2 scorer 3.2's lattice, transitive edges, removal of unchanged-only edges, weights
 * and Bellman-Ford, with every tie broken as the scorer breaks it.  Tokens arrive as ints
 * (equal strings, equal ints); floating-point weights are added in the same order as the
 * Python version, so the results are identical (tests compare the two on random input).
 *
 * best_paths(source, target, max_unchanged, annotators) -> list per annotator of
 *     [(start, end, row1, col1, row2, col2), ...]   changing edges of the best path, last first
 *   annotators: list (one per annotator) of lists of gold edits
 *     (start, end, original: tuple[int] | None, corrections: list[tuple[int] | None])
 *   A None text never matches.  Returns None where the NUS scorer itself would crash.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#ifndef _WIN32
#include <pthread.h>
#include <sched.h>
#include <time.h>
#define HAVE_THREADS 1
#endif

/* Every allocation of this module is counted (where the C library can tell a block's size),
 * so that the memory bound below compares what the lattice really holds, on both threads. */
#if defined(__GLIBC__)
#include <malloc.h>
#define TRACKING 1
static int64_t tracked = 0;

static inline void track(int64_t bytes) { __atomic_add_fetch(&tracked, bytes, __ATOMIC_RELAXED); }

static void *tracked_malloc(size_t size) {
    void *block = malloc(size);
    if (block) track((int64_t)malloc_usable_size(block));
    return block;
}

static void *tracked_calloc(size_t count, size_t size) {
    void *block = calloc(count, size);
    if (block) track((int64_t)malloc_usable_size(block));
    return block;
}

static void *tracked_realloc(void *old, size_t size) {
    int64_t before = old ? (int64_t)malloc_usable_size(old) : 0;
    void *block = realloc(old, size);
    if (block) track((int64_t)malloc_usable_size(block) - before);
    return block;
}

static void tracked_free(void *block) {
    if (block) track(-(int64_t)malloc_usable_size(block));
    free(block);
}

static inline int64_t tracked_bytes(void) { return __atomic_load_n(&tracked, __ATOMIC_RELAXED); }

#define malloc tracked_malloc
#define calloc tracked_calloc
#define realloc tracked_realloc
#define free tracked_free
#else
#define TRACKING 0
static inline int64_t tracked_bytes(void) { return 0; }
#endif

#define KIND_INS 0
#define KIND_DEL 1
#define KIND_SUB 2
#define KIND_NOOP 3
#define EPSILON 0.001
#define INF_COST 0x3fffffff

/* ------------------------------------------------------------------------------------ */
/* growable int arrays */

/* A growable array of `elem`: Type {data, size, capacity}, push (0, or -1 out of memory),
 * release. */
#define GROWABLE(Type, elem, push, release)                                              \
    typedef struct {                                                                     \
        elem *data;                                                                      \
        Py_ssize_t size, capacity;                                                       \
    } Type;                                                                              \
    static int push(Type *list, elem value) {                                            \
        if (list->size == list->capacity) {                                              \
            Py_ssize_t capacity = list->capacity ? list->capacity * 2 : 8;               \
            elem *data = realloc(list->data, (size_t)capacity * sizeof(elem));           \
            if (!data) return -1;                                                        \
            list->data = data;                                                           \
            list->capacity = capacity;                                                   \
        }                                                                                \
        list->data[list->size++] = value;                                                \
        return 0;                                                                        \
    }                                                                                    \
    static void release(Type *list) {                                                    \
        free(list->data);                                                                \
        list->data = NULL;                                                               \
        list->size = list->capacity = 0;                                                 \
    }

GROWABLE(IntList, int64_t, list_push, list_free)
GROWABLE(Int32List, int32_t, push32, free32)

static int compare_int64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* ------------------------------------------------------------------------------------ */
/* a hash map from int64 keys to int values (open addressing) */

typedef struct {
    int64_t *keys;
    int *values;
    Py_ssize_t capacity, size;
} Map;

static int map_init(Map *map, Py_ssize_t expected) {
    Py_ssize_t capacity = 64;
    while (capacity < expected * 2) capacity *= 2;
    map->keys = malloc((size_t)capacity * sizeof(int64_t));
    map->values = malloc((size_t)capacity * sizeof(int));
    if (!map->keys || !map->values) return -1;
    for (Py_ssize_t i = 0; i < capacity; i++) map->keys[i] = -1;
    map->capacity = capacity;
    map->size = 0;
    return 0;
}

static void map_free(Map *map) {
    free(map->keys);
    free(map->values);
    map->keys = NULL;
    map->values = NULL;
}

static inline Py_ssize_t map_slot(const Map *map, int64_t key) {
    uint64_t h = (uint64_t)key * 0x9E3779B97F4A7C15ULL;
    Py_ssize_t mask = map->capacity - 1;
    Py_ssize_t slot = (Py_ssize_t)(h >> 17) & mask;
    while (map->keys[slot] != -1 && map->keys[slot] != key) slot = (slot + 1) & mask;
    return slot;
}

static inline int map_get(const Map *map, int64_t key) {
    Py_ssize_t slot = map_slot(map, key);
    return map->keys[slot] == key ? map->values[slot] : -1;
}

static int map_put(Map *map, int64_t key, int value) {
    if ((map->size + 1) * 2 > map->capacity) {
        Map bigger;
        if (map_init(&bigger, map->capacity) < 0) return -1;
        for (Py_ssize_t i = 0; i < map->capacity; i++) {
            if (map->keys[i] != -1) {
                Py_ssize_t slot = map_slot(&bigger, map->keys[i]);
                bigger.keys[slot] = map->keys[i];
                bigger.values[slot] = map->values[i];
                bigger.size++;
            }
        }
        map_free(map);
        *map = bigger;
    }
    Py_ssize_t slot = map_slot(map, key);
    if (map->keys[slot] != key) {
        map->keys[slot] = key;
        map->size++;
    }
    map->values[slot] = value;
    return 0;
}

/* Gold spans (start, end) with a small value each (1: a span, 2: an insertion): a dense
 * limit x limit table where that is small, else a hash map, so that a long sentence costs
 * what its gold edits do, not its length squared (nor overflows an int index). */
#define DENSE_SPANS 2048
typedef struct {
    char *dense;
    Map sparse;
    int limit;
} SpanTable;

static int spans_init(SpanTable *table, int limit) {
    memset(table, 0, sizeof(SpanTable));
    table->limit = limit;
    if (limit <= DENSE_SPANS) {
        table->dense = calloc((size_t)limit * (size_t)limit, 1);
        return table->dense ? 0 : -1;
    }
    return map_init(&table->sparse, 64);
}

static inline int spans_get(const SpanTable *table, int start, int end) {
    if (start < 0 || end < 0 || start >= table->limit || end >= table->limit) return 0;
    if (table->dense) return table->dense[(Py_ssize_t)start * table->limit + end];
    int value = map_get(&table->sparse, (int64_t)start * table->limit + end);
    return value < 0 ? 0 : value;
}

static int spans_set(SpanTable *table, int start, int end, int value) {
    if (start < 0 || end < 0 || start >= table->limit || end >= table->limit) return 0;
    if (table->dense) {
        table->dense[(Py_ssize_t)start * table->limit + end] = (char)value;
        return 0;
    }
    return map_put(&table->sparse, (int64_t)start * table->limit + end, value);
}

static void spans_free(SpanTable *table) {
    free(table->dense);
    table->dense = NULL;
    if (table->sparse.keys) map_free(&table->sparse);
}

/* ------------------------------------------------------------------------------------ */
/* the lattice */

typedef struct {
    int dist, kind, start, end, unchanged;
    int u, v; /* compact vertex indices */
} Edge;

/* The memory bound of one sentence pair.  What a step allocates at once (the matrices'
 * cells, the columns open together) is checked before it is taken; what grows with the list
 * entries is checked every CHECK_EVERY entries against the bytes this module really holds
 * (or, where the C library cannot tell, an estimate per entry).  Sizes in bytes. */
#define TOO_LARGE (-2)              /* a step's return value: the bound stopped it */
#define CELL_BYTES 64               /* matrices, walks and vertex maps, per cell (n+1)(m+1) */
#define ESTIMATED_ENTRY_BYTES 40    /* without TRACKING: the stored lattice's cost per entry */
#define CHECK_EVERY 0xFFFF          /* entries between two checks, minus one (a mask) */
#define MAX_ENTRIES 2147483000      /* list positions are int32 */
typedef struct {
    double limit;          /* 0: no bound */
    int64_t start;         /* tracked bytes before the lattice was made */
    int exceeded;          /* the bound stopped the work */
    double needed;         /* bytes needed at least, when it did */
    Py_ssize_t entries;    /* list entries generated when it did */
    int done, total;       /* pivot vertices the closure had gone through, of all */
} Budget;

/* Whether `bytes` fit the budget; records what was needed when they do not. */
static int budget_allows(Budget *budget, double bytes, Py_ssize_t entries) {
    if (budget->limit <= 0 || bytes <= budget->limit) return 1;
    budget->exceeded = 1;
    budget->needed = bytes;
    budget->entries = entries;
    return 0;
}

typedef struct {
    int n, m, width;          /* source and target lengths; width = m + 1 */
    const int64_t *source, *target;
    int vertex_count;
    int *cell_of;             /* compact vertex -> cell i * width + j */
    int *vertex_of;           /* cell -> compact vertex, or -1 */
    Edge *edges;              /* distinct edges */
    Py_ssize_t edge_count, edge_capacity;
    Map by_pair;              /* original edges: u * vertex_count + v -> edge index */
    Int32List list;           /* the scorer's edge list: edge indices, in order */
    Budget budget;
} Lattice;

/* Levenshtein distances in a diagonal band (see lattice.py: shortest_band) */
typedef struct {
    int *values;    /* row-major, each row `span` wide starting at first[i] */
    int *first;
    int span;
    int n, m;
} Band;

static inline int band_value(const Band *band, int i, int j) {
    int offset = j - band->first[i];
    if (offset < 0 || offset >= band->span) return INF_COST;
    return band->values[(Py_ssize_t)i * band->span + offset];
}

static int band_fill(Band *band, const int64_t *source, const int64_t *target, int n, int m,
                     int cost, int width) {
    int last = m - n;
    int half = (width - abs(last)) / 2;
    int low = (last < 0 ? last : 0) - half, high = (last > 0 ? last : 0) + half;
    int span = high - low + 1;
    /* A row holds at most the m + 1 columns there are: a band wider than that (a long
     * source against a short hypothesis, |n - m| wide) would cost (n + 1) * |n - m| cells,
     * far more than the (n + 1)(m + 1) the budget was checked against.  Its rows then all
     * start at column 0; cells outside the band stay INF_COST, as they would outside it. */
    int full = span > m + 1;
    if (full) span = m + 1;
    band->n = n;
    band->m = m;
    band->span = span;
    band->values = malloc((size_t)(n + 1) * (size_t)span * sizeof(int));
    band->first = malloc((size_t)(n + 1) * sizeof(int));
    if (!band->values || !band->first) return -1;
    for (int i = 0; i <= n; i++) {
        int start = i + low, stop = i + high;
        int *row = band->values + (Py_ssize_t)i * span;
        band->first[i] = full ? 0 : start;
        for (int k = 0; k < span; k++) row[k] = INF_COST;
        if (start < 0) start = 0;
        if (stop > m) stop = m;
        for (int j = start; j <= stop; j++) {
            int best;
            if (i == 0) {
                best = j;
            } else if (j == 0) {
                best = i;
            } else {
                int diagonal = band_value(band, i - 1, j - 1);
                if (diagonal != INF_COST && source[i - 1] != target[j - 1]) diagonal += cost;
                int deletion = band_value(band, i - 1, j);
                if (deletion != INF_COST) deletion += 1;
                int insertion = band_value(band, i, j - 1);
                if (insertion != INF_COST) insertion += 1;
                best = diagonal;
                if (deletion < best) best = deletion;
                if (insertion < best) best = insertion;
            }
            row[j - band->first[i]] = best;
        }
    }
    return 0;
}

static void band_free(Band *band) {
    free(band->values);
    free(band->first);
    band->values = NULL;
    band->first = NULL;
}

static int shortest_band(Band *band, const int64_t *source, const int64_t *target, int n,
                         int m, int cost) {
    int width = abs(n - m);
    if (width < 1) width = 1;
    for (;;) {
        if (band_fill(band, source, target, n, m, cost, width) < 0) return -1;
        if (band_value(band, n, m) <= width || width >= n + m) return 0;
        band_free(band);
        width *= 2;
    }
}

/* a unit edge between cells (pi, pj) -> (i, j), as the scorer records it */
static Edge unit_edge(const Lattice *lat, int pi, int pj, int i, int j) {
    Edge e;
    e.dist = 1;
    e.unchanged = 0;
    if (pi < i && pj < j) {
        e.start = pi;
        e.end = i;
        if (lat->source[pi] == lat->target[pj]) {
            e.kind = KIND_NOOP;
            e.unchanged = 1;
        } else {
            e.kind = KIND_SUB;
        }
    } else if (pi < i) {
        e.kind = KIND_DEL;
        e.start = pi;
        e.end = i;
    } else {
        e.kind = KIND_INS;
        if (i == 0) { /* release 3.2: a row-0 insertion sits at the hypothesis position */
            e.start = pj;
            e.end = pj;
        } else {
            e.start = i;
            e.end = i;
        }
    }
    return e;
}

/* Walk back from the last cell along shortest-path predecessors, recording cells and edges
 * (as cell pairs) of one matrix. */
/* Whether what this module holds now (without tracking: `estimate`), and `more` bytes it is
 * about to take, fit the budget. */
static int holds_fit(Lattice *lat, double estimate, double more) {
    double held = TRACKING ? (double)(tracked_bytes() - lat->budget.start) : estimate;
    return budget_allows(&lat->budget, held + more, 0);
}

/* What the original edges will cost once walked: each listed pair an edge (at most), its
 * map slots (at twice the pairs, keys and values) and its list entry, and the vertex maps;
 * twice over for what growing by doubling holds on the way. */
static double original_bytes(Py_ssize_t pairs, int64_t cells) {
    return 2.0 * (double)pairs * (sizeof(Edge) + 2 * (sizeof(int64_t) + sizeof(int))
                                  + sizeof(int32_t)) + (double)cells * 2 * sizeof(int);
}

static int walk(Lattice *lat, const Band *band, int cost, char *seen, IntList *pairs) {
    int n = lat->n, m = lat->m, width = lat->width;
    IntList stack = {0};
    int64_t cells = (int64_t)(n + 1) * width;
    char *local = calloc((size_t)cells, 1);
    if (!local) return -1;
    int end = n * width + m;
    local[end] = 1;
    seen[end] = 1;
    if (list_push(&stack, end) < 0) goto fail;
    while (stack.size) {
        int cell = (int)stack.data[--stack.size];
        int i = cell / width, j = cell % width;
        int here = band_value(band, i, j);
        int preds[3], count = 0;
        if (i == 0) {
            if (j) preds[count++] = j - 1;
        } else if (j == 0) {
            preds[count++] = (i - 1) * width;
        } else {
            int step = lat->source[i - 1] == lat->target[j - 1] ? 0 : cost;
            int diagonal = band_value(band, i - 1, j - 1);
            if (diagonal != INF_COST && diagonal + step == here)
                preds[count++] = (i - 1) * width + (j - 1);
            int deletion = band_value(band, i - 1, j);
            if (deletion != INF_COST && deletion + 1 == here) preds[count++] = (i - 1) * width + j;
            int insertion = band_value(band, i, j - 1);
            if (insertion != INF_COST && insertion + 1 == here) preds[count++] = i * width + j - 1;
        }
        for (int k = 0; k < count; k++) {
            int previous = preds[k];
            if (list_push(pairs, (int64_t)previous * cells + cell) < 0) goto fail;
            if (!(pairs->size & CHECK_EVERY)
                    && !holds_fit(lat, original_bytes(pairs->size, cells), 0)) {
                list_free(&stack);
                free(local);
                return TOO_LARGE;
            }
            if (!local[previous]) {
                local[previous] = 1;
                seen[previous] = 1;
                if (list_push(&stack, previous) < 0) goto fail;
            }
        }
    }
    list_free(&stack);
    free(local);
    return 0;
fail:
    list_free(&stack);
    free(local);
    return -1;
}

static int add_edge(Lattice *lat, Edge edge) {
    if (lat->edge_count == lat->edge_capacity) {
        Py_ssize_t capacity = lat->edge_capacity ? lat->edge_capacity * 2 : 64;
        Edge *edges = realloc(lat->edges, (size_t)capacity * sizeof(Edge));
        if (!edges) return -1;
        lat->edges = edges;
        lat->edge_capacity = capacity;
    }
    lat->edges[lat->edge_count] = edge;
    return (int)lat->edge_count++;
}

static inline int64_t pair_key(const Lattice *lat, int u, int v) {
    return (int64_t)u * lat->vertex_count + v;
}

/* Steps 1-2: vertices and the sorted list of original edges (duplicates kept). */
static int build_original(Lattice *lat) {
    int n = lat->n, m = lat->m, width = lat->width;
    int64_t cells = (int64_t)(n + 1) * width;
    char *seen = calloc((size_t)cells, 1);
    IntList pairs = {0};
    if (!seen) return -1;
    for (int cost = 1; cost <= 2; cost++) {
        Band band = {0};
        if (shortest_band(&band, lat->source, lat->target, n, m, cost) < 0) goto fail;
        Py_ssize_t before = pairs.size;
        int status = walk(lat, &band, cost, seen, &pairs);
        band_free(&band);
        if (status == TOO_LARGE) goto too_large;
        if (status < 0) goto fail;
        /* within one matrix an edge is found once per walk visit: keep it once */
        qsort(pairs.data + before, (size_t)(pairs.size - before), sizeof(int64_t),
              compare_int64);
        Py_ssize_t write = before;
        for (Py_ssize_t k = before; k < pairs.size; k++)
            if (k == before || pairs.data[k] != pairs.data[k - 1]) pairs.data[write++] = pairs.data[k];
        pairs.size = write;
    }
    /* before the edges, their map and list are made: checked against the bound */
    if (!holds_fit(lat, original_bytes(pairs.size, cells), original_bytes(pairs.size, cells)))
        goto too_large;
    /* compact vertex numbers in cell order (= the scorer's sorted vertex order) */
    lat->vertex_of = malloc((size_t)cells * sizeof(int));
    lat->cell_of = malloc((size_t)cells * sizeof(int));
    if (!lat->vertex_of || !lat->cell_of) goto fail;
    lat->vertex_count = 0;
    for (int64_t c = 0; c < cells; c++) {
        lat->vertex_of[c] = seen[c] ? lat->vertex_count : -1;
        if (seen[c]) lat->cell_of[lat->vertex_count++] = (int)c;
    }
    qsort(pairs.data, (size_t)pairs.size, sizeof(int64_t), compare_int64);
    if (map_init(&lat->by_pair, pairs.size + 16) < 0) goto fail;
    for (Py_ssize_t k = 0; k < pairs.size; k++) {
        int from = (int)(pairs.data[k] / cells), to = (int)(pairs.data[k] % cells);
        int u = lat->vertex_of[from], v = lat->vertex_of[to];
        int index = map_get(&lat->by_pair, pair_key(lat, u, v));
        if (index < 0) {
            Edge edge = unit_edge(lat, from / width, from % width, to / width, to % width);
            edge.u = u;
            edge.v = v;
            index = add_edge(lat, edge);
            if (index < 0 || map_put(&lat->by_pair, pair_key(lat, u, v), index) < 0) goto fail;
        }
        if (push32(&lat->list, index) < 0) goto fail;
    }
    free(seen);
    list_free(&pairs);
    return 0;
too_large:
    free(seen);
    list_free(&pairs);
    return TOO_LARGE;
fail:
    free(seen);
    list_free(&pairs);
    return -1;
}

static int merged_kind(int first, int second) {
    if (first == second && (first == KIND_NOOP || first == KIND_INS || first == KIND_DEL))
        return first;
    return KIND_SUB;
}

/* Step 3: Floyd-Warshall over the sorted vertices, visiting only existing edges.
 *
 * At pivot k every edge (i, k) exists already (edges into k are made at pivots before k)
 * and the edges leaving k are the original ones.  Each vertex j has a column: for every
 * source i, the length, first offset, kind and unchanged count of edge (i, j), where in the
 * list it first stands and how often it is listed.  A column is opened at the first pivot
 * with an original edge into j and closed after pivot j, so the columns in use fit in
 * cache.  The generator reports to a visitor: "column k is complete" at pivot k, and each
 * append (a new edge, or an improved one listed again) with its list position.  One
 * visitor stores the lattice; the streaming visitors below never store it. */
typedef struct {
    int32_t id;         /* stored edge id (storing visitor), else -1 */
    int32_t first;      /* list position of the first entry */
    int32_t dist;
    int32_t start;
    int32_t end;
    uint8_t kind;
    uint8_t unchanged;
    uint8_t listed;     /* how many list entries (saturating at 255) */
} Cell;

typedef struct {
    Cell *cell;         /* by source vertex; only cells whose `present` bit is set are valid */
    uint64_t *present;  /* bit per source with an edge: sparse columns are walked by word */
} Column;

/* Walks the sources i < limit of a column in ascending order; `continue` works inside. */
#define FOR_EACH_SOURCE(column, limit, i)                                          \
    for (int word_ = 0; word_ * 64 < (limit); word_++)                            \
        for (uint64_t bits_ = (column)->present[word_]; bits_; bits_ &= bits_ - 1) \
            for (int i = word_ * 64 + __builtin_ctzll(bits_), once_ = 1; once_; once_ = 0)

static inline int has_source(const Column *column, int i) {
    return (column->present[i >> 6] >> (i & 63)) & 1;
}

static inline void set_source(Column *column, int i) {
    column->present[i >> 6] |= (uint64_t)1 << (i & 63);
}

static int column_open(Column *column, int count) {
    column->cell = malloc((size_t)count * sizeof(Cell));
    column->present = calloc(((size_t)count + 63) / 64, sizeof(uint64_t));
    return column->cell && column->present ? 0 : -1;
}

static void column_close(Column *column) {
    free(column->cell);
    free(column->present);
    memset(column, 0, sizeof(Column));
}

static void column_set(Column *column, int source, const Edge *edge) {
    Cell *cell = &column->cell[source];
    cell->dist = edge->dist;
    cell->start = edge->start;
    cell->end = edge->end;
    cell->kind = (uint8_t)edge->kind;
    cell->unchanged = (uint8_t)edge->unchanged;
}

typedef struct Visitor Visitor;
struct Visitor {
    int (*vertex)(Visitor *self, int k, const Column *column);
    int (*append)(Visitor *self, Py_ssize_t position, Column *column, int i, int j,
                  const Edge *edge, int is_new);
    /* A visitor that reads completed columns on another thread sets these: the generator
     * stores its column array in *columns, frees column k only once *consumed > k (the
     * other thread is past it), and calls finish (which waits for that thread) before
     * freeing the rest. */
    Column **columns;
    const int *consumed;
    void (*finish)(Visitor *self);
};

#define MAX_LAG 256 /* completed columns the other thread may fall behind by */

static void wait_briefly(int *rounds);

/* Frees the columns up to k that the other thread is done with (all of them when it is
 * MAX_LAG columns behind: it is waited for first). */
static void release_columns(Column *columns, int *freed, int k, const int *consumed) {
    int rounds = 0;
    while (k - __atomic_load_n(consumed, __ATOMIC_ACQUIRE) > MAX_LAG) wait_briefly(&rounds);
    int done = __atomic_load_n(consumed, __ATOMIC_ACQUIRE);
    for (; *freed <= k && *freed < done; (*freed)++) column_close(&columns[*freed]);
}

typedef int (*AppendFn)(Visitor *self, Py_ssize_t position, Column *column, int i, int j,
                        const Edge *edge, int is_new);

/* A pivot's outgoing edge (a copy: the storing visitor may move lat->edges while the pivot
 * runs; the edges leaving the pivot do not change then) and its target's column, side by
 * side for the inner loop. */
typedef struct {
    Edge edge;
    Column *column;
} Target;

/* Bytes of the columns open at once: column j is open from the first pivot with an original
 * edge into j to pivot j (and, when another thread reads completed columns, up to MAX_LAG
 * columns longer). */
static double column_bytes(const Int32List *into, const Edge *edges, int count, int threaded) {
    int *change = calloc((size_t)count + 1, sizeof(int));
    if (!change) return -1;
    for (int j = 0; j < count; j++) {
        if (!into[j].size) continue;
        int opened = j;
        for (Py_ssize_t a = 0; a < into[j].size; a++)
            if (edges[into[j].data[a]].u < opened) opened = edges[into[j].data[a]].u;
        change[opened]++;
        change[j + 1]--;
    }
    int open = 0, peak = 0;
    for (int k = 0; k <= count; k++) {
        open += change[k];
        if (open > peak) peak = open;
    }
    free(change);
    if (threaded) peak += MAX_LAG + 1;
    return (double)peak * ((double)count * sizeof(Cell) + ((double)count + 63) / 64 * 8);
}

/* The bytes a lattice's cells and original edges keep while the transitive edges are made. */
static double base_bytes(const Lattice *lat) {
    return (double)(lat->n + 1) * lat->width * 8 + (double)lat->edge_count * sizeof(Edge) * 2;
}

/* 0 when the columns the generation opens together fit the budget, TOO_LARGE when they do
 * not, -1 when out of memory. */
static int columns_fit(Lattice *lat, const Int32List *into, int count, int threaded) {
    double columns = column_bytes(into, lat->edges, count, threaded);
    if (columns < 0) return -1;
    double held = (double)(tracked_bytes() - lat->budget.start);
    return budget_allows(&lat->budget, held + columns, 0) ? 0 : TOO_LARGE;
}

/* Whether the lattice, with `position` list entries made, still fits its budget. */
static int entries_fit(Lattice *lat, Py_ssize_t position) {
    double held = TRACKING ? (double)(tracked_bytes() - lat->budget.start)
                           : base_bytes(lat) + (double)position * ESTIMATED_ENTRY_BYTES;
    if (position >= MAX_ENTRIES) { /* beyond what int32 positions index: no bound lifts it */
        lat->budget.exceeded = 1;
        lat->budget.needed = held;
        lat->budget.entries = position;
        return 0;
    }
    return budget_allows(&lat->budget, held, position);
}

/* The original edges are lat->edges[0 .. original_count) and lat->list holds their sorted
 * list (an edge of both matrices twice, side by side).  With `allowed`, only the sources i
 * with allowed[i] are followed: each source's row of the closure (its edges' lengths, kinds,
 * offsets and how often each is listed) depends on no other source, only list positions do.
 * Always inlined into one caller per visitor, so that `append` is a direct call (the streaming search's is empty and
 * vanishes): the inner loop runs tens of millions of times on degenerate sentences. */
static inline __attribute__((always_inline)) int generate(
        Lattice *lat, Py_ssize_t original_count, int max_unchanged, Visitor *visitor,
        AppendFn append, const uint8_t *allowed) {
    int count = lat->vertex_count;
    Py_ssize_t position = lat->list.size;
    Int32List *outgoing = calloc((size_t)count, sizeof(Int32List));
    Int32List *into = calloc((size_t)count, sizeof(Int32List));
    Column *columns = calloc((size_t)count, sizeof(Column));
    int32_t *first = malloc(((size_t)original_count + 1) * sizeof(int32_t));
    uint8_t *listed = calloc((size_t)original_count + 1, 1);
    Target *pivot_targets = NULL;
    int status = -1, freed = 0;
    if (!outgoing || !into || !columns || !first || !listed) goto done;
    if (visitor->columns) *visitor->columns = columns;
    for (Py_ssize_t p = lat->list.size - 1; p >= 0; p--) {
        first[lat->list.data[p]] = (int32_t)p;
        listed[lat->list.data[p]]++;
    }
    Py_ssize_t most_targets = 1;
    for (Py_ssize_t e = 0; e < original_count; e++) {
        if (push32(&outgoing[lat->edges[e].u], (int32_t)e) < 0) goto done;
        if (push32(&into[lat->edges[e].v], (int32_t)e) < 0) goto done;
        if (outgoing[lat->edges[e].u].size > most_targets)
            most_targets = outgoing[lat->edges[e].u].size;
    }
    if (!(pivot_targets = malloc((size_t)most_targets * sizeof(Target)))) goto done;
    int fit = columns_fit(lat, into, count, visitor->consumed != NULL);
    if (fit) {
        if (fit == TOO_LARGE) status = TOO_LARGE;
        goto done;
    }
    lat->budget.total = count;
    for (int k = 0; k < count; k++) {
        lat->budget.done = k; /* how far the closure got, for a projection of its size */
        if (visitor->vertex && columns[k].cell && visitor->vertex(visitor, k, &columns[k]) < 0)
            goto done;
        Int32List *targets = &outgoing[k];
        for (Py_ssize_t b = 0; b < targets->size; b++) { /* open the targets' columns */
            int j = lat->edges[targets->data[b]].v;
            if (columns[j].cell) continue;
            if (column_open(&columns[j], count) < 0) goto done;
            for (Py_ssize_t a = 0; a < into[j].size; a++) {
                int32_t id = into[j].data[a];
                int i = lat->edges[id].u;
                if (allowed && !allowed[i]) continue; /* rows of other sources: not wanted */
                column_set(&columns[j], i, &lat->edges[id]);
                columns[j].cell[i].id = id;
                columns[j].cell[i].first = first[id];
                set_source(&columns[j], i);
                columns[j].cell[i].listed = listed[id];
            }
        }
        Column *sources = &columns[k];
        if (targets->size && sources->cell) {
            for (Py_ssize_t b = 0; b < targets->size; b++) {
                pivot_targets[b].edge = lat->edges[targets->data[b]];
                pivot_targets[b].column = &columns[pivot_targets[b].edge.v];
            }
            FOR_EACH_SOURCE(sources, k, i) { /* sources in vertex order */
                const Cell *from = &sources->cell[i];
                int first_dist = from->dist, first_unchanged = from->unchanged;
                int first_kind = from->kind, first_start = from->start;
                for (Py_ssize_t b = 0; b < targets->size; b++) {
                    const Edge *second = &pivot_targets[b].edge;
                    /* both tests below only skip: the cheap one first */
                    int unchanged = first_unchanged + second->unchanged;
                    if (unchanged > max_unchanged) continue;
                    Column *column = pivot_targets[b].column;
                    int j = second->v;
                    int candidate = first_dist + second->dist;
                    int present = has_source(column, i);
                    if (present && candidate >= column->cell[i].dist) continue;
                    Edge merged;
                    merged.dist = candidate;
                    merged.kind = merged_kind(first_kind, second->kind);
                    merged.start = first_start;
                    merged.end = second->end;
                    merged.unchanged = unchanged;
                    merged.u = i;
                    merged.v = j;
                    column_set(column, i, &merged);
                    if (!present) {
                        column->cell[i].first = (int32_t)position;
                        set_source(column, i);
                        column->cell[i].listed = 1;
                        column->cell[i].id = -1;
                    } else if (column->cell[i].listed < 255) {
                        column->cell[i].listed++;
                    }
                    if (append(visitor, position, column, i, j, &merged, !present) < 0)
                        goto done;
                    if (!(++position & CHECK_EVERY) && !entries_fit(lat, position)) {
                        status = TOO_LARGE;
                        goto done;
                    }
                }
            }
        }
        if (visitor->consumed)
            release_columns(columns, &freed, k, visitor->consumed);
        else
            column_close(&columns[k]); /* edges into k are complete, no longer needed here */
    }
    status = 0;
done:
    if (visitor->finish) visitor->finish(visitor); /* before any column is freed */
    if (outgoing)
        for (int k = 0; k < count; k++) free32(&outgoing[k]);
    if (into)
        for (int k = 0; k < count; k++) free32(&into[k]);
    if (columns)
        for (int k = 0; k < count; k++) column_close(&columns[k]);
    free(outgoing);
    free(into);
    free(columns);
    free(first);
    free(listed);
    free(pivot_targets);
    return status;
}

/* The storing visitor: every edge in lat->edges, every entry in lat->list. */
typedef struct {
    Visitor base;
    Lattice *lat;
} Store;

static int store_append(Visitor *self, Py_ssize_t position, Column *column, int i, int j,
                        const Edge *edge, int is_new) {
    Lattice *lat = ((Store *)self)->lat;
    (void)position;
    (void)j;
    if (is_new) {
        int id = add_edge(lat, *edge);
        if (id < 0) return -1;
        column->cell[i].id = id;
    } else {
        lat->edges[column->cell[i].id] = *edge;
    }
    return push32(&lat->list, column->cell[i].id);
}

static int add_transitive(Lattice *lat, int max_unchanged) {
    Store store = {{.append = store_append}, lat};
    return generate(lat, lat->edge_count, max_unchanged, &store.base, store_append, NULL);
}

/* Step 4: drop unchanged-only transitive edges, skipping the element after each removal as
 * the scorer's iteration does.  Returns 1 where the scorer would raise KeyError. */
static int remove_unchanged(Lattice *lat) {
    char *removed = calloc((size_t)lat->edge_count + 1, 1);
    if (!removed) return -1;
    Py_ssize_t write = 0, position = 0, count = lat->list.size;
    int32_t *list = lat->list.data;
    int crash = 0, any = 0;
    while (position < count) {
        int edge = (int)list[position];
        if (removed[edge]) {
            crash = 1;
            break;
        }
        if (lat->edges[edge].kind == KIND_NOOP && lat->edges[edge].dist > 1) {
            removed[edge] = 1;
            any = 1;
            if (position + 1 < count) list[write++] = list[position + 1];
            position += 2;
            continue;
        }
        list[write++] = list[position++];
    }
    if (!crash && any)
        for (Py_ssize_t k = 0; k < write; k++)
            if (removed[list[k]]) crash = 1;
    lat->list.size = write;
    free(removed);
    return crash;
}

static void lattice_free(Lattice *lat) {
    free(lat->cell_of);
    free(lat->vertex_of);
    free(lat->edges);
    map_free(&lat->by_pair);
    free32(&lat->list);
}

/* ------------------------------------------------------------------------------------ */
/* gold edits and weights */

typedef struct {
    int start, end;
    int64_t *original;           /* NULL: never matches */
    Py_ssize_t original_length;
    int64_t **corrections;       /* each NULL: never matches */
    Py_ssize_t *correction_lengths;
    Py_ssize_t correction_count;
} Gold;

static int sequence_equals(const int64_t *a, Py_ssize_t length, const int64_t *b,
                           Py_ssize_t b_length) {
    if (length != b_length) return 0;
    for (Py_ssize_t k = 0; k < length; k++)
        if (a[k] != b[k]) return 0;
    return 1;
}

/* An edge's original text is the source tokens between its end points, its correction
 * the target tokens: compare with a gold edit's texts. */
static int matches(const Lattice *lat, const Edge *edge, const Gold *gold) {
    int width = lat->width;
    int from = lat->cell_of[edge->u], to = lat->cell_of[edge->v];
    int i1 = from / width, j1 = from % width, i2 = to / width, j2 = to % width;
    if (!gold->original || !sequence_equals(lat->source + i1, i2 - i1, gold->original,
                                            gold->original_length))
        return 0;
    for (Py_ssize_t c = 0; c < gold->correction_count; c++)
        if (gold->corrections[c] && sequence_equals(lat->target + j1, j2 - j1, gold->corrections[c],
                                                    gold->correction_lengths[c]))
            return 1;
    return 0;
}

typedef struct {
    int start, end;
    IntList edges;
} Span;

static int find_gold(const Lattice *lat, const Edge *edge, const Gold *golds, const int *order,
                     int from, int to, int reverse) {
    if (!reverse) {
        for (int g = from; g <= to; g++)
            if (matches(lat, edge, &golds[order[g]])) return g;
    } else {
        for (int g = to; g >= from; g--)
            if (matches(lat, edge, &golds[order[g]])) return g;
    }
    return -1;
}

static inline int64_t edge_order_key(const Lattice *lat, int edge) {
    return pair_key(lat, lat->edges[edge].u, lat->edges[edge].v);
}

static int compare_edge_keys(const void *a, const void *b) {
    int64_t x = ((const int64_t *)a)[0], y = ((const int64_t *)b)[0];
    return (x > y) - (x < y);
}

/* sort a span's edge indices by (u, v), as the scorer sorts its edge tuples */
static int sort_span(const Lattice *lat, IntList *edges) {
    Py_ssize_t count = edges->size;
    int64_t *pairs = malloc((size_t)count * 2 * sizeof(int64_t));
    if (!pairs) return -1;
    for (Py_ssize_t k = 0; k < count; k++) {
        pairs[2 * k] = edge_order_key(lat, (int)edges->data[k]);
        pairs[2 * k + 1] = edges->data[k];
    }
    qsort(pairs, (size_t)count, 2 * sizeof(int64_t), compare_edge_keys);
    for (Py_ssize_t k = 0; k < count; k++) edges->data[k] = pairs[2 * k + 1];
    free(pairs);
    return 0;
}

static void weigh_span(const Lattice *lat, const IntList *edges, const Gold *golds,
                       const int *order, int gold_count, double *weights, double bonus) {
    for (Py_ssize_t k = 0; k < edges->size; k++) {
        int edge = (int)edges->data[k];
        if (find_gold(lat, &lat->edges[edge], golds, order, 0, gold_count - 1, 0) >= 0)
            weights[edge] = bonus;
        else if (lat->edges[edge].kind != KIND_NOOP)
            weights[edge] += EPSILON;
    }
}

/* The scorer's two-pointer walk over the edges of one insertion point. */
static void weigh_insertions(const Lattice *lat, const IntList *edges, const Gold *golds,
                             const int *order, int gold_count, double *weights, double bonus) {
    Py_ssize_t left = 0, right = edges->size - 1, current = 0;
    int gold_left = 0, gold_right = gold_count - 1;
    const int64_t *list = edges->data;
    while (left <= right) {
        int edge = (int)list[current];
        int found = find_gold(lat, &lat->edges[edge], golds, order, gold_left, gold_right,
                              current != left);
        if (found < 0) {
            if (lat->edges[edge].kind != KIND_NOOP) weights[edge] += EPSILON;
            if (current == left) {
                left++;
                current = right;
            } else {
                right--;
                current = left;
            }
            continue;
        }
        weights[edge] = bonus;
        if (current == left) {
            gold_left = found + 1;
            left++;
            int target = lat->edges[edge].v;
            while (left < edges->size && lat->edges[list[left]].u != target) {
                weights[list[left]] += EPSILON;
                left++;
            }
            current = left;
        } else {
            gold_right = found - 1;
            right--;
            int origin = lat->edges[edge].u;
            while (right >= 0 && lat->edges[list[right]].v != origin) {
                weights[list[right]] += EPSILON;
                right--;
            }
            current = right;
        }
    }
}

static int compare_spans(const void *a, const void *b) {
    const Span *x = a, *y = b;
    if (x->start != y->start) return (x->start > y->start) - (x->start < y->start);
    return (x->end > y->end) - (x->end < y->end);
}

/* Sorts the spans, then weighs each gold span's edges against that span's gold edits
 * (insertions and other spans by their own rules); `order` has room for every gold edit. */
static int weigh_spans(const Lattice *lat, Span *spans, int span_count, const Gold *golds,
                       int gold_count, int *order, double *weights, double bonus) {
    qsort(spans, (size_t)span_count, sizeof(Span), compare_spans);
    for (int s = 0; s < span_count; s++) {
        if (!spans[s].edges.size) continue;
        if (sort_span(lat, &spans[s].edges) < 0) return -1;
        int count = 0;
        for (int g = 0; g < gold_count; g++)
            if (golds[g].start == spans[s].start && golds[g].end == spans[s].end) order[count++] = g;
        if (spans[s].start == spans[s].end)
            weigh_insertions(lat, &spans[s].edges, golds, order, count, weights, bonus);
        else
            weigh_span(lat, &spans[s].edges, golds, order, count, weights, bonus);
    }
    return 0;
}

/* The distinct (start, end) spans of the gold edits, in first-seen order; returns how many. */
static int distinct_spans(const Gold *golds, int gold_count, Span *spans) {
    int span_count = 0;
    for (int g = 0; g < gold_count; g++) {
        int known = 0;
        for (int s = 0; s < span_count; s++)
            if (spans[s].start == golds[g].start && spans[s].end == golds[g].end) known = 1;
        if (!known) {
            spans[span_count].start = golds[g].start;
            spans[span_count].end = golds[g].end;
            span_count++;
        }
    }
    return span_count;
}

/* the gold edits of one span keep their file order */
static int weigh(const Lattice *lat, const Gold *golds, int gold_count, double *weights) {
    for (Py_ssize_t e = 0; e < lat->edge_count; e++) weights[e] = lat->edges[e].dist;
    Span *spans = calloc((size_t)gold_count + 1, sizeof(Span));
    int span_count = 0, status = -1;
    int *order = malloc(((size_t)gold_count + 1) * sizeof(int));
    if (!spans || !order) goto done;
    span_count = distinct_spans(golds, gold_count, spans);
    /* which starts have a gold span at all: most edges are decided by one lookup */
    int limit = (lat->n > lat->m ? lat->n : lat->m) + 2;
    char *gold_start = calloc((size_t)limit, 1);
    if (!gold_start) goto done;
    for (int s = 0; s < span_count; s++)
        if (spans[s].start >= 0 && spans[s].start < limit) gold_start[spans[s].start] = 1;
    for (Py_ssize_t k = 0; k < lat->list.size; k++) {
        int edge = lat->list.data[k];
        const Edge *data = &lat->edges[edge];
        int contested = -1;
        if (data->start >= 0 && data->start < limit && gold_start[data->start])
            for (int s = 0; s < span_count; s++)
                if (spans[s].start == data->start && spans[s].end == data->end) contested = s;
        if (contested >= 0) {
            if (list_push(&spans[contested].edges, edge) < 0) goto done;
        } else if (data->kind != KIND_NOOP) {
            weights[edge] += EPSILON;
        }
    }
    free(gold_start);
    double bonus = -(double)lat->list.size;
    status = weigh_spans(lat, spans, span_count, golds, gold_count, order, weights, bonus);
done:
    if (spans)
        for (int s = 0; s < span_count; s++) list_free(&spans[s].edges);
    free(spans);
    free(order);
    return status;
}

/* ------------------------------------------------------------------------------------ */
/* Bellman-Ford, scanning only what can change (see lattice.py: shortest_paths) */

typedef struct {
    int64_t *keys;
    Py_ssize_t size, capacity;
} Heap;

static int heap_push(Heap *heap, int64_t key) {
    if (heap->size == heap->capacity) {
        Py_ssize_t capacity = heap->capacity ? heap->capacity * 2 : 64;
        int64_t *keys = realloc(heap->keys, (size_t)capacity * sizeof(int64_t));
        if (!keys) return -1;
        heap->keys = keys;
        heap->capacity = capacity;
    }
    Py_ssize_t k = heap->size++;
    while (k) {
        Py_ssize_t parent = (k - 1) / 2;
        if (heap->keys[parent] <= key) break;
        heap->keys[k] = heap->keys[parent];
        k = parent;
    }
    heap->keys[k] = key;
    return 0;
}

static int64_t heap_pop(Heap *heap) {
    int64_t top = heap->keys[0], last = heap->keys[--heap->size];
    Py_ssize_t k = 0;
    for (;;) {
        Py_ssize_t child = 2 * k + 1;
        if (child >= heap->size) break;
        if (child + 1 < heap->size && heap->keys[child + 1] < heap->keys[child]) child++;
        if (heap->keys[child] >= last) break;
        heap->keys[k] = heap->keys[child];
        k = child;
    }
    if (heap->size) heap->keys[k] = last;
    return top;
}

/* Bellman-Ford as the scorer runs it: pass 1 scans the whole list in order; afterwards an
 * edge is scanned again only when its source has improved since its last scan, and only if
 * the improvement can relax its target now (if it cannot now it cannot later: targets only
 * improve, and a further improvement of the source schedules the edge again).  The scans
 * that do happen are those of the scorer, in its order, with the same sums.
 * `predecessor_edge[v]` is the edge that last improved v, or -1. */
static int shortest_paths(const Lattice *lat, const double *weights, int *predecessor_edge) {
    int count = lat->vertex_count;
    Py_ssize_t length = lat->list.size;
    const int32_t *list = lat->list.data;
    int64_t passes = count - 1;
    double *distance = malloc((size_t)count * sizeof(double));
    Py_ssize_t *last_change = malloc((size_t)count * sizeof(Py_ssize_t));
    Py_ssize_t *leaving_start = calloc((size_t)count + 1, sizeof(Py_ssize_t));
    int32_t *leaving = malloc(((size_t)length + 1) * sizeof(int32_t));
    int32_t *scheduled = calloc((size_t)length + 1, sizeof(int32_t));
    Heap heap = {0};
    int status = -1;
    if (!distance || !last_change || !leaving_start || !leaving || !scheduled) goto done;
    for (int v = 0; v < count; v++) {
        distance[v] = Py_HUGE_VAL;
        predecessor_edge[v] = -1;
        last_change[v] = -1;
    }
    distance[0] = 0;
    if (passes < 1) {
        status = 0;
        goto done;
    }
    for (Py_ssize_t p = 0; p < length; p++) leaving_start[lat->edges[list[p]].u + 1]++;
    for (int v = 0; v < count; v++) leaving_start[v + 1] += leaving_start[v];
    {
        Py_ssize_t *fill = malloc(((size_t)count + 1) * sizeof(Py_ssize_t));
        if (!fill) goto done;
        memcpy(fill, leaving_start, ((size_t)count + 1) * sizeof(Py_ssize_t));
        for (Py_ssize_t p = 0; p < length; p++) leaving[fill[lat->edges[list[p]].u]++] = (int32_t)p;
        free(fill);
    }
    for (Py_ssize_t p = 0; p < length; p++) { /* pass 1 */
        const Edge *edge = &lat->edges[list[p]];
        double candidate = distance[edge->u] + weights[list[p]];
        if (candidate < distance[edge->v]) {
            distance[edge->v] = candidate;
            predecessor_edge[edge->v] = list[p];
            last_change[edge->v] = p;
        }
    }
    int64_t scale = (int64_t)length + 1;
    if (passes >= 2) {
        for (int v = 0; v < count; v++) {
            if (last_change[v] < 0) continue;
            for (Py_ssize_t k = leaving_start[v]; k < leaving_start[v + 1]; k++) {
                Py_ssize_t q = leaving[k];
                if (q >= last_change[v]) break; /* in order: the rest came after the change */
                const Edge *edge = &lat->edges[list[q]];
                if (distance[v] + weights[list[q]] < distance[edge->v]) {
                    scheduled[q] = 2;
                    if (heap_push(&heap, 2 * scale + q) < 0) goto done;
                }
            }
        }
    }
    while (heap.size) {
        int64_t key = heap_pop(&heap);
        int64_t pass = key / scale;
        Py_ssize_t p = (Py_ssize_t)(key % scale);
        if (scheduled[p] != pass) continue;
        scheduled[p] = 0;
        const Edge *edge = &lat->edges[list[p]];
        double candidate = distance[edge->u] + weights[list[p]];
        if (!(candidate < distance[edge->v])) continue;
        int v = edge->v;
        distance[v] = candidate;
        predecessor_edge[v] = list[p];
        for (Py_ssize_t k = leaving_start[v]; k < leaving_start[v + 1]; k++) {
            Py_ssize_t later = leaving[k];
            int64_t when = later > p ? pass : pass + 1;
            if (when > passes || (scheduled[later] && scheduled[later] <= when)) continue;
            const Edge *next = &lat->edges[list[later]];
            if (!(candidate + weights[list[later]] < distance[next->v])) continue;
            scheduled[later] = (int32_t)when;
            if (heap_push(&heap, when * scale + later) < 0) goto done;
        }
    }
    status = 0;
done:
    free(distance);
    free(last_change);
    free(leaving_start);
    free(leaving);
    free(scheduled);
    free(heap.keys);
    return status;
}

/* The same result in one pass over the vertices in order ("by time").
 *
 * Bellman-Ford's final distance of v is min over its incoming list entries of
 * fl(d(u) + w) (floating-point addition is monotone), and v keeps the predecessor whose
 * relaxation first reached that value.  Which relaxation was first depends on when each
 * source got the value it relaxed with: a scan at list position q after a source changed
 * at (pass, position) happens in the same pass if q comes later, else in the next.  Only
 * values that equal a vertex's final distance in exact arithmetic matter: every weight is
 * an integer plus a multiple of 0.001, so such values differ from any other by about
 * 0.001, far more than floating-point error when `granularity_holds` -- a value that is not
 * "near final" cannot produce a candidate that is near final further on.  So each vertex
 * keeps the (time, value) history of its near-final values, built from its incoming
 * entries' sources' histories, and the first near-final record low gives its predecessor.
 * Where the condition does not hold, shortest_paths (the scan-by-scan simulation) runs
 * instead. */
typedef struct {
    int64_t pass;
    Py_ssize_t position;
    double value;
    int32_t edge;
} Event;

static int compare_events(const void *a, const void *b) {
    const Event *x = a, *y = b;
    if (x->pass != y->pass) return (x->pass > y->pass) - (x->pass < y->pass);
    return (x->position > y->position) - (x->position < y->position);
}

#define NEAR 0.0004

/* the number of epsilons in an edge's weight (0 for a gold-matched edge: -|E| exactly) */
static inline int epsilons(const Lattice *lat, const double *weights, int32_t edge) {
    double w = weights[edge];
    if (w < 0) return 0;
    return (int)((w - lat->edges[edge].dist) / EPSILON + 0.5);
}

static int shortest_paths_by_time(const Lattice *lat, const double *weights,
                                  int *predecessor_edge) {
    int count = lat->vertex_count;
    Py_ssize_t length = lat->list.size;
    const int32_t *list = lat->list.data;
    int64_t passes = count - 1;
    double *distance = malloc((size_t)count * sizeof(double));
    Py_ssize_t *into_start = calloc((size_t)count + 1, sizeof(Py_ssize_t));
    int32_t *into = malloc(((size_t)length + 1) * sizeof(int32_t));
    Py_ssize_t *history_start = malloc(((size_t)count + 1) * sizeof(Py_ssize_t));
    Event *history = NULL, *events = NULL;
    Py_ssize_t history_size = 0, history_capacity = 0, events_capacity = 0;
    int status = -1;
    if (!distance || !into_start || !into || !history_start) goto done;
    for (Py_ssize_t p = 0; p < length; p++) into_start[lat->edges[list[p]].v + 1]++;
    for (int v = 0; v < count; v++) into_start[v + 1] += into_start[v];
    {
        Py_ssize_t *fill = malloc(((size_t)count + 1) * sizeof(Py_ssize_t));
        if (!fill) goto done;
        memcpy(fill, into_start, ((size_t)count + 1) * sizeof(Py_ssize_t));
        for (Py_ssize_t p = 0; p < length; p++) into[fill[lat->edges[list[p]].v]++] = (int32_t)p;
        free(fill);
    }
    for (int v = 0; v < count; v++) predecessor_edge[v] = -1;
    distance[0] = 0;
    history_capacity = 64;
    history = malloc((size_t)history_capacity * sizeof(Event));
    if (!history) goto done;
    history[0].pass = 1;
    history[0].position = -1;
    history[0].value = 0;
    history[0].edge = -1;
    history_size = 1;
    history_start[0] = 0;
    history_start[1] = 1;
    /* Final distances, and the check that 0.001 steps stay far above rounding errors:
     * along any path at most `most` epsilons are summed (fewer than 1000, so integers and
     * epsilons cannot cancel) and the error of a sum stays below NEAR / 2, so values equal
     * in exact arithmetic stay within NEAR of each other and unequal ones 0.001 - NEAR
     * apart. */
    int *most = calloc((size_t)count, sizeof(int));
    if (!most) goto done;
    double largest = 1;
    int most_epsilons = 0;
    for (int v = 1; v < count; v++) {
        double best = Py_HUGE_VAL;
        for (Py_ssize_t k = into_start[v]; k < into_start[v + 1]; k++) {
            Py_ssize_t q = into[k];
            int u = lat->edges[list[q]].u;
            double candidate = distance[u] + weights[list[q]];
            if (candidate < best) best = candidate;
            int path = most[u] + epsilons(lat, weights, list[q]);
            if (path > most[v]) most[v] = path;
        }
        distance[v] = best;
        if (most[v] > most_epsilons) most_epsilons = most[v];
        if (best != Py_HUGE_VAL && fabs(best) > largest) largest = fabs(best);
    }
    free(most);
    {
        /* each addition rounds by at most half an ulp of the running sum, and a path sum
         * never exceeds the largest final distance plus the positive weights of a path */
        double steps = (double)(lat->n + lat->m + 1);
        double additions = steps + most_epsilons;
        double magnitude = largest + 2 * steps;
        if (most_epsilons >= 999 || additions * magnitude * 1.12e-16 >= NEAR / 2) {
            status = 1; /* the caller simulates Bellman-Ford scan by scan instead */
            goto done;
        }
    }
    for (int v = 1; v < count; v++) {
        double best = distance[v];
        history_start[v] = history_size;
        if (best == Py_HUGE_VAL) {
            history_start[v + 1] = history_size;
            continue;
        }
        Py_ssize_t event_count = 0;
        for (Py_ssize_t k = into_start[v]; k < into_start[v + 1]; k++) {
            Py_ssize_t q = into[k];
            int32_t edge = list[q];
            int u = lat->edges[edge].u;
            double w = weights[edge];
            if (!(distance[u] + w <= best + NEAR)) continue;
            for (Py_ssize_t r = history_start[u]; r < history_start[u + 1]; r++) {
                int64_t pass = history[r].pass + (q > history[r].position ? 0 : 1);
                if (pass > passes) continue;
                /* the source's value at that scan: its latest change before it */
                Py_ssize_t latest = r;
                while (latest + 1 < history_start[u + 1] &&
                       (history[latest + 1].pass < pass ||
                        (history[latest + 1].pass == pass && history[latest + 1].position < q)))
                    latest++;
                double candidate = history[latest].value + w;
                if (!(candidate <= best + NEAR)) continue;
                if (event_count == events_capacity) {
                    events_capacity = events_capacity ? events_capacity * 2 : 64;
                    Event *grown = realloc(events, (size_t)events_capacity * sizeof(Event));
                    if (!grown) goto done;
                    events = grown;
                }
                events[event_count].pass = pass;
                events[event_count].position = q;
                events[event_count].value = candidate;
                events[event_count].edge = edge;
                event_count++;
            }
        }
        qsort(events, (size_t)event_count, sizeof(Event), compare_events);
        double current = Py_HUGE_VAL;
        for (Py_ssize_t e = 0; e < event_count; e++) {
            if (!(events[e].value < current)) continue;
            current = events[e].value;
            if (history_size == history_capacity) {
                history_capacity *= 2;
                Event *grown = realloc(history, (size_t)history_capacity * sizeof(Event));
                if (!grown) goto done;
                history = grown;
            }
            history[history_size++] = events[e];
            predecessor_edge[v] = events[e].edge;
        }
        history_start[v + 1] = history_size;
    }
    status = 0;
done:
    free(distance);
    free(into_start);
    free(into);
    free(history_start);
    free(history);
    free(events);
    return status;
}

/* ------------------------------------------------------------------------------------ */
/* Streaming: very large lattices (tens of millions of edges) in one generation, unstored.
 *
 * The search needs, at vertex v, every edge into v with its weight and list positions.  Two
 * things seem to need the whole list first, and neither does:
 *
 * - Which entries the removal of unchanged-only edges deletes.  An edge is removed when its
 *   final kind is NOOP and its length is above 1, and such an edge is a run of d >= 2
 *   diagonal matches (d <= max_unchanged): the one path of length d between its ends, so
 *   the original edges decide it.  Each entry is therefore decided as it is appended
 *   (removed unless the entry before it was removed: the scorer's iterator skips that one).
 * - The weight of a gold-matched edge, -|E|, where |E| is the final list length.  The
 *   search is first run on exact values instead: -k * BONUS_UNIT + 1000 * length + epsilons,
 *   as int64, where k counts matched edges.  While |E| > n + m + 1 + (most epsilons on a
 *   path) / 1000, a path with more matched edges is shorter whatever |E| is (a path's
 *   length is at most n + m), so these values order every candidate as the real ones do
 *   (with 0.001 taken exactly), and the
 *   sources whose value equals v's minimum are exactly the "near final" ones of
 *   shortest_paths_by_time.  Only those are kept (about 1% of the edges); once |E| is
 *   known, a last pass over them computes the floating-point distances, with the scorer's
 *   sums, and the relaxation times that choose each predecessor.
 *
 * Weights on gold spans: an edge on a span with start < end matches or not by its own
 * tokens.  On an insertion span (start == end) the scorer's two-pointer walk depends on
 * all edges of the span, so those edges are found first by a generation restricted to the
 * few sources they can leave from (a row-s vertex, or row 0 at column s: release 3.2 puts
 * a row-0 insertion at the hypothesis position) and weighed by the scorer's walk, once with
 * a stand-in bonus (for exact values) and once with -|E|.
 *
 * Anything these arguments do not cover -- |E| too small, the granularity condition of
 * shortest_paths_by_time, an edge seen differently by the two generations -- returns 2 and
 * the caller stores the lattice instead.  Measured on the degenerate hypothesis of
 * CoNLL-2014 sentence 333 (9252 vertices, 18.7M list entries): see bench/bench_m2.py. */

#define BONUS_UNIT ((int64_t)1 << 36) /* stands for |E|: above 1000 * (n + m) + 255 * (n + m) */
#define EXACT_INF INT64_MAX
#define STAND_IN_BONUS (-1073741824.0) /* -2^30: decodes back to k and epsilons exactly */
#define NORMAL_WEIGHT (-1)
#define BONUS_WEIGHT (-2)

static long long streamed_count = 0, stream_fallbacks = 0;

static inline int64_t pair_of(int count, int i, int j) { return (int64_t)i * count + j; }

typedef struct {
    Map index;           /* pair -> head of its chain in `position`/`next` */
    Int32List position;  /* extra list positions of edges listed more than once */
    Int32List next;
} Extras;

static int extras_add(Extras *extras, int64_t pair, int32_t position) {
    int head = map_get(&extras->index, pair);
    if (push32(&extras->position, position) < 0 || push32(&extras->next, head) < 0) return -1;
    return map_put(&extras->index, pair, (int)(extras->position.size - 1));
}

/* Edges on insertion spans, from the restricted generation. */
typedef struct {
    Edge *edges;
    int32_t *kept;
    Py_ssize_t size, capacity;
    Map index; /* pair -> index */
} Inserts;

static int inserts_push(Inserts *inserts, const Edge *edge, int kept, int count) {
    if (inserts->size == inserts->capacity) {
        Py_ssize_t capacity = inserts->capacity * 2 + 64;
        Edge *edges = realloc(inserts->edges, (size_t)capacity * sizeof(Edge));
        if (edges) inserts->edges = edges;
        int32_t *counts = realloc(inserts->kept, (size_t)capacity * sizeof(int32_t));
        if (counts) inserts->kept = counts;
        if (!edges || !counts) return -1;
        inserts->capacity = capacity;
    }
    inserts->edges[inserts->size] = *edge;
    inserts->kept[inserts->size] = kept;
    inserts->size++;
    return map_put(&inserts->index, pair_of(count, edge->u, edge->v), (int)(inserts->size - 1));
}

static void inserts_free(Inserts *inserts) {
    free(inserts->edges);
    free(inserts->kept);
    map_free(&inserts->index);
}

typedef struct {
    Visitor base;
    const Lattice *lat;
    const char *wanted; /* by source offset: an insertion gold span is there */
    int limit;
    Inserts *out;
} Gather;

/* Edges on insertion spans are never unchanged-only, so none of their entries is removed. */
static int gather_vertex(Visitor *self, int k, const Column *column) {
    Gather *gather = (Gather *)self;
    FOR_EACH_SOURCE(column, k, i) {
        const Cell *cell = &column->cell[i];
        if (cell->start != cell->end || cell->start < 0 || cell->start >= gather->limit ||
            !gather->wanted[cell->start])
            continue;
        Edge edge = {cell->dist, cell->kind, cell->start, cell->end, cell->unchanged, i, k};
        if (inserts_push(gather->out, &edge, cell->listed, gather->lat->vertex_count) < 0)
            return -1;
    }
    return 0;
}

static int gather_append(Visitor *self, Py_ssize_t position, Column *column, int i, int j,
                         const Edge *edge, int is_new) {
    (void)self; (void)position; (void)column; (void)i; (void)j; (void)edge; (void)is_new;
    return 0;
}

/* Every edge that can have start == end == s for an offset s in `wanted`. */
static int gather_inserts(Lattice *lat, int max_unchanged, const char *wanted, int limit,
                          Inserts *out) {
    uint8_t *allowed = calloc((size_t)lat->vertex_count + 1, 1);
    if (!allowed) return -1;
    for (int u = 0; u < lat->vertex_count; u++) {
        int row = lat->cell_of[u] / lat->width, column = lat->cell_of[u] % lat->width;
        allowed[u] = (row < limit && wanted[row]) || (row == 0 && column < limit && wanted[column]);
    }
    Gather gather = {{.vertex = gather_vertex, .append = gather_append}, lat, wanted, limit, out};
    int status = generate(lat, lat->edge_count, max_unchanged, &gather.base, gather_append,
                          allowed);
    free(allowed);
    return status;
}

/* A source of v whose value equals v's minimum, for one annotator. */
typedef struct {
    int32_t u, dist, start, end;
    int32_t weight;       /* NORMAL_WEIGHT, BONUS_WEIGHT, or an index in Inserts */
    int32_t kind, kept;
    Py_ssize_t positions; /* offset of its kept entries' list positions */
} Near;

typedef struct {
    const Gold *golds;
    int gold_count;
    SpanTable spans;       /* 1 a gold span of this annotator, 2 an insertion */
    int64_t *insert_exact; /* per Inserts edge: its weight as an exact value */
    double *insert_weight; /* per Inserts edge: its weight, once |E| is known */
    int64_t *value;        /* exact distance by vertex */
    int *most;             /* most epsilons on a path to the vertex */
    int most_epsilons;
    Near *near;
    Py_ssize_t near_size, near_capacity;
    Py_ssize_t *near_begin, *near_end;
    int32_t *positions;
    Py_ssize_t positions_size, positions_capacity;
    int32_t *pick;         /* sources at the current vertex's minimum */
    int picks, most_here;
    int64_t best;
} Track;

typedef struct {
    Visitor base;
    const Lattice *lat;
    Py_ssize_t originals;
    int max_unchanged;
    int *chain, *depth;    /* runs of diagonal-match unit edges */
    uint8_t **removed;     /* bit per list position, in chunks that never move */
    Extras extras;
    const SpanTable *gold_spans; /* a gold span of any annotator */
    int limit;
    const Inserts *inserts;
    Track *tracks;
    int annotators;
    int crash, inconsistent;
    /* the search on its own thread (see search_thread); what the generator writes on
     * every entry and what the two threads signal each other sit on cache lines of their
     * own */
    Column *columns;
    struct {
        Py_ssize_t appended, removed_count;
        int skip;
    } counts __attribute__((aligned(64)));
    int published __attribute__((aligned(64)));
    int consumed __attribute__((aligned(64)));
    int finished __attribute__((aligned(64)));
    int failed;
#ifdef HAVE_THREADS
    pthread_t thread;
    pthread_mutex_t extras_lock; /* the generator adds extras while the search reads them */
#endif
} Stream;

#define CHUNK_SHIFT 20                        /* positions per chunk of the removal bits */
#define CHUNKS ((Py_ssize_t)1 << (31 - CHUNK_SHIFT)) /* list positions are int32 */

/* Atomic byte reads and writes: the search thread reads bits of older positions while the
 * generator sets bits of newer ones, sometimes in the same byte. */
static inline int is_removed(const Stream *stream, Py_ssize_t position) {
    uint8_t *chunk = __atomic_load_n(&stream->removed[position >> CHUNK_SHIFT], __ATOMIC_ACQUIRE);
    if (!chunk) return 0;
    Py_ssize_t offset = position & (((Py_ssize_t)1 << CHUNK_SHIFT) - 1);
    return (__atomic_load_n(&chunk[offset >> 3], __ATOMIC_RELAXED) >> (position & 7)) & 1;
}

static int mark_removed(Stream *stream, Py_ssize_t position) {
    Py_ssize_t index = position >> CHUNK_SHIFT;
    if (index >= CHUNKS) return -1;
    uint8_t *chunk = stream->removed[index];
    if (!chunk) {
        if (!(chunk = calloc((size_t)1 << (CHUNK_SHIFT - 3), 1))) return -1;
        __atomic_store_n(&stream->removed[index], chunk, __ATOMIC_RELEASE);
    }
    Py_ssize_t offset = position & (((Py_ssize_t)1 << CHUNK_SHIFT) - 1);
    __atomic_fetch_or(&chunk[offset >> 3], (uint8_t)(1 << (position & 7)), __ATOMIC_RELAXED);
    stream->counts.removed_count++;
    return 0;
}

static inline void lock_extras(Stream *stream) {
#ifdef HAVE_THREADS
    pthread_mutex_lock(&stream->extras_lock);
#else
    (void)stream;
#endif
}

static inline void unlock_extras(Stream *stream) {
#ifdef HAVE_THREADS
    pthread_mutex_unlock(&stream->extras_lock);
#else
    (void)stream;
#endif
}

/* The scorer's removal loop, one entry at a time, in list order. */
static int stream_append(Visitor *self, Py_ssize_t position, Column *column, int i, int j,
                         const Edge *edge, int is_new) {
    Stream *stream = (Stream *)self;
    (void)column;
    (void)edge;
    stream->counts.appended++;
    if (!is_new) {
        lock_extras(stream);
        int status = extras_add(&stream->extras, pair_of(stream->lat->vertex_count, i, j),
                                (int32_t)position);
        unlock_extras(stream);
        if (status < 0) return -1;
    }
    if (stream->counts.skip) { /* the iterator skipped this entry: kept */
        stream->counts.skip = 0;
        return 0;
    }
    int run = stream->depth[j] - stream->depth[i];
    if (stream->chain[i] != stream->chain[j] || run < 2 || run > stream->max_unchanged) return 0;
    stream->counts.skip = 1;
    return mark_removed(stream, position);
}

/* The list positions of an edge's entries still in the list (into `out` when given). */
static int kept_entries(Stream *stream, int u, int v, const Cell *cell, int32_t *out) {
    int found = 0;
    if (cell->first < stream->originals) { /* an original: listed once or twice, side by side */
        for (int k = 0; k < cell->listed; k++)
            if (out) out[found++] = cell->first + k; else found++;
        return found;
    }
    if (!is_removed(stream, cell->first)) {
        if (out) out[found] = cell->first;
        found++;
    }
    if (cell->listed > 1) {
        int32_t more[256];
        int extra = 0;
        lock_extras(stream);
        int link = map_get(&stream->extras.index, pair_of(stream->lat->vertex_count, u, v));
        while (link >= 0 && extra < 256) {
            more[extra++] = stream->extras.position.data[link];
            link = stream->extras.next.data[link];
        }
        unlock_extras(stream);
        for (int k = extra - 1; k >= 0; k--) /* the chain is newest first */
            if (!is_removed(stream, more[k])) {
                if (out) out[found] = more[k];
                found++;
            }
    }
    return found;
}

static inline int kept_count(Stream *stream, int u, int v, const Cell *cell) {
    if (cell->first < stream->originals) return cell->listed;
    if (cell->listed == 1) return !is_removed(stream, cell->first);
    return kept_entries(stream, u, v, cell, NULL);
}

/* The exact weight of an edge on one of the annotator's gold spans; `weight` says which
 * kind it is, `epsilons` how many epsilons it has. */
static int64_t gold_span_weight(Stream *stream, const Track *track, int u, int v,
                                const Cell *cell, int kept, int32_t *weight, int *epsilons) {
    *weight = NORMAL_WEIGHT;
    *epsilons = cell->kind != KIND_NOOP ? kept : 0;
    if (spans_get(&track->spans, cell->start, cell->end) == 2) {
        int index = map_get(&stream->inserts->index, pair_of(stream->lat->vertex_count, u, v));
        if (index < 0 || stream->inserts->kept[index] != kept ||
            stream->inserts->edges[index].dist != cell->dist) {
            stream->inconsistent = 1;
        } else {
            *weight = index;
            int64_t exact = track->insert_exact[index];
            *epsilons = exact < 0 ? 0 : (int)(exact - 1000 * (int64_t)cell->dist);
            return exact;
        }
    } else {
        Edge edge;
        edge.u = u;
        edge.v = v;
        for (int g = 0; g < track->gold_count; g++)
            if (track->golds[g].start == cell->start && track->golds[g].end == cell->end &&
                matches(stream->lat, &edge, &track->golds[g])) {
                *weight = BONUS_WEIGHT;
                *epsilons = 0;
                return -BONUS_UNIT;
            }
    }
    return 1000 * (int64_t)cell->dist + *epsilons;
}

static int grow_near(Track *track, int kept) {
    if (track->near_size == track->near_capacity) {
        track->near_capacity = track->near_capacity * 2 + 1024;
        Near *grown = realloc(track->near, (size_t)track->near_capacity * sizeof(Near));
        if (!grown) return -1;
        track->near = grown;
    }
    if (track->positions_size + kept + 258 > track->positions_capacity) {
        track->positions_capacity = track->positions_capacity * 2 + kept + 4096;
        int32_t *grown = realloc(track->positions,
                                 (size_t)track->positions_capacity * sizeof(int32_t));
        if (!grown) return -1;
        track->positions = grown;
    }
    return 0;
}

/* Keeps the annotator's sources at v's minimum for the floating-point pass. */
static int record_near(Stream *stream, Track *track, int v, const Column *column) {
    track->near_begin[v] = track->near_size;
    for (int p = 0; p < track->picks; p++) {
        int u = track->pick[p];
        const Cell *cell = &column->cell[u];
        int kept = kept_count(stream, u, v, cell), epsilons;
        if (grow_near(track, kept) < 0) return -1;
        Near *near = &track->near[track->near_size++];
        near->u = u;
        near->dist = cell->dist;
        near->start = cell->start;
        near->end = cell->end;
        near->kind = cell->kind;
        near->kept = kept;
        near->weight = NORMAL_WEIGHT;
        if (spans_get(&track->spans, cell->start, cell->end))
            gold_span_weight(stream, track, u, v, cell, kept, &near->weight, &epsilons);
        near->positions = track->positions_size;
        track->positions_size += kept_entries(stream, u, v, cell,
                                              track->positions + track->positions_size);
    }
    track->near_end[v] = track->near_size;
    return 0;
}

/* Column v is complete: its exact distance for every annotator, and its near sources. */
static int stream_vertex(Visitor *self, int v, const Column *column) {
    Stream *stream = (Stream *)self;
    int limit = stream->limit;
    for (int a = 0; a < stream->annotators; a++) {
        stream->tracks[a].best = EXACT_INF;
        stream->tracks[a].picks = 0;
        stream->tracks[a].most_here = 0;
    }
    FOR_EACH_SOURCE(column, v, u) {
        const Cell *cell = &column->cell[u];
        int kept = kept_count(stream, u, v, cell);
        if (!kept) continue; /* every entry removed: not in the list */
        if (kept < cell->listed && cell->listed > 1) stream->crash = 1; /* the scorer's KeyError */
        int normal_epsilons = cell->kind != KIND_NOOP ? kept : 0;
        int64_t normal = 1000 * (int64_t)cell->dist + normal_epsilons;
        int gold = spans_get(stream->gold_spans, cell->start, cell->end);
        for (int a = 0; a < stream->annotators; a++) {
            Track *track = &stream->tracks[a];
            int64_t from = track->value[u];
            if (from == EXACT_INF) continue;
            int64_t weight = normal;
            int epsilons = normal_epsilons;
            if (gold && spans_get(&track->spans, cell->start, cell->end)) {
                int32_t kind;
                weight = gold_span_weight(stream, track, u, v, cell, kept, &kind, &epsilons);
            }
            int64_t candidate = from + weight;
            if (candidate < track->best) {
                track->best = candidate;
                track->picks = 0;
            }
            if (candidate == track->best) track->pick[track->picks++] = u;
            if (track->most[u] + epsilons > track->most_here)
                track->most_here = track->most[u] + epsilons;
        }
    }
    for (int a = 0; a < stream->annotators; a++) {
        Track *track = &stream->tracks[a];
        track->value[v] = track->best;
        track->most[v] = track->most_here;
        if (track->most_here > track->most_epsilons) track->most_epsilons = track->most_here;
        if (record_near(stream, track, v, column) < 0) return -1;
    }
    return 0;
}

/* Spins a little, then gives the processor away (the thread waited for may share its
 * core), then sleeps: the search thread is usually ahead and would otherwise burn a core. */
static void wait_briefly(int *rounds) {
    int round = (*rounds)++;
    if (round < 64) {
        for (volatile int k = 0; k < 32; k++) {
        }
        return;
    }
#ifdef HAVE_THREADS
    if (round < 128) {
        sched_yield();
        return;
    }
    struct timespec pause = {0, 20000};
    nanosleep(&pause, NULL);
#endif
}

/* With a second thread, the generator only publishes each completed column (it then goes
 * on with that pivot, which reads the column but no longer writes it) and this thread runs
 * stream_vertex on the columns in order.  What both touch: the removal bits (atomic bytes
 * in chunks that never move; the search reads only positions appended before the column
 * was published), the extras (a lock), and the columns (freed by the generator only once
 * `consumed` has passed them). */
static int stream_publish(Visitor *self, int k, const Column *column) {
    (void)column;
    __atomic_store_n(&((Stream *)self)->published, k + 1, __ATOMIC_RELEASE);
    return 0;
}

#ifdef HAVE_THREADS
static void *search_thread(void *argument) {
    Stream *stream = argument;
    int next = 0, rounds = 0;
    for (;;) {
        int published = __atomic_load_n(&stream->published, __ATOMIC_ACQUIRE);
        if (next < published) {
            for (; next < published; next++) {
                const Column *column = &stream->columns[next];
                if (column->cell && !stream->failed &&
                    stream_vertex(&stream->base, next, column) < 0)
                    stream->failed = 1;
                __atomic_store_n(&stream->consumed, next + 1, __ATOMIC_RELEASE);
            }
            rounds = 0;
        } else if (__atomic_load_n(&stream->finished, __ATOMIC_ACQUIRE)) {
            if (__atomic_load_n(&stream->published, __ATOMIC_ACQUIRE) <= next) break;
        } else {
            wait_briefly(&rounds);
        }
    }
    return NULL;
}

static void stream_finish(Visitor *self) {
    Stream *stream = (Stream *)self;
    __atomic_store_n(&stream->finished, 1, __ATOMIC_RELEASE);
    pthread_join(stream->thread, NULL);
}
#endif

/* Runs the generation with the search on the calling thread, or on a second one. */
static int generate_and_search(Lattice *lat, int max_unchanged, Stream *stream, int threaded) {
    stream->base.vertex = stream_vertex;
#ifdef HAVE_THREADS
    if (threaded && pthread_create(&stream->thread, NULL, search_thread, stream) == 0) {
        stream->base.vertex = stream_publish;
        stream->base.columns = &stream->columns;
        stream->base.consumed = &stream->consumed;
        stream->base.finish = stream_finish;
    }
#else
    (void)threaded;
#endif
    int status = generate(lat, lat->edge_count, max_unchanged, &stream->base, stream_append,
                          NULL);
    return stream->failed && status != TOO_LARGE ? -1 : status;
}

/* Weighs the insertion-span edges on the annotator's insertion spans with the scorer's walk,
 * for a given bonus (the other edges keep their usual weight). */
static int weigh_inserts(const Lattice *lat, const Inserts *inserts, const Gold *golds,
                         int gold_count, double bonus, double *weights) {
    Lattice view = *lat;
    view.edges = inserts->edges;
    view.edge_count = inserts->size;
    Span *spans = calloc((size_t)gold_count + 1, sizeof(Span));
    int *order = malloc(((size_t)gold_count + 1) * sizeof(int));
    int span_count = 0, status = -1;
    if (!spans || !order) goto done;
    for (int g = 0; g < gold_count; g++) {
        if (golds[g].start != golds[g].end) continue;
        int known = 0;
        for (int s = 0; s < span_count; s++) known |= spans[s].start == golds[g].start;
        if (!known) {
            spans[span_count].start = spans[span_count].end = golds[g].start;
            span_count++;
        }
    }
    for (Py_ssize_t c = 0; c < inserts->size; c++) {
        const Edge *edge = &inserts->edges[c];
        weights[c] = edge->dist;
        int span = -1;
        for (int s = 0; s < span_count; s++)
            if (spans[s].start == edge->start) span = s;
        for (int k = 0; k < inserts->kept[c]; k++) {
            if (span >= 0) {
                if (list_push(&spans[span].edges, c) < 0) goto done;
            } else if (edge->kind != KIND_NOOP) {
                weights[c] += EPSILON;
            }
        }
    }
    status = weigh_spans(&view, spans, span_count, golds, gold_count, order, weights, bonus);
done:
    if (spans)
        for (int s = 0; s < span_count; s++) list_free(&spans[s].edges);
    free(spans);
    free(order);
    return status;
}

/* The exact values of the insertion-span edges' weights: weighed with a stand-in bonus
 * large enough to read back whether the bonus was given and how many epsilons follow. */
static int exact_insert_weights(const Lattice *lat, const Inserts *inserts, Track *track) {
    double *weights = malloc(((size_t)inserts->size + 1) * sizeof(double));
    if (!weights) return -1;
    if (weigh_inserts(lat, inserts, track->golds, track->gold_count, STAND_IN_BONUS,
                      weights) < 0) {
        free(weights);
        return -1;
    }
    for (Py_ssize_t c = 0; c < inserts->size; c++) {
        if (weights[c] < STAND_IN_BONUS / 2) {
            track->insert_exact[c] = -BONUS_UNIT +
                                     (int64_t)floor((weights[c] - STAND_IN_BONUS) / EPSILON + 0.5);
        } else {
            int dist = inserts->edges[c].dist;
            track->insert_exact[c] = 1000 * (int64_t)dist +
                                     (int64_t)floor((weights[c] - dist) / EPSILON + 0.5);
        }
    }
    free(weights);
    return 0;
}

static inline double near_weight(const Track *track, const Near *near, double bonus) {
    if (near->weight == BONUS_WEIGHT) return bonus;
    if (near->weight >= 0) return track->insert_weight[near->weight];
    double w = near->dist;
    if (near->kind != KIND_NOOP)
        for (int k = 0; k < near->kept; k++) w += EPSILON;
    return w;
}

typedef struct {
    double *distance;
    Event *history, *events;
    Py_ssize_t *history_start;
    Py_ssize_t history_size, history_capacity, events_capacity;
} Floats;

static int push_event(Event **events, Py_ssize_t *size, Py_ssize_t *capacity, Event event) {
    if (*size == *capacity) {
        *capacity = *capacity * 2 + 64;
        Event *grown = realloc(*events, (size_t)*capacity * sizeof(Event));
        if (!grown) return -1;
        *events = grown;
    }
    (*events)[(*size)++] = event;
    return 0;
}

/* The relaxations of v's near sources that reach its distance, by time (as in
 * shortest_paths_by_time); the first of each strictly lower value enters v's history. */
static int near_events(Floats *floats, const Track *track, int v, double best, double bonus,
                       int64_t passes, Py_ssize_t *event_count) {
    const Event *h = floats->history;
    for (Py_ssize_t r = track->near_begin[v]; r < track->near_end[v]; r++) {
        const Near *near = &track->near[r];
        double w = near_weight(track, near, bonus);
        int u = near->u;
        if (!(floats->distance[u] + w <= best + NEAR)) return 1; /* granularity fails */
        Py_ssize_t low = floats->history_start[u], high = floats->history_start[u + 1];
        for (int e = 0; e < near->kept; e++) {
            Py_ssize_t q = track->positions[near->positions + e];
            for (Py_ssize_t k = low; k < high; k++) {
                int64_t pass = h[k].pass + (q > h[k].position ? 0 : 1);
                if (pass > passes) continue;
                Py_ssize_t latest = k;
                while (latest + 1 < high &&
                       (h[latest + 1].pass < pass ||
                        (h[latest + 1].pass == pass && h[latest + 1].position < q)))
                    latest++;
                double candidate = h[latest].value + w;
                if (!(candidate <= best + NEAR)) continue;
                Event event = {pass, q, candidate, (int32_t)r};
                if (push_event(&floats->events, event_count, &floats->events_capacity, event) < 0)
                    return -1;
            }
        }
    }
    return 0;
}

/* The floating-point pass over the near sources: distances with the scorer's sums, each
 * vertex's predecessor, and the granularity check.  Returns 0, 1 (condition fails) or -1. */
static int float_search(const Lattice *lat, const Track *track, double bonus, int *pred_u,
                        int *pred_kind, int *pred_start, int *pred_end) {
    int count = lat->vertex_count, status = -1;
    int64_t passes = count - 1;
    Floats floats = {0};
    floats.distance = malloc((size_t)count * sizeof(double));
    floats.history_start = calloc((size_t)count + 1, sizeof(Py_ssize_t));
    floats.history_capacity = 64;
    floats.history = malloc((size_t)floats.history_capacity * sizeof(Event));
    if (!floats.distance || !floats.history_start || !floats.history) goto done;
    for (int v = 0; v < count; v++) {
        floats.distance[v] = Py_HUGE_VAL;
        pred_u[v] = -1;
    }
    floats.distance[0] = 0;
    floats.history[0] = (Event){1, -1, 0, -1};
    floats.history_size = 1;
    floats.history_start[1] = 1;
    double largest = 1;
    for (int v = 1; v < count; v++) {
        floats.history_start[v] = floats.history_size;
        floats.history_start[v + 1] = floats.history_size;
        double best = Py_HUGE_VAL;
        for (Py_ssize_t r = track->near_begin[v]; r < track->near_end[v]; r++) {
            double candidate = floats.distance[track->near[r].u] +
                               near_weight(track, &track->near[r], bonus);
            if (candidate < best) best = candidate;
        }
        floats.distance[v] = best;
        if (best == Py_HUGE_VAL) continue;
        if (fabs(best) > largest) largest = fabs(best);
        Py_ssize_t event_count = 0;
        int found = near_events(&floats, track, v, best, bonus, passes, &event_count);
        if (found) {
            status = found;
            goto done;
        }
        qsort(floats.events, (size_t)event_count, sizeof(Event), compare_events);
        double current = Py_HUGE_VAL;
        for (Py_ssize_t e = 0; e < event_count; e++) {
            if (!(floats.events[e].value < current)) continue;
            current = floats.events[e].value;
            if (push_event(&floats.history, &floats.history_size, &floats.history_capacity,
                           floats.events[e]) < 0)
                goto done;
            const Near *near = &track->near[floats.events[e].edge];
            pred_u[v] = near->u;
            pred_kind[v] = near->kind;
            pred_start[v] = near->start;
            pred_end[v] = near->end;
        }
        floats.history_start[v + 1] = floats.history_size;
    }
    double steps = (double)(lat->n + lat->m + 1);
    double additions = steps + track->most_epsilons;
    double magnitude = largest + 2 * steps;
    /* Unlike shortest_paths_by_time, no bound on the epsilons: the exact pass has already
     * told equal values from unequal ones; only rounding must stay below NEAR / 2. */
    status = additions * magnitude * 1.12e-16 >= NEAR / 2;
done:
    free(floats.distance);
    free(floats.history_start);
    free(floats.history);
    free(floats.events);
    return status;
}

/* Runs of diagonal-match unit edges: a transitive edge is unchanged-only exactly when it
 * joins two vertices of one run 2 .. max_unchanged steps apart. */
static int diagonal_runs(const Lattice *lat, int *chain, int *depth) {
    int count = lat->vertex_count;
    int *next = malloc((size_t)count * sizeof(int));
    if (!next) return -1;
    for (int v = 0; v < count; v++) {
        next[v] = -1;
        chain[v] = v;
        depth[v] = 0;
    }
    for (Py_ssize_t e = 0; e < lat->edge_count; e++)
        if (lat->edges[e].kind == KIND_NOOP) next[lat->edges[e].u] = lat->edges[e].v;
    for (int v = 0; v < count; v++) /* vertices are in topological order */
        if (next[v] >= 0) {
            chain[next[v]] = chain[v];
            depth[next[v]] = depth[v] + 1;
        }
    free(next);
    return 0;
}

/* A track's arrays over the vertices (value, most, near_begin, near_end, pick) and the
 * annotator's four predecessor arrays, per vertex. */
#define TRACK_VERTEX_BYTES (sizeof(int64_t) + sizeof(int) + 2 * sizeof(Py_ssize_t) + \
                            sizeof(int32_t) + 4 * sizeof(int))

static int track_open(Track *track, const Gold *golds, Py_ssize_t gold_count, int limit,
                      int count, Py_ssize_t inserts) {
    track->golds = golds;
    track->gold_count = (int)gold_count;
    int spans = spans_init(&track->spans, limit);
    track->value = malloc((size_t)count * sizeof(int64_t));
    track->most = calloc((size_t)count, sizeof(int));
    track->near_begin = calloc((size_t)count + 1, sizeof(Py_ssize_t));
    track->near_end = calloc((size_t)count + 1, sizeof(Py_ssize_t));
    track->pick = malloc(((size_t)count + 1) * sizeof(int32_t));
    track->insert_exact = malloc(((size_t)inserts + 1) * sizeof(int64_t));
    track->insert_weight = malloc(((size_t)inserts + 1) * sizeof(double));
    if (spans < 0 || !track->value || !track->most || !track->near_begin ||
        !track->near_end || !track->pick || !track->insert_exact || !track->insert_weight)
        return -1;
    for (Py_ssize_t g = 0; g < gold_count; g++) {
        int start = golds[g].start, end = golds[g].end;
        if (spans_set(&track->spans, start, end, start == end ? 2 : 1) < 0) return -1;
    }
    for (int v = 0; v < count; v++) track->value[v] = EXACT_INF;
    track->value[0] = 0;
    return 0;
}

static void track_close(Track *track) {
    spans_free(&track->spans);
    free(track->insert_exact);
    free(track->insert_weight);
    free(track->value);
    free(track->most);
    free(track->near);
    free(track->near_begin);
    free(track->near_end);
    free(track->positions);
    free(track->pick);
}

/* The union of the annotators' gold spans, and which offsets start an insertion span. */
static int mark_spans(Gold **golds, Py_ssize_t *gold_counts, int annotators, int limit,
                      SpanTable *gold_spans, char *insertion) {
    for (int a = 0; a < annotators; a++)
        for (Py_ssize_t g = 0; g < gold_counts[a]; g++) {
            int start = golds[a][g].start, end = golds[a][g].end;
            if (start < 0 || end < 0 || start >= limit || end >= limit) continue;
            if (spans_set(gold_spans, start, end, 1) < 0) return -1;
            if (start == end) insertion[start] = 1;
        }
    return 0;
}

/* One generation for every annotator; returns 0 with the predecessors filled, 1 when the
 * scorer would crash, 2 when the caller must store the lattice instead, -1 on memory. */
static int stream_paths(Lattice *lat, int max_unchanged, Gold **golds, Py_ssize_t *gold_counts,
                        int annotators, int threaded, int **pred_u, int **pred_kind,
                        int **pred_start, int **pred_end) {
    int count = lat->vertex_count, limit = lat->n + 1, status = -1;
    Stream stream;
    memset(&stream, 0, sizeof(Stream));
    Inserts inserts;
    memset(&inserts, 0, sizeof(Inserts));
    SpanTable gold_spans;
    int spans = spans_init(&gold_spans, limit);
    char *insertion = calloc((size_t)limit, 1);
    stream.chain = malloc((size_t)count * sizeof(int));
    stream.depth = malloc((size_t)count * sizeof(int));
    stream.tracks = calloc((size_t)annotators + 1, sizeof(Track));
    stream.removed = calloc((size_t)CHUNKS, sizeof(uint8_t *));
#ifdef HAVE_THREADS
    pthread_mutex_init(&stream.extras_lock, NULL);
#endif
    if (spans < 0 || !insertion || !stream.chain || !stream.depth || !stream.tracks ||
        !stream.removed ||
        map_init(&inserts.index, 64) < 0 || map_init(&stream.extras.index, 64) < 0 ||
        diagonal_runs(lat, stream.chain, stream.depth) < 0)
        goto done;
    if (mark_spans(golds, gold_counts, annotators, limit, &gold_spans, insertion) < 0)
        goto done;
    int any_insertion = 0;
    for (int s = 0; s < limit; s++) any_insertion |= insertion[s];
    if (any_insertion) {
        int gathered = gather_inserts(lat, max_unchanged, insertion, limit, &inserts);
        if (gathered < 0) {
            if (gathered == TOO_LARGE) status = TOO_LARGE;
            goto done;
        }
    }
    /* Every annotator's search state is taken at once, and grows with the vertices: checked
     * against the bound before any is taken, whatever the number of annotators (100,000
     * annotators of one 50-token sentence took 7.7 GB before the first check inside the
     * generation stopped them). */
    double spans_bytes = limit <= DENSE_SPANS ? (double)limit * (double)limit : 0;
    double per_track = (double)count * TRACK_VERTEX_BYTES + spans_bytes +
                       ((double)inserts.size + 1) * (sizeof(int64_t) + sizeof(double)) +
                       (double)sizeof(Track);
    double held = TRACKING ? (double)(tracked_bytes() - lat->budget.start) : 0;
    if (!budget_allows(&lat->budget, held + per_track * annotators, 0)) {
        status = TOO_LARGE;
        goto done;
    }
    for (int a = 0; a < annotators; a++) {
        Track *track = &stream.tracks[a];
        if (track_open(track, golds[a], gold_counts[a], limit, count, inserts.size) < 0 ||
            (inserts.size && exact_insert_weights(lat, &inserts, track) < 0))
            goto done;
    }
    stream.base.append = stream_append;
    stream.lat = lat;
    stream.originals = lat->list.size;
    stream.max_unchanged = max_unchanged;
    stream.gold_spans = &gold_spans;
    stream.limit = limit;
    stream.inserts = &inserts;
    stream.annotators = annotators;
    int generated = generate_and_search(lat, max_unchanged, &stream, threaded);
    if (generated < 0) {
        if (generated == TOO_LARGE) status = TOO_LARGE;
        goto done;
    }
    if (stream.crash) {
        status = 1;
        goto done;
    }
    Py_ssize_t length = stream.originals + stream.counts.appended - stream.counts.removed_count;
    status = 2;
    int most = 0;
    for (int a = 0; a < annotators; a++)
        if (stream.tracks[a].most_epsilons > most) most = stream.tracks[a].most_epsilons;
    /* more matched edges always shorter: |E| above any difference of the other parts */
    if (stream.inconsistent || length <= (Py_ssize_t)lat->n + lat->m + 1 + most / 1000)
        goto done;
    double bonus = -(double)length;
    for (int a = 0; a < annotators; a++) {
        Track *track = &stream.tracks[a];
        pred_u[a] = malloc((size_t)count * sizeof(int));
        pred_kind[a] = malloc((size_t)count * sizeof(int));
        pred_start[a] = malloc((size_t)count * sizeof(int));
        pred_end[a] = malloc((size_t)count * sizeof(int));
        if (!pred_u[a] || !pred_kind[a] || !pred_start[a] || !pred_end[a] ||
            (inserts.size && weigh_inserts(lat, &inserts, track->golds, track->gold_count,
                                           bonus, track->insert_weight) < 0)) {
            status = -1;
            goto done;
        }
        status = float_search(lat, track, bonus, pred_u[a], pred_kind[a], pred_start[a],
                              pred_end[a]);
        if (status) {
            status = status < 0 ? -1 : 2;
            goto done;
        }
    }
    status = 0;
done:
    if (status == 0) streamed_count++;
    if (status == 2) stream_fallbacks++;
    if (stream.tracks)
        for (int a = 0; a < annotators; a++) track_close(&stream.tracks[a]);
    free(stream.tracks);
    free(stream.chain);
    free(stream.depth);
    if (stream.removed)
        for (Py_ssize_t c = 0; c < CHUNKS; c++) free(stream.removed[c]);
    free(stream.removed);
#ifdef HAVE_THREADS
    pthread_mutex_destroy(&stream.extras_lock);
#endif
    map_free(&stream.extras.index);
    free32(&stream.extras.position);
    free32(&stream.extras.next);
    inserts_free(&inserts);
    spans_free(&gold_spans);
    free(insertion);
    return status;
}

/* ------------------------------------------------------------------------------------ */
/* Python interface */

static int64_t *read_ints(PyObject *sequence, Py_ssize_t *length) {
    PyObject *fast = PySequence_Fast(sequence, "expected a sequence of ints");
    if (!fast) return NULL;
    Py_ssize_t size = PySequence_Fast_GET_SIZE(fast);
    int64_t *out = malloc(((size_t)size + 1) * sizeof(int64_t));
    if (!out) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t k = 0; k < size; k++) {
        out[k] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fast, k));
        if (out[k] == -1 && PyErr_Occurred()) {
            free(out);
            Py_DECREF(fast);
            return NULL;
        }
    }
    Py_DECREF(fast);
    *length = size;
    return out;
}

static void golds_free(Gold *golds, Py_ssize_t count) {
    if (!golds) return;
    for (Py_ssize_t g = 0; g < count; g++) {
        free(golds[g].original);
        for (Py_ssize_t c = 0; c < golds[g].correction_count; c++) free(golds[g].corrections[c]);
        free(golds[g].corrections);
        free(golds[g].correction_lengths);
    }
    free(golds);
}

static Gold *read_golds(PyObject *list, Py_ssize_t *count) {
    PyObject *fast = PySequence_Fast(list, "expected a list of gold edits");
    if (!fast) return NULL;
    Py_ssize_t size = PySequence_Fast_GET_SIZE(fast);
    Gold *golds = calloc((size_t)size + 1, sizeof(Gold));
    if (!golds) goto fail;
    for (Py_ssize_t g = 0; g < size; g++) {
        PyObject *item = PySequence_Fast_GET_ITEM(fast, g), *original, *corrections;
        if (!PyArg_ParseTuple(item, "iiOO", &golds[g].start, &golds[g].end, &original,
                              &corrections))
            goto fail;
        if (original != Py_None &&
            !(golds[g].original = read_ints(original, &golds[g].original_length)))
            goto fail;
        PyObject *alternatives = PySequence_Fast(corrections, "expected a list of corrections");
        if (!alternatives) goto fail;
        Py_ssize_t n = PySequence_Fast_GET_SIZE(alternatives);
        golds[g].corrections = calloc((size_t)n + 1, sizeof(int64_t *));
        golds[g].correction_lengths = calloc((size_t)n + 1, sizeof(Py_ssize_t));
        golds[g].correction_count = n;
        if (!golds[g].corrections || !golds[g].correction_lengths) {
            Py_DECREF(alternatives);
            goto fail;
        }
        for (Py_ssize_t c = 0; c < n; c++) {
            PyObject *alternative = PySequence_Fast_GET_ITEM(alternatives, c);
            if (alternative != Py_None &&
                !(golds[g].corrections[c] = read_ints(alternative,
                                                      &golds[g].correction_lengths[c]))) {
                Py_DECREF(alternatives);
                goto fail;
            }
        }
        Py_DECREF(alternatives);
    }
    Py_DECREF(fast);
    *count = size;
    return golds;
fail:
    Py_DECREF(fast);
    golds_free(golds, size);
    if (!PyErr_Occurred()) PyErr_NoMemory();
    return NULL;
}

/* Appends one path step (start, end, from row, from column, to row, to column); -1 on error. */
static int append_step(PyObject *out, int start, int end, int from, int to, int width) {
    PyObject *item = Py_BuildValue("(iiiiii)", start, end, from / width, from % width,
                                   to / width, to % width);
    if (!item || PyList_Append(out, item) < 0) {
        Py_XDECREF(item);
        return -1;
    }
    Py_DECREF(item);
    return 0;
}

/* The path read back from the stored lattice's predecessor edges. */
static PyObject *path_list(const Lattice *lat, const int *predecessor_edge) {
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    int vertex = lat->vertex_count - 1, width = lat->width;
    while (predecessor_edge[vertex] >= 0) {
        const Edge *edge = &lat->edges[predecessor_edge[vertex]];
        int before = edge->u;
        if (edge->kind != KIND_NOOP) {
            if (append_step(out, edge->start, edge->end, lat->cell_of[before],
                            lat->cell_of[vertex], width) < 0) {
                Py_DECREF(out);
                return NULL;
            }
        }
        vertex = before;
    }
    return out;
}

/* The path read back from the streaming search's predecessors. */
static PyObject *stream_path_list(const Lattice *lat, const int *pred_u, const int *pred_kind,
                                  const int *pred_start, const int *pred_end) {
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    int vertex = lat->vertex_count - 1, width = lat->width;
    while (pred_u[vertex] >= 0) {
        int before = pred_u[vertex];
        if (pred_kind[vertex] != KIND_NOOP) {
            if (append_step(out, pred_start[vertex], pred_end[vertex], lat->cell_of[before],
                            lat->cell_of[vertex], width) < 0) {
                Py_DECREF(out);
                return NULL;
            }
        }
        vertex = before;
    }
    return out;
}

/* Streaming pays off where the stored lattice would be large; below this many vertices
 * storing is as fast (measured on random sentence pairs: equal up to ~300 vertices, streaming
 * 10-50% faster from ~400).  Defined at build time to test the streamed search on every
 * sentence (-DSTREAM_VERTICES=0). */
#ifndef THREAD_VERTICES
#define THREAD_VERTICES 2000
#endif
#ifndef STREAM_VERTICES
#define STREAM_VERTICES 400
#endif

static PyObject *TooLarge = NULL;

/* Raises TooLarge(vertices, entries, needed bytes, limit bytes) for a lattice its budget
 * stopped. */
static void raise_too_large(const Lattice *lat) {
    const Budget *budget = &lat->budget;
    PyObject *args = Py_BuildValue("(inddii)", lat->vertex_count, budget->entries,
                                   budget->needed, budget->limit, budget->done, budget->total);
    if (args) {
        PyErr_SetObject(TooLarge, args);
        Py_DECREF(args);
    }
}

/* Streams every annotator's search at once.  Returns a new list, Py_None (the scorer would
 * crash), NULL with an exception set, or NULL without one: the granularity condition failed
 * and the caller must take the stored route. */
static PyObject *streamed_paths(Lattice *lat, int max_unchanged, PyObject *annotators,
                                int threaded) {
    Py_ssize_t count = PySequence_Fast_GET_SIZE(annotators);
    Gold **golds = calloc((size_t)count + 1, sizeof(Gold *));
    Py_ssize_t *gold_counts = calloc((size_t)count + 1, sizeof(Py_ssize_t));
    int **pred[4];
    for (int k = 0; k < 4; k++) pred[k] = calloc((size_t)count + 1, sizeof(int *));
    PyObject *result = NULL;
    int status = -1;
    if (!golds || !gold_counts || !pred[0] || !pred[1] || !pred[2] || !pred[3]) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t a = 0; a < count; a++)
        if (!(golds[a] = read_golds(PySequence_Fast_GET_ITEM(annotators, a), &gold_counts[a])))
            goto done;
    Py_BEGIN_ALLOW_THREADS
    status = stream_paths(lat, max_unchanged, golds, gold_counts, (int)count, threaded, pred[0], pred[1],
                          pred[2], pred[3]);
    Py_END_ALLOW_THREADS
    if (status == TOO_LARGE) {
        raise_too_large(lat);
    } else if (status < 0) {
        PyErr_NoMemory();
    } else if (status == 1) {
        result = Py_None;
        Py_INCREF(result);
    } else if (status == 0 && (result = PyList_New(0))) {
        for (Py_ssize_t a = 0; a < count; a++) {
            PyObject *path = stream_path_list(lat, pred[0][a], pred[1][a], pred[2][a], pred[3][a]);
            if (!path || PyList_Append(result, path) < 0) {
                Py_XDECREF(path);
                Py_CLEAR(result);
                break;
            }
            Py_DECREF(path);
        }
    }
done:
    for (Py_ssize_t a = 0; a < count; a++) {
        if (golds && golds[a]) golds_free(golds[a], gold_counts[a]);
        for (int k = 0; k < 4; k++)
            if (pred[k]) free(pred[k][a]);
    }
    for (int k = 0; k < 4; k++) free(pred[k]);
    free(golds);
    free(gold_counts);
    return result;
}

/* mode: -1 chooses by size, 0 stores the lattice, 1 streams it (falling back to storing
 * where the exact search cannot be used), 2 streams it with the search on a second
 * thread. */
static PyObject *best_paths(PyObject *self, PyObject *args) {
    PyObject *source_obj, *target_obj, *annotators_obj;
    int max_unchanged, by_time = 1, mode = -1;
    double memory_limit = 0;
    if (!PyArg_ParseTuple(args, "OOiO|pid", &source_obj, &target_obj, &max_unchanged,
                          &annotators_obj, &by_time, &mode, &memory_limit))
        return NULL;
    Lattice lat = {0};
    Py_ssize_t n = 0, m = 0;
    int64_t *source = read_ints(source_obj, &n), *target = NULL;
    PyObject *result = NULL, *annotators = NULL;
    double *weights = NULL;
    int *predecessor = NULL;
    if (!source || !(target = read_ints(target_obj, &m))) goto done;
    lat.budget.limit = memory_limit;
    lat.budget.start = tracked_bytes();
    double cells = (double)(n + 1) * (double)(m + 1);
    if (!budget_allows(&lat.budget, cells * CELL_BYTES, 0) || cells >= 2147483647.0) {
        lat.budget.exceeded = 1;
        lat.budget.needed = cells * CELL_BYTES;
        raise_too_large(&lat);
        goto done;
    }
    annotators = PySequence_Fast(annotators_obj, "expected a list of annotators");
    if (!annotators) goto done;
    lat.n = (int)n;
    lat.m = (int)m;
    lat.width = (int)m + 1;
    lat.source = source;
    lat.target = target;
    int crash = 0;
    Py_BEGIN_ALLOW_THREADS
    crash = build_original(&lat);
    Py_END_ALLOW_THREADS
    if (crash == TOO_LARGE) {
        raise_too_large(&lat);
        goto done;
    }
    if (crash < 0) {
        PyErr_NoMemory();
        goto done;
    }
    if (by_time && (mode >= 1 || (mode < 0 && lat.vertex_count >= STREAM_VERTICES))) {
        int threaded = mode == 2 || (mode < 0 && lat.vertex_count >= THREAD_VERTICES);
        result = streamed_paths(&lat, max_unchanged, annotators, threaded);
        if (result || PyErr_Occurred()) goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    crash = add_transitive(&lat, max_unchanged);
    if (crash == 0) crash = remove_unchanged(&lat);
    Py_END_ALLOW_THREADS
    if (crash == TOO_LARGE) {
        raise_too_large(&lat);
        goto done;
    }
    if (crash < 0) {
        PyErr_NoMemory();
        goto done;
    }
    if (crash) {
        result = Py_None;
        Py_INCREF(result);
        goto done;
    }
    double weighing = ((double)lat.edge_count + 1) * sizeof(double);
    if (!budget_allows(&lat.budget, (double)(tracked_bytes() - lat.budget.start) + weighing,
                       lat.list.size)) {
        raise_too_large(&lat);
        goto done;
    }
    weights = malloc(((size_t)lat.edge_count + 1) * sizeof(double));
    predecessor = malloc(((size_t)lat.vertex_count + 1) * sizeof(int));
    result = PyList_New(0);
    if (!weights || !predecessor || !result) goto fail;
    for (Py_ssize_t a = 0; a < PySequence_Fast_GET_SIZE(annotators); a++) {
        Py_ssize_t gold_count = 0;
        Gold *golds = read_golds(PySequence_Fast_GET_ITEM(annotators, a), &gold_count);
        if (!golds) goto fail;
        int status;
        Py_BEGIN_ALLOW_THREADS
        status = weigh(&lat, golds, (int)gold_count, weights);
        if (status == 0 && by_time) status = shortest_paths_by_time(&lat, weights, predecessor);
        if (status == 0 && !by_time) status = shortest_paths(&lat, weights, predecessor);
        if (status == 1) status = shortest_paths(&lat, weights, predecessor);
        Py_END_ALLOW_THREADS
        golds_free(golds, gold_count);
        if (status < 0) {
            PyErr_NoMemory();
            goto fail;
        }
        PyObject *path = path_list(&lat, predecessor);
        if (!path || PyList_Append(result, path) < 0) {
            Py_XDECREF(path);
            goto fail;
        }
        Py_DECREF(path);
    }
    goto done;
fail:
    Py_CLEAR(result);
done:
    Py_XDECREF(annotators);
    free(weights);
    free(predecessor);
    free(source);
    free(target);
    lattice_free(&lat);
    return result;
}

/* The token id of each of `tokens` (a list of str), giving a new token the next id. */
static PyObject *numbered(PyObject *vocabulary, PyObject *tokens) {
    PyObject *fast = PySequence_Fast(tokens, "expected a list of tokens");
    if (!fast) return NULL;
    Py_ssize_t size = PySequence_Fast_GET_SIZE(fast);
    PyObject *out = PyList_New(size);
    for (Py_ssize_t k = 0; out && k < size; k++) {
        PyObject *token = PySequence_Fast_GET_ITEM(fast, k);
        PyObject *id = PyDict_GetItemWithError(vocabulary, token);
        if (id) {
            Py_INCREF(id);
        } else if (PyErr_Occurred() ||
                   !(id = PyLong_FromSsize_t(PyDict_GET_SIZE(vocabulary))) ||
                   PyDict_SetItem(vocabulary, token, id) < 0) {
            Py_XDECREF(id);
            Py_CLEAR(out);
            break;
        }
        if (out) PyList_SET_ITEM(out, k, id);
    }
    Py_DECREF(fast);
    return out;
}

/* The ids of a text that can equal tokens joined by single spaces: () for "", None where a
 * piece between spaces is no token of the sentence (such a text never matches). */
static PyObject *text_ids(PyObject *vocabulary, PyObject *text, PyObject *space) {
    if (!PyUnicode_Check(text)) {
        PyErr_SetString(PyExc_TypeError, "expected a str");
        return NULL;
    }
    if (PyUnicode_GET_LENGTH(text) == 0) return PyTuple_New(0);
    PyObject *pieces = PyUnicode_Split(text, space, -1);
    if (!pieces) return NULL;
    Py_ssize_t size = PyList_GET_SIZE(pieces);
    PyObject *out = PyTuple_New(size);
    for (Py_ssize_t k = 0; out && k < size; k++) {
        PyObject *id = PyDict_GetItemWithError(vocabulary, PyList_GET_ITEM(pieces, k));
        if (!id) {
            Py_CLEAR(out);
            if (!PyErr_Occurred()) out = Py_NewRef(Py_None);
            break;
        }
        PyTuple_SET_ITEM(out, k, Py_NewRef(id));
    }
    Py_DECREF(pieces);
    return out;
}

/* One gold edit (start, end, original, corrections: a tuple, e.g. lattice.GoldEdit) with its
 * texts as ids: (start, end, ids | None, [ids | None, ...]). */
static PyObject *encoded_gold(PyObject *vocabulary, PyObject *gold, PyObject *space) {
    if (!PyTuple_Check(gold) || PyTuple_GET_SIZE(gold) != 4) {
        PyErr_SetString(PyExc_TypeError, "expected (start, end, original, corrections)");
        return NULL;
    }
    PyObject *corrections = PySequence_Fast(PyTuple_GET_ITEM(gold, 3),
                                            "expected a list of corrections");
    if (!corrections) return NULL;
    Py_ssize_t size = PySequence_Fast_GET_SIZE(corrections);
    PyObject *ids = PyList_New(size), *original = NULL, *out = NULL;
    for (Py_ssize_t c = 0; ids && c < size; c++) {
        PyObject *one = text_ids(vocabulary, PySequence_Fast_GET_ITEM(corrections, c), space);
        if (!one) Py_CLEAR(ids);
        else PyList_SET_ITEM(ids, c, one);
    }
    Py_DECREF(corrections);
    if (ids && (original = text_ids(vocabulary, PyTuple_GET_ITEM(gold, 2), space)))
        out = PyTuple_Pack(4, PyTuple_GET_ITEM(gold, 0), PyTuple_GET_ITEM(gold, 1), original,
                           ids);
    Py_XDECREF(original);
    Py_XDECREF(ids);
    return out;
}

/* encode(source, target, annotators) -> (source ids, target ids, golds): what best_paths
 * takes, from tokens and gold edits whose texts are str (lattice.py's `_encoded` in C). */
static PyObject *encode(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *source_obj, *target_obj, *annotators_obj;
    if (!PyArg_ParseTuple(args, "OOO", &source_obj, &target_obj, &annotators_obj))
        return NULL;
    PyObject *vocabulary = PyDict_New(), *space = PyUnicode_FromString(" ");
    PyObject *source = NULL, *target = NULL, *golds = NULL, *annotators = NULL, *out = NULL;
    if (!vocabulary || !space || !(source = numbered(vocabulary, source_obj)) ||
        !(target = numbered(vocabulary, target_obj)) ||
        !(annotators = PySequence_Fast(annotators_obj, "expected a list of annotators")))
        goto done;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(annotators);
    if (!(golds = PyList_New(count))) goto done;
    for (Py_ssize_t a = 0; a < count; a++) {
        PyObject *edits = PySequence_Fast(PySequence_Fast_GET_ITEM(annotators, a),
                                          "expected a list of gold edits");
        if (!edits) goto done;
        Py_ssize_t size = PySequence_Fast_GET_SIZE(edits);
        PyObject *list = PyList_New(size);
        for (Py_ssize_t g = 0; list && g < size; g++) {
            PyObject *one = encoded_gold(vocabulary, PySequence_Fast_GET_ITEM(edits, g), space);
            if (!one) Py_CLEAR(list);
            else PyList_SET_ITEM(list, g, one);
        }
        Py_DECREF(edits);
        if (!list) goto done;
        PyList_SET_ITEM(golds, a, list);
    }
    out = PyTuple_Pack(3, source, target, golds);
done:
    Py_XDECREF(vocabulary);
    Py_XDECREF(space);
    Py_XDECREF(source);
    Py_XDECREF(target);
    Py_XDECREF(golds);
    Py_XDECREF(annotators);
    return out;
}

static PyObject *lattice_size(PyObject *self, PyObject *args) {
    PyObject *source_obj, *target_obj;
    int max_unchanged;
    if (!PyArg_ParseTuple(args, "OOi", &source_obj, &target_obj, &max_unchanged)) return NULL;
    Lattice lat = {0};
    Py_ssize_t n = 0, m = 0;
    int64_t *source = read_ints(source_obj, &n), *target = NULL;
    PyObject *result = NULL;
    if (!source || !(target = read_ints(target_obj, &m))) goto done;
    lat.n = (int)n;
    lat.m = (int)m;
    lat.width = (int)m + 1;
    lat.source = source;
    lat.target = target;
    if (build_original(&lat) < 0 || add_transitive(&lat, max_unchanged) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    int crash = remove_unchanged(&lat);
    result = Py_BuildValue("(inO)", lat.vertex_count, lat.list.size, crash ? Py_True : Py_False);
done:
    free(source);
    free(target);
    lattice_free(&lat);
    return result;
}

static PyObject *stream_counts(PyObject *self, PyObject *args) {
    (void)self;
    (void)args;
    return Py_BuildValue("(LL)", streamed_count, stream_fallbacks);
}

static PyMethodDef methods[] = {
    {"best_paths", best_paths, METH_VARARGS,
     "best_paths(source, target, max_unchanged, annotators, by_time=True, mode=-1, "
     "memory_limit=0) -> list of paths, or None where the NUS scorer 3.2 would crash; "
     "by_time=False forces the scan-by-scan Bellman-Ford simulation; mode 0 stores the "
     "lattice, 1 streams it, 2 streams it with the search on a second thread, -1 chooses by "
     "size; memory_limit (bytes, 0: none) raises TooLarge(vertices, entries, needed, limit) "
     "before the lattice would take more"},
    {"encode", encode, METH_VARARGS,
     "encode(source, target, annotators) -> (source ids, target ids, golds): tokens as ids "
     "(a new token takes the next id) and each gold edit's texts as the ids of their pieces "
     "between single spaces, () for an empty text, None where a piece is no token"},
    {"lattice_size", lattice_size, METH_VARARGS,
     "lattice_size(source, target, max_unchanged) -> (vertices, edges, crashes)"},
    {"stream_counts", stream_counts, METH_NOARGS,
     "stream_counts() -> (streamed, fell back to storing): calls of the streamed search so far"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_lattice",
    "The MaxMatch lattice and its best paths, in C (see m2lsp/scoring/lattice.py).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__lattice(void) {
    PyObject *created = PyModule_Create(&module);
    if (!created) return NULL;
    TooLarge = PyErr_NewException("m2lsp.scoring._lattice.TooLarge", NULL, NULL);
    if (!TooLarge || PyModule_AddObjectRef(created, "TooLarge", TooLarge) < 0) {
        Py_XDECREF(TooLarge);
        Py_DECREF(created);
        return NULL;
    }
    return created;
}

/* ERRANT 3.0.2's token alignment (errant.alignment.Alignment.align and
 * get_cheapest_align_seq), compiled: the same table, the same float sums in the same order,
 * the same first-cheapest choice, the same path back.  The Python class stays the oracle
 * (tests/annotation/test_fast_align.py compares the two).
 *
 * align_seq(orig, cor, orig_texts, cor_texts, open_pos, lev) -> [(op, o1, o2, c1, c2), ...]
 *   orig, cor: bytes, 4 uint64 per token (orth, lower, lemma, pos), as spaCy's
 *              Doc.to_array([ORTH, LOWER, LEMMA, POS]) lays them out;
 *   orig_texts, cor_texts: the tokens' texts (str), for the character cost;
 *   open_pos: the 4 open-class POS ids (ADJ, ADV, NOUN, VERB);
 *   lev: standard Levenshtein (substitution 1, no transpositions). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { OP_M = -1, OP_S = -2, OP_I = -3, OP_D = -4 };

typedef struct {
    const uint64_t *orth, *lower, *lemma, *pos;
} Tokens;

typedef struct {
    Py_UCS4 **chars;
    Py_ssize_t *length;
    Py_ssize_t n;
} Texts;

static void texts_free(Texts *t) {
    if (t->chars) {
        for (Py_ssize_t i = 0; i < t->n; i++) PyMem_Free(t->chars[i]);
    }
    PyMem_Free(t->chars);
    PyMem_Free(t->length);
    t->chars = NULL;
    t->length = NULL;
}

static int texts_read(PyObject *list, Py_ssize_t n, Texts *t) {
    t->n = 0;
    t->chars = NULL;
    t->length = NULL;
    if (!PyList_Check(list) || PyList_GET_SIZE(list) != n) {
        PyErr_SetString(PyExc_ValueError, "a text per token is needed");
        return -1;
    }
    t->chars = PyMem_Calloc((size_t)n + 1, sizeof(Py_UCS4 *));
    t->length = PyMem_Calloc((size_t)n + 1, sizeof(Py_ssize_t));
    if (!t->chars || !t->length) {
        PyErr_NoMemory();
        return -1;
    }
    t->n = n;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyList_GET_ITEM(list, i);
        if (!PyUnicode_Check(item)) {
            PyErr_SetString(PyExc_TypeError, "token texts must be str");
            return -1;
        }
        t->chars[i] = PyUnicode_AsUCS4Copy(item);
        if (!t->chars[i]) return -1;
        t->length[i] = PyUnicode_GET_LENGTH(item);
    }
    return 0;
}

/* rapidfuzz's Indel.normalized_distance: (len1 + len2 - 2 LCS) / (len1 + len2), 0 for two
 * empty strings. */
static int lcs_length(const Py_UCS4 *a, Py_ssize_t n, const Py_UCS4 *b, Py_ssize_t m,
                      Py_ssize_t *row, Py_ssize_t *out) {
    for (Py_ssize_t j = 0; j <= m; j++) row[j] = 0;
    for (Py_ssize_t i = 1; i <= n; i++) {
        Py_ssize_t diagonal = 0;
        for (Py_ssize_t j = 1; j <= m; j++) {
            Py_ssize_t above = row[j];
            if (a[i - 1] == b[j - 1]) row[j] = diagonal + 1;
            else if (row[j - 1] > row[j]) row[j] = row[j - 1];
            diagonal = above;
        }
    }
    *out = row[m];
    return 0;
}

static double char_cost(const Texts *o, Py_ssize_t i, const Texts *c, Py_ssize_t j,
                        Py_ssize_t *row) {
    Py_ssize_t n = o->length[i], m = c->length[j], lcs = 0;
    Py_ssize_t maximum = n + m;
    if (maximum == 0) return 0.0;
    lcs_length(o->chars[i], n, c->chars[j], m, row, &lcs);
    return (double)(maximum - 2 * lcs) / (double)maximum;
}

static int is_open(uint64_t pos, const uint64_t open_pos[4]) {
    return pos == open_pos[0] || pos == open_pos[1] || pos == open_pos[2] ||
           pos == open_pos[3];
}

static double sub_cost(const Tokens *o, Py_ssize_t i, const Tokens *c, Py_ssize_t j,
                       const Texts *ot, const Texts *ct, const uint64_t open_pos[4],
                       Py_ssize_t *row) {
    if (o->lower[i] == c->lower[j]) return 0.0;
    double lemma_cost = o->lemma[i] == c->lemma[j] ? 0.0 : 0.499;
    double pos_cost;
    if (o->pos[i] == c->pos[j]) pos_cost = 0.0;
    else if (is_open(o->pos[i], open_pos) && is_open(c->pos[j], open_pos)) pos_cost = 0.25;
    else pos_cost = 0.5;
    double linguistic = lemma_cost + pos_cost;
    return linguistic + char_cost(ot, i, ct, j, row);
}

static int compare_ids(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* sorted(o_low[i-k:i+1]) == sorted(c_low[j-k:j+1]) */
static int same_multiset(const uint64_t *a, const uint64_t *b, Py_ssize_t size,
                         uint64_t *scratch) {
    memcpy(scratch, a, (size_t)size * sizeof(uint64_t));
    memcpy(scratch + size, b, (size_t)size * sizeof(uint64_t));
    qsort(scratch, (size_t)size, sizeof(uint64_t), compare_ids);
    qsort(scratch + size, (size_t)size, sizeof(uint64_t), compare_ids);
    return memcmp(scratch, scratch + size, (size_t)size * sizeof(uint64_t)) == 0;
}

typedef struct {
    double *cost;
    int32_t *op;
    Py_ssize_t width;
} Table;

#define COST(t, i, j) ((t)->cost[(i) * (t)->width + (j)])
#define OP(t, i, j) ((t)->op[(i) * (t)->width + (j)])

static void fill(Table *t, const Tokens *o, Py_ssize_t on, const Tokens *c, Py_ssize_t cn,
                 const Texts *ot, const Texts *ct, const uint64_t open_pos[4], int lev,
                 Py_ssize_t *row, uint64_t *scratch) {
    COST(t, 0, 0) = 0.0;
    OP(t, 0, 0) = 0;
    for (Py_ssize_t i = 1; i <= on; i++) {
        COST(t, i, 0) = COST(t, i - 1, 0) + 1;
        OP(t, i, 0) = OP_D;
    }
    for (Py_ssize_t j = 1; j <= cn; j++) {
        COST(t, 0, j) = COST(t, 0, j - 1) + 1;
        OP(t, 0, j) = OP_I;
    }
    for (Py_ssize_t i = 0; i < on; i++) {
        for (Py_ssize_t j = 0; j < cn; j++) {
            if (o->orth[i] == c->orth[j]) {
                COST(t, i + 1, j + 1) = COST(t, i, j);
                OP(t, i + 1, j + 1) = OP_M;
                continue;
            }
            double del_cost = COST(t, i, j + 1) + 1;
            double ins_cost = COST(t, i + 1, j) + 1;
            double trans_cost = Py_HUGE_VAL, sub;
            Py_ssize_t k = 1;
            if (lev) {
                sub = COST(t, i, j) + 1;
            } else {
                sub = COST(t, i, j) + sub_cost(o, i, c, j, ot, ct, open_pos, row);
                while (i - k >= 0 && j - k >= 0 &&
                       COST(t, i - k + 1, j - k + 1) != COST(t, i - k, j - k)) {
                    if (same_multiset(o->lower + i - k, c->lower + j - k, k + 1, scratch)) {
                        trans_cost = COST(t, i - k, j - k) + (double)k;
                        break;
                    }
                    k++;
                }
            }
            /* costs = [trans, sub, ins, del]; the first cheapest */
            double best = trans_cost;
            int32_t op = (int32_t)(k + 1);
            if (sub < best) { best = sub; op = OP_S; }
            if (ins_cost < best) { best = ins_cost; op = OP_I; }
            if (del_cost < best) { best = del_cost; op = OP_D; }
            COST(t, i + 1, j + 1) = best;
            OP(t, i + 1, j + 1) = op;
        }
    }
}

static PyObject *op_name(int32_t op) {
    switch (op) {
    case OP_M: return PyUnicode_FromString("M");
    case OP_S: return PyUnicode_FromString("S");
    case OP_I: return PyUnicode_FromString("I");
    case OP_D: return PyUnicode_FromString("D");
    default: return PyUnicode_FromFormat("T%d", (int)op);
    }
}

static PyObject *path_back(const Table *t, Py_ssize_t on, Py_ssize_t cn) {
    PyObject *seq = PyList_New(0);
    Py_ssize_t i = on, j = cn;
    while (seq && i + j != 0) {
        int32_t op = OP(t, i, j);
        Py_ssize_t di = 1, dj = 1;
        if (op == OP_D) dj = 0;
        else if (op == OP_I) di = 0;
        else if (op > 0) di = dj = (Py_ssize_t)op;
        PyObject *name = op_name(op);
        PyObject *step = name ? Py_BuildValue("(Nnnnn)", name, i - di, i, j - dj, j) : NULL;
        if (!step || PyList_Append(seq, step) < 0) {
            Py_XDECREF(step);
            Py_CLEAR(seq);
            break;
        }
        Py_DECREF(step);
        i -= di;
        j -= dj;
    }
    if (seq && PyList_Reverse(seq) < 0) Py_CLEAR(seq);
    return seq;
}

static int tokens_read(Py_buffer *view, Py_ssize_t *n) {
    if (view->len % (4 * (Py_ssize_t)sizeof(uint64_t))) {
        PyErr_SetString(PyExc_ValueError, "4 uint64 per token are needed");
        return -1;
    }
    *n = view->len / (4 * (Py_ssize_t)sizeof(uint64_t));
    return 0;
}

/* The rows of Doc.to_array are token-major: token i's 4 values are at 4i .. 4i+3; the
 * table reads them column by column, so they are copied apart once. */
static uint64_t *columns(const Py_buffer *view, Py_ssize_t n, Tokens *t) {
    uint64_t *all = PyMem_Malloc(((size_t)n * 4 + 1) * sizeof(uint64_t));
    if (!all) return NULL;
    const uint64_t *rows = view->buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        for (int f = 0; f < 4; f++) all[f * n + i] = rows[4 * i + f];
    }
    t->orth = all;
    t->lower = all + n;
    t->lemma = all + 2 * n;
    t->pos = all + 3 * n;
    return all;
}

static PyObject *align_seq(PyObject *Py_UNUSED(self), PyObject *args) {
    Py_buffer ov, cv;
    PyObject *otexts, *ctexts;
    int lev;
    uint64_t open_pos[4];
    if (!PyArg_ParseTuple(args, "y*y*OO(KKKK)p", &ov, &cv, &otexts, &ctexts, &open_pos[0],
                          &open_pos[1], &open_pos[2], &open_pos[3], &lev))
        return NULL;
    PyObject *result = NULL;
    Tokens o, c;
    Texts ot = {0}, ct = {0};
    Table t = {0};
    uint64_t *ocols = NULL, *ccols = NULL, *scratch = NULL;
    Py_ssize_t on, cn, *row = NULL, longest = 1;
    if (tokens_read(&ov, &on) < 0 || tokens_read(&cv, &cn) < 0) goto done;
    if (texts_read(otexts, on, &ot) < 0 || texts_read(ctexts, cn, &ct) < 0) goto done;
    if ((size_t)(on + 1) > SIZE_MAX / sizeof(double) / (size_t)(cn + 1)) {
        PyErr_NoMemory();
        goto done;
    }
    ocols = columns(&ov, on, &o);
    ccols = columns(&cv, cn, &c);
    t.width = cn + 1;
    t.cost = PyMem_Malloc((size_t)(on + 1) * (size_t)(cn + 1) * sizeof(double));
    t.op = PyMem_Malloc((size_t)(on + 1) * (size_t)(cn + 1) * sizeof(int32_t));
    for (Py_ssize_t j = 0; j < cn; j++) longest = ct.length[j] > longest ? ct.length[j] : longest;
    row = PyMem_Malloc((size_t)(longest + 1) * sizeof(Py_ssize_t));
    scratch = PyMem_Malloc((size_t)(2 * (on < cn ? on : cn) + 2) * sizeof(uint64_t));
    if (!ocols || !ccols || !t.cost || !t.op || !row || !scratch) {
        PyErr_NoMemory();
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    fill(&t, &o, on, &c, cn, &ot, &ct, open_pos, lev, row, scratch);
    Py_END_ALLOW_THREADS
    result = path_back(&t, on, cn);
done:
    PyMem_Free(ocols);
    PyMem_Free(ccols);
    PyMem_Free(t.cost);
    PyMem_Free(t.op);
    PyMem_Free(row);
    PyMem_Free(scratch);
    texts_free(&ot);
    texts_free(&ct);
    PyBuffer_Release(&ov);
    PyBuffer_Release(&cv);
    return result;
}

static PyMethodDef methods[] = {
    {"align_seq", align_seq, METH_VARARGS,
     "align_seq(orig, cor, orig_texts, cor_texts, open_pos, lev) -> ERRANT's align_seq: "
     "orig/cor are bytes of 4 uint64 per token (orth, lower, lemma, pos)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_errant_align",
    "ERRANT 3.0.2's token alignment, compiled (errant.alignment.Alignment is its oracle)",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__errant_align(void) { return PyModule_Create(&module); }

/* ChERRANT's char-level alignment table (m2lsp.annotation.chinese_align.operations),
 * compiled: the same weighted edit distance, the same float sums in the same order, every
 * operation whose total equals the cheapest kept.  The Python function stays the oracle
 * (tests/annotation/test_cherrant_align.py compares the two).
 *
 * operations(a, b, local_a, local_b, width, costs) -> (masks, ks)
 *   a, b: int32 ids of the tokens, one id space for both (equal ids: equal tokens);
 *   local_a, local_b: int32 row / column of each token in `costs`;
 *   costs: float64 substitution costs, rows of `width`;
 *   masks: bytes, a cell's operations (1 T, 2 S, 4 I, 8 D, 16 M), row-major over
 *          (len(a) + 1) x (len(b) + 1); ks: bytes of int32, each cell's transposition size
 *          (the k of its `T<k + 1>`). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { OP_T = 1, OP_S = 2, OP_I = 4, OP_D = 8, OP_M = 16 };

static int compare_ids(const void *x, const void *y) {
    int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
    return (a > b) - (a < b);
}

static int same_multiset(const int32_t *a, const int32_t *b, Py_ssize_t size,
                         int32_t *scratch) {
    memcpy(scratch, a, (size_t)size * sizeof(int32_t));
    memcpy(scratch + size, b, (size_t)size * sizeof(int32_t));
    qsort(scratch, (size_t)size, sizeof(int32_t), compare_ids);
    qsort(scratch + size, (size_t)size, sizeof(int32_t), compare_ids);
    return memcmp(scratch, scratch + size, (size_t)size * sizeof(int32_t)) == 0;
}

typedef struct {
    const int32_t *a, *b, *la, *lb;
    Py_ssize_t n, m, width;
    const double *sub;
    double *cost;
    uint8_t *mask;
    int32_t *k;
    int32_t *scratch;
} Table;

#define AT(t, i, j) ((i) * ((t)->m + 1) + (j))

static void fill(Table *t) {
    Py_ssize_t n = t->n, m = t->m;
    t->cost[0] = 0.0;
    t->mask[0] = 0;
    for (Py_ssize_t i = 1; i <= n; i++) {
        t->cost[AT(t, i, 0)] = t->cost[AT(t, i - 1, 0)] + 1;
        t->mask[AT(t, i, 0)] = OP_D;
    }
    for (Py_ssize_t j = 1; j <= m; j++) {
        t->cost[AT(t, 0, j)] = t->cost[AT(t, 0, j - 1)] + 1;
        t->mask[AT(t, 0, j)] = OP_I;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        for (Py_ssize_t j = 0; j < m; j++) {
            Py_ssize_t here = AT(t, i + 1, j + 1);
            t->k[here] = 0;
            if (t->a[i] == t->b[j]) {
                t->cost[here] = t->cost[AT(t, i, j)];
                t->mask[here] = OP_M;
                continue;
            }
            Py_ssize_t k = 1;
            double moved = Py_HUGE_VAL;
            while (i - k >= 0 && j - k >= 0 &&
                   t->cost[AT(t, i - k + 1, j - k + 1)] != t->cost[AT(t, i - k, j - k)]) {
                if (same_multiset(t->a + i - k, t->b + j - k, k + 1, t->scratch)) {
                    moved = t->cost[AT(t, i - k, j - k)] + (double)k;
                    break;
                }
                k++;
            }
            double totals[4] = {
                moved,
                t->cost[AT(t, i, j)] + t->sub[t->la[i] * t->width + t->lb[j]],
                t->cost[AT(t, i + 1, j)] + 1,
                t->cost[AT(t, i, j + 1)] + 1,
            };
            double least = totals[0];
            for (int c = 1; c < 4; c++) least = totals[c] < least ? totals[c] : least;
            uint8_t mask = 0;
            for (int c = 0; c < 4; c++) {
                if (totals[c] == least) mask |= (uint8_t)(1 << c);
            }
            t->cost[here] = least;
            t->mask[here] = mask;
            t->k[here] = (int32_t)k;
        }
    }
}

static int ids(Py_buffer *view, Py_ssize_t *n) {
    if (view->len % (Py_ssize_t)sizeof(int32_t)) {
        PyErr_SetString(PyExc_ValueError, "int32 ids are needed");
        return -1;
    }
    *n = view->len / (Py_ssize_t)sizeof(int32_t);
    return 0;
}

static int in_range(const int32_t *local, Py_ssize_t n, Py_ssize_t limit) {
    for (Py_ssize_t i = 0; i < n; i++) {
        if (local[i] < 0 || local[i] >= limit) {
            PyErr_SetString(PyExc_ValueError, "a token's cost row or column is out of range");
            return -1;
        }
    }
    return 0;
}

static PyObject *operations(PyObject *Py_UNUSED(self), PyObject *args) {
    Py_buffer a, b, la, lb, sub;
    Py_ssize_t width, n, m, na, nb;
    if (!PyArg_ParseTuple(args, "y*y*y*y*ny*", &a, &b, &la, &lb, &width, &sub)) return NULL;
    PyObject *result = NULL, *masks = NULL, *ks = NULL;
    Table t = {0};
    if (ids(&a, &n) < 0 || ids(&b, &m) < 0 || ids(&la, &na) < 0 || ids(&lb, &nb) < 0)
        goto done;
    Py_ssize_t rows = width > 0 ? (Py_ssize_t)(sub.len / (Py_ssize_t)sizeof(double)) / width : 0;
    /* (with no source or no target token no cost is read) */
    if (na != n || nb != m || width < 0 ||
        (n > 0 && m > 0 && (in_range(la.buf, n, rows) < 0 || in_range(lb.buf, m, width) < 0))) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "inconsistent sizes");
        goto done;
    }
    if ((size_t)(n + 1) > SIZE_MAX / sizeof(double) / (size_t)(m + 1)) {
        PyErr_NoMemory();
        goto done;
    }
    size_t cells = (size_t)(n + 1) * (size_t)(m + 1);
    masks = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)cells);
    ks = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(cells * sizeof(int32_t)));
    t.cost = PyMem_Malloc(cells * sizeof(double));
    t.scratch = PyMem_Malloc((size_t)(2 * (n < m ? n : m) + 2) * sizeof(int32_t));
    if (!masks || !ks || !t.cost || !t.scratch) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto done;
    }
    t.a = a.buf;
    t.b = b.buf;
    t.la = la.buf;
    t.lb = lb.buf;
    t.n = n;
    t.m = m;
    t.width = width;
    t.sub = sub.buf;
    t.mask = (uint8_t *)PyBytes_AS_STRING(masks);
    t.k = (int32_t *)PyBytes_AS_STRING(ks);
    memset(t.k, 0, cells * sizeof(int32_t));
    Py_BEGIN_ALLOW_THREADS
    fill(&t);
    Py_END_ALLOW_THREADS
    result = Py_BuildValue("(OO)", masks, ks);
done:
    Py_XDECREF(masks);
    Py_XDECREF(ks);
    PyMem_Free(t.cost);
    PyMem_Free(t.scratch);
    PyBuffer_Release(&a);
    PyBuffer_Release(&b);
    PyBuffer_Release(&la);
    PyBuffer_Release(&lb);
    PyBuffer_Release(&sub);
    return result;
}

static PyMethodDef methods[] = {
    {"operations", operations, METH_VARARGS,
     "operations(a, b, local_a, local_b, width, costs) -> (masks, ks): ChERRANT's table"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_cherrant_align",
    "ChERRANT's char-level alignment table, compiled (chinese_align.operations is its oracle)",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__cherrant_align(void) { return PyModule_Create(&module); }

/* GREEN's counts of one corrected sentence against one reference, compiled
 * (m2lsp.scoring.green.ngrams.counts): the same integers as the Python sets give.  The
 * Python function stays the oracle (tests/scoring/test_green_compiled.py compares them).
 *
 * counts(source, reference, corrected, n) -> ((TP, FP, FN), ...) for n-gram sizes 1..n
 *   source, reference, corrected: the sentences' tokens as non-negative ints, one id
 *   space for all three (equal ids: equal tokens).
 *
 * For each size k the k-grams of the three sentences are sorted together (any total order
 * puts equal k-grams side by side), and each run of equal k-grams, with counts s, r, c in
 * the three, adds min(s, r), min(s, c), min(r, c) and min(s, r, c) to A, B, X and T: the
 * sizes of the multiset intersections S&R, S&C, R&C and S&R&C, from which
 * TP = X + |S| - A - B + T, FP = A + |C| - B - X and FN = B + |R| - A - X. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    Py_ssize_t start; /* of the k-gram in the joined ids */
    int which;        /* 0 source, 1 reference, 2 corrected */
} Gram;

static int compare(const uint64_t *ids, const Gram *x, const Gram *y, Py_ssize_t k) {
    const uint64_t *a = ids + x->start, *b = ids + y->start;
    for (Py_ssize_t i = 0; i < k; i++) {
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    }
    return 0;
}

/* bottom-up merge sort of grams[0..count) by their k-grams, `spare` as large */
static Gram *sorted_grams(const uint64_t *ids, Gram *grams, Gram *spare, Py_ssize_t count,
                          Py_ssize_t k) {
    for (Py_ssize_t width = 1; width < count; width *= 2) {
        for (Py_ssize_t lo = 0; lo < count; lo += 2 * width) {
            Py_ssize_t mid = lo + width < count ? lo + width : count;
            Py_ssize_t hi = lo + 2 * width < count ? lo + 2 * width : count;
            Py_ssize_t i = lo, j = mid, out = lo;
            while (i < mid && j < hi) {
                spare[out++] = compare(ids, &grams[j], &grams[i], k) < 0 ? grams[j++]
                                                                          : grams[i++];
            }
            while (i < mid) spare[out++] = grams[i++];
            while (j < hi) spare[out++] = grams[j++];
        }
        Gram *swap = grams;
        grams = spare;
        spare = swap;
    }
    return grams;
}

static Py_ssize_t min2(Py_ssize_t a, Py_ssize_t b) { return a < b ? a : b; }

/* (TP, FP, FN) of size k; `grams` and `spare` hold room for every token */
static PyObject *counts_of_size(const uint64_t *ids, const Py_ssize_t *length,
                                Py_ssize_t k, Gram *grams, Gram *spare) {
    Py_ssize_t size[3], count = 0, offset = 0;
    for (int w = 0; w < 3; w++) {
        size[w] = length[w] >= k ? length[w] - k + 1 : 0;
        for (Py_ssize_t i = 0; i < size[w]; i++) {
            grams[count].start = offset + i;
            grams[count].which = w;
            count++;
        }
        offset += length[w];
    }
    Gram *order = sorted_grams(ids, grams, spare, count, k);
    Py_ssize_t a = 0, b = 0, x = 0, t = 0;
    for (Py_ssize_t lo = 0; lo < count;) {
        Py_ssize_t seen[3] = {0, 0, 0}, hi = lo;
        while (hi < count && compare(ids, &order[lo], &order[hi], k) == 0) {
            seen[order[hi].which]++;
            hi++;
        }
        a += min2(seen[0], seen[1]);
        b += min2(seen[0], seen[2]);
        x += min2(seen[1], seen[2]);
        t += min2(min2(seen[0], seen[1]), seen[2]);
        lo = hi;
    }
    return Py_BuildValue("(nnn)", x + size[0] - a - b + t, a + size[2] - b - x,
                         b + size[1] - a - x);
}

/* the three sentences' ids joined into `ids` (room for all), their lengths in `length` */
static int read_ids(PyObject *const *sentences, uint64_t *ids, Py_ssize_t *length) {
    Py_ssize_t at = 0;
    for (int w = 0; w < 3; w++) {
        PyObject **items = PySequence_Fast_ITEMS(sentences[w]);
        length[w] = PySequence_Fast_GET_SIZE(sentences[w]);
        for (Py_ssize_t i = 0; i < length[w]; i++) {
            unsigned long long value = PyLong_AsUnsignedLongLong(items[i]);
            if (value == (unsigned long long)-1 && PyErr_Occurred()) return -1;
            ids[at++] = (uint64_t)value;
        }
    }
    return 0;
}

static PyObject *all_sizes(PyObject *const *sentences, Py_ssize_t n) {
    Py_ssize_t total = 0, length[3];
    for (int w = 0; w < 3; w++) total += PySequence_Fast_GET_SIZE(sentences[w]);
    uint64_t *ids = PyMem_Malloc((size_t)(total ? total : 1) * sizeof(uint64_t));
    Gram *grams = PyMem_Malloc((size_t)(total ? total : 1) * 2 * sizeof(Gram));
    PyObject *out = NULL;
    if (ids == NULL || grams == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (read_ids(sentences, ids, length) < 0) goto done;
    out = PyTuple_New(n);
    for (Py_ssize_t k = 1; out != NULL && k <= n; k++) {
        PyObject *one = counts_of_size(ids, length, k, grams, grams + total);
        if (one == NULL) {
            Py_CLEAR(out);
            break;
        }
        PyTuple_SET_ITEM(out, k - 1, one);
    }
done:
    PyMem_Free(ids);
    PyMem_Free(grams);
    return out;
}

static PyObject *counts(PyObject *self, PyObject *args) {
    PyObject *given[3], *sentences[3] = {NULL, NULL, NULL}, *out = NULL;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "OOOn", &given[0], &given[1], &given[2], &n)) return NULL;
    if (n < 1) {
        PyErr_SetString(PyExc_ValueError, "n must be at least 1");
        return NULL;
    }
    for (int w = 0; w < 3; w++) {
        sentences[w] = PySequence_Fast(given[w], "the tokens must be a sequence of ints");
        if (sentences[w] == NULL) goto done;
    }
    out = all_sizes(sentences, n);
done:
    for (int w = 0; w < 3; w++) Py_XDECREF(sentences[w]);
    return out;
}

static PyMethodDef methods[] = {
    {"counts", counts, METH_VARARGS,
     "counts(source, reference, corrected, n) -> ((TP, FP, FN), ...) for sizes 1..n"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_green",
    "GREEN's counts of a corrected sentence against a reference, compiled.", -1, methods,
};

PyMODINIT_FUNC PyInit__green(void) { return PyModule_Create(&module); }

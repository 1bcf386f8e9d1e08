/*
 * m2lsp.parsing._m2scan: M2 blocks parsed in C, each with the rules that may find something
 * in it.
 *
 * The same parse as m2lsp/parsing/m2.py's `parse_block` (read that module first): S and A
 * lines that take the fast path are built here, as the same objects, and every other line
 * goes to the Python function given to `setup` (the fast path for T lines, the grammar for
 * the rest).  Tests compare the two parses on random and real files.
 *
 * Each block also gets `_suspects` in its __dict__: a bit set (see m2lsp/parsing/suspects.py,
 * whose Python `suspects` computes the same bits) naming the kinds of problem the block may
 * have.  A rule that declares a bit is run only on the blocks that have it; tests check on
 * random and real files that no rule finds anything in a block without its bit.
 *
 * setup(Block, Sentence, Edit, LineProblem, fallback, shapes)
 * parse_blocks(keys: list[tuple[str, ...]]) -> list[Block]
 * block_bounds(lines: list[str]) -> (starts, ends, separated): the spans of `find_blocks`
 * tally(blocks) -> (written, types, sentences, annotated): the counts of `m2_context`
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* the bits of m2lsp/parsing/suspects.py */
enum {
    S_PROBLEMS = 1, S_SENTENCE = 2, S_OFFSETS = 4, S_NOOP_CORRECTION = 8, S_NOOP_MIX = 16,
    S_ANNOTATOR = 32, S_ORDER = 64, S_CORRECTIONS = 128, S_IDENTITY = 256, S_UNK = 512,
    S_NOOP_SPELLING = 1024, S_REQUIRED = 2048, S_ALL = 4095
};

#define MAX_DIGITS 100
#define BIG_VALUE 4000000000000000000LL /* stands for any number of more than 18 digits */
#define MAX_PAIRWISE 64 /* blocks with more edits get the pairwise bits without comparing */

static PyObject *BlockType, *SentenceType, *EditType, *ProblemType, *fallback, *shapes;
static PyObject *k_row, *k_text, *k_start, *k_end, *k_type, *k_corrections, *k_required,
    *k_comment, *k_annotator, *k_lines, *k_sentence, *k_edits, *k_targets, *k_problems,
    *k_tokens, *k_suspects, *k_annotator_set, *k_type_set, *k_column, *k_kind, *k_detail, *s_alt, *empty_tuple;

typedef struct {
    PyObject *line;
    int kind;
    const void *data;
    Py_ssize_t len;
} Text;

#define AT(t, i) PyUnicode_READ((t)->kind, (t)->data, (i))

/* One edit as the bits need it: offsets (BIG_VALUE for long ones), and where the type,
 * corrections, required flag and annotator are in the line. */
typedef struct {
    long long start, end;
    Py_ssize_t f[6]; /* field starts: type, corrections, required, comment, annotator, end+3 */
    Text *text;
    int noop;
} EditInfo;

static int text_of(PyObject *line, Text *t) {
    if (!PyUnicode_Check(line)) {
        PyErr_SetString(PyExc_TypeError, "lines must be str");
        return -1;
    }
    if (PyUnicode_READY(line) < 0) return -1;
    t->line = line;
    t->kind = PyUnicode_KIND(line);
    t->data = PyUnicode_DATA(line);
    t->len = PyUnicode_GET_LENGTH(line);
    return 0;
}

static int field_is(Text *t, Py_ssize_t a, Py_ssize_t b, const char *word) {
    Py_ssize_t n = (Py_ssize_t)strlen(word);
    if (b - a != n) return 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (AT(t, a + i) != (Py_UCS4)(unsigned char)word[i]) return 0;
    return 1;
}

static int same_text(Text *t, Py_ssize_t a, Py_ssize_t b, Text *u, Py_ssize_t c,
                     Py_ssize_t d) {
    if (b - a != d - c) return 0;
    for (Py_ssize_t i = 0; i < b - a; i++)
        if (AT(t, a + i) != AT(u, c + i)) return 0;
    return 1;
}

/* -?[0-9]{1,MAX_DIGITS} at *pos; its value (BIG_VALUE past 18 digits), or 0 on no match */
static int read_number(Text *t, Py_ssize_t *pos, long long *value, Py_ssize_t *from) {
    Py_ssize_t i = *pos, digits = 0;
    int negative = 0;
    long long v = 0;
    *from = i;
    if (i < t->len && AT(t, i) == '-') { negative = 1; i++; }
    while (i < t->len) {
        Py_UCS4 c = AT(t, i);
        if (c < '0' || c > '9') break;
        if (digits < 18) v = v * 10 + (c - '0');
        digits++;
        i++;
    }
    if (digits == 0 || digits > MAX_DIGITS) return 0;
    if (digits > 18) {
        /* leading zeros do not make a number long */
        Py_ssize_t s = *from + negative, significant = digits;
        while (significant > 1 && AT(t, s) == '0') { s++; significant--; }
        if (significant > 18) v = BIG_VALUE;
        else {
            v = 0;
            for (Py_ssize_t k = s; k < s + significant; k++) v = v * 10 + (AT(t, k) - '0');
        }
    }
    *value = negative ? -v : v;
    *pos = i;
    return 1;
}

static int is_blank(Py_UCS4 c) { return c == ' ' || c == '\t'; }

/* The fast path: `A [ \t]*N[ \t]+N[ \t]*|||` and five `|||`-separated fields after it. */
static int match_edit(Text *t, EditInfo *e, Py_ssize_t spans[4]) {
    Py_ssize_t i = 2;
    if (t->len < 2 || AT(t, 0) != 'A' || AT(t, 1) != ' ') return 0;
    while (i < t->len && is_blank(AT(t, i))) i++;
    if (!read_number(t, &i, &e->start, &spans[0])) return 0;
    spans[1] = i;
    if (i >= t->len || !is_blank(AT(t, i))) return 0;
    while (i < t->len && is_blank(AT(t, i))) i++;
    if (!read_number(t, &i, &e->end, &spans[2])) return 0;
    spans[3] = i;
    while (i < t->len && is_blank(AT(t, i))) i++;
    if (i + 3 > t->len || AT(t, i) != '|' || AT(t, i + 1) != '|' || AT(t, i + 2) != '|')
        return 0;
    i += 3;
    int field = 0;
    e->f[0] = i;
    while (i + 3 <= t->len) {
        if (AT(t, i) == '|' && AT(t, i + 1) == '|' && AT(t, i + 2) == '|') {
            if (++field > 4) return 0;
            i += 3;
            e->f[field] = i;
        } else {
            i++;
        }
    }
    if (field != 4) return 0;
    e->f[5] = t->len + 3;
    e->text = t;
    return 1;
}

#define FIELD_START(e, k) ((e)->f[k])
#define FIELD_END(e, k) ((e)->f[(k) + 1] - 3)

static PyObject *offset_value(Text *t, Py_ssize_t a, Py_ssize_t b, long long value) {
    if (value != BIG_VALUE && value != -BIG_VALUE) return PyLong_FromLongLong(value);
    PyObject *digits = PyUnicode_Substring(t->line, a, b);
    if (digits == NULL) return NULL;
    PyObject *out = PyLong_FromUnicodeObject(digits, 10);
    Py_DECREF(digits);
    return out;
}

/* The interned string of t[a:b].  Types, flags, comments and ids repeat on every line:
 * a small table of the strings met so far (by a hash of their characters) spares
 * building and hashing a new string for each. */
#define TABLE 512
static PyObject *table[TABLE];

static PyObject *interned(Text *t, Py_ssize_t a, Py_ssize_t b) {
    if (b - a > 64) { /* long values are rare, and the table would keep them alive */
        PyObject *s = PyUnicode_Substring(t->line, a, b);
        if (s != NULL) PyUnicode_InternInPlace(&s);
        return s;
    }
    uint32_t h = 2166136261u;
    for (Py_ssize_t i = a; i < b && i < a + 32; i++) h = (h ^ AT(t, i)) * 16777619u;
    h = (h ^ (uint32_t)(b - a)) * 16777619u;
    PyObject **slot = &table[h % TABLE];
    if (*slot != NULL) {
        Text known;
        if (text_of(*slot, &known) == 0 && same_text(t, a, b, &known, 0, known.len))
            return Py_NewRef(*slot);
    }
    PyObject *s = PyUnicode_Substring(t->line, a, b);
    if (s == NULL) return NULL;
    PyUnicode_InternInPlace(&s);
    Py_XDECREF(*slot);
    *slot = Py_NewRef(s);
    return s;
}

static PyObject *corrections_of(Text *t, Py_ssize_t a, Py_ssize_t b) {
    PyObject *field = PyUnicode_Substring(t->line, a, b);
    if (field == NULL) return NULL;
    int alternatives = 0;
    for (Py_ssize_t i = a; i + 1 < b; i++)
        if (AT(t, i) == '|' && AT(t, i + 1) == '|') { alternatives = 1; break; }
    if (!alternatives) {
        PyObject *out = PyTuple_Pack(1, field);
        Py_DECREF(field);
        return out;
    }
    PyObject *parts = PyUnicode_Split(field, s_alt, -1);
    Py_DECREF(field);
    if (parts == NULL) return NULL;
    PyObject *out = PyList_AsTuple(parts);
    Py_DECREF(parts);
    return out;
}

/* An object built without __init__, its attributes set one by one past the class's
 * __setattr__ (the dataclasses are frozen): they go to the instance's shared-key values,
 * which is faster and smaller than a dict of its own per object. */
static PyObject *blank(PyObject *type) {
    return PyBaseObject_Type.tp_new((PyTypeObject *)type, empty_tuple, NULL);
}

/* obj.key = value (value stolen; NULL: an error already set) */
static int put(PyObject *obj, PyObject *key, PyObject *value) {
    if (value == NULL) return -1;
    int rc = PyObject_GenericSetAttr(obj, key, value);
    Py_DECREF(value);
    return rc;
}

/* `value` (passed through) added to `set` */
static PyObject *noted(PyObject *set, PyObject *value) {
    if (value != NULL && PySet_Add(set, value) < 0) Py_CLEAR(value);
    return value;
}

static PyObject *make_edit(Py_ssize_t row, Text *t, EditInfo *e, Py_ssize_t spans[4],
                           PyObject *ids, PyObject *types) {
    PyObject *d = blank(EditType);
    if (d == NULL) return NULL;
    PyObject *annotator = interned(t, FIELD_START(e, 4), FIELD_END(e, 4));
    if (annotator == NULL || PySet_Add(ids, annotator) < 0) {
        Py_XDECREF(annotator);
        Py_DECREF(d);
        return NULL;
    }
    if (put(d, k_row, PyLong_FromSsize_t(row)) < 0 || put(d, k_text, Py_NewRef(t->line)) < 0
        || put(d, k_start, offset_value(t, spans[0], spans[1], e->start)) < 0
        || put(d, k_end, offset_value(t, spans[2], spans[3], e->end)) < 0
        || put(d, k_type, noted(types, interned(t, FIELD_START(e, 0), FIELD_END(e, 0)))) < 0
        || put(d, k_corrections, corrections_of(t, FIELD_START(e, 1), FIELD_END(e, 1))) < 0
        || put(d, k_required, interned(t, FIELD_START(e, 2), FIELD_END(e, 2))) < 0
        || put(d, k_comment, interned(t, FIELD_START(e, 3), FIELD_END(e, 3))) < 0
        || put(d, k_annotator, annotator) < 0) {
        Py_DECREF(d);
        return NULL;
    }
    return d;
}

/* the Sentence of an S line; *tokens (owned) its tokens */
static PyObject *make_sentence(Py_ssize_t row, Text *t, PyObject **tokens) {
    PyObject *text = PyUnicode_Substring(t->line, 2, t->len);
    if (text == NULL) return NULL;
    PyObject *parts = PyUnicode_Split(text, NULL, -1);
    PyObject *tuple = parts == NULL ? NULL : PyList_AsTuple(parts);
    Py_XDECREF(parts);
    PyObject *d = tuple == NULL ? NULL : blank(SentenceType);
    if (d == NULL || put(d, k_row, PyLong_FromSsize_t(row)) < 0
        || put(d, k_text, Py_NewRef(text)) < 0 || put(d, k_tokens, Py_NewRef(tuple)) < 0) {
        Py_XDECREF(d);
        Py_DECREF(text);
        Py_XDECREF(tuple);
        return NULL;
    }
    Py_DECREF(text);
    *tokens = tuple;
    return d;
}

/* ---- the bits --------------------------------------------------------------------- */

/* the S line's text (after "S ", trailing spaces and tabs removed) is tokens separated by
 * single spaces, in printable ASCII */
static int regular_sentence(Text *t) {
    Py_ssize_t end = t->len;
    while (end > 2 && is_blank(AT(t, end - 1))) end--;
    if (end > 2 && AT(t, 2) == ' ') return 0;
    for (Py_ssize_t i = 2; i < end; i++) {
        Py_UCS4 c = AT(t, i);
        if (c < 0x20 || c > 0x7e) return 0;
        if (c == ' ' && i + 1 < end && AT(t, i + 1) == ' ') return 0;
    }
    return 1;
}

/* _plain of m2_edits: one printable ASCII correction without stray spaces */
static int plain_correction(Text *t, Py_ssize_t a, Py_ssize_t b) {
    if (a < b && (AT(t, a) == ' ' || AT(t, b - 1) == ' ')) return 0;
    for (Py_ssize_t i = a; i < b; i++) {
        Py_UCS4 c = AT(t, i);
        if (c < 0x20 || c > 0x7e) return 0;
        if (c == '|' && i + 1 < b && AT(t, i + 1) == '|') return 0;
        if (c == ' ' && i + 1 < b && AT(t, i + 1) == ' ') return 0;
    }
    return 1;
}

/* M301's test: an id int() reads as a non-negative integer of at most MAX_DIGITS digits,
 * here plain digits with ASCII spaces or tabs around them (anything else is suspect) */
static int plain_id(Text *t, Py_ssize_t a, Py_ssize_t b) {
    while (a < b && (AT(t, a) == ' ' || AT(t, a) == '\t')) a++;
    while (b > a && (AT(t, b - 1) == ' ' || AT(t, b - 1) == '\t')) b--;
    if (b <= a || b - a > MAX_DIGITS) return 0;
    for (Py_ssize_t i = a; i < b; i++)
        if (AT(t, i) < '0' || AT(t, i) > '9') return 0;
    return 1;
}

/* M406's test, or 1 (suspect) for anything it cannot decide in ASCII */
static int noop_spelling(Text *t, Py_ssize_t a, Py_ssize_t b) {
    if (b - a >= 9 || field_is(t, a, b, "noop")) return 0;
    char folded[9];
    int n = 0;
    for (Py_ssize_t i = a; i < b; i++) {
        Py_UCS4 c = AT(t, i);
        if (c > 0x7e) return 1;
        if (c == '-' || c == '_' || c == ' ' || (c >= 0x09 && c <= 0x0d)
            || (c >= 0x1c && c <= 0x1f))
            continue; /* strip() and the removed characters, conservatively anywhere */
        folded[n++] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
    }
    return n == 4 && memcmp(folded, "noop", 4) == 0;
}

/* whether one of the `||` alternatives, read as split() reads it, is tokens[start:end]
 * (or -NONE- for an insertion): M403's identity, conservatively */
static int identity(EditInfo *e, PyObject *tokens) {
    Text *t = e->text;
    Py_ssize_t a = FIELD_START(e, 1), b = FIELD_END(e, 1), start = (Py_ssize_t)e->start;
    Py_ssize_t count = (Py_ssize_t)(e->end - e->start);
    Py_ssize_t alt = a;
    while (alt <= b) {
        Py_ssize_t stop = alt;
        while (stop < b && !(AT(t, stop) == '|' && stop + 1 < b && AT(t, stop + 1) == '|'))
            stop++;
        if (count == 0 && field_is(t, alt, stop, "-NONE-")) return 1;
        Py_ssize_t i = alt, k = 0;
        int same = 1;
        for (;;) {
            while (i < stop && Py_UNICODE_ISSPACE(AT(t, i))) i++;
            if (i >= stop) break;
            Py_ssize_t w = i;
            while (i < stop && !Py_UNICODE_ISSPACE(AT(t, i))) i++;
            if (k >= count) { same = 0; break; }
            Text tok;
            if (text_of(PyTuple_GET_ITEM(tokens, start + k), &tok) < 0) return -1;
            if (!same_text(t, w, i, &tok, 0, tok.len)) { same = 0; break; }
            k++;
        }
        if (same && k == count) return 1;
        alt = stop + 2;
    }
    return 0;
}

static int same_annotator(EditInfo *x, EditInfo *y, int stripped) {
    Py_ssize_t a = FIELD_START(x, 4), b = FIELD_END(x, 4);
    Py_ssize_t c = FIELD_START(y, 4), d = FIELD_END(y, 4);
    if (stripped) {
        while (a < b && Py_UNICODE_ISSPACE(AT(x->text, a))) a++;
        while (b > a && Py_UNICODE_ISSPACE(AT(x->text, b - 1))) b--;
        while (c < d && Py_UNICODE_ISSPACE(AT(y->text, c))) c++;
        while (d > c && Py_UNICODE_ISSPACE(AT(y->text, d - 1))) d--;
    }
    return same_text(x->text, a, b, y->text, c, d);
}

/* M201/M202 (a noop's annotator has another line), M304/M401/M402 (each annotator's edits
 * sorted, disjoint, no span twice): as the rules' own gates decide */
static int pairwise(EditInfo *e, Py_ssize_t n) {
    int bits = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        for (Py_ssize_t j = 0; j < n; j++) {
            if (i == j) continue;
            if (e[i].noop && same_annotator(&e[i], &e[j], 1)) bits |= S_NOOP_MIX;
            if (j < i && same_annotator(&e[i], &e[j], 0)) {
                if (e[i].start == e[j].start && e[i].end == e[j].end) bits |= S_ORDER;
                if (!e[i].noop && !e[j].noop
                    && (e[i].start < e[j].end || e[i].start <= e[j].start))
                    bits |= S_ORDER;
            }
        }
    }
    return bits;
}

static int edit_bits(EditInfo *e, PyObject *tokens) {
    Text *t = e->text;
    int bits = 0;
    long long n = tokens == NULL ? -1 : PyTuple_GET_SIZE(tokens);
    int unk = field_is(t, FIELD_START(e, 0), FIELD_END(e, 0), "UNK");
    if (e->noop) {
        if (e->start != -1 || e->end != -1) bits |= S_OFFSETS;
        if (!field_is(t, FIELD_START(e, 1), FIELD_END(e, 1), "-NONE-"))
            bits |= S_NOOP_CORRECTION;
    } else if (e->start < 0 || e->end < 0 || e->start > e->end || (n >= 0 && e->end > n)) {
        bits |= S_OFFSETS;
    } else if (n >= 0 && !unk) {
        int same = identity(e, tokens);
        if (same < 0) return -1;
        if (same) bits |= S_IDENTITY;
    }
    if (unk) bits |= S_UNK;
    if (!plain_correction(t, FIELD_START(e, 1), FIELD_END(e, 1))) bits |= S_CORRECTIONS;
    if (!plain_id(t, FIELD_START(e, 4), FIELD_END(e, 4))) bits |= S_ANNOTATOR;
    if (noop_spelling(t, FIELD_START(e, 0), FIELD_END(e, 0))) bits |= S_NOOP_SPELLING;
    if (!field_is(t, FIELD_START(e, 2), FIELD_END(e, 2), "REQUIRED")
        && !field_is(t, FIELD_START(e, 2), FIELD_END(e, 2), "OPTIONAL"))
        bits |= S_REQUIRED;
    return bits;
}

/* ---- lines the grammar rejected before ------------------------------------------- */

/* What the grammar finds wrong depends only on a line's shape (m2.py's `shape_key`): runs
 * of digits written 0, runs of characters the grammar does not tell apart written x.
 * `shapes` holds the grammar's verdict per shape; a line of a shape it rejected becomes its
 * LineProblem here, as `parse_line_slow` makes it. */
static int plain_char(Py_UCS4 c) {
    return c == 'A' || c == 'T' || c == 'S' || c == ' ' || c == '\t' || c == '|' || c == '-'
        || (c >= '0' && c <= '9');
}

static Py_ssize_t shape_step(Text *t, Py_ssize_t i, char *out) {
    Py_UCS4 c = AT(t, i);
    if (c >= '0' && c <= '9') {
        while (i < t->len && AT(t, i) >= '0' && AT(t, i) <= '9') i++;
        *out = '0';
    } else if (!plain_char(c)) {
        while (i < t->len && !plain_char(AT(t, i))) i++;
        *out = 'x';
    } else {
        *out = (char)c;
        i++;
    }
    return i;
}

static PyObject *known_problem(Py_ssize_t row, Text *t) {
    if (shapes == NULL || t->len > 4096) return NULL;
    char buffer[4096];
    Py_ssize_t n = 0;
    for (Py_ssize_t i = 0; i < t->len; n++) i = shape_step(t, i, &buffer[n]);
    PyObject *key = PyUnicode_FromStringAndSize(buffer, n);
    if (key == NULL) { PyErr_Clear(); return NULL; }
    PyObject *found = PyDict_GetItemWithError(shapes, key); /* borrowed */
    Py_DECREF(key);
    if (found == NULL || !PyTuple_Check(found) || PyTuple_GET_SIZE(found) != 3) {
        PyErr_Clear();
        return NULL;
    }
    Py_ssize_t index = PyLong_AsSsize_t(PyTuple_GET_ITEM(found, 0)), column = t->len;
    if (index < 0) { PyErr_Clear(); return NULL; }
    char ignored;
    for (Py_ssize_t i = 0, k = 0; i < t->len; k++) {
        if (k == index) { column = i; break; }
        i = shape_step(t, i, &ignored);
    }
    PyObject *problem = blank(ProblemType);
    if (problem == NULL) return NULL;
    if (put(problem, k_row, PyLong_FromSsize_t(row)) < 0
        || put(problem, k_column, PyLong_FromSsize_t(column)) < 0
        || put(problem, k_kind, Py_NewRef(PyTuple_GET_ITEM(found, 1))) < 0
        || put(problem, k_detail, Py_NewRef(PyTuple_GET_ITEM(found, 2))) < 0
        || put(problem, k_text, Py_NewRef(t->line)) < 0) {
        Py_DECREF(problem);
        return NULL;
    }
    return problem;
}

/* ---- blocks ----------------------------------------------------------------------- */

static PyObject *parse_block(PyObject *key) {
    Py_ssize_t n = PyTuple_GET_SIZE(key);
    Text *texts = PyMem_Malloc(sizeof(Text) * (n ? n : 1));
    EditInfo *infos = PyMem_Malloc(sizeof(EditInfo) * (n ? n : 1));
    PyObject *edits = PyList_New(0), *problems = PyList_New(0), *targets = PyList_New(0);
    PyObject *ids = PySet_New(NULL), *types = PySet_New(NULL);
    int grammar_edits = 0;
    PyObject *sentence = NULL, *tokens = NULL, *out = NULL;
    Py_ssize_t count = 0;
    int bits = 0;
    if (texts == NULL || infos == NULL || edits == NULL || problems == NULL || targets == NULL
        || ids == NULL || types == NULL)
        goto done;
    for (Py_ssize_t row = 0; row < n; row++) {
        Text *t = &texts[row];
        if (text_of(PyTuple_GET_ITEM(key, row), t) < 0) goto done;
        Py_ssize_t spans[4];
        EditInfo *e = &infos[count];
        if (match_edit(t, e, spans)) {
            PyObject *edit = make_edit(row, t, e, spans, ids, types);
            if (edit == NULL || PyList_Append(edits, edit) < 0) { Py_XDECREF(edit); goto done; }
            Py_DECREF(edit);
            e->noop = field_is(t, FIELD_START(e, 0), FIELD_END(e, 0), "noop");
            count++;
            continue;
        }
        if (t->len >= 2 && AT(t, 0) == 'S' && AT(t, 1) == ' ') {
            if (row == 0) {
                sentence = make_sentence(row, t, &tokens);
                if (sentence == NULL) goto done;
                if (!regular_sentence(t) || PyTuple_GET_SIZE(tokens) == 0) bits |= S_SENTENCE;
            }
            continue; /* an S line below the first is dropped, as parse_block drops it */
        }
        PyObject *item = NULL;
        if (t->len == 0 || AT(t, 0) != 'T') { /* where parse_line_fast gives None */
            item = known_problem(row, t);
            if (item == NULL && PyErr_Occurred()) goto done;
        }
        if (item == NULL) item = PyObject_CallFunction(fallback, "nO", row, t->line);
        if (item == NULL) goto done;
        PyObject *into = targets;
        if (PyObject_TypeCheck(item, (PyTypeObject *)ProblemType)) {
            into = problems;
            bits |= S_PROBLEMS;
        } else if (PyObject_TypeCheck(item, (PyTypeObject *)EditType)
                   || PyObject_TypeCheck(item, (PyTypeObject *)SentenceType)) {
            into = PyObject_TypeCheck(item, (PyTypeObject *)EditType) ? edits : NULL;
            grammar_edits |= into != NULL;
            bits |= S_ALL; /* the grammar's own objects: no bits computed for them */
            if (into == NULL && row == 0) { sentence = item; continue; }
        }
        if (into != NULL && PyList_Append(into, item) < 0) { Py_DECREF(item); goto done; }
        Py_DECREF(item);
    }
    if (sentence == NULL) bits |= S_SENTENCE;
    for (Py_ssize_t i = 0; i < count; i++) /* offsets past 18 digits: no comparison trusted */
        if (infos[i].start == BIG_VALUE || infos[i].start == -BIG_VALUE
            || infos[i].end == BIG_VALUE || infos[i].end == -BIG_VALUE)
            bits = S_ALL;
    for (Py_ssize_t i = 0; i < count && bits != S_ALL; i++) {
        int found = edit_bits(&infos[i], tokens);
        if (found < 0) goto done;
        bits |= found;
    }
    if (count > MAX_PAIRWISE) bits |= S_NOOP_MIX | S_ORDER;
    else if (count > 1) bits |= pairwise(infos, count);
    PyObject *d = blank(BlockType);
    if (d == NULL) goto done;
    if (sentence == NULL) sentence = Py_NewRef(Py_None);
    if (put(d, k_lines, Py_NewRef(key)) < 0 || put(d, k_sentence, Py_NewRef(sentence)) < 0
        || put(d, k_edits, PyList_AsTuple(edits)) < 0
        || put(d, k_targets, PyList_AsTuple(targets)) < 0
        || put(d, k_problems, PyList_AsTuple(problems)) < 0
        || put(d, k_suspects, PyLong_FromLong(bits)) < 0
        || (!grammar_edits && put(d, k_annotator_set, PyFrozenSet_New(ids)) < 0)
        || (!grammar_edits && put(d, k_type_set, PyFrozenSet_New(types)) < 0)) {
        Py_DECREF(d);
        goto done;
    }
    out = d;
done:
    PyMem_Free(texts);
    PyMem_Free(infos);
    Py_XDECREF(edits);
    Py_XDECREF(problems);
    Py_XDECREF(targets);
    Py_XDECREF(ids);
    Py_XDECREF(types);
    Py_XDECREF(sentence);
    Py_XDECREF(tokens);
    return out;
}

static PyObject *parse_blocks(PyObject *self, PyObject *keys) {
    if (BlockType == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_m2scan.setup was not called");
        return NULL;
    }
    if (!PyList_Check(keys)) {
        PyErr_SetString(PyExc_TypeError, "parse_blocks takes a list of tuples");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(keys);
    PyObject *out = PyList_New(n);
    if (out == NULL) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *key = PyList_GET_ITEM(keys, i);
        if (!PyTuple_Check(key)) {
            PyErr_SetString(PyExc_TypeError, "parse_blocks takes a list of tuples");
            Py_DECREF(out);
            return NULL;
        }
        PyObject *block = parse_block(key);
        if (block == NULL) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, i, block);
    }
    return out;
}

/* a line that is empty or whitespace only (str.isspace) */
static int blank_line(PyObject *line) {
    Text t;
    if (text_of(line, &t) < 0) return -1;
    for (Py_ssize_t i = 0; i < t.len; i++)
        if (!Py_UNICODE_ISSPACE(AT(&t, i))) return 0;
    return 1;
}

static int append_span(PyObject *starts, PyObject *ends, PyObject *separated, Py_ssize_t s,
                       Py_ssize_t e, int sep) {
    PyObject *a = PyLong_FromSsize_t(s), *b = PyLong_FromSsize_t(e);
    int rc = (a == NULL || b == NULL || PyList_Append(starts, a) < 0
              || PyList_Append(ends, b) < 0
              || PyList_Append(separated, sep ? Py_True : Py_False) < 0) ? -1 : 0;
    Py_XDECREF(a);
    Py_XDECREF(b);
    return rc;
}

static PyObject *block_bounds(PyObject *self, PyObject *lines) {
    if (!PyList_Check(lines)) {
        PyErr_SetString(PyExc_TypeError, "block_bounds takes a list of str");
        return NULL;
    }
    PyObject *starts = PyList_New(0), *ends = PyList_New(0), *separated = PyList_New(0);
    if (starts == NULL || ends == NULL || separated == NULL) goto fail;
    Py_ssize_t n = PyList_GET_SIZE(lines), start = -1;
    int sep = 1, first_sep = 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *line = PyList_GET_ITEM(lines, i);
        int blank = blank_line(line);
        if (blank < 0) goto fail;
        if (blank) {
            if (start >= 0 && append_span(starts, ends, separated, start, i, first_sep) < 0)
                goto fail;
            start = -1;
            sep = 1;
            continue;
        }
        if (start < 0) {
            start = i;
            first_sep = sep;
        } else if (PyUnicode_READ_CHAR(line, 0) == 'S') {
            if (append_span(starts, ends, separated, start, i, first_sep) < 0) goto fail;
            start = i;
            first_sep = 0;
        }
        sep = 0;
    }
    if (start >= 0 && append_span(starts, ends, separated, start, n, first_sep) < 0) goto fail;
    return Py_BuildValue("(NNN)", starts, ends, separated);
fail:
    Py_XDECREF(starts);
    Py_XDECREF(ends);
    Py_XDECREF(separated);
    return NULL;
}

/* ---- the file's counts ------------------------------------------------------------ */

static int count(PyObject *counter, PyObject *key) {
    PyObject *old = PyDict_GetItemWithError(counter, key); /* borrowed */
    if (old == NULL && PyErr_Occurred()) return -1;
    long n = old == NULL ? 0 : PyLong_AsLong(old);
    PyObject *value = PyLong_FromLong(n + 1);
    if (value == NULL) return -1;
    int rc = PyDict_SetItem(counter, key, value);
    Py_DECREF(value);
    return rc;
}

/* linting.run.plain_id: the id's digits without leading zeros when, stripped, it is 1 to
 * MAX_DIGITS ASCII digits; NULL (no error) otherwise */
static PyObject *normal_id(PyObject *annotator) {
    Text t;
    if (text_of(annotator, &t) < 0) return NULL;
    Py_ssize_t a = 0, b = t.len;
    while (a < b && Py_UNICODE_ISSPACE(AT(&t, a))) a++;
    while (b > a && Py_UNICODE_ISSPACE(AT(&t, b - 1))) b--;
    if (b == a || b - a > MAX_DIGITS) return NULL;
    for (Py_ssize_t i = a; i < b; i++)
        if (AT(&t, i) < '0' || AT(&t, i) > '9') return NULL;
    while (b - a > 1 && AT(&t, a) == '0') a++;
    if (a == 0 && b == t.len) return Py_NewRef(annotator);
    return PyUnicode_Substring(annotator, a, b);
}

/* tally(blocks) -> (written, types, sentences, annotated): as linting.run.m2_context counts
 * them (how often each annotator id and each type is written; in how many blocks each
 * plain id appears; how many blocks have one) */
static PyObject *tally(PyObject *self, PyObject *blocks) {
    PyObject *written = PyDict_New(), *types = PyDict_New(), *sentences = PyDict_New();
    PyObject *ids = PySet_New(NULL), *out = NULL;
    long annotated = 0;
    if (written == NULL || types == NULL || sentences == NULL || ids == NULL) goto done;
    PyObject *seq = PySequence_Fast(blocks, "tally takes a sequence of blocks");
    if (seq == NULL) goto done;
    for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(seq); k++) {
        PyObject *edits = PyObject_GetAttr(PySequence_Fast_GET_ITEM(seq, k), k_edits);
        if (edits == NULL || !PyTuple_Check(edits)) {
            if (edits != NULL) PyErr_SetString(PyExc_TypeError, "Block.edits is a tuple");
            Py_XDECREF(edits);
            Py_DECREF(seq);
            goto done;
        }
        PySet_Clear(ids);
        int failed = 0;
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(edits) && !failed; i++) {
            PyObject *edit = PyTuple_GET_ITEM(edits, i);
            PyObject *annotator = PyObject_GetAttr(edit, k_annotator);
            PyObject *type = annotator == NULL ? NULL : PyObject_GetAttr(edit, k_type);
            PyObject *id = type == NULL ? NULL : normal_id(annotator);
            failed = type == NULL || PyErr_Occurred() || count(written, annotator) < 0
                || count(types, type) < 0 || (id != NULL && PySet_Add(ids, id) < 0);
            Py_XDECREF(annotator);
            Py_XDECREF(type);
            Py_XDECREF(id);
        }
        Py_DECREF(edits);
        if (failed) { Py_DECREF(seq); goto done; }
        if (PySet_GET_SIZE(ids)) {
            annotated++;
            PyObject *iterator = PyObject_GetIter(ids), *id;
            while (iterator != NULL && (id = PyIter_Next(iterator)) != NULL) {
                failed |= count(sentences, id) < 0;
                Py_DECREF(id);
            }
            Py_XDECREF(iterator);
            if (failed || PyErr_Occurred()) { Py_DECREF(seq); goto done; }
        }
    }
    Py_DECREF(seq);
    out = Py_BuildValue("(OOOl)", written, types, sentences, annotated);
done:
    Py_XDECREF(written);
    Py_XDECREF(types);
    Py_XDECREF(sentences);
    Py_XDECREF(ids);
    return out;
}

static PyObject *setup(PyObject *self, PyObject *args) {
    PyObject *block, *sentence, *edit, *problem, *call, *known;
    if (!PyArg_ParseTuple(args, "OOOOOO!", &block, &sentence, &edit, &problem, &call,
                          &PyDict_Type, &known))
        return NULL;
    Py_XDECREF(shapes);
    shapes = Py_NewRef(known);
    Py_XDECREF(BlockType);
    Py_XDECREF(SentenceType);
    Py_XDECREF(EditType);
    Py_XDECREF(ProblemType);
    Py_XDECREF(fallback);
    BlockType = Py_NewRef(block);
    SentenceType = Py_NewRef(sentence);
    EditType = Py_NewRef(edit);
    ProblemType = Py_NewRef(problem);
    fallback = Py_NewRef(call);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"setup", setup, METH_VARARGS,
     "setup(Block, Sentence, Edit, LineProblem, fallback, shapes)"},
    {"parse_blocks", parse_blocks, METH_O, "parse_blocks(keys) -> list[Block]"},
    {"block_bounds", block_bounds, METH_O, "block_bounds(lines) -> (starts, ends, separated)"},
    {"tally", tally, METH_O, "tally(blocks) -> (written, types, sentences, annotated)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_m2scan", "M2 blocks parsed in C, with their suspect bits.", -1,
    methods,
};

static PyObject *key(const char *name) {
    PyObject *s = PyUnicode_InternFromString(name);
    return s;
}

PyMODINIT_FUNC PyInit__m2scan(void) {
    k_row = key("row"); k_text = key("text"); k_start = key("start"); k_end = key("end");
    k_type = key("type"); k_corrections = key("corrections"); k_required = key("required");
    k_comment = key("comment"); k_annotator = key("annotator"); k_lines = key("lines");
    k_sentence = key("sentence"); k_edits = key("edits"); k_targets = key("targets");
    k_problems = key("problems"); k_tokens = key("tokens"); k_suspects = key("_suspects"); k_annotator_set = key("_annotator_set");
    k_type_set = key("_type_set");
    k_column = key("column"); k_kind = key("kind"); k_detail = key("detail");
    s_alt = PyUnicode_FromString("||");
    empty_tuple = PyTuple_New(0);
    if (k_suspects == NULL || s_alt == NULL || empty_tuple == NULL) return NULL;
    PyObject *m = PyModule_Create(&module);
    /* the bits, for the test that they are suspects.py's */
    static const struct { const char *name; int value; } bits[] = {
        {"PROBLEMS", S_PROBLEMS}, {"SENTENCE", S_SENTENCE}, {"OFFSETS", S_OFFSETS},
        {"NOOP_CORRECTION", S_NOOP_CORRECTION}, {"NOOP_MIX", S_NOOP_MIX},
        {"ANNOTATOR", S_ANNOTATOR}, {"ORDER", S_ORDER}, {"CORRECTIONS", S_CORRECTIONS},
        {"IDENTITY", S_IDENTITY}, {"UNK", S_UNK}, {"NOOP_SPELLING", S_NOOP_SPELLING},
        {"REQUIRED", S_REQUIRED}, {"ALL", S_ALL},
    };
    PyObject *table = m == NULL ? NULL : PyDict_New();
    for (size_t i = 0; table != NULL && i < sizeof bits / sizeof bits[0]; i++) {
        PyObject *value = PyLong_FromLong(bits[i].value);
        if (value == NULL || PyDict_SetItemString(table, bits[i].name, value) < 0) Py_CLEAR(table);
        Py_XDECREF(value);
    }
    if (table == NULL || PyModule_AddObject(m, "BITS", table) < 0) {
        Py_XDECREF(table);
        Py_XDECREF(m);
        return NULL;
    }
    return m;
}

/* module.c -- the Python module shared_rules.siege.forecast.fastcore: one
 * type, Core, whose plain() and drawing() are search.py's Search.plain and
 * Search.drawing.  One translation
 * unit: the parts below are headers of static functions, included in the
 * order they need each other (fastcore.h says what the whole is). */

#include "fastcore.h"
#include "groups.h"
#include "moves.h"
#include "reduce.h"
#include "draws.h"
#include "memo.h"
#include "search.h"
#include "chains.h"
#include "drawing.h"


static int read_group(PyObject *o, grp *out)
{
    if (PyLong_Check(o)) {
        long a = PyLong_AsLong(o);
        if (a < 0 || a > 1000000) {
            PyErr_SetString(PyExc_OverflowError, "a group's armor out of range");
            return -1;
        }
        *out = sum_of((int)a);
        return 0;
    }
    if (!PyTuple_Check(o)) {
        PyErr_SetString(PyExc_TypeError, "a group is an int or a tuple of member codes");
        return -1;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(o);
    if (n > MAXMEM) {
        PyErr_SetString(PyExc_OverflowError, "too many members in one cell");
        return -1;
    }
    int c[MAXMEM];
    for (Py_ssize_t i = 0; i < n; i++) {
        long m = PyLong_AsLong(PyTuple_GET_ITEM(o, i));
        if (m < 4 || m > 15) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_OverflowError, "a member code out of range");
            return -1;
        }
        c[i] = (int)m;
    }
    sort_codes(c, (int)n);
    *out = mbuild(c, (int)n);
    return 0;
}

/* groups: a tuple of (cell, group); counts: a tuple of n counts */
static int read_state(PyObject *gitems, PyObject *counts, int n, grp *g, uint8_t *cnt)
{
    memset(g, 0, sizeof(grp) * 30);
    if (!PyTuple_Check(gitems) || !PyTuple_Check(counts) || PyTuple_GET_SIZE(counts) != n) {
        PyErr_Format(PyExc_TypeError, "groups: a tuple of (cell, group); counts: a tuple of %d", n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(gitems); i++) {
        PyObject *item = PyTuple_GET_ITEM(gitems, i);
        long c;
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 2 || (c = PyLong_AsLong(PyTuple_GET_ITEM(item, 0))) < 0
            || c >= 30) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "a group item is (cell 0-29, group)");
            return -1;
        }
        if (read_group(PyTuple_GET_ITEM(item, 1), &g[c]) < 0)
            return -1;
    }
    for (int k = 0; k < n; k++) {
        long x = PyLong_AsLong(PyTuple_GET_ITEM(counts, k));
        if (x < 0 || x > 200) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_OverflowError, "a count out of range");
            return -1;
        }
        cnt[k] = (uint8_t)x;
    }
    return 0;
}

/* after a search: the Python exception for its error, -1; 0 when there is none */
static int raise_for(Core *K, int err)
{
    if (err == ERR_CHOICE)
        PyErr_SetNone(K->choice_exc);
    else if (err == ERR_TIME || err == ERR_MEMORY)
        PyErr_SetString(K->time_exc, err == ERR_TIME ? "time" : "memory");
    else if (err == ERR_OVERFLOW)
        PyErr_SetString(PyExc_OverflowError, "a state beyond the compiled search's limits");
    else
        return 0;
    return -1;
}

/* the fields packed as search.py packs them: field i at bit i * width */
static PyObject *packed(Core *K, const u128 *val, int nf)
{
    int w = K->width;
    size_t nbytes = ((size_t)nf * w + 7) / 8 + 17;
    uint8_t *buf = calloc(nbytes, 1);
    if (!buf)
        return PyErr_NoMemory();
    for (int i = 0; i < nf; i++) {
        u128 v = val[i];
        if (!v)
            continue;
        size_t off = (size_t)i * w, byte = off >> 3;
        int sh = off & 7;
        buf[byte++] |= (uint8_t)(v << sh);
        v >>= 8 - sh;
        while (v) {
            buf[byte++] |= (uint8_t)v;
            v >>= 8;
        }
    }
    PyObject *out = PyObject_CallMethod((PyObject *)&PyLong_Type, "from_bytes", "y#s", (const char *)buf,
                                        (Py_ssize_t)nbytes, "little");
    free(buf);
    return out;
}

static void limits(Core *K, double budget, Py_ssize_t max_entries)
{
    K->deadline = budget < 0 ? -1 : now() + budget;
    K->max_entries = (size_t)(max_entries > 0 ? max_entries : 0);
    K->sp = 0;
}

static PyObject *Core_plain(Core *K, PyObject *args)
{
    int board, members;
    PyObject *gitems, *counts;
    const char *pattern;
    Py_ssize_t plen, max_entries;
    double budget;
    if (!PyArg_ParseTuple(args, "iOOs#pdn", &board, &gitems, &counts, &pattern, &plen, &members, &budget,
                          &max_entries))
        return NULL;
    grp g[30];
    uint8_t cnt[PLAIN];
    if (read_state(gitems, counts, PLAIN, g, cnt) < 0)
        return NULL;
    if (plen < 1 || plen > 15) {
        PyErr_SetString(PyExc_OverflowError, "a pattern of 1 to 15 draws");
        return NULL;
    }
    int pbits = 0;
    for (Py_ssize_t i = 0; i < plen; i++) {
        if (pattern[i] == 'P')
            pbits |= 1 << i;
        else if (pattern[i] != 'N') {
            PyErr_SetString(PyExc_ValueError, "a pattern is made of N and P");
            return NULL;
        }
    }
    u128 vbuf[NF];
    const u128 *val = NULL;
    int err;
    Py_BEGIN_ALLOW_THREADS
    limits(K, budget, max_entries);
    err = setjmp(K->jb);
    if (!err)
        val = plain(K, board, g, cnt, (int)plen, pbits, members, vbuf);
    K->sp = 0;
    Py_END_ALLOW_THREADS
    if (raise_for(K, err) < 0)
        return NULL;
    return packed(K, val, NF);
}

static PyObject *Core_drawing(Core *K, PyObject *args)
{
    int board, members, due, cut;
    PyObject *gitems, *counts, *cutobj;
    Py_ssize_t max_entries;
    double budget;
    if (!PyArg_ParseTuple(args, "iOOipOdn", &board, &gitems, &counts, &due, &members, &cutobj, &budget,
                          &max_entries))
        return NULL;
    grp g[30];
    uint8_t cnt[NKINDS];
    if (read_state(gitems, counts, NKINDS, g, cnt) < 0)
        return NULL;
    if (cutobj == Py_None)
        cut = -1;
    else if ((cut = (int)PyLong_AsLong(cutobj)) < 0 || cut > 200) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "cut: None or a count of extenders");
        return NULL;
    }
    if (due < 0 || due > 200) {
        PyErr_SetString(PyExc_OverflowError, "due out of range");
        return NULL;
    }
    u128 worst[NW], best[NW];
    int err;
    Py_BEGIN_ALLOW_THREADS
    limits(K, budget, max_entries);
    err = setjmp(K->jb);
    if (!err)
        draw_value(K, board, g, cnt, due, members, cut, worst, best);
    K->sp = 0;
    Py_END_ALLOW_THREADS
    if (raise_for(K, err) < 0)
        return NULL;
    PyObject *w = packed(K, worst, NW), *b = w ? packed(K, best, NW) : NULL;
    if (!b) {
        Py_XDECREF(w);
        return NULL;
    }
    return Py_BuildValue("(NN)", w, b);
}

static PyObject *Core_entries(Core *K, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromSize_t(K->plain.n + K->draw.n);
}

static PyObject *Core_clear(Core *K, PyObject *Py_UNUSED(ignored))
{
    clear_memo(K);
    Py_RETURN_NONE;
}

static int Core_init(Core *K, PyObject *args, PyObject *kw)
{
    PyObject *choice, *timeout, *full;
    static char *names[] = {"lossmask", "width", "full", "choice_found", "out_of_time", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "iiOOO", names, &K->lossmask, &K->width, &full, &choice, &timeout))
        return -1;
    if (K->width < 1 || K->width > 127) {
        PyErr_SetString(PyExc_OverflowError, "a field of 1 to 127 bits");
        return -1;
    }
    if (!PyTuple_Check(full) || PyTuple_GET_SIZE(full) <= PZ2H) {
        PyErr_SetString(PyExc_TypeError, "full: the full armor of every kind (model.FULL)");
        return -1;
    }
    for (int k = 0; k <= PZ2H; k++) {
        long a = PyLong_AsLong(PyTuple_GET_ITEM(full, k));
        if (a < 0 || a > 3) {                          /* a member's code keeps it in 2 bits */
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "a full armor of 0 to 3");
            return -1;
        }
        K->full[k] = (int)a;
    }
    Py_INCREF(choice);
    Py_INCREF(timeout);
    Py_XDECREF(K->choice_exc);
    Py_XDECREF(K->time_exc);
    K->choice_exc = choice;
    K->time_exc = timeout;
    if (!K->rcache) {
        K->rcache = calloc(RCACHE, sizeof(RSlot));
        if (!K->rcache) {
            PyErr_NoMemory();
            return -1;
        }
    }
    K->plain.nval = NF;
    K->draw.nval = 2 * NW;                            /* worst, then best */
    if (!K->scr) {
        K->scap = (size_t)1 << 21;                     /* 16 MB of outcomes at most on the stack */
        K->scr = malloc(sizeof(grp) * K->scap);
        if (!K->scr) {
            PyErr_NoMemory();
            return -1;
        }
    }
    return 0;
}

static void Core_dealloc(Core *K)
{
    clear_memo(K);
    free(K->scr);
    free(K->rcache);
    Py_XDECREF(K->choice_exc);
    Py_XDECREF(K->time_exc);
    Py_TYPE(K)->tp_free((PyObject *)K);
}

static PyMethodDef Core_methods[] = {
    {"plain", (PyCFunction)Core_plain, METH_VARARGS,
     "plain(board, groups, counts, pattern, members, budget_s, max_entries) -> packed value (Search.plain)"},
    {"drawing", (PyCFunction)Core_drawing, METH_VARARGS,
     "drawing(board, groups, counts, due, members, cut, budget_s, max_entries) -> (worst, best) (Search.drawing)"},
    {"entries", (PyCFunction)Core_entries, METH_NOARGS, "memo entries held"},
    {"clear", (PyCFunction)Core_clear, METH_NOARGS, "drop the memo"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "shared_rules.siege.forecast.fastcore.Core",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Core(lossmask, width, full, choice_found, out_of_time): one forecast's compiled pattern search",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Core_init,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_methods = Core_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "fastcore",
    .m_doc = "The forecast's pattern search, compiled (search.py).",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit_fastcore(void)
{
    tables();
    if (PyType_Ready(&CoreType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0) {
        Py_DECREF(&CoreType);
        Py_DECREF(m);
        return NULL;
    }
    /* the kinds in the order of the enum in fastcore.h: a test holds it to model.py's numbering */
    if (PyModule_AddStringConstant(m, "KINDS", "blank sdkfz pz3 tiger pz4h maus panther he111 move_red move_green "
                                   "move_blue move_cw move_ccw pz2h") < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}

/* module.c -- the Python module osada.siege.forecast.fastcore: one
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


/* An int in [lo, hi], else OverflowError saying `what` (or the TypeError of a non-int): -1. */
static int read_int(PyObject *o, long lo, long hi, const char *what, long *out)
{
    long x = PyLong_AsLong(o);
    if (x < lo || x > hi) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_OverflowError, what);
        return -1;
    }
    *out = x;
    return 0;
}

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
        long m;
        if (read_int(PyTuple_GET_ITEM(o, i), 4, 15, "a member code out of range", &m) < 0)
            return -1;
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
        long x;
        if (read_int(PyTuple_GET_ITEM(counts, k), 0, 200, "a count out of range", &x) < 0)
            return -1;
        cnt[k] = (uint8_t)x;
    }
    return 0;
}

/* after a search: the Python exception for its error, -1; 0 when there is none */
static int raise_for(Core *C, int err)
{
    if (err == ERR_CHOICE)
        PyErr_SetNone(C->choice_exc);
    else if (err == ERR_TIME || err == ERR_MEMORY)
        PyErr_SetString(C->time_exc, err == ERR_TIME ? "time" : "memory");
    else if (err == ERR_OVERFLOW)
        PyErr_SetString(PyExc_OverflowError, "a state beyond the compiled search's limits");
    else
        return 0;
    return -1;
}

/* the fields packed as search.py packs them: field i at bit i * width */
static PyObject *packed(Core *C, const u128 *val, int nf)
{
    int w = C->width;
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

/* One search of a state, as each thread runs it: the state, then what came of it. */
typedef struct {
    Core *core;
    int t;                         /* its thread: core->ctx[t] */
    int drawing;                   /* Search.drawing, else Search.plain */
    int board, members, plen, pbits, due, cut;
    grp g[30];
    uint8_t counts[NKINDS];
    u128 val[2 * NW];
    int err;
} Job;

static void run_job(Job *J)
{
    Ctx *K = &J->core->ctx[J->t];
    K->sp = 0;
    K->kdepth = 0;
    int err = setjmp(K->jb);
    if (!err) {
        if (J->drawing)
            draw_value(K, J->board, J->g, J->counts, J->due, J->members, J->cut, J->val, J->val + NW);
        else {
            u128 buf[NF];
            memcpy(J->val, plain(K, J->board, J->g, J->counts, J->plen, J->pbits, J->members, buf),
                   sizeof(u128) * NF);
        }
    }
    K->sp = 0;
    J->err = err;
    if (err != ERR_STOP)                               /* an answer (or why none): the others stop */
        atomic_store(&J->core->stop, 1);
}

static void *thread_main(void *job)
{
    run_job((Job *)job);
    return NULL;
}

/* Every thread searches the whole state, each its own way round (Ctx.order), sharing the memos:
 * what one has worked out the other finds.  The first to finish answers, the rest stop.  Returns
 * the job that answered (the GIL released: no Python in here). */
static Job *search_all(Core *C, Job *jobs, double budget, Py_ssize_t max_bytes)
{
    double deadline = budget < 0 ? -1 : now() + budget;
    atomic_store(&C->stop, 0);
    pthread_t th[THREADS];
    int started[THREADS] = {0}, n = C->threads;
    for (int t = 0; t < n; t++) {
        C->ctx[t].deadline = deadline;
        C->ctx[t].max_bytes = (size_t)(max_bytes > 0 ? max_bytes : 0);
        C->ctx[t].bytes = &C->bytes;
        if (t)
            jobs[t] = jobs[0];
        jobs[t].t = t;
        jobs[t].err = ERR_STOP;
    }
    for (int t = 1; t < n; t++)
        started[t] = !pthread_create(&th[t], NULL, thread_main, &jobs[t]);
    run_job(&jobs[0]);
    for (int t = 1; t < n; t++)
        if (started[t])
            pthread_join(th[t], NULL);
    for (int t = 0; t < n; t++)                        /* an answer before an error (its time ran out) */
        if (!jobs[t].err)
            return &jobs[t];
    for (int t = 0; t < n; t++)
        if (jobs[t].err != ERR_STOP)
            return &jobs[t];
    return &jobs[0];
}

/* The search of jobs[0]'s state, the GIL released; the job that answered, or NULL with the
 * Python exception of why not (ChoiceFound, OutOfTime, OverflowError, MemoryError). */
static Job *run_search(Core *C, Job *jobs, double budget, Py_ssize_t max_bytes)
{
    for (int i = 0; i < 2; i++) {
        Table *t = i ? &C->draw : &C->plain;
        if (!t->slots) {
            if (table_init(t, i ? 2 * NW : NF) < 0) {
                PyErr_NoMemory();
                return NULL;
            }
            atomic_fetch_add(&C->bytes, t->cap * sizeof(uint64_t));
        }
    }
    jobs[0].core = C;
    Job *done;
    Py_BEGIN_ALLOW_THREADS
    done = search_all(C, jobs, budget, max_bytes);
    Py_END_ALLOW_THREADS
    return raise_for(C, done->err) < 0 ? NULL : done;
}

static PyObject *Core_plain(Core *C, PyObject *args)
{
    Job jobs[THREADS];
    Job *J = &jobs[0];
    memset(J, 0, sizeof(Job));
    PyObject *gitems, *counts;
    const char *pattern;
    Py_ssize_t plen, max_bytes;
    double budget;
    if (!PyArg_ParseTuple(args, "iOOs#pdn", &J->board, &gitems, &counts, &pattern, &plen, &J->members, &budget,
                          &max_bytes))
        return NULL;
    if (read_state(gitems, counts, PLAIN, J->g, J->counts) < 0)
        return NULL;
    if (plen < 1 || plen > 15) {
        PyErr_SetString(PyExc_OverflowError, "a pattern of 1 to 15 draws");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < plen; i++) {
        if (pattern[i] == 'P')
            J->pbits |= 1 << i;
        else if (pattern[i] != 'N') {
            PyErr_SetString(PyExc_ValueError, "a pattern is made of N and P");
            return NULL;
        }
    }
    J->plen = (int)plen;
    Job *done = run_search(C, jobs, budget, max_bytes);
    return done ? packed(C, done->val, NF) : NULL;
}

static PyObject *Core_drawing(Core *C, PyObject *args)
{
    Job jobs[THREADS];
    Job *J = &jobs[0];
    memset(J, 0, sizeof(Job));
    PyObject *gitems, *counts, *cutobj;
    Py_ssize_t max_bytes;
    double budget;
    if (!PyArg_ParseTuple(args, "iOOipOdn", &J->board, &gitems, &counts, &J->due, &J->members, &cutobj, &budget,
                          &max_bytes))
        return NULL;
    if (read_state(gitems, counts, NKINDS, J->g, J->counts) < 0)
        return NULL;
    if (cutobj == Py_None)
        J->cut = -1;
    else if ((J->cut = (int)PyLong_AsLong(cutobj)) < 0 || J->cut > 200) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "cut: None or a count of extenders");
        return NULL;
    }
    if (J->due < 0 || J->due > 200) {
        PyErr_SetString(PyExc_OverflowError, "due out of range");
        return NULL;
    }
    J->drawing = 1;
    Job *done = run_search(C, jobs, budget, max_bytes);
    if (!done)
        return NULL;
    PyObject *w = packed(C, done->val, NW), *b = w ? packed(C, done->val + NW, NW) : NULL;
    if (!b) {
        Py_XDECREF(w);
        return NULL;
    }
    return Py_BuildValue("(NN)", w, b);
}

static PyObject *Core_entries(Core *C, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromSize_t(atomic_load(&C->plain.n) + atomic_load(&C->draw.n));
}

static PyObject *Core_memory(Core *C, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromSize_t(atomic_load(&C->bytes));
}

static void clear_memo(Core *C)
{
    table_free(&C->plain);
    table_free(&C->draw);
    atomic_store(&C->bytes, 0);
    for (int t = 0; t < THREADS; t++) {
        arena_free(&C->ctx[t]);
        chains_clear(&C->ctx[t]);
    }
}

static PyObject *Core_clear(Core *C, PyObject *Py_UNUSED(ignored))
{
    clear_memo(C);
    Py_RETURN_NONE;
}

static int Core_init(Core *C, PyObject *args, PyObject *kw)
{
    PyObject *choice, *timeout, *full;
    int lossmask, threads = 0;
    static char *names[] = {"lossmask", "width", "full", "choice_found", "out_of_time", "threads", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "iiOOO|i", names, &lossmask, &C->width, &full, &choice, &timeout,
                                     &threads))
        return -1;
    if (threads <= 0) {                                /* the machine's cores */
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        threads = cores > 0 ? (int)cores : 1;
    }
    C->threads = threads < THREADS ? threads : THREADS;
    if (C->width < 1 || C->width > 127) {
        PyErr_SetString(PyExc_OverflowError, "a field of 1 to 127 bits");
        return -1;
    }
    if (!PyTuple_Check(full) || PyTuple_GET_SIZE(full) <= PZ2H) {
        PyErr_SetString(PyExc_TypeError, "full: the full armor of every kind (model.FULL)");
        return -1;
    }
    int armor[PZ2H + 1];
    for (int k = 0; k <= PZ2H; k++) {
        long a = PyLong_AsLong(PyTuple_GET_ITEM(full, k));
        if (a < 0 || a > 3) {                          /* a member's code keeps it in 2 bits */
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "a full armor of 0 to 3");
            return -1;
        }
        armor[k] = (int)a;
    }
    clear_memo(C);
    for (int t = 0; t < THREADS; t++) {
        Ctx *K = &C->ctx[t];
        K->lossmask = lossmask;
        memcpy(K->full, armor, sizeof armor);
        K->order = t;
        K->threads = C->threads;
        K->plain = &C->plain;
        K->draw = &C->draw;
        K->stop = &C->stop;
        K->all = C->ctx;
        if (!K->rcache && !(K->rcache = calloc(RCACHE, sizeof(RSlot))))
            return PyErr_NoMemory(), -1;
        if (!K->bcache && !(K->bcache = calloc(BCACHE, sizeof(BSlot))))
            return PyErr_NoMemory(), -1;
        if (!K->ccache && !(K->ccache = calloc(CCACHE, sizeof(CSlot))))
            return PyErr_NoMemory(), -1;
        if (!K->scr) {
            K->scap = (size_t)1 << 21;                 /* 16 MB of outcomes at most on the stack */
            if (!(K->scr = malloc(sizeof(grp) * K->scap)))
                return PyErr_NoMemory(), -1;
        }
        if (!K->kids && !(K->kids = malloc(sizeof(Child) * BATCH * KID_LEVELS)))
            return PyErr_NoMemory(), -1;
    }
    Py_INCREF(choice);
    Py_INCREF(timeout);
    Py_XDECREF(C->choice_exc);
    Py_XDECREF(C->time_exc);
    C->choice_exc = choice;
    C->time_exc = timeout;
    return 0;
}

static void Core_dealloc(Core *C)
{
    clear_memo(C);
    for (int t = 0; t < THREADS; t++) {
        free(C->ctx[t].scr);
        free(C->ctx[t].kids);
        free(C->ctx[t].rcache);
        free(C->ctx[t].bcache);
        free(C->ctx[t].ccache);
    }
    Py_XDECREF(C->choice_exc);
    Py_XDECREF(C->time_exc);
    Py_TYPE(C)->tp_free((PyObject *)C);
}

static PyMethodDef Core_methods[] = {
    {"plain", (PyCFunction)Core_plain, METH_VARARGS,
     "plain(board, groups, counts, pattern, members, budget_s, max_bytes) -> packed value (Search.plain)"},
    {"memory", (PyCFunction)Core_memory, METH_NOARGS, "bytes the memos hold (their arenas and slots)"},
    {"drawing", (PyCFunction)Core_drawing, METH_VARARGS,
     "drawing(board, groups, counts, due, members, cut, budget_s, max_bytes) -> (worst, best) (Search.drawing)"},
    {"entries", (PyCFunction)Core_entries, METH_NOARGS, "memo entries held"},
    {"clear", (PyCFunction)Core_clear, METH_NOARGS, "drop the memo"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "osada.siege.forecast.fastcore.Core",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Core(lossmask, width, full, choice_found, out_of_time, threads=0): one forecast's compiled search "
              "(threads: how many search at once; 0, the machine's cores, 4 at most)",
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

/* fastcore.h -- the threat forecast's search compiled: search.py's Search.drawing
 * and Search.plain and all they call (model.py's moves, reduce.py's F9,
 * chains.py's patterns, the last draw).
 *
 * An optional accelerator of the host-only forecast (F12: never on the Pico):
 * search.py uses it when it was built (`make setup` builds it with the C
 * compiler the machine has, setup.py) and plays the same rules in Python when
 * it was not.  It computes exactly what search.py computes -- the same states,
 * the same reductions, the same integers -- only without CPython's
 * dictionaries, tuples and big integers: a group is one 64-bit word, a value's
 * fields unsigned 128-bit integers, a memo an open-addressing hash table.  The
 * tests run the forecast's worked examples, its rules and the brute-force
 * comparisons through both.  Read search.py, model.py, reduce.py and chains.py
 * first: every function here names the one it follows, and their docstrings
 * say why.
 *
 * Limits (compiled.py checks the first; the others raise OverflowError and
 * compiled.py goes on in Python): a value's fields must fit 126 bits (a pool
 * of 49 tokens and a chain of 12 draws use under 100), a cell at most 14
 * members, a move at most MAXOPT ways of dealing its damage, a count 200.
 *
 * Threads (module.c): as many as the machine has cores, 4 at most, each
 * searching the whole state its own way round (ordered()), the memos shared
 * (memo.h); the first to finish answers.  A value never depends on which
 * thread worked a state out.
 *
 * The parts, one translation unit (module.c includes them in this order):
 * fastcore.h the types, the core's state, its limits and the vectors;
 * groups.h a cell's enemies; moves.h the moves (R20-R42); reduce.h F9;
 * draws.h what a token's draw does; memo.h the memos; search.h the pattern
 * search; chains.h the reveal chains' patterns; drawing.h draw by draw and
 * the damage choices; module.c the Python type.
 */

#ifndef OSADA_FASTCORE_H
#define OSADA_FASTCORE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef unsigned __int128 u128;
typedef uint64_t grp;          /* 0: no group; SUMF|armor: a sum; else members (see below) */

/* token kinds, numbered as model.py numbers them (module.c's KINDS names them for a test) */
enum { BLANK, SDKFZ, PZ3, TIGER, PZ4H, MAUS, PANTHER, HE111, MOVE_RED, MOVE_GREEN, MOVE_BLUE,
       MOVE_CW, MOVE_CCW, PZ2H };
#define PLAIN 13
#define NF 20                  /* a value's fields: targets 0-17, L, E (search.py) */
#define L_FIELD 18
#define E_FIELD 19
#define INF 99
#define ALL_SECTORS 63
#define MAXOPT 256             /* ways of dealing one move's damage (R25) */
#define MAXMEM 14              /* members in one cell */
#define SUMF ((grp)1 << 63)
#define CNT_SHIFT 56

enum { ERR_CHOICE = 1, ERR_TIME, ERR_MEMORY, ERR_OVERFLOW, ERR_STOP };

static const int COLOR_SECTORS[3] = {3, 12, 48};
static int DCW[64][6], DCCW[64][6];
static int WALKED[30][11];


typedef struct Ctx Ctx;
static void fail(Ctx *K, int err);

/* A memo entry: its key's bytes (a multiple of 8), then its value's fields (the table's nval): narrow
 * ones (below) right after the key, 128-bit ones from the next multiple of 16 (a wide entry starts on
 * one).  Its hash is not kept: grow() works it out again from the key. */
typedef struct Entry {
    uint32_t klen;
    uint32_t form;                 /* its value's fields: 0, all 128-bit; else narrow (below) */
    uint8_t key[];
} Entry;

static inline size_t entry_voff(int klen, int wide)
{
    size_t off = sizeof(Entry) + (size_t)klen;
    return wide ? (off + 15) & ~(size_t)15 : off;
}

static inline u128 *entry_val(Entry *e) { return (u128 *)((uint8_t *)e + entry_voff((int)e->klen, !e->form)); }

/* A plain value whose fields all fit 64 bits (most: the states with few draws to come) is kept in
 * 64-bit fields, its non-zero ones alone (form: NARROW64, and bit 8 + i for field i kept), under half the
 * memory; where they all fit 32 bits (most of those), in 32-bit fields (form: NARROW32, the same bits).
 * entry_addmul reads it as it is kept, entry_get widens it. */
#define NARROW64 1
#define NARROW32 2

/* acc += m * an entry's value, read from its own fields (the narrow ones need no widening first) */
static inline void entry_addmul(u128 *acc, uint64_t m, Entry *e)
{
    if (e->form & NARROW32) {
        const uint32_t *v = (const uint32_t *)entry_val(e);
        for (uint32_t f = e->form >> 8; f; f &= f - 1)
            acc[__builtin_ctz(f)] += (u128)m * *v++;
    } else if (e->form) {
        const uint64_t *v = (const uint64_t *)entry_val(e);
        for (uint32_t f = e->form >> 8; f; f &= f - 1)
            acc[__builtin_ctz(f)] += (u128)m * *v++;
    } else {
        const u128 *v = entry_val(e);
        for (int i = 0; i < NF; i++)
            acc[i] += (u128)m * v[i];
    }
}

/* an entry's value: its own fields where they are 128-bit, else widened into buf */
static inline const u128 *entry_get(Entry *e, u128 *buf)
{
    if (!e->form)
        return entry_val(e);
    memset(buf, 0, sizeof(u128) * NF);
    entry_addmul(buf, 1, e);
    return buf;
}

#define CHUNK (16u << 20)          /* an arena's chunk (memo.h: arena) */
#define MIN_CHUNK (64u << 10)
#define RCACHE 4096                /* Reach by pool and horizon: the same few recur all through a search */
#define BCACHE 65536               /* a lone group's most blows (reduce.h: max_blows), by cell, board, tokens, h */
#define CCACHE 256                 /* each cell's bounds under one board and Reach (reduce.h: reduce_state) */
#define BLOWS_TOKENS 10            /* ... searched with at most this many moving tokens (reduce.BLOWS_TOKENS) */
#define THREADS 4                  /* at most, searches of one state at once, each its own way round (module.c) */

/* One memo, shared by the threads: slots of an entry's address with 16 bits of its hash
 * above it, claimed by compare-and-swap; grown (memo.h: grow) when half full. */
typedef struct {
    _Atomic uint64_t *slots;
    size_t cap;
    _Atomic size_t n;
    _Atomic int resizing;          /* a thread is growing it: the others wait outside */
    int nval;
} Table;

typedef struct {
    int h, rot, ccw, own[6], wide[6], outer[6], city, outer_max, tanks, specials;
} Reach;

typedef struct { uint64_t key; Reach r; } RSlot;       /* key 0: empty (a real key has bit 56) */
/* What reduce_state worked out for each cell of a board under one Reach (its key): the blows a
 * group there can still take (0: none, left out) and the colours it may walk.  A state's children
 * share both but for the token drawn, so most of their cells are worked out once for all of them. */
typedef struct { uint64_t rkey; int board; uint32_t known; uint8_t cap[30], colors[30]; } CSlot;
typedef uint64_t BSlot;        /* a key (bit 63 set: 0 is empty) with its blows in bits 52-57 (reduce.h: max_blows) */

/* What one thread's search works with: the forecast's constants, its own caches, arena,
 * scratch and stop point, and the shared memos. */
struct Ctx {
    int lossmask;
    int full[PZ2H + 1];            /* the placed kinds' full armor: model.FULL, given by search.py */
    int order;                     /* its way round: its thread's number (ordered()) */
    RSlot *rcache;
    BSlot *bcache;
    CSlot *ccache;
    Table *plain, *draw;           /* the memos (search.py's memo_plain and memo_draw) */
    void *chains;                  /* the reveal chains' patterns by chain state (chains.h) */
    char **chunks;                 /* the arena of the entries this thread made */
    size_t nchunks, chunk_used, chunk_cap;
    grp *scr;                      /* scratch for moves' outcomes (a stack) */
    void *kids;                    /* the children waiting for their lookups, a batch per plain() level (search.h) */
    int kdepth;                    /* plain() levels using them now */
    size_t sp, scap;
    jmp_buf jb;
    double deadline;               /* monotonic seconds; < 0: none */
    size_t max_bytes;              /* the memory cap: the memos' arenas and slots (0: none) */
    _Atomic size_t *bytes;         /* what they hold now (Core.bytes) */
    uint64_t checked;
    _Atomic int *stop;             /* another thread has the answer */
    _Atomic int inside;            /* in a memo's slots (memo.h: enter) */
    Ctx *all;                      /* every thread's (Core.ctx) */
    int threads;                   /* how many there are */
};

/* The i-th of n in a thread's own order: thread 0 in order, 1 the other way round, 2 and 3 the
 * same from a third of the way along. */
static inline int ordered(const Ctx *K, int i, int n)
{
    int j = (K->order & 1) ? n - 1 - i : i;
    return K->order & 2 ? (j + n / 3) % n : j;
}

typedef struct Core Core;

struct Core {
    PyObject_HEAD
    int width;
    Table plain, draw;
    _Atomic size_t bytes;          /* the memos' arenas and slots, all threads' */
    _Atomic int stop;
    int threads;                   /* searching at once: the machine's cores, THREADS at most */
    Ctx ctx[THREADS];
    PyObject *choice_exc, *time_exc;
};

static void fail(Ctx *K, int err) { longjmp(K->jb, err); }

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void tick(Ctx *K)                            /* search.Search._tick */
{
    if (atomic_load_explicit(K->stop, memory_order_relaxed))
        fail(K, ERR_STOP);
    K->checked++;
    if (K->checked & 255)
        return;
    if (K->deadline >= 0 && now() > K->deadline)
        fail(K, ERR_TIME);
    if (K->max_bytes && atomic_load(K->bytes) > K->max_bytes)
        fail(K, ERR_MEMORY);
}

static grp *salloc(Ctx *K, size_t n)
{
    if (K->sp + n > K->scap)
        fail(K, ERR_OVERFLOW);
    grp *p = K->scr + K->sp;
    K->sp += n;
    return p;
}

/* the set bits of a small mask, inline (__builtin_popcount is a call into libgcc where the build
 * may not assume the CPU's own instruction) */
static inline int popc(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24);
}

/* ---------------------------------------------------------- vectors */

static inline void vzero(u128 *v) { memset(v, 0, sizeof(u128) * NF); }

static inline void vaddmul(u128 *acc, u128 m, const u128 *v)
{
    for (int i = 0; i < NF; i++)
        acc[i] += m * v[i];
}

static inline void add_ind(u128 *acc, u128 m, int destroyed, int lost)   /* Search.indicator */
{
    int d = destroyed;
    while (d) {
        acc[__builtin_ctz(d)] += m;
        d &= d - 1;
    }
    if (lost)
        acc[L_FIELD] += m;
    int e = popc(destroyed >> 12);
    if (e)
        acc[E_FIELD] += m * (u128)e;
}

static inline u128 falling(int n, int k)
{
    u128 out = 1;
    for (int i = 0; i < k; i++)
        out *= (u128)(n - i);
    return out;
}

static inline u128 pow6(int k)
{
    u128 out = 1;
    for (int i = 0; i < k; i++)
        out *= 6;
    return out;
}


#endif

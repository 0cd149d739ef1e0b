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
 * Limits (search.py checks the first; the others raise OverflowError and
 * search.py goes on in Python): a value's fields must fit 126 bits (a pool of
 * 49 tokens and a chain of 12 draws use under 100), a cell at most 14
 * members, a move at most MAXOPT ways of dealing its damage, a count 200.
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
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

enum { ERR_CHOICE = 1, ERR_TIME, ERR_MEMORY, ERR_OVERFLOW };

static const int COLOR_SECTORS[3] = {3, 12, 48};
static int DCW[64][6], DCCW[64][6];
static int WALKED[30][11];


typedef struct Core Core;
static void fail(Core *K, int err);

/* A memo entry: its key's bytes (padded to 16), then its value's fields (the table's nval) */
typedef struct Entry {
    uint64_t hash;
    uint32_t klen;
    uint32_t spare;
    uint8_t key[];
} Entry;

static inline u128 *entry_val(Entry *e) { return (u128 *)(e->key + ((e->klen + 15) & ~15u)); }

#define CHUNK (16u << 20)
#define RCACHE 4096                /* Reach by pool and horizon: the same few recur all through a search */

typedef struct { uint64_t hash; Entry *e; } Slot;
typedef struct { Slot *slots; size_t cap, n; int nval; } Table;    /* one memo: nval fields a value */

typedef struct {
    int h, rot, ccw, own[6], wide[6], outer[6], city, outer_max, tanks, specials;
} Reach;

typedef struct { uint64_t key; Reach r; } RSlot;       /* key 0: empty (a real key has bit 56) */

struct Core {
    PyObject_HEAD
    int lossmask;
    int width;
    int full[PZ2H + 1];            /* the placed kinds' full armor: model.FULL, given by search.py */
    RSlot *rcache;
    /* the memos (search.py's memo_plain and memo_draw), their entries in one arena */
    Table plain, draw;
    void *chains;                  /* the reveal chains' patterns by chain state (chains.h) */
    char **chunks;
    size_t nchunks, chunk_used;
    /* scratch for moves' outcomes (a stack) */
    grp *scr;
    size_t sp, scap;
    /* limits */
    jmp_buf jb;
    double deadline;               /* monotonic seconds; < 0: none */
    size_t max_entries;            /* 0: none */
    uint64_t checked;
    PyObject *choice_exc, *time_exc;
};

static void fail(Core *K, int err) { longjmp(K->jb, err); }

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void tick(Core *K)                           /* search.Search._tick */
{
    K->checked++;
    if (K->checked & 255)
        return;
    if (K->deadline >= 0 && now() > K->deadline)
        fail(K, ERR_TIME);
    if (K->max_entries && K->plain.n + K->draw.n > K->max_entries)
        fail(K, ERR_MEMORY);
}

static grp *salloc(Core *K, size_t n)
{
    if (K->sp + n > K->scap)
        fail(K, ERR_OVERFLOW);
    grp *p = K->scr + K->sp;
    K->sp += n;
    return p;
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
    int e = __builtin_popcount(destroyed >> 12);
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

/* memo.h -- the memo: states by their reduced key, an open-addressing hash table over an arena */

#ifndef OSADA_FASTCORE_MEMO_H
#define OSADA_FASTCORE_MEMO_H

static uint64_t hash_bytes(const uint8_t *p, int n)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ (uint64_t)n;
    for (int i = 0; i < n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);                          /* the key buffer is padded to 8 with zeros */
        h ^= w;
        h *= 0xff51afd7ed558ccdULL;
        h ^= h >> 33;
    }
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 29;
    return h;
}

/* A state's key: its head (the board's three bytes, then what else tells the search's states apart),
 * its counts, then each group: a sum under 256 as its cell + 32 and its armor (two bytes: most groups
 * are sums), any other as its cell and its word; padded with zeros to 8 bytes (hash_bytes).  Read
 * from its start, the bytes give back the groups: two states have one key only if they are one. */
static int make_key(uint8_t *key, int board, const uint8_t *head, int nhead, const uint8_t *counts, int ncounts,
                    const grp *g)
{
    int n = 0;
    key[n++] = board & 255;
    key[n++] = (board >> 8) & 255;
    key[n++] = (board >> 16) & 255;
    memcpy(key + n, head, nhead);
    n += nhead;
    memcpy(key + n, counts, ncounts);
    n += ncounts;
    for (uint32_t occ = occupied(g); occ; occ &= occ - 1) {
        int c = __builtin_ctz(occ);
        grp x = g[c];
        if ((x & SUMF) && (x & ~SUMF) < 256) {
            key[n++] = (uint8_t)(c + 32);
            key[n++] = (uint8_t)x;
        } else {
            key[n++] = (uint8_t)c;
            memcpy(key + n, &x, 8);
            n += 8;
        }
    }
    int padded = (n + 7) & ~7;
    memset(key + n, 0, padded - n);
    return padded;
}

/* a slot: the entry's address (below 2^48 on the 64-bit machines this builds for) and, above it, the
 * top 16 bits of its hash, so that most slots of other states are passed over without a read */
#define ADDR_BITS 48
#define SLOT_ENTRY(s) ((Entry *)(uintptr_t)((s) & (((uint64_t)1 << ADDR_BITS) - 1)))

/* whether slot s holds the state of this key and hash (its 16 bits first: no read of another's entry) */
static int slot_holds(uint64_t s, const uint8_t *key, int klen, uint64_t h)
{
    const Entry *e = SLOT_ENTRY(s);
    return (s >> ADDR_BITS) == (h >> ADDR_BITS) && e->klen == (uint32_t)klen && !memcmp(e->key, key, klen);
}

/* A wait for another thread: 20 us asleep.  Spinning through sched_yield() instead, the threads
 * waiting for a grow() made the one growing the table 4 times slower on a 2-core KVM guest (the
 * project's machine): a table of a million states moved in 160 ms instead of 35. */
static void nap(void)
{
    struct timespec ts = {0, 20000};
    nanosleep(&ts, NULL);
}

/* A memo full to a half grows to GROWTH times its slots: every state is moved, while the other
 * threads wait, so fewer and larger steps (a quarter full after one) waste less of their time. */
#define GROWTH 4

/* A thread reads or claims a memo's slots only between enter() and leave(), and grow() changes the
 * slots only while no other thread is between them: each thread says where it is in its own flag,
 * the one growing says so in the table's (sequentially consistent, so that one of the two always
 * sees the other). */
static void enter(Ctx *K, Table *t)
{
    for (;;) {
        atomic_store(&K->inside, 1);
        if (!atomic_load(&t->resizing))
            return;
        atomic_store(&K->inside, 0);
        while (atomic_load(&t->resizing))
            nap();
    }
}

static void leave(Ctx *K) { atomic_store(&K->inside, 0); }

static void grow(Ctx *K, Table *t, size_t cap)
{
    int idle = 0;
    if (!atomic_compare_exchange_strong(&t->resizing, &idle, 1)) {
        while (atomic_load(&t->resizing))            /* another thread is at it */
            nap();
        return;
    }
    if (t->cap == cap) {                               /* not grown meanwhile */
        for (int i = 0; i < K->threads; i++)
            while (&K->all[i] != K && atomic_load(&K->all[i].inside))
                nap();
        size_t cap2 = GROWTH * cap;
        _Atomic uint64_t *slots = calloc(cap2, sizeof(uint64_t));
        if (!slots) {
            atomic_store(&t->resizing, 0);
            fail(K, ERR_MEMORY);
        }
        for (size_t i = 0; i < cap; i++) {
            uint64_t s = atomic_load_explicit(&t->slots[i], memory_order_relaxed);
            if (!s)
                continue;
            const Entry *e = SLOT_ENTRY(s);
            size_t j = hash_bytes(e->key, (int)e->klen) & (cap2 - 1);
            while (atomic_load_explicit(&slots[j], memory_order_relaxed))
                j = (j + 1) & (cap2 - 1);
            atomic_store_explicit(&slots[j], s, memory_order_relaxed);
        }
        free((void *)t->slots);
        t->slots = slots;
        t->cap = cap2;
        atomic_fetch_add(K->bytes, (cap2 - cap) * sizeof(uint64_t));
    }
    atomic_store(&t->resizing, 0);
}

static Entry *lookup(Ctx *K, Table *t, const uint8_t *key, int klen, uint64_t h)
{
    Entry *found = NULL;
    enter(K, t);
    size_t i = h & (t->cap - 1);
    for (;;) {
        uint64_t s = atomic_load_explicit(&t->slots[i], memory_order_acquire);
        if (!s)
            break;
        if (slot_holds(s, key, klen, h)) {
            found = SLOT_ENTRY(s);
            break;
        }
        i = (i + 1) & (t->cap - 1);
    }
    leave(K);
    return found;
}

static int table_init(Table *t, int nval)
{
    t->cap = (size_t)1 << 14;
    t->slots = calloc(t->cap, sizeof(uint64_t));
    if (!t->slots)
        return -1;
    atomic_store(&t->n, 0);
    atomic_store(&t->resizing, 0);
    t->nval = nval;
    return 0;
}

static void table_free(Table *t)
{
    free((void *)t->slots);
    t->slots = NULL;
    t->cap = 0;
    atomic_store(&t->n, 0);
}

/* Entries come from chunks of CHUNK bytes, or a sixteenth of the memory cap when that is smaller
 * (64 KiB at least): a small cap is not spent on one thread's first chunk. */
static void *arena(Ctx *K, size_t size, int wide)    /* 8-aligned; wide: 16-aligned */
{
    size = (size + 7) & ~(size_t)7;
    if (wide)
        K->chunk_used = (K->chunk_used + 15) & ~(size_t)15;
    if (!K->nchunks || K->chunk_used + size > K->chunk_cap) {
        size_t cap = CHUNK;
        if (K->max_bytes && K->max_bytes / 16 < cap)
            cap = K->max_bytes / 16 < MIN_CHUNK ? MIN_CHUNK : (K->max_bytes / 16) & ~(size_t)15;
        if (size > cap)
            fail(K, ERR_OVERFLOW);
        char **chunks = realloc(K->chunks, sizeof(char *) * (K->nchunks + 1));
        if (!chunks)
            fail(K, ERR_MEMORY);
        K->chunks = chunks;
        char *c = aligned_alloc(16, cap);
        if (!c)
            fail(K, ERR_MEMORY);
        K->chunks[K->nchunks++] = c;
        K->chunk_used = 0;
        K->chunk_cap = cap;
        atomic_fetch_add(K->bytes, cap);
    }
    void *p = K->chunks[K->nchunks - 1] + K->chunk_used;
    K->chunk_used += size;
    return p;
}

static void arena_free(Ctx *K)
{
    for (size_t i = 0; i < K->nchunks; i++)
        free(K->chunks[i]);
    free(K->chunks);
    K->chunks = NULL;
    K->nchunks = K->chunk_used = 0;
}

/* The entry of a state worked out: this thread's, or another's that stored it first (the same value). */
static Entry *insert(Ctx *K, Table *t, const uint8_t *key, int klen, uint64_t h, const u128 *val)
{
    int narrow = t->nval == NF, fits32 = narrow;
    uint32_t nonzero = 0;                               /* a narrow value keeps its non-zero fields alone */
    for (int i = 0; narrow && i < NF; i++) {
        narrow = !(uint64_t)(val[i] >> 64);
        fits32 &= !(val[i] >> 32);
        nonzero |= (uint32_t)(val[i] != 0) << i;
    }
    int width = !narrow ? 0 : fits32 ? 4 : 8;
    Entry *e = arena(K, entry_voff(klen, !width) + (width ? width * popc(nonzero) : 16 * t->nval), !width);
    e->klen = (uint32_t)klen;
    e->form = !width ? 0 : (width == 4 ? NARROW32 : NARROW64) | nonzero << 8;
    memcpy(e->key, key, klen);
    if (width == 4) {
        uint32_t *v = (uint32_t *)entry_val(e);
        for (uint32_t m = nonzero; m; m &= m - 1)
            *v++ = (uint32_t)val[__builtin_ctz(m)];
    } else if (width == 8) {
        uint64_t *v = (uint64_t *)entry_val(e);
        for (uint32_t m = nonzero; m; m &= m - 1)
            *v++ = (uint64_t)val[__builtin_ctz(m)];
    } else
        memcpy(entry_val(e), val, sizeof(u128) * t->nval);
    uint64_t addr = (uint64_t)(uintptr_t)e;
    if (addr >> ADDR_BITS)
        fail(K, ERR_OVERFLOW);
    uint64_t mine = addr | (h >> ADDR_BITS) << ADDR_BITS;
    for (;;) {
        enter(K, t);
        size_t cap = t->cap;
        if (2 * (atomic_load(&t->n) + 1) > cap) {
            leave(K);
            grow(K, t, cap);
            continue;
        }
        size_t i = h & (cap - 1);
        for (;;) {
            uint64_t s = atomic_load_explicit(&t->slots[i], memory_order_acquire);
            if (!s) {
                if (atomic_compare_exchange_strong_explicit(&t->slots[i], &s, mine, memory_order_acq_rel,
                                                            memory_order_acquire)) {
                    atomic_fetch_add(&t->n, 1);
                    leave(K);
                    return e;
                }                                       /* taken meanwhile: s is what took it */
            }
            if (slot_holds(s, key, klen, h)) {
                leave(K);
                return SLOT_ENTRY(s);
            }
            i = (i + 1) & (cap - 1);
        }
    }
}

static void chains_clear(Ctx *K);

#endif

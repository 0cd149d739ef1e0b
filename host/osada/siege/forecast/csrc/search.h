/* search.h -- the pattern search (search.py: Search.plain, Search._next_plain, search._live)
 *
 * Where search.py looks each child state up as it comes, this search first reduces and keys a
 * batch of a state's children, fetches their memo slots and entries together, then looks them
 * up: the cache misses overlap (1.2-1.3 times sooner on the slow turns; the same states and
 * integers). */

#ifndef OSADA_FASTCORE_SEARCH_H
#define OSADA_FASTCORE_SEARCH_H

/* A pattern: plen draws, bit i of pbits set where draw i is the pz2h ("P"). */

static const u128 *plain(Ctx *K, int board, const grp *g, const uint8_t *counts, int plen, int pbits,
                         int members, u128 *buf);

static inline int live_short(Ctx *K, const uint8_t *counts, int plen, int pbits, int h)   /* search._live */
{
    if (!pbits)
        return -1;
    int i = __builtin_ctz(pbits);                       /* the draws before it are all plain */
    Reach r;
    reach_of(K, counts, h - i, &r);
    if (r.outer_max >= 4)
        return -1;
    (void)plen;
    return (pbits & ((1 << i) - 1)) | ((pbits >> (i + 1)) << i);
}

#define KEYMAX (8 + 7 + PLAIN + 30 * 9 + 8)
#define BATCH 16               /* children whose memo slots are fetched together (plain: flush) */
#define KID_LEVELS 16          /* plain() levels with a batch of their own (a pattern has 15 draws at most) */

/* A child state waiting for its memo lookup: its key is made and its slot fetched ahead, so that
 * the cache misses of a batch of lookups overlap instead of coming one after another. */
typedef struct {
    uint64_t m;                /* its weight (the draws' counts times the die's faces: queued below 2^64) */
    int board, mem, klen;
    uint64_t hv;
    grp kept[30];
    uint8_t outc[PLAIN];
    uint8_t key[KEYMAX];
} Child;

static Entry *plain_entry(Ctx *K, int board, const grp *g, const uint8_t *counts, int plen, int pbits,
                          int members, const uint8_t *key, int klen, uint64_t hv);

static int make_plain_key(uint8_t *key, int board, const grp *g, const uint8_t *counts, int plen, int pbits,
                          int members)
{
    uint8_t head[4] = {(uint8_t)members, (uint8_t)plen, (uint8_t)(pbits & 255), (uint8_t)(pbits >> 8)};
    return make_key(key, board, head, 4, counts, PLAIN, g);
}

/* The batch's lookups: every slot read (each was fetched when its child was queued) and the
 * entry it points to fetched, then each looked up in turn (acc += m * its value). */
static void flush(Ctx *K, Child *jobs, int n, int rlen, int rbits, u128 *acc)
{
    Table *t = K->plain;
    enter(K, t);
    size_t mask = t->cap - 1;
    for (int i = 0; i < n; i++) {
        uint64_t sl = atomic_load_explicit(&t->slots[jobs[i].hv & mask], memory_order_relaxed);
        if (sl && (sl >> ADDR_BITS) == (jobs[i].hv >> ADDR_BITS)) {
            const uint8_t *e = (const uint8_t *)SLOT_ENTRY(sl);            /* its key and value, if it is this key */
            __builtin_prefetch(e);
            __builtin_prefetch(e + 64);
            __builtin_prefetch(e + 128);
        }
    }
    leave(K);
    for (int i = 0; i < n; i++) {
        Child *j = &jobs[i];
        Entry *e = plain_entry(K, j->board, j->kept, j->outc, rlen, rbits, j->mem, j->key, j->klen, j->hv);
        entry_addmul(acc, j->m, e);
    }
}

/* acc += m * the value after a move (Search._next_plain) */
static void next_plain(Ctx *K, int before, int board, const Opts *o, const uint8_t *counts, int rlen, int rbits,
                       int h, int q, int members, u128 dc, u128 m, u128 *acc, Child *jobs, int *njobs)
{
    int destroyed = before & ~board;
    if ((destroyed >> 12) && !((board >> 12) & K->lossmask)) {       /* R50, R62 */
        add_ind(acc, m * dc, destroyed, 1);
        return;
    }
    if (destroyed)
        add_ind(acc, m * dc, destroyed, 0);
    if (rlen < 2) {
        if (rlen == 1 && !rbits)
            last_draw(K, acc, m, board, o->opts, counts);
        return;
    }
    if (q) {
        int shortb = live_short(K, counts, rlen, rbits, h);
        if (shortb >= 0) {
            next_plain(K, board, board, o, counts, rlen - 1, shortb, h, q - 1, members, dc, 6 * m, acc, NULL, NULL);
            return;
        }
    }
    if (o->n == 1 && jobs && !(m >> 64)) {
        Child *j = &jobs[*njobs];
        j->m = (uint64_t)m;
        j->board = board;
        j->mem = reduce_state(K, board, o->opts, counts, h, members, q, j->kept, j->outc);
        j->klen = make_plain_key(j->key, board, j->kept, j->outc, rlen, rbits, j->mem);
        j->hv = hash_bytes(j->key, j->klen);
        {                                               /* its slot fetched now, read in flush() */
            const Table *t = K->plain;
            const _Atomic uint64_t *slots = __atomic_load_n(&t->slots, __ATOMIC_RELAXED);   /* a hint: */
            size_t cap = __atomic_load_n(&t->cap, __ATOMIC_RELAXED);    /* a table grown meanwhile */
            __builtin_prefetch((const void *)&slots[j->hv & (cap - 1)]);   /* costs a miss, no more */
        }
        if (++*njobs == BATCH) {
            flush(K, jobs, BATCH, rlen, rbits, acc);
            *njobs = 0;
        }
        return;
    }
    grp kept[30], alt[30];
    uint8_t outc[PLAIN], altc[PLAIN];
    u128 buf[NF], buf2[NF];
    int mem = reduce_state(K, board, o->opts, counts, h, members, q, kept, outc);
    const u128 *v = plain(K, board, kept, outc, rlen, rbits, mem, buf);
    for (int i = 1; i < o->n; i++) {
        int mem2 = reduce_state(K, board, o->opts + 30 * i, counts, h, members, q, alt, altc);
        if (mem2 == mem && !memcmp(alt, kept, sizeof kept) && !memcmp(altc, outc, PLAIN))
            continue;
        const u128 *v2 = plain(K, board, alt, altc, rlen, rbits, mem2, buf2);
        if (memcmp(v, v2, sizeof(u128) * NF))
            fail(K, ERR_CHOICE);                       /* R25: the choice changes a target */
    }
    vaddmul(acc, m, v);
}

/* The value of a reduced state whose draws to come are the pattern: the
 * memo's entry, or buf for a single draw (not kept: cheaper than a lookup). */
static const u128 *plain(Ctx *K, int board, const grp *g, const uint8_t *counts, int plen, int pbits,
                         int members, u128 *buf)
{
    if (plen == 1) {
        vzero(buf);
        if (!pbits)
            last_draw(K, buf, 1, board, g, counts);     /* "N" */
        return buf;                                     /* "P": nothing after it */
    }
    uint8_t key[KEYMAX];
    int klen = make_plain_key(key, board, g, counts, plen, pbits, members);
    return entry_get(plain_entry(K, board, g, counts, plen, pbits, members, key, klen, hash_bytes(key, klen)), buf);
}

/* The memo's entry of a state (found, or worked out and stored), its key made. */
static Entry *plain_entry(Ctx *K, int board, const grp *g, const uint8_t *counts, int plen, int pbits,
                          int members, const uint8_t *key, int klen, uint64_t hv)
{
    Entry *e = lookup(K, K->plain, key, klen, hv);
    if (e)
        return e;
    tick(K);
    int rlen = plen - 1, rbits = pbits >> 1;
    int q = popc(rbits), h = rlen - q;
    u128 acc[NF];
    vzero(acc);
    size_t sp0 = K->sp;
    Eff eff[12];
    Child *jobs = K->kdepth < KID_LEVELS ? (Child *)K->kids + (size_t)BATCH * K->kdepth : NULL;
    int njobs = 0;
    K->kdepth++;
    int n = 0;
    for (int k = 0; k < PLAIN; k++)
        n += counts[k];
    if (!(pbits & 1)) {                                 /* "N" first */
        u128 dc = falling(n - 1, h) * pow6(h + q);
        uint8_t after[PLAIN];
        memcpy(after, counts, PLAIN);
        for (int i = 0; i < PLAIN; i++) {
            int k = ordered(K, i, PLAIN);               /* each thread its own way round (module.c) */
            int cnt = counts[k];
            if (!cnt)
                continue;
            after[k]--;
            int ne = effects(K, k, board, g, members, after, h, eff);
            for (int i2 = 0; i2 < ne; i2++) {
                int j = ordered(K, i2, ne);
                next_plain(K, board, eff[j].board, &eff[j].o, after, rlen, rbits, h, q, members, dc,
                           (u128)(cnt * eff[j].weight), acc, jobs, &njobs);
            }
            after[k]++;
            K->sp = sp0;
        }
    } else {                                            /* "P": the pz2h (R32) */
        u128 dc = falling(n, h) * pow6(h + q);
        int ne = placed(K, PZ2H, board, g, members, counts, h, eff);
        for (int i2 = 0; i2 < ne; i2++) {
            int j = ordered(K, i2, ne);
            next_plain(K, board, eff[j].board, &eff[j].o, counts, rlen, rbits, h, q, members, dc,
                       (u128)eff[j].weight, acc, jobs, &njobs);
        }
        K->sp = sp0;
    }
    if (njobs)
        flush(K, jobs, njobs, rlen, rbits, acc);
    K->kdepth--;
    return insert(K, K->plain, key, klen, hv, acc);
}

#endif

/* chains.h -- the chain of reveals (chains.py): which draws are the extenders, as
 * patterns of plain draws ("N") and the pz2h ("P") with exact integer weights.
 * A pattern is (len, bits): bit i set where draw i is the pz2h. */

#ifndef OSADA_FASTCORE_CHAINS_H
#define OSADA_FASTCORE_CHAINS_H

#define EXT_PZ2H 13
#define EXT_R3 14
#define EXT_R4 15
#define NKINDS 16

typedef struct { int len, bits, t, cut; u128 c; } Skel;            /* chains._skeletons' entries */
typedef struct { int len, bits; u128 coef, uncut, mass; } Pat;     /* chains.patterns' entries */
typedef struct { int n, cap; void *v; } List;

typedef struct ChainNode {
    uint64_t key;
    int kind;                      /* 0: skeletons, 1: patterns */
    int done;                      /* worked out (a search stopped halfway leaves it to do again) */
    List list;
    struct ChainNode *next;
} ChainNode;

#define CHAIN_BUCKETS 1024

static void *list_push(Ctx *K, List *l, size_t size)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 8;
        void *v = realloc(l->v, size * cap);
        if (!v)
            fail(K, ERR_MEMORY);
        l->v = v;
        l->cap = cap;
    }
    return (char *)l->v + size * l->n++;
}

static ChainNode *chain_memo(Ctx *K, uint64_t key, int kind)
{
    if (!K->chains) {
        K->chains = calloc(CHAIN_BUCKETS, sizeof(ChainNode *));
        if (!K->chains)
            fail(K, ERR_MEMORY);
    }
    ChainNode **b = (ChainNode **)K->chains + ((key * 0x9e3779b97f4a7c15ULL) >> 54) % CHAIN_BUCKETS;
    for (ChainNode *n = *b; n; n = n->next)
        if (n->key == key && n->kind == kind) {
            if (!n->done)
                n->list.n = 0;
            return n;
        }
    ChainNode *n = calloc(1, sizeof(ChainNode));
    if (!n)
        fail(K, ERR_MEMORY);
    n->key = key;
    n->kind = kind;
    n->next = *b;
    *b = n;
    return n;
}

static void chains_clear(Ctx *K)
{
    if (!K->chains)
        return;
    for (int i = 0; i < CHAIN_BUCKETS; i++) {
        ChainNode *n = ((ChainNode **)K->chains)[i];
        while (n) {
            ChainNode *next = n->next;
            free(n->list.v);
            free(n);
            n = next;
        }
    }
    free(K->chains);
    K->chains = NULL;
}

static uint64_t chain_key(int due, int p, int r3, int r4, int plain, int cut)
{
    return (uint64_t)(due & 255) | (uint64_t)p << 8 | (uint64_t)r3 << 16 | (uint64_t)r4 << 24
           | (uint64_t)plain << 32 | (uint64_t)(cut + 1) << 48;
}

static void skel_add(Ctx *K, List *out, int len, int bits, int t, int cut, u128 c)
{
    Skel *v = (Skel *)out->v;
    for (int i = 0; i < out->n; i++)
        if (v[i].len == len && v[i].bits == bits && v[i].t == t && v[i].cut == cut) {
            v[i].c += c;
            return;
        }
    Skel *s = list_push(K, out, sizeof(Skel));
    s->len = len;
    s->bits = bits;
    s->t = t;
    s->cut = cut;
    s->c = c;
}

/* chains._skeletons: {(pattern, tokens drawn, cut?): the extender counts' product}; cut -1: none */
static const List *skeletons(Ctx *K, int due, int p, int r3, int r4, int plain, int cut)
{
    ChainNode *node = chain_memo(K, chain_key(due, p, r3, r4, plain, cut), 0);
    List *out = &node->list;
    if (node->done)
        return out;
    if (due <= 0 || plain + p + r3 + r4 == 0) {
        skel_add(K, out, 0, 0, 0, 0, 1);
        node->done = 1;
        return out;
    }
    List mine = {0, 0, NULL};                            /* built apart: a recursive call may grow the memo */
    if (plain) {
        const List *sub = skeletons(K, due - 1, p, r3, r4, plain - 1, cut);
        for (int i = 0; i < sub->n; i++) {
            Skel e = ((Skel *)sub->v)[i];
            skel_add(K, &mine, e.len + 1, e.bits << 1, e.t + 1, e.cut, e.c);
        }
    }
    int counts[3] = {p, r3, r4}, extra[3] = {3, 3, 4};
    for (int x = 0; x < 3; x++) {
        if (!counts[x])
            continue;
        if (cut == 0) {                                  /* F11: the chain is cut here */
            skel_add(K, &mine, 0, 0, 1, 1, (u128)counts[x]);
            continue;
        }
        const List *sub = skeletons(K, due - 1 + extra[x], p - (x == 0), r3 - (x == 1), r4 - (x == 2), plain,
                                    cut < 0 ? -1 : cut - 1);
        for (int i = 0; i < sub->n; i++) {
            Skel e = ((Skel *)sub->v)[i];
            if (x == 0)
                skel_add(K, &mine, e.len + 1, (e.bits << 1) | 1, e.t + 1, e.cut, e.c * (u128)counts[x]);
            else
                skel_add(K, &mine, e.len, e.bits, e.t + 1, e.cut, e.c * (u128)counts[x]);
        }
    }
    free(out->v);
    *out = mine;
    node->done = 1;
    return out;
}

/* chains.live: the pattern without every pz2h that fewer than 4 plain draws follow */
static int live_pattern(int *len, int *bits)
{
    int after = 0, dropped = 0, out = 0, n = 0;
    for (int i = *len - 1; i >= 0; i--) {
        if (!((*bits >> i) & 1))
            after++;
        else if (after < 4) {
            dropped++;
            continue;
        }
        out = (out << 1) | ((*bits >> i) & 1);            /* from the end: the first draw ends in bit 0 */
        n++;
    }
    *len = n;
    *bits = out;
    return dropped;
}

/* chains.patterns: [(pattern, coefficient, uncut coefficient, cut mass)] over den(n, m) */
static const List *patterns(Ctx *K, int due, int p, int r3, int r4, int plain, int cut)
{
    ChainNode *node = chain_memo(K, chain_key(due, p, r3, r4, plain, cut), 1);
    List *out = &node->list;
    if (node->done)
        return out;
    int n = plain + p + r3 + r4, m = due + 3 * p + 3 * r3 + 4 * r4;
    if (m > n)
        m = n;
    const List *sk = skeletons(K, due, p, r3, r4, plain, cut);
    List mine = {0, 0, NULL};
    for (int i = 0; i < sk->n; i++) {
        Skel e = ((Skel *)sk->v)[i];
        int q = popc(e.bits), h = e.len - q;
        u128 coef = e.c * falling(n - e.t, m - e.t) * pow6(m - h - q);
        u128 mass = e.cut ? coef * falling(plain, h) * pow6(h + q) : 0;
        int len = e.len, bits = e.bits;
        coef *= pow6(live_pattern(&len, &bits));
        u128 whole = e.cut ? 0 : coef;
        Pat *pt = NULL;
        for (int j = 0; j < mine.n; j++)
            if (((Pat *)mine.v)[j].len == len && ((Pat *)mine.v)[j].bits == bits)
                pt = (Pat *)mine.v + j;
        if (!pt) {
            pt = list_push(K, &mine, sizeof(Pat));
            pt->len = len;
            pt->bits = bits;
            pt->coef = pt->uncut = pt->mass = 0;
        }
        pt->coef += coef;
        pt->uncut += whole;
        pt->mass += mass;
    }
    free(out->v);
    *out = mine;
    node->done = 1;
    return out;
}

#endif

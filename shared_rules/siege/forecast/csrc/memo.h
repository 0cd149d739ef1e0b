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

static int make_key(uint8_t *key, int board, const grp *g, const uint8_t *counts, int plen, int pbits, int members)
{
    int n = 0;
    key[n++] = board & 255;
    key[n++] = (board >> 8) & 255;
    key[n++] = (board >> 16) & 255;
    key[n++] = (uint8_t)members;
    key[n++] = (uint8_t)plen;
    key[n++] = pbits & 255;
    key[n++] = (pbits >> 8) & 255;
    memcpy(key + n, counts, PLAIN);
    n += PLAIN;
    for (int c = 0; c < 30; c++)
        if (g[c]) {
            key[n++] = (uint8_t)c;
            memcpy(key + n, &g[c], 8);
            n += 8;
        }
    int padded = (n + 7) & ~7;
    memset(key + n, 0, padded - n);
    return padded;
}

static Entry *lookup(Table *t, const uint8_t *key, int klen, uint64_t h)
{
    if (!t->cap)
        return NULL;
    size_t i = h & (t->cap - 1);
    for (;;) {
        Slot *sl = &t->slots[i];
        if (!sl->e)
            return NULL;
        if (sl->hash == h && sl->e->klen == (uint32_t)klen && !memcmp(sl->e->key, key, klen))
            return sl->e;
        i = (i + 1) & (t->cap - 1);
    }
}

static void *arena(Core *K, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    if (size > CHUNK)
        fail(K, ERR_OVERFLOW);
    if (!K->nchunks || K->chunk_used + size > CHUNK) {
        char **chunks = realloc(K->chunks, sizeof(char *) * (K->nchunks + 1));
        if (!chunks)
            fail(K, ERR_MEMORY);
        K->chunks = chunks;
        char *c = aligned_alloc(16, CHUNK);
        if (!c)
            fail(K, ERR_MEMORY);
        K->chunks[K->nchunks++] = c;
        K->chunk_used = 0;
    }
    void *p = K->chunks[K->nchunks - 1] + K->chunk_used;
    K->chunk_used += size;
    return p;
}

static Entry *insert(Core *K, Table *t, const uint8_t *key, int klen, uint64_t h, const u128 *val)
{
    if (2 * (t->n + 1) > t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 1 << 12;
        Slot *slots = calloc(cap, sizeof(Slot));
        if (!slots)
            fail(K, ERR_MEMORY);
        for (size_t i = 0; i < t->cap; i++) {
            if (!t->slots[i].e)
                continue;
            size_t j = t->slots[i].hash & (cap - 1);
            while (slots[j].e)
                j = (j + 1) & (cap - 1);
            slots[j] = t->slots[i];
        }
        free(t->slots);
        t->slots = slots;
        t->cap = cap;
    }
    Entry *e = arena(K, sizeof(Entry) + ((klen + 15) & ~15) + sizeof(u128) * t->nval);
    e->hash = h;
    e->klen = (uint32_t)klen;
    memcpy(e->key, key, klen);
    memcpy(entry_val(e), val, sizeof(u128) * t->nval);
    size_t i = h & (t->cap - 1);
    while (t->slots[i].e)
        i = (i + 1) & (t->cap - 1);
    t->slots[i].hash = h;
    t->slots[i].e = e;
    t->n++;
    return e;
}

static void chains_clear(Core *K);

static void clear_memo(Core *K)
{
    for (size_t i = 0; i < K->nchunks; i++)
        free(K->chunks[i]);
    free(K->chunks);
    free(K->plain.slots);
    free(K->draw.slots);
    K->chunks = NULL;
    K->plain.slots = K->draw.slots = NULL;
    K->nchunks = K->chunk_used = 0;
    K->plain.cap = K->plain.n = K->draw.cap = K->draw.n = 0;
    chains_clear(K);
}

#endif

/* drawing.h -- draw by draw, as the table sees it (search.py: Search.drawing,
 * _by_patterns, _by_draws, _next_draw): the patterns first; where a damage
 * choice can matter (a panther in the pool, R25) one token drawn at a time,
 * and a choice node takes, field by field, the largest (worst) and the
 * smallest (best) value of its options (F5, F6).  A value here has NW fields:
 * search.py's 21 (targets, L, E, U: the mass of the chains cut, F11), then
 * the same 21 counting only the chains not cut. */

#ifndef OSADA_FASTCORE_DRAWING_H
#define OSADA_FASTCORE_DRAWING_H

#define U_FIELD 20
#define WHOLE 21
#define NW 42

static const int EXTRA_OF[NKINDS] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 3, 4};

static void draw_value(Ctx *K, int board, const grp *g, const uint8_t *counts, int due, int members, int cut,
                       u128 *worst, u128 *best);

/* reduce() of a state with the whole pool (16 kinds): the extenders pass through */
static int reduce_whole(Ctx *K, int board, const grp *g, const uint8_t *counts, int h, int members, grp *kept,
                        uint8_t *outc)
{
    int mem = reduce_state(K, board, g, counts, h, members, counts[EXT_PZ2H], kept, outc);
    memcpy(outc + PLAIN, counts + PLAIN, NKINDS - PLAIN);
    return mem;
}

static int plain_bound(int due, int p, int r3, int r4, int plain)     /* chains.plain_bound */
{
    return imin(plain, due + 2 * p + 2 * r3 + 3 * r4);
}

/* Search._by_patterns: the value with no damage choice that matters; ERR_CHOICE where one does */
static void by_patterns(Ctx *K, int board, const grp *g, const uint8_t *counts, int due, int members, int cut,
                        u128 *acc)
{
    int nplain = 0;
    for (int k = 0; k < PLAIN; k++)
        nplain += counts[k];
    const List *pats = patterns(K, due, counts[EXT_PZ2H], counts[EXT_R3], counts[EXT_R4], nplain, cut);
    memset(acc, 0, sizeof(u128) * NW);
    for (int i2 = 0; i2 < pats->n; i2++) {
        Pat pt = ((const Pat *)pats->v)[ordered(K, i2, pats->n)];
        acc[U_FIELD] += pt.mass;
        if (!pt.len)
            continue;
        int len = pt.len, bits = pt.bits, h = len - popc(bits);
        int shortb = live_short(K, counts, len, bits, h);
        if (shortb >= 0) {
            len--;
            bits = shortb;
            pt.coef *= 6;
            pt.uncut *= 6;
        }
        grp kept[30];
        uint8_t outc[PLAIN];
        u128 buf[NF];
        int mem = reduce_state(K, board, g, counts, h, members, len - h, kept, outc);
        const u128 *v = plain(K, board, kept, outc, len, bits, mem, buf);
        for (int f = 0; f < NF; f++) {
            acc[f] += pt.coef * v[f];
            if (cut >= 0)
                acc[WHOLE + f] += pt.uncut * v[f];
        }
    }
}

/* Search.whole_part: the part not cut of what a move destroyed, into the fields 21-41 of v */
static void whole_part(int destroyed, u128 dc, u128 *v)
{
    u128 m = dc - v[U_FIELD];
    add_ind(v + WHOLE, m, destroyed, 0);
}

/* Search._next_draw: (worst, best) after a move, over dc; the move's options are a choice node */
static void next_draw(Ctx *K, int before, int board, const Opts *o, const uint8_t *counts, int due, int h,
                      int members, int cut, u128 dc, u128 *worst, u128 *best)
{
    int destroyed = before & ~board;
    memset(worst, 0, sizeof(u128) * NW);
    memset(best, 0, sizeof(u128) * NW);
    if ((destroyed >> 12) && !((board >> 12) & K->lossmask)) {      /* R50, R62 */
        add_ind(worst, dc, destroyed, 1);
        if (cut >= 0)
            add_ind(worst + WHOLE, dc, destroyed, 1);
        memcpy(best, worst, sizeof(u128) * NW);
        return;
    }
    /* each option reduced (Search._next_draw's `seen`): its 30 groups, then 3 words holding its 16 counts and
     * its members flag; an option reduced to one met before is the same option */
    grp *seen = salloc(K, (size_t)33 * o->n);
    int nseen = 0, first = 1;
    for (int i = 0; i < o->n; i++) {
        grp *kept = seen + 33 * nseen;
        uint8_t *outc = (uint8_t *)(kept + 30);
        memset(outc, 0, 24);
        int mem = reduce_whole(K, board, o->opts + 30 * i, counts, h, members, kept, outc);
        outc[NKINDS] = (uint8_t)mem;
        int dup = 0;
        for (int j = 0; j < nseen && !dup; j++)
            dup = !memcmp(seen + 33 * j, kept, sizeof(grp) * 33);
        if (dup)
            continue;
        nseen++;
        u128 w[NW], b[NW];
        draw_value(K, board, kept, outc, due, mem, cut, w, b);
        if (cut >= 0 && destroyed) {
            whole_part(destroyed, dc, w);
            whole_part(destroyed, dc, b);
        }
        if (destroyed) {
            add_ind(w, dc, destroyed, 0);
            add_ind(b, dc, destroyed, 0);
        }
        for (int f = 0; f < NW; f++) {                     /* Search.extremes */
            if (first || w[f] > worst[f])
                worst[f] = w[f];
            if (first || b[f] < best[f])
                best[f] = b[f];
        }
        first = 0;
    }
}

/* Search._by_draws: one token drawn, each kind weighted by its count */
static void by_draws(Ctx *K, int board, const grp *g, const uint8_t *counts, int due, int members, int cut,
                     u128 *worst, u128 *best)
{
    int n = 0;
    for (int k = 0; k < NKINDS; k++)
        n += counts[k];
    int p = counts[EXT_PZ2H], r3 = counts[EXT_R3], r4 = counts[EXT_R4];
    int m = imin(n, due + 3 * p + 3 * r3 + 4 * r4);
    u128 dc = falling(n - 1, m - 1) * pow6(m - 1);
    memset(worst, 0, sizeof(u128) * NW);
    memset(best, 0, sizeof(u128) * NW);
    uint8_t after[NKINDS];
    memcpy(after, counts, NKINDS);
    size_t sp0 = K->sp;
    Eff eff[12];
    for (int i = 0; i < NKINDS; i++) {
        int k = ordered(K, i, NKINDS);
        int cnt = counts[k];
        if (!cnt)
            continue;
        after[k]--;
        int due2 = due - 1 + EXTRA_OF[k];
        if (EXTRA_OF[k] && cut == 0) {                      /* F11: cut here */
            worst[U_FIELD] += (u128)cnt * 6 * dc;
            best[U_FIELD] += (u128)cnt * 6 * dc;
            after[k]++;
            continue;
        }
        int cut2 = EXTRA_OF[k] && cut >= 0 ? cut - 1 : cut;
        int nplain = 0;
        for (int j = 0; j < PLAIN; j++)
            nplain += after[j];
        int h2 = plain_bound(due2, after[EXT_PZ2H], after[EXT_R3], after[EXT_R4], nplain);
        int ne;
        if (k == EXT_R3 || k == EXT_R4)
            ne = effects(K, BLANK, board, g, members, after, h2, eff);
        else if (k == EXT_PZ2H)
            ne = placed(K, PZ2H, board, g, members, after, h2, eff);
        else
            ne = effects(K, k, board, g, members, after, h2, eff);
        for (int j = 0; j < ne; j++) {
            u128 w[NW], b[NW];
            next_draw(K, board, eff[j].board, &eff[j].o, after, due2, h2, members, cut2, dc, w, b);
            u128 x = (u128)cnt * eff[j].weight;
            for (int f = 0; f < NW; f++) {
                worst[f] += x * w[f];
                best[f] += x * b[f];
            }
        }
        after[k]++;
        K->sp = sp0;
    }
}

/* Search.drawing: (worst, best) of a reduced state with `due` reveals left and the whole pool */
static void draw_value(Ctx *K, int board, const grp *g, const uint8_t *counts, int due, int members, int cut,
                       u128 *worst, u128 *best)
{
    int n = 0;
    for (int k = 0; k < NKINDS; k++)
        n += counts[k];
    if (due <= 0 || !n) {
        memset(worst, 0, sizeof(u128) * NW);
        memset(best, 0, sizeof(u128) * NW);
        return;
    }
    uint8_t key[8 + 6 + NKINDS + 30 * 9 + 8];
    uint8_t head[3] = {(uint8_t)members, (uint8_t)due, (uint8_t)(cut + 1)};
    int klen = make_key(key, board, head, 3, counts, NKINDS, g);
    uint64_t hv = hash_bytes(key, klen);
    Entry *e = lookup(K, K->draw, key, klen, hv);
    if (e) {
        memcpy(worst, entry_val(e), sizeof(u128) * NW);
        memcpy(best, entry_val(e) + NW, sizeof(u128) * NW);
        return;
    }
    tick(K);
    u128 val[2 * NW];
    jmp_buf outer;
    memcpy(outer, K->jb, sizeof(jmp_buf));
    size_t sp0 = K->sp;
    int err = setjmp(K->jb);
    if (!err) {
        by_patterns(K, board, g, counts, due, members, cut, val);
        memcpy(K->jb, outer, sizeof(jmp_buf));
        memcpy(val + NW, val, sizeof(u128) * NW);
    } else {
        memcpy(K->jb, outer, sizeof(jmp_buf));
        K->sp = sp0;
        if (err != ERR_CHOICE)
            fail(K, err);
        by_draws(K, board, g, counts, due, members, cut, val, val + NW);  /* a choice matters: draw by draw */
    }
    insert(K, K->draw, key, klen, hv, val);
    memcpy(worst, val, sizeof(u128) * NW);
    memcpy(best, val + NW, sizeof(u128) * NW);
}

#endif

/* moves.h -- what the enemy phase does to the board and the groups (model.py: R20-R42) */

#ifndef OSADA_FASTCORE_MOVES_H
#define OSADA_FASTCORE_MOVES_H

/* A move's outcomes: `n` groups arrays of 30 cells (one per way of dealing
 * its damage, R25) on the scratch stack, and the board after it. */

typedef struct { int n; grp *opts; } Opts;

static Opts deal(Ctx *K, const grp *base, const int *hurt_c, const grp *hurt_g, int nh)   /* model._deal */
{
    Opts o;
    grp *first = salloc(K, 30);
    memcpy(first, base, sizeof(grp) * 30);
    o.opts = first;
    o.n = 1;
    if (!nh)
        return o;
    int all_sums = 1;
    for (int i = 0; i < nh; i++)
        if (!(hurt_g[i] & SUMF))
            all_sums = 0;
    if (all_sums) {
        for (int i = 0; i < nh; i++) {
            int a = total(hurt_g[i]);
            if (a > 1)
                first[hurt_c[i]] = merge(K, first[hurt_c[i]], sum_of(a - 1));
        }
        return o;
    }
    for (int i = 0; i < nh; i++) {
        grp options[MAXMEM + 1];
        int k = damaged(hurt_g[i], options);
        if (o.n * k > MAXOPT)
            fail(K, ERR_OVERFLOW);
        grp *next = salloc(K, (size_t)30 * o.n * k);
        int m = 0;
        for (int r = 0; r < o.n; r++)
            for (int j = 0; j < k; j++) {
                grp *dst = next + 30 * m++;
                memcpy(dst, o.opts + 30 * r, sizeof(grp) * 30);
                if (options[j])
                    dst[hurt_c[i]] = merge(K, dst[hurt_c[i]], options[j]);
            }
        memmove(o.opts, next, sizeof(grp) * 30 * m);  /* down over the last results */
        K->sp = (size_t)(o.opts - K->scr) + (size_t)30 * m;
        o.n = m;
    }
    return o;
}

static Opts step(Ctx *K, int board, const grp *g, int sectors, int *nb)   /* model.step, R20-R25 */
{
    int walls = board & 63, dots = (board >> 6) & 63, blds = board >> 12;
    grp base[30] = {0}, enter[6] = {0}, hurt_g[12];
    int hurt_c[12], nh = 0;
    for (uint32_t occ = occupied(g); occ; occ &= occ - 1) {       /* the cells in order, as model.step */
        int c = __builtin_ctz(occ);
        int s = c % 6;
        if (!((sectors >> s) & 1))
            base[c] = merge(K, base[c], g[c]);
        else if (c < 18)
            base[c + 6] = merge(K, base[c + 6], g[c]);
        else if (c < 24) {
            int bit = 1 << s;
            if (walls & bit) {                         /* R21 */
                if (dots & bit)
                    dots ^= bit;
                else
                    walls ^= bit;
                hurt_c[nh] = c;
                hurt_g[nh++] = g[c];
            } else
                enter[s] = merge(K, enter[s], g[c]);   /* R22 */
        } else {
            int s2 = s < 5 ? s + 1 : 0;
            enter[s2] = merge(K, enter[s2], g[c]);
        }
    }
    for (int s = 0; s < 6; s++) {
        if (!enter[s])
            continue;
        if ((blds >> s) & 1) {                         /* R23 */
            blds ^= 1 << s;
            hurt_c[nh] = 24 + s;
            hurt_g[nh++] = enter[s];
        } else
            base[24 + s] = merge(K, base[24 + s], enter[s]);
    }
    *nb = walls | dots << 6 | blds << 12;
    return deal(K, base, hurt_c, hurt_g, nh);
}

static Opts rotate(Ctx *K, int board, const grp *g, int d, int *nb)   /* model.rotate, R26 */
{
    int blds = board >> 12;
    grp base[30] = {0}, hurt_g[6];
    int hurt_c[6], nh = 0;
    for (uint32_t occ = occupied(g); occ; occ &= occ - 1) {
        int c = __builtin_ctz(occ);
        int s = c % 6, s2 = (s + d) % 6, c2 = c - s + s2;
        if (c >= 24 && ((blds >> s2) & 1)) {
            blds ^= 1 << s2;
            hurt_c[nh] = c2;
            hurt_g[nh++] = g[c];
        } else
            base[c2] = g[c];
    }
    *nb = (board & 07777) | blds << 12;
    return deal(K, base, hurt_c, hurt_g, nh);
}

static int bomb(int board, grp *out, int s)         /* model.bomb, R40-R42 (out: the groups, changed in place) */
{
    int o = (s + 3) % 6;
    int walls = board & 63, dots = (board >> 6) & 63, blds = board >> 12;
    if (out)
        for (int line = 0; line < 4; line++)
            out[line * 6 + s] = 0;
    int bit = 1 << s, obit = 1 << o;
    if (walls & bit) {
        if (dots & bit)
            dots ^= bit;
        else
            walls ^= bit;
    } else if (blds & bit)
        blds ^= bit;
    else {
        if (out)
            out[24 + s] = 0;
        if (blds & obit)
            blds ^= obit;
        else {
            if (out)
                out[24 + o] = 0;
            if (walls & obit) {
                if (dots & obit)
                    dots ^= obit;
                else
                    walls ^= obit;
            } else if (out)
                for (int line = 0; line < 4; line++)
                    out[line * 6 + o] = 0;
        }
    }
    return walls | dots << 6 | blds << 12;
}

/* cells: the occupied cells of the tank line and the city, bit c - 18 */
static int hit_board(int board, int cells, int sectors)   /* model.hit_board */
{
    int walls = board & 63, dots = (board >> 6) & 63, blds = board >> 12;
    while (cells) {
        int c = 18 + __builtin_ctz(cells);
        cells &= cells - 1;
        int s = c % 6;
        if (!((sectors >> s) & 1))
            continue;
        int bit = 1 << s;
        if (c < 24) {
            if (walls & bit) {
                if (dots & bit)
                    dots ^= bit;
                else
                    walls ^= bit;
            } else
                blds &= ~bit;
        } else
            blds &= ~(1 << (s < 5 ? s + 1 : 0));
    }
    return walls | dots << 6 | blds << 12;
}

static int rotate_board(int board, int cells, int d)      /* model.rotate_board */
{
    int blds = board >> 12;
    for (int c = 24; c < 30; c++)
        if ((cells >> (c - 18)) & 1)
            blds &= ~(1 << ((c + d) % 6));
    return (board & 07777) | blds << 12;
}

static void place(Ctx *K, const grp *g, grp *out, int kind, int s, int members)   /* model.place (cap 9) */
{
    memcpy(out, g, sizeof(grp) * 30);
    int full = K->full[kind];
    grp old = out[s];
    if (members && !(old & SUMF)) {
        int c[MAXMEM + 1], n = old ? mcount(old) : 0;
        if (n >= MAXMEM)
            fail(K, ERR_OVERFLOW);
        for (int i = 0; i < n; i++)
            c[i] = mcode(old, i);
        c[n++] = full * 4 + full;
        sort_codes(c, n);
        out[s] = mbuild(c, n);
    } else
        out[s] = sum_of(total(old) + full);
}

#endif

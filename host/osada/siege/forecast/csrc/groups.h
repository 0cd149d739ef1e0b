/* groups.h -- a cell's enemies as one 64-bit word: a sum, or its members (model.py) */

#ifndef OSADA_FASTCORE_GROUPS_H
#define OSADA_FASTCORE_GROUPS_H

/* A member group: its members' codes (armor * 4 + full armor, 4..15) in
 * nibbles, sorted ascending from bit 0, their count in bits 56-59. */

static inline int mcount(grp g) { return (int)((g >> CNT_SHIFT) & 15); }
static inline int mcode(grp g, int i) { return (int)((g >> (4 * i)) & 15); }

static grp mbuild(const int *codes, int n)
{
    grp g = (grp)n << CNT_SHIFT;
    for (int i = 0; i < n; i++)
        g |= (grp)codes[i] << (4 * i);
    return n ? g : 0;
}

static void sort_codes(int *c, int n)
{
    for (int i = 1; i < n; i++) {
        int x = c[i], j = i - 1;
        while (j >= 0 && c[j] > x) {
            c[j + 1] = c[j];
            j--;
        }
        c[j + 1] = x;
    }
}

static inline int total(grp g)                      /* model.total_armor */
{
    if (g & SUMF)
        return (int)(g & 0xffffffff);
    int t = 0, n = mcount(g);
    for (int i = 0; i < n; i++)
        t += mcode(g, i) >> 2;
    return t;
}

static inline grp sum_of(int armor) { return armor > 0 ? (SUMF | (grp)armor) : 0; }

static grp merge(Ctx *K, grp a, grp b)             /* model._merge */
{
    if (!a)
        return b;
    if (!b)
        return a;
    if ((a & SUMF) || (b & SUMF))
        return SUMF | (grp)(total(a) + total(b));
    int na = mcount(a), nb = mcount(b);
    if (na + nb > MAXMEM)
        fail(K, ERR_OVERFLOW);
    int c[2 * MAXMEM];
    for (int i = 0; i < na; i++)
        c[i] = mcode(a, i);
    for (int i = 0; i < nb; i++)
        c[na + i] = mcode(b, i);
    sort_codes(c, na + nb);
    return mbuild(c, na + nb);
}

static int damaged(grp g, grp *out)                 /* model._damaged: 0 for a group that is gone */
{
    if (g & SUMF) {
        out[0] = sum_of(total(g) - 1);
        return 1;
    }
    int n = mcount(g), k = 0;
    for (int i = 0; i < n; i++) {
        int c = mcode(g, i);
        if (i && c == mcode(g, i - 1))
            continue;                                  /* alike members: the same outcome */
        int rest[MAXMEM], m = 0;
        for (int j = 0; j < n; j++)
            if (j != i)
                rest[m++] = mcode(g, j);
        if (c >= 8) {
            rest[m++] = c - 4;
            sort_codes(rest, m);
        }
        out[k++] = mbuild(rest, m);
    }
    return k;
}

static grp repaired_group(grp g)                    /* model.repaired, one group */
{
    if (!g || (g & SUMF))
        return g;
    int n = mcount(g), c[MAXMEM];
    for (int i = 0; i < n; i++) {
        int m = mcode(g, i);
        c[i] = (m >> 2) < (m & 3) ? m + 4 : m;
    }
    sort_codes(c, n);
    return mbuild(c, n);
}

/* The occupied cells of a groups array, bit c (without a branch per cell: the cells' pattern is
 * random, a branch on each one mispredicted as often as not). */
static inline uint32_t occupied(const grp *g)
{
    uint32_t a = 0, b = 0, c = 0;                       /* three chains of or: they run side by side */
    for (int i = 0; i < 30; i += 3) {
        a |= (uint32_t)(g[i] != 0) << i;
        b |= (uint32_t)(g[i + 1] != 0) << (i + 1);
        c |= (uint32_t)(g[i + 2] != 0) << (i + 2);
    }
    return a | b | c;
}

#endif

/* reduce.h -- F9's reductions: what of a state can still change a target (reduce.py) */

#ifndef OSADA_FASTCORE_REDUCE_H
#define OSADA_FASTCORE_REDUCE_H

static inline int imin(int a, int b) { return a < b ? a : b; }

static int steps_of(const Reach *r, int s, int h, int spent)
{
    int a = imin(h, r->own[s] - spent);
    if (r->rot) {
        int b = imin(h - 1, r->wide[s] - spent);
        if (b > a)
            return b;
    }
    return a;
}

static int placed_of(const Reach *r, int first, int spent)
{
    int h = r->h - 1;
    for (int s = 0; s < 6; s++)
        if (steps_of(r, s, h, spent) >= first)
            return 1;
    return 0;
}

static void reach_init(Reach *r, const uint8_t *counts, int h)
{
    int mv[3] = {counts[MOVE_RED], counts[MOVE_GREEN], counts[MOVE_BLUE]};
    int cw = counts[MOVE_CW], ccw = counts[MOVE_CCW];
    int both = counts[PZ4H] + counts[MAUS];
    r->h = h;
    r->rot = cw + ccw;
    r->ccw = ccw;
    for (int s = 0; s < 6; s++)
        r->own[s] = mv[s >> 1] + both;
    for (int s = 0; s < 6; s++) {
        if (!r->rot) {
            r->wide[s] = r->own[s];
            continue;
        }
        int near = 0;                              /* reduce._colours_near */
        int lo = ccw < 6 ? ccw : 6, hi = cw < 6 ? cw : 6;
        for (int k = -lo; k <= hi; k++)
            near |= 1 << ((((s + k) % 6 + 6) % 6) >> 1);
        int w = both;
        for (int c = 0; c < 3; c++)
            if ((near >> c) & 1)
                w += mv[c];
        r->wide[s] = w;
    }
    r->outer_max = -INF;
    for (int s = 0; s < 6; s++) {
        r->outer[s] = steps_of(r, s, h, 0);
        if (r->outer[s] > r->outer_max)
            r->outer_max = r->outer[s];
    }
    r->city = mv[0] + mv[1] + mv[2] + both + r->rot;
    r->tanks = placed_of(r, 4, 0);
    r->specials = placed_of(r, 3, 1);
}

/* a Reach reads the moves, the rotations, pz4h + maus and h alone: its key in one word (never 0) */
static inline uint64_t reach_key(const uint8_t *counts, int h)
{
    return (uint64_t)counts[MOVE_RED] | (uint64_t)counts[MOVE_GREEN] << 8 | (uint64_t)counts[MOVE_BLUE] << 16
           | (uint64_t)counts[MOVE_CW] << 24 | (uint64_t)counts[MOVE_CCW] << 32
           | (uint64_t)(counts[PZ4H] + counts[MAUS]) << 40 | (uint64_t)(uint8_t)(h + 1) << 48 | (uint64_t)1 << 56;
}

static void reach_of(Ctx *K, const uint8_t *counts, int h, Reach *out)   /* reduce.reach_of */
{
    uint64_t key = reach_key(counts, h);
    uint64_t x = key * 0x9e3779b97f4a7c15ULL;
    RSlot *slot = &K->rcache[(x >> 40) & (RCACHE - 1)];
    if (slot->key != key) {
        reach_init(&slot->r, counts, h);
        slot->key = key;
    }
    *out = slot->r;
}

static void reach_group(const Reach *r, int board, int c, int *reach, int *first)   /* Reach.group */
{
    int s = c % 6, blds = board >> 12, h = r->h;
    if (c >= 24) {
        int d = DCW[blds][s], ccw = r->ccw;
        if (!r->wide[s]) {
            int cw = r->rot - ccw;
            if (d > cw)
                d = INF;
            if (ccw && DCCW[blds][s] <= ccw)
                d = imin(d, DCCW[blds][s]);
            *reach = imin(h, r->rot);
            *first = d;
            return;
        }
        if (ccw)
            d = imin(d, DCCW[blds][s]);
        *reach = imin(h, r->city);
        *first = d;
        return;
    }
    int f = 4 - c / 6, re = r->outer[s];
    *first = f;
    if (r->rot || (((board | blds) >> s) & 1)) {
        if (re < f) {
            *reach = re;
            return;
        }
        if (re == f && !r->rot && ((board >> s) & 1)) {
            *reach = re;
            return;
        }
        /* a first blow that needs a rotation, drawn outside the city: a draw and a token no step of its */
        *reach = imin(h, r->city) - (imin(h, r->own[s]) < f);
        return;
    }
    if (re < f) {
        *reach = 0;
        return;
    }
    *reach = imin(h, r->city);
    *first = f + DCW[blds][s];
}

/* ------------------------------------------------- a lone group's blows (reduce.max_blows) */

/* tokens: the moves of each colour, move_cw, move_ccw, pz4h + maus; the most blows the group in
 * cell c deals in h draws of them, found depth first (a branch that cannot beat `best` is cut) */
static int blows_dfs(int c, int board, int *tk, int h, int got, int best)
{
    int targets = popc(board);                        /* walls, dots and buildings: a blow each at most */
    if (got + (h < targets ? h : targets) <= best)
        return best;
    if (got > best)
        best = got;
    if (h <= 0)
        return best;
    int s = c % 6;
    for (int kind = 0; kind < 2; kind++) {              /* a step: its colour's move, pz4h or maus */
        int *n = kind ? &tk[5] : &tk[s >> 1];
        if (!*n)
            continue;
        --*n;
        if (c < 18) {
            best = blows_dfs(c + 6, board, tk, h - 1, got, best);
        } else if (c < 24) {
            int gone = board & ~(0101 << s);            /* its wall and dot fallen before it came */
            if ((board >> (6 + s)) & 1)                 /* its dot takes the blow, the wall stays */
                best = blows_dfs(c, board & ~(1 << (6 + s)), tk, h - 1, got + 1, best);
            if (board & (1 << s))                       /* its wall falls (its dot gone before) */
                best = blows_dfs(c, gone, tk, h - 1, got + 1, best);
            if ((board >> (12 + s)) & 1)                /* into the city, its wall gone before it came */
                best = blows_dfs(24 + s, gone & ~(1 << (12 + s)), tk, h - 1, got + 1, best);
            else
                best = blows_dfs(24 + s, gone, tk, h - 1, got, best);
        } else {
            int s2 = s < 5 ? s + 1 : 0, bit = 1 << (12 + s2);
            best = blows_dfs(24 + s2, board & ~bit, tk, h - 1, got + ((board & bit) != 0), best);
        }
        ++*n;
    }
    for (int d = 1; d <= 5; d += 4) {                   /* the rotations: a blow only in the city */
        int *n = d == 1 ? &tk[3] : &tk[4];
        if (!*n)
            continue;
        --*n;
        int s2 = (s + d) % 6, c2 = c - s + s2, bit = 1 << (12 + s2);
        if (c >= 24 && (board & bit))
            best = blows_dfs(c2, board & ~bit, tk, h - 1, got + 1, best);
        else
            best = blows_dfs(c2, board, tk, h - 1, got, best);
        ++*n;
    }
    return best;
}

static int max_blows(Ctx *K, int board, int c, const uint8_t *counts, int h)
{
    int tk[6] = {counts[MOVE_RED], counts[MOVE_GREEN], counts[MOVE_BLUE], counts[MOVE_CW], counts[MOVE_CCW],
                 counts[PZ4H] + counts[MAUS]};
    int total = 0;
    for (int i = 0; i < 6; i++)
        total += tk[i];
    if (total > BLOWS_TOKENS)
        return INF;                                     /* a scenario's pool: no bound (the search would be long) */
    h = imin(h, total);                                 /* each draw it uses takes a token */
    if (h < 0)
        h = 0;
    uint64_t key = (uint64_t)c | (uint64_t)board << 5 | (uint64_t)h << 23 | (uint64_t)1 << 63;
    for (int i = 0; i < 6; i++)
        key |= (uint64_t)tk[i] << (28 + 4 * i);
    uint64_t x = key * 0x9e3779b97f4a7c15ULL;
    BSlot *slot = &K->bcache[(x >> 40) & (BCACHE - 1)];
    if ((*slot & ~((uint64_t)63 << 52)) != key)        /* the key's bits 0-51 and 63, the blows' 52-57 */
        *slot = key | (uint64_t)blows_dfs(c, board, tk, h, 0, 0) << 52;
    return (int)((*slot >> 52) & 63);
}

/* ------------------------------------------------------------ reduce (reduce.reduce) */

/* occ: the cells kept (two or more); returns them, less the groups left out */
static uint32_t shadowed(int board, grp *kept, uint32_t occ, const int *caps, const Reach *r,
                         int bombers)                   /* reduce._shadowed */
{
    if (r->rot)
        return occ;
    int seen = 0, shared = 0;                           /* sectors with an outer group, with two or more */
    for (uint32_t m = occ & ((1u << 24) - 1); m; m &= m - 1) {
        int b = 1 << (__builtin_ctz(m) % 6);
        shared |= seen & b;
        seen |= b;
    }
    if (!shared)
        return occ;
    int front = 0, guard = 0;
    for (int c = 23; c >= 0; c--) {
        if (!kept[c])
            continue;
        int s = c % 6;
        if (!((shared >> s) & 1))
            continue;
        int stays = r->outer[s] <= 4 - c / 6;
        if ((((front >> s) & 1) && (!bombers || stays)) || (((guard >> s) & 1) && stays)) {
            kept[c] = 0;
            occ &= ~(1u << c);
            continue;
        }
        int armor = total(kept[c]);
        if (armor >= caps[c])
            front |= 1 << s;
        if (armor >= ((board >> s) & 1) + ((board >> (6 + s)) & 1) + ((board >> (12 + s)) & 1))
            guard |= 1 << s;
    }
    return occ;
}

static void fold_tanks(uint8_t *out, int tanks, int blows)   /* reduce._fold_tanks */
{
    if (!tanks) {
        out[BLANK] += out[SDKFZ] + out[PZ3] + out[TIGER];
        out[SDKFZ] = out[PZ3] = out[TIGER] = 0;
    } else if (blows <= 1) {
        out[SDKFZ] += out[PZ3] + out[TIGER];
        out[PZ3] = out[TIGER] = 0;
    } else if (blows == 2) {
        out[PZ3] += out[TIGER];
        out[TIGER] = 0;
    }
}

/* The blows a group in cell c can still take (0: none, F9 c) and, in *colors, those of the moves
 * that may walk it (reduce._colours_walked) */
static int cell_cap(Ctx *K, const Reach *r, int board, int c, const uint8_t *counts, int h, uint8_t *colors)
{
    int reach, first;
    reach_group(r, board, c, &reach, &first);
    *colors = (uint8_t)WALKED[c][reach < 0 ? 0 : reach < 10 ? reach : 10];
    if (reach < first)
        return 0;
    int cap = reach - first + 1;
    if (cap > 1 || r->rot) {
        int most = max_blows(K, board, c, counts, h);
        if (most < cap)
            cap = most;
    }
    return cap;
}

/* kept, outc: the reduced groups and counts; returns members (whether groups stay member tuples) */
static int reduce_state(Ctx *K, int board, const grp *g, const uint8_t *counts, int h, int members, int extenders,
                        grp *kept, uint8_t *outc)
{
    Reach r;
    reach_of(K, counts, h, &r);
    int tanks = r.tanks;
    int placements = tanks || (extenders && r.outer_max >= 4) || ((counts[PZ4H] || counts[MAUS]) && r.specials);
    int walked = !(placements || r.rot);
    int caps[30], colors = 0;
    uint32_t occ = 0;                                   /* the cells kept, bit c */
    memset(kept, 0, sizeof(grp) * 30);
    uint64_t rk = reach_key(counts, h);                 /* the cells' bounds: most worked out for a sibling */
    CSlot *cs = &K->ccache[((rk ^ (uint64_t)board << 20) * 0x9e3779b97f4a7c15ULL) >> 40 & (CCACHE - 1)];
    if (cs->rkey != rk || cs->board != board) {
        cs->rkey = rk;
        cs->board = board;
        cs->known = 0;
    }
    for (uint32_t in = occupied(g); in; in &= in - 1) {
        int c = __builtin_ctz(in);
        if (!((cs->known >> c) & 1)) {
            cs->cap[c] = (uint8_t)cell_cap(K, &r, board, c, counts, h, &cs->colors[c]);
            cs->known |= 1u << c;
        }
        int cap = cs->cap[c];
        if (!cap)
            continue;                                   /* F9 (c) */
        caps[c] = cap;
        colors |= cs->colors[c];
        kept[c] = g[c];
        occ |= 1u << c;
    }
    if (occ & (occ - 1))
        occ = shadowed(board, kept, occ, caps, &r, counts[HE111]);
    memcpy(outc, counts, PLAIN);
    if (!(occ || placements)) {                         /* F9 (e) */
        int blank = 0;
        for (int k = 0; k < PLAIN; k++)
            if (k != HE111 && k != BLANK) {
                blank += outc[k];
                outc[k] = 0;
            }
        outc[BLANK] += blank;
        return 0;
    }
    int city_blows = imin(h - 1, r.city) - 3;
    /* the blows a tank to come could take with a repair: its steps, in the draws other than its
     * own (a plain tank's draw is one of the h, a pz2h's is not) and the panther's */
    int new_blows = placements ? imin(h - (extenders ? 0 : 1) - 1, r.city) - 3 : 0;
    if (members) {
        Reach r1;                                       /* reduce._repair_caps */
        reach_of(K, counts, h - 1, &r1);
        int panther = counts[PANTHER];
        int need = panther && new_blows >= 3;           /* reduce._split */
        for (uint32_t m = occ; m; m &= m - 1) {
            int c = __builtin_ctz(m);
            grp k = kept[c];
            if (k & SUMF)
                continue;
            int reach, first;
            reach_group(&r1, board, c, &reach, &first);
            int rcap = reach - first + 1, hurtable = 0, n = mcount(k);
            for (int i = 0; i < n; i++) {
                int mc = mcode(k, i);
                if ((mc >> 2) < (mc & 3) || mc >= 8)
                    hurtable = 1;
            }
            if (panther && total(k) < rcap && hurtable)
                need = 1;
            else
                kept[c] = sum_of(total(k));
        }
        if (!need)
            for (uint32_t m = occ; m; m &= m - 1)
                kept[__builtin_ctz(m)] = sum_of(total(kept[__builtin_ctz(m)]));
        members = need;
    }
    for (uint32_t m = occ; m; m &= m - 1) {
        int c = __builtin_ctz(m);
        if ((kept[c] & SUMF) && total(kept[c]) > caps[c])
            kept[c] = sum_of(caps[c]);                  /* F9 (d) */
    }
    if (!members) {
        int n = outc[PANTHER];                          /* reduce._fold_panther */
        if (n) {
            outc[PANTHER] = 0;
            outc[tanks ? PZ3 : BLANK] += n;
        }
        fold_tanks(outc, tanks, city_blows);
    } else {
        int rear_members = 0;
        for (int c = 0; c < 6; c++)
            if (kept[c] && !(kept[c] & SUMF))
                rear_members = 1;
        if (!tanks || (new_blows < 3 && !rear_members))
            fold_tanks(outc, tanks, city_blows);
    }
    if (walked)                                         /* (colors: of every group kept) */
        for (int col = 0; col < 3; col++)
            if (!((colors >> col) & 1)) {
                outc[BLANK] += outc[MOVE_RED + col];
                outc[MOVE_RED + col] = 0;
            }
    return members;
}


static void tables(void)
{
    for (int blds = 0; blds < 64; blds++)
        for (int s = 0; s < 6; s++) {
            DCW[blds][s] = DCCW[blds][s] = INF;
            for (int k = 6; k >= 1; k--) {
                if ((blds >> ((s + k) % 6)) & 1)
                    DCW[blds][s] = k;
                if ((blds >> (((s - k) % 6 + 6) % 6)) & 1)
                    DCCW[blds][s] = k;
            }
        }
    for (int c = 0; c < 30; c++)                       /* reduce._colours_walked */
        for (int steps = 0; steps <= 10; steps++) {
            int s = c % 6, moves = c >= 24 ? steps : steps - (4 - c / 6);
            int bits = 1 << (s >> 1);
            for (int k = 0; k < imin(moves, 6); k++)
                bits |= 1 << (((s + k) % 6) >> 1);
            WALKED[c][steps] = bits;
        }
}

#endif

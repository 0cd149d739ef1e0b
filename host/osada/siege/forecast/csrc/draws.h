/* draws.h -- what drawing a token does, the phase's last draw included (search.py: Search.effects, Search.last) */

#ifndef OSADA_FASTCORE_DRAWS_H
#define OSADA_FASTCORE_DRAWS_H

typedef struct { int weight, board; Opts o; } Eff;

static Opts one(Ctx *K, const grp *g)
{
    Opts o;
    o.n = 1;
    o.opts = salloc(K, 30);
    memcpy(o.opts, g, sizeof(grp) * 30);
    return o;
}

static int placed(Ctx *K, int kind, int board, const grp *g, int members, const uint8_t *after, int h_after,
                  Eff *out)                         /* Search._placed, R31, R32 */
{
    int first = (kind == PZ4H || kind == MAUS) ? 3 : 4;
    Reach r;
    reach_of(K, after, h_after, &r);
    int n = 0, dead[3] = {0, 0, 0};
    for (int s = 0; s < 6; s++) {
        if (steps_of(&r, s, h_after, 0) < first) {
            dead[s >> 1]++;
            continue;
        }
        grp *gg = salloc(K, 30);
        place(K, g, gg, kind, s, members);
        out[n].weight = 1;
        if (kind == PZ4H)
            out[n].o = step(K, board, gg, COLOR_SECTORS[s >> 1], &out[n].board);
        else if (kind == MAUS)
            out[n].o = step(K, board, gg, ALL_SECTORS, &out[n].board);
        else {
            out[n].board = board;
            if (kind == PANTHER && members)
                for (int c = 0; c < 30; c++)
                    gg[c] = repaired_group(gg[c]);
            out[n].o.n = 1;
            out[n].o.opts = gg;
        }
        n++;
    }
    int nd = dead[0] + dead[1] + dead[2];
    if (!nd)
        return n;
    if (kind == PZ4H) {
        for (int col = 0; col < 3; col++)
            if (dead[col]) {
                out[n].weight = dead[col];
                out[n].o = step(K, board, g, COLOR_SECTORS[col], &out[n].board);
                n++;
            }
        return n;
    }
    out[n].weight = nd;
    if (kind == MAUS)
        out[n].o = step(K, board, g, ALL_SECTORS, &out[n].board);
    else {
        out[n].board = board;
        out[n].o = one(K, g);
        if (kind == PANTHER && members)
            for (int c = 0; c < 30; c++)
                out[n].o.opts[c] = repaired_group(out[n].o.opts[c]);
    }
    return n + 1;
}

static int effects(Ctx *K, int kind, int board, const grp *g, int members, const uint8_t *after, int h_after,
                   Eff *out)
{
    if (kind == BLANK) {
        out[0].weight = 6;
        out[0].board = board;
        out[0].o.n = 1;
        out[0].o.opts = (grp *)g;                      /* read only below */
        return 1;
    }
    if (kind == HE111) {
        for (int s = 0; s < 6; s++) {
            out[s].weight = 1;
            out[s].o = one(K, g);
            out[s].board = bomb(board, out[s].o.opts, s);
        }
        return 6;
    }
    if (kind >= MOVE_RED && kind <= MOVE_BLUE) {
        out[0].weight = 6;
        out[0].o = step(K, board, g, COLOR_SECTORS[kind - MOVE_RED], &out[0].board);
        return 1;
    }
    if (kind == MOVE_CW || kind == MOVE_CCW) {
        out[0].weight = 6;
        out[0].o = rotate(K, board, g, kind == MOVE_CW ? 1 : 5, &out[0].board);
        return 1;
    }
    return placed(K, kind, board, g, members, after, h_after, out);
}

/* ------------------------------------------------------------ the last draw (Search.last) */

static inline void hit(Ctx *K, u128 *acc, u128 m, int before, int after)   /* Search._hit */
{
    int destroyed = before & ~after;
    if (!destroyed)
        return;
    int lost = (destroyed >> 12) && !((after >> 12) & K->lossmask);
    add_ind(acc, m, destroyed, lost);
}

/* acc += m * the value of drawing one more token, the phase's last, over 6 * the tokens */
static void last_draw(Ctx *K, u128 *acc, u128 m, int board, const grp *g, const uint8_t *counts)
{
    int cells = (int)(occupied(g) >> 18);             /* the tank line's and the city's, bit c - 18 */
    if (counts[HE111])
        for (int s = 0; s < 6; s++)
            hit(K, acc, m * counts[HE111], board, bomb(board, NULL, s));
    for (int col = 0; col < 3; col++) {
        int w = 6 * counts[MOVE_RED + col] + 2 * counts[PZ4H];
        if (w)
            hit(K, acc, m * w, board, hit_board(board, cells, COLOR_SECTORS[col]));
    }
    if (counts[MAUS])
        hit(K, acc, m * 6 * counts[MAUS], board, hit_board(board, cells, ALL_SECTORS));
    if (counts[MOVE_CW])
        hit(K, acc, m * 6 * counts[MOVE_CW], board, rotate_board(board, cells, 1));
    if (counts[MOVE_CCW])
        hit(K, acc, m * 6 * counts[MOVE_CCW], board, rotate_board(board, cells, 5));
}

#endif

/* The outlook's recurrence solved over flat arrays: recurrence.py's _solve_plain in C.
 *
 * Part of the mahjong scoring calculator (MIT licence, LICENSE at the top of the project).
 * recurrence.py loads it with ctypes when it was built (tools/build_solver.py: `make`, or a
 * wheel's build); no Python header is needed. It does exactly the floating-point operations
 * of _solve_plain, _ready, _mixed and _best_of, in the same order, so its figures are equal to
 * theirs to the last bit: compile it with -ffp-contract=off (a multiply and an add fused into
 * one rounding would change the last bit) and never with -ffast-math.
 *
 * Figures are laid out [state][figure][t]: state i's values at out[(3 i) T + t], its wins at
 * out[(3 i + 1) T + t], its chances to be ready at out[(3 i + 2) T + t], T = draws + 1. A
 * choice's best is kept the same way in `best`.
 */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "each double operation must round to a double (no excess precision), as Python's do"
#endif

#if !defined(__GNUC__) || defined(__clang__)   /* gcc ignores it: -ffp-contract=off there */
#pragma STDC FP_CONTRACT OFF
#endif

enum { FAR = 0, READY = 1, DEAD = 2 };

/* The version of the arguments below; recurrence.py refuses a library of another. */
int recurrence_version(void) { return 1; }

/* (a0, a1, a2) > (b0, b1, b2) as Python compares tuples of floats: at the first figure that
 * differs. */
static int greater(double a0, double a1, double a2, double b0, double b1, double b2)
{
    if (a0 != b0)
        return a0 > b0;
    if (a1 != b1)
        return a1 > b1;
    return a2 > b2;
}

/* _ready: a ready hand whose wait wins. */
static void ready(double *row, long T, double p_win, double gain, double stay)
{
    double value = 0.0, win = 0.0;
    row[0] = value;
    row[T] = win;
    row[2 * T] = 1.0;
    for (long t = 1; t < T; t++) {
        value = gain + stay * value;
        win = p_win + stay * win;
        row[t] = value;
        row[T + t] = win;
        row[2 * T + t] = 1.0;
    }
}

/* _best_of: each t's greatest triple of the states' figures, the first of equals (max). */
static void best_of(double *row, long T, const double *out, const int *states, int count)
{
    if (count == 1) {
        memcpy(row, out + 3 * T * states[0], sizeof(double) * 3 * T);
        return;
    }
    for (long t = 0; t < T; t++) {
        const double *kept = out + 3 * T * states[0] + t;
        for (int j = 1; j < count; j++) {
            const double *s = out + 3 * T * states[j] + t;
            if (greater(s[0], s[T], s[2 * T], kept[0], kept[T], kept[2 * T]))
                kept = s;
        }
        row[t] = kept[0];
        row[T + t] = kept[T];
        row[2 * T + t] = kept[2 * T];
    }
}

/* _mixed: each option (a draw's chance, and the best of the choice it leads to) taken where it
 * is not below staying as the state is (the drawn tile thrown), any other draw thrown. */
static void mixed(double *row, long T, double stay, double ready_now, const double *opt_p,
                  const int *opt_choice, int options, const double *best)
{
    double v0 = 0.0, w0 = 0.0, r0 = ready_now;
    row[0] = v0;
    row[T] = w0;
    row[2 * T] = r0;
    for (long t = 0; t + 1 < T; t++) {
        double v = stay * v0, w = stay * w0, r = stay * r0;
        for (int j = 0; j < options; j++) {
            const double *b = best + 3 * T * opt_choice[j] + t;
            double bv = b[0], bw = b[T], br = b[2 * T];
            if (greater(v0, w0, r0, bv, bw, br)) {   /* the drawn tile is better thrown */
                bv = v0;
                bw = w0;
                br = r0;
            }
            double p = opt_p[j];
            v += p * bv;
            w += p * bw;
            r += p * br;
        }
        v0 = v;
        w0 = w;
        r0 = r;
        row[t + 1] = v0;
        row[T + t + 1] = w0;
        row[2 * T + t + 1] = r0;
    }
}

/* Whether each entry of the finishing order reads only entries finished before it: a choice
 * its states, a state its options' choices (their indices already checked). */
static int in_order(int n, int k, const int *first, const int *opt_choice, const int *starts,
                    const int *members, int n_done, const int *done)
{
    unsigned char *finished = calloc((size_t)n + (size_t)k + 1, 1);   /* states, then choices */
    if (finished == NULL)
        return 0;
    int ordered = 1;
    for (int d = 0; d < n_done && ordered; d++) {
        int i = done[d];
        if (i < 0) {
            int c = ~i;
            for (int m = starts[c]; m < starts[c + 1]; m++)
                ordered &= finished[members[m]];
            finished[n + c] = 1;
        } else {
            for (int e = first[i]; e < first[i + 1]; e++)
                ordered &= finished[n + opt_choice[e]];
            finished[i] = 1;
        }
    }
    free(finished);
    return ordered;
}

/* Every state's figures by draws left, into `out` (3 (draws + 1) doubles a state), `best`
 * (as many a choice) its scratch. n states: kind, stay, gain, p_win; options
 * first[i]..first[i + 1] of opt_p and opt_choice; k choices: choice c's states
 * members[starts[c]..starts[c + 1]]; the finishing order `done` (state i as i, choice c as ~c;
 * a choice's states and a state's choices finished before it). 0, or -1 (nothing written)
 * where an index is out of its range or an entry reads one not finished before it. */
int recurrence_solve(int n, int k, int draws, int n_done, const int *kind, const double *stay,
                     const double *gain, const double *p_win, const int *first,
                     const double *opt_p, const int *opt_choice, const int *starts,
                     const int *members, const int *done, double *best, double *out)
{
    long T = (long)draws + 1;
    if (n < 0 || k < 0 || draws < 0 || first[0] != 0 || starts[0] != 0)
        return -1;
    for (int i = 0; i < n; i++) {
        if (first[i + 1] < first[i])
            return -1;
    }
    for (int e = 0; e < first[n]; e++) {
        if (opt_choice[e] < 0 || opt_choice[e] >= k)
            return -1;
    }
    for (int c = 0; c < k; c++) {
        if (starts[c + 1] <= starts[c])
            return -1;
    }
    for (int m = 0; m < starts[k]; m++) {
        if (members[m] < 0 || members[m] >= n)
            return -1;
    }
    for (int d = 0; d < n_done; d++) {
        if (done[d] >= n || ~done[d] >= k)
            return -1;
    }
    if (!in_order(n, k, first, opt_choice, starts, members, n_done, done))
        return -1;
    for (int d = 0; d < n_done; d++) {
        int i = done[d];
        if (i < 0) {
            int c = ~i;
            best_of(best + 3 * T * c, T, out, members + starts[c], starts[c + 1] - starts[c]);
        } else if (kind[i] == READY) {
            ready(out + 3 * T * i, T, p_win[i], gain[i], stay[i]);
        } else {
            mixed(out + 3 * T * i, T, stay[i], kind[i] == DEAD ? 1.0 : 0.0, opt_p + first[i],
                  opt_choice + first[i], first[i + 1] - first[i], best);
        }
    }
    return 0;
}

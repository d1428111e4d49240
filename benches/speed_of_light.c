/* Speed-of-light references for the batch kernels (benches/bench_blitz.py).
 *
 * Minimal plain-C versions of R10 line detection (has_line, lowest_line) and R20
 * timeout scoring, hard-wired to the default geometry (6x6, line_length 4, bit i =
 * row * 6 + col, as in src/blitz_core/blitz/bitboard.pxd). They are NOT part of the package:
 * the benchmark compiles this file with the package's own flags
 * (cc -O3 -ffp-contract=off -shared -fPIC, no -march) into a temporary directory and
 * calls it through ctypes on the very same NumPy arrays, in the same run, so that
 * "within 2x of plain C" compares like with like.
 *
 * Two honest variants of each kernel, both examining all 54 windows of the board
 * (18 across, 18 down, 9 down-right, 9 down-left):
 *   *_windows  the obvious one: a table of the 54 window masks, tested one by one;
 *   *_shift    the bit-parallel one with the geometry folded into constants: a
 *              shift-and per direction tests every window of that direction at once,
 *              and R20 counts own marks per window with bit-sliced "at least k" planes.
 * The benchmark takes the faster variant as the speed of light and checks that every
 * variant returns exactly what the Cython kernel returns.
 */
#include <stddef.h>
#include <stdint.h>

#define SIZE 6
#define LINE 4
#define N_WINDOWS 54

/* Cells where a whole window starts, per direction, in R10's tie order. */
#define S_ACROSS     0x1c71c71c7ULL   /* step 1: cols 0-2 of every row   */
#define S_DOWN_LEFT  0x38e38ULL       /* step 5: rows 0-2, cols 3-5      */
#define S_DOWN       0x3ffffULL       /* step 6: rows 0-2                */
#define S_DOWN_RIGHT 0x71c7ULL        /* step 7: rows 0-2, cols 0-2      */

static const int step[4] = {1, SIZE - 1, SIZE, SIZE + 1};
static const uint64_t starts[4] = {S_ACROSS, S_DOWN_LEFT, S_DOWN, S_DOWN_RIGHT};

/* Same portable popcount as src/blitz_core/common/bitops.h (the build has no -mpopcnt). */
static inline int popcount64(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* ---- the window-table variant ------------------------------------------------------ */

static uint64_t windows[N_WINDOWS];
static int n_windows = 0;

static void init_windows(void) {
    int d, s, k;
    if (n_windows)
        return;
    for (d = 0; d < 4; d++)
        for (s = 0; s < SIZE * SIZE; s++)
            if (starts[d] >> s & 1) {
                uint64_t m = 0;
                for (k = 0; k < LINE; k++)
                    m |= 1ULL << (s + k * step[d]);
                windows[n_windows++] = m;
            }
}

void sol_has_line_windows(const uint64_t *boards, uint8_t *out, size_t n) {
    size_t i;
    int w;
    init_windows();
    for (i = 0; i < n; i++) {
        uint64_t b = boards[i];
        int hit = 0;
        for (w = 0; w < N_WINDOWS; w++)
            hit |= (b & windows[w]) == windows[w];
        out[i] = (uint8_t)hit;
    }
}

void sol_timeout_score_windows(const uint64_t *own, const uint64_t *opp, int8_t *out, size_t n) {
    size_t i;
    int w;
    init_windows();
    for (i = 0; i < n; i++) {
        uint64_t a = own[i], o = opp[i];
        int best = 0;
        for (w = 0; w < N_WINDOWS; w++) {
            if (!(o & windows[w])) {
                int c = popcount64(a & windows[w]);
                best = c > best ? c : best;
            }
        }
        out[i] = (int8_t)best;
    }
}

/* ---- the shift-and variant ----------------------------------------------------------- */

#define LINE_STARTS(b, s, mask) ((b) & ((b) >> (s)) & ((b) >> 2 * (s)) & ((b) >> 3 * (s)) & (mask))

void sol_has_line_shift(const uint64_t *boards, uint8_t *out, size_t n) {
    size_t i;
    for (i = 0; i < n; i++) {
        uint64_t b = boards[i];
        out[i] = (LINE_STARTS(b, 1, S_ACROSS) | LINE_STARTS(b, 5, S_DOWN_LEFT)
                  | LINE_STARTS(b, 6, S_DOWN) | LINE_STARTS(b, 7, S_DOWN_RIGHT)) != 0;
    }
}

/* R10's reported window: lowest start cell, then the smaller step (direction order). */
void sol_lowest_line_shift(const uint64_t *boards, uint64_t *out, size_t n) {
    static const uint64_t pattern[4] = {
        0xfULL,                                       /* cells 0, 1, 2, 3    */
        1ULL | 1ULL << 5 | 1ULL << 10 | 1ULL << 15,   /* step 5 */
        1ULL | 1ULL << 6 | 1ULL << 12 | 1ULL << 18,   /* step 6 */
        1ULL | 1ULL << 7 | 1ULL << 14 | 1ULL << 21,   /* step 7 */
    };
    size_t i;
    for (i = 0; i < n; i++) {
        uint64_t b = boards[i];
        uint64_t w[4];
        int d, key, best = 64 * 4;
        w[0] = LINE_STARTS(b, 1, S_ACROSS);
        w[1] = LINE_STARTS(b, 5, S_DOWN_LEFT);
        w[2] = LINE_STARTS(b, 6, S_DOWN);
        w[3] = LINE_STARTS(b, 7, S_DOWN_RIGHT);
        for (d = 0; d < 4; d++)
            if (w[d]) {
                key = __builtin_ctzll(w[d]) * 4 + d;
                best = key < best ? key : best;
            }
        out[i] = best == 64 * 4 ? 0 : pattern[best & 3] << (best >> 2);
    }
}

/* R20 with the own count of each window in bit-sliced "at least k of 4" planes. */
void sol_timeout_score_shift(const uint64_t *own, const uint64_t *opp, int8_t *out, size_t n) {
    size_t i;
    int d;
    for (i = 0; i < n; i++) {
        uint64_t a = own[i], o = opp[i];
        uint64_t ge1 = 0, ge2 = 0, ge3 = 0, ge4 = 0;
        for (d = 0; d < 4; d++) {
            int s = step[d];
            uint64_t free = starts[d] & ~(o | o >> s | o >> 2 * s | o >> 3 * s);
            uint64_t x0 = a, x1 = a >> s, x2 = a >> 2 * s, x3 = a >> 3 * s;
            uint64_t any01 = x0 | x1, both01 = x0 & x1, any23 = x2 | x3, both23 = x2 & x3;
            ge1 |= free & (any01 | any23);
            ge2 |= free & (both01 | both23 | (any01 & any23));
            ge3 |= free & ((both01 & any23) | (both23 & any01));
            ge4 |= free & both01 & both23;
        }
        out[i] = (int8_t)(ge4 ? 4 : ge3 ? 3 : ge2 ? 2 : ge1 ? 1 : 0);
    }
}

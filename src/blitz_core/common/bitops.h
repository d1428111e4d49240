/* Bit tricks the whole core is written in (see bitboard.pxd for the board layout).
 *
 * A portable build (no -mpopcnt) must stay fast, so popcount falls back to the
 * branch-free SWAR count instead of libgcc's table-driven __popcountdi2 call.
 * Count-trailing-zeros is a single BSF/TZCNT on every x86-64 and ARM64 target. */
#ifndef BLITZ_BITOPS_H
#define BLITZ_BITOPS_H
#include <stdint.h>

static inline int blitz_popcount(uint64_t x) {
#if defined(__POPCNT__) || defined(__ARM_NEON) || defined(__aarch64__)
    return __builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
#endif
}

/* Index of the lowest set bit; x must be non-zero. */
static inline int blitz_lowest(uint64_t x) {
    return __builtin_ctzll(x);
}

#endif

# The Tic Tac Doh position in a few machine words (rules D1-D10, docs/doh.md), and its rules as
# inline nogil functions, so the solver and the match loops inline them.
#
# Layout. All occupied squares fit in a 3x3 box (D2) and any translation is the same
# position, so the position is kept *normalised*: the box's top-left square is frame
# square (0, 0).
#   board     9 nibbles, frame square (r, c) at bits 4*(3r + c): its content code
#             (0 empty, 1..9 the nine contents of D4, types.CONTENTS order);
#   stash[3]  pieces left per size (D1), 0..10;
#   occ, counts[3], accepts[3]: bit masks in the *window* layout: window square
#             (wr, wc), wr/wc in 0..4 = frame + 2, at bit 8*wr + wc (stride 8: the
#             three padding columns 5..7 stop every shift of a line test from wrapping
#             into the next row). counts[s]: squares that count as size s (D5);
#             accepts[s]: occupied squares a piece of size s may go onto (D4);
#             empties: the empty squares any piece may go on (D3, D2), recomputed
#             only when a new square is occupied.
# The action window of encoding.py is the same window: action = 25*s + 5*wr + wc.
# The 64-bit key of a position is board | stash << 36, 3 bits a count up to 7 pieces per
# size and 4 bits from 8 (the key of the 2-player game at 1..7 is the key it always was:
# the bots' random streams mix it in). The seat to move follows from the number of pieces
# placed (ply mod players: nobody goes out before the end, D9); the box from the board.

from libc.stdint cimport uint64_t, uint8_t, int8_t
from blitz_core.common.bits cimport popcount, lowest, nth_set_bit
from blitz_core.common.rng cimport rng_next

cdef enum:
    DOH_CELLS = 25          # window squares
    DOH_ACTIONS = 75        # 3 sizes x 25 window squares
    DOH_CENTRE_BIT = 18     # window (2, 2): the anchor, and the first move's square
    DOH_ONGOING = -2        # DohPos.winner while the game goes on
    DOH_DRAW = -1
    DOH_KEY_STASH_SHIFT = 36  # pos_key: the stash counts above the board's 9 nibbles

# D6's reasons, in D6's order (0: accepted); types.REASONS[code - 1].
cdef enum:
    REASON_OK = 0
    REASON_GAME_OVER = 1
    REASON_NONE_LEFT = 2
    REASON_NOT_ADJACENT = 3
    REASON_OUTSIDE_GRID = 4
    REASON_CANNOT_STACK = 5

ctypedef struct DohPos:
    uint64_t board
    uint64_t occ
    uint64_t counts[3]
    uint64_t accepts[3]
    uint64_t empties        # empty_targets(), kept up to date by every change
    uint8_t stash[3]
    uint8_t height          # the occupied box (0 x 0 when empty)
    uint8_t width
    uint8_t grid            # D2
    uint8_t pieces_per_size  # D1
    uint8_t to_move         # the seat to move: 0 first, 1 second, 2 third, 3 fourth (D10)
    uint8_t players         # D10: 2..4
    uint8_t ply             # moves played
    int8_t winner           # DOH_ONGOING, DOH_DRAW, or the winning seat

# The rules as packed constants (no tables: these inline functions are compiled into
# every module that cimports them). engine.rule_tables() unpacks them, and importing
# tictacblitz.games.doh checks them against types.py's tables.
cdef enum:
    COUNTS_PACKED = 0x244fe888     # D5: 3 bits per content code: the sizes it counts as
    ACCEPTS_PACKED = 0x801550      # D4: 3 bits per content code: sizes that may go onto it
    PIECES_PACKED = 0x376fe888      # D4: 3 bits per content code: the sizes of its pieces

cdef inline uint64_t window_mask() noexcept nogil:
    """The 25 window bits: window rows 0..4, columns 0..4."""
    return 0x1F1F1F1F1FULL


cdef inline int place_content(int content, int size) noexcept nogil:
    """D4: the content code after a piece of `size` goes onto `content` (0: refused)."""
    # 4 bits per content code: the content after a piece of that size goes onto it
    # (0: not allowed). S: S, MS, LMS; M: M, SM, LM; L: L, ML, SML.
    cdef uint64_t table = 0x50601ULL if size == 0 else (0x4072ULL if size == 1 else 0x80000903ULL)
    return <int>((table >> (4 * content)) & 15)


cdef inline int counts_bits(int content) noexcept nogil:
    """D5: bit s set if a square with this content counts as size s."""
    return (COUNTS_PACKED >> (3 * content)) & 7


cdef inline int pieces_bits(int content) noexcept nogil:
    """D4: bit s set if a square with this content holds a piece of size s (one at most)."""
    return (PIECES_PACKED >> (3 * content)) & 7


cdef inline int accepts_bits(int content) noexcept nogil:
    """D4: bit s set if a piece of size s may go onto an occupied square of this content."""
    return (ACCEPTS_PACKED >> (3 * content)) & 7


cdef inline int cell_bit(int cell) noexcept nogil:
    """Window index 5*wr + wc (the action's square) -> window bit 8*wr + wc."""
    return 8 * (cell // 5) + cell % 5


cdef inline int bit_cell(int wbit) noexcept nogil:
    return 5 * (wbit >> 3) + (wbit & 7)


cdef inline uint64_t fit_mask(int grid, int height, int width) noexcept nogil:
    """D2: the window squares that keep a height x width box (top-left at window (2, 2))
    inside some grid x grid box: relative rows height-grid .. grid-1, same for columns."""
    cdef int row_lo = height - grid + 2, row_hi = grid + 1
    cdef int col_lo = width - grid + 2, col_hi = grid + 1
    if row_lo < 0:
        row_lo = 0
    if col_lo < 0:
        col_lo = 0
    if row_hi > 4:
        row_hi = 4
    if col_hi > 4:
        col_hi = 4
    if row_lo > row_hi or col_lo > col_hi:
        return 0
    cdef uint64_t cols = (((<uint64_t>1) << (col_hi + 1)) - 1) & ~(((<uint64_t>1) << col_lo) - 1)
    cdef uint64_t rows = ((((<uint64_t>1) << (8 * (row_hi + 1))) - 1)
                          & ~(((<uint64_t>1) << (8 * row_lo)) - 1))
    return (cols * 0x0101010101ULL) & rows


cdef inline uint64_t neighbourhood(uint64_t occ) noexcept nogil:
    """D3: the squares touching an occupied one (8-neighbourhood, occupied included)."""
    cdef uint64_t m = occ | (occ << 1) | (occ >> 1)
    return (m | (m << 8) | (m >> 8)) & window_mask()


cdef inline uint64_t compute_empty_targets(const DohPos* p) noexcept nogil:
    """D3: the empty window squares a piece may go on (any size): touching an occupied
    square and keeping the box within grid x grid. The first move: the centre."""
    if p.occ == 0:
        return (<uint64_t>1) << DOH_CENTRE_BIT
    return neighbourhood(p.occ) & ~p.occ & fit_mask(p.grid, p.height, p.width)


cdef inline uint64_t empty_targets(const DohPos* p) noexcept nogil:
    """compute_empty_targets(p), as pos_play/pos_init/pos_from_key keep it."""
    return p.empties


cdef inline uint64_t targets_for(const DohPos* p, int size, uint64_t empties) noexcept nogil:
    """Every window square a piece of `size` may go on now (D3, D4), given empty_targets."""
    if p.stash[size] == 0 or p.winner != DOH_ONGOING:
        return 0
    return empties | p.accepts[size]


cdef inline bint has_any_move(const DohPos* p) noexcept nogil:
    """D9's test: some size left has a square (p.empties must be up to date)."""
    cdef uint64_t empties = p.empties
    return ((p.stash[0] != 0 and (empties | p.accepts[0]) != 0)
            or (p.stash[1] != 0 and (empties | p.accepts[1]) != 0)
            or (p.stash[2] != 0 and (empties | p.accepts[2]) != 0))


cdef inline bint line_through_square(uint64_t c, int wbit) noexcept nogil:
    """D7 after a move on window bit wbit: whether c holds a line through it. The box
    is normalised into the frame (window rows and columns 2..4), so every line is one
    of the frame's 8: the square's row, its column, and the diagonals it is on."""
    cdef int r = (wbit >> 3) - 2, col = (wbit & 7) - 2
    cdef uint64_t row_line = (<uint64_t>0x1C) << (8 * (r + 2))              # (r, 0..2)
    cdef uint64_t col_line = (<uint64_t>0x10101) << (16 + col + 2)          # (0..2, col)
    if (c & row_line) == row_line or (c & col_line) == col_line:
        return True
    if r == col and (c & 0x1008040000ULL) == 0x1008040000ULL:               # (0,0) (1,1) (2,2)
        return True
    return r + col == 2 and (c & 0x408100000ULL) == 0x408100000ULL           # (0,2) (1,1) (2,0)


cdef inline uint64_t line_starts(uint64_t c, int d) noexcept nogil:
    """D7: bits p with p, p+d, p+2d all in c (a line of three in direction d)."""
    return c & (c >> d) & (c >> (2 * d))


cdef inline bint has_line(uint64_t c) noexcept nogil:
    """D7: whether c holds three squares in a line, in any direction."""
    return (line_starts(c, 1) | line_starts(c, 8) | line_starts(c, 9) | line_starts(c, 7)) != 0


cdef inline uint64_t completions_in(uint64_t c, int d) noexcept nogil:
    """The third square of p, p+d, p+2d where the other two are in c."""
    return ((c & (c >> d)) << (2 * d)) | ((c & (c >> (2 * d))) << d) | ((c >> d) & (c >> (2 * d)))


cdef inline uint64_t completions(uint64_t c) noexcept nogil:
    """D7: squares that would complete a line of three with two squares of c. A piece of
    size s placed anywhere makes its square count as s (D4, D5), so a move of size s on
    completions(counts[s]) wins, and no other move of size s does."""
    return (completions_in(c, 1) | completions_in(c, 8) | completions_in(c, 9)
            | completions_in(c, 7)) & ~c


cdef inline int pos_reason(const DohPos* p, int action) noexcept nogil:
    """D6: why `action` (0..74, unchecked) is rejected now, 0 if it is accepted."""
    cdef int size = action // DOH_CELLS
    cdef uint64_t bit = (<uint64_t>1) << cell_bit(action % DOH_CELLS)
    if p.winner != DOH_ONGOING:
        return REASON_GAME_OVER
    if p.stash[size] == 0:
        return REASON_NONE_LEFT
    if p.occ & bit:
        return REASON_OK if p.accepts[size] & bit else REASON_CANNOT_STACK
    if p.occ == 0:          # the first piece: only the window centre names a square
        return REASON_OK if bit == ((<uint64_t>1) << DOH_CENTRE_BIT) else REASON_NOT_ADJACENT
    if not (neighbourhood(p.occ) & bit):
        return REASON_NOT_ADJACENT
    if not (fit_mask(p.grid, p.height, p.width) & bit):
        return REASON_OUTSIDE_GRID
    return REASON_OK


cdef inline void set_square(DohPos* p, int wbit, int content) noexcept nogil:
    """Write a content code on window bit wbit (inside the frame) and its masks."""
    cdef int frame = 3 * ((wbit >> 3) - 2) + (wbit & 7) - 2
    cdef uint64_t bit = (<uint64_t>1) << wbit
    cdef uint64_t counts = counts_bits(content)
    cdef uint64_t accepts = accepts_bits(content)
    p.board = (p.board & ~((<uint64_t>15) << (4 * frame))) | ((<uint64_t>content) << (4 * frame))
    # branch-free: each mask gets the bit iff the content's bit for that size is set
    p.counts[0] = (p.counts[0] & ~bit) | ((<uint64_t>0 - (counts & 1)) & bit)
    p.counts[1] = (p.counts[1] & ~bit) | ((<uint64_t>0 - ((counts >> 1) & 1)) & bit)
    p.counts[2] = (p.counts[2] & ~bit) | ((<uint64_t>0 - ((counts >> 2) & 1)) & bit)
    p.accepts[0] = (p.accepts[0] & ~bit) | ((<uint64_t>0 - (accepts & 1)) & bit)
    p.accepts[1] = (p.accepts[1] & ~bit) | ((<uint64_t>0 - ((accepts >> 1) & 1)) & bit)
    p.accepts[2] = (p.accepts[2] & ~bit) | ((<uint64_t>0 - ((accepts >> 2) & 1)) & bit)


cdef inline void pos_play(DohPos* p, int action) noexcept nogil:
    """Play a legal action (pos_reason(p, action) == 0; unchecked) and apply D7-D9."""
    cdef int size = action // DOH_CELLS
    cdef int wbit = cell_bit(action % DOH_CELLS)
    cdef int wr = wbit >> 3, wc = wbit & 7
    cdef int frame, content, s
    cdef int mover = p.to_move
    if p.occ & ((<uint64_t>1) << wbit):
        frame = 3 * (wr - 2) + wc - 2
        content = place_content((p.board >> (4 * frame)) & 15, size)
    else:
        content = place_content(0, size)
        if p.occ == 0:
            p.height = 1
            p.width = 1
        else:
            # Keep the box's top-left at frame (0, 0): a square left of / above the box
            # (wr or wc = 1, never less: it touches the box) shifts everything by one.
            if wr < 2:
                p.board <<= 12
                p.occ <<= 8
                for s in range(3):
                    p.counts[s] <<= 8
                    p.accepts[s] <<= 8
                wr += 1
                wbit += 8
                p.height += 1
            elif wr - 1 > p.height:
                p.height = wr - 1
            if wc < 2:
                p.board <<= 4      # the box is at most 2 wide here: column 2 is empty
                p.occ <<= 1
                for s in range(3):
                    p.counts[s] <<= 1
                    p.accepts[s] <<= 1
                wc += 1
                wbit += 1
                p.width += 1
            elif wc - 1 > p.width:
                p.width = wc - 1
        p.occ |= (<uint64_t>1) << wbit
        p.empties = compute_empty_targets(p)   # only a new square changes them
    set_square(p, wbit, content)
    p.stash[size] -= 1
    p.ply += 1
    p.to_move = mover + 1 if mover + 1 < p.players else 0     # D10: seat order
    # D4/D5: the square now counts as `size` and gained no other size, so a new line
    # is a line of `size` through this square.
    if line_through_square(p.counts[size], wbit):
        p.winner = mover                                    # D7
    elif p.stash[0] == 0 and p.stash[1] == 0 and p.stash[2] == 0:
        p.winner = DOH_DRAW                                 # D8
    elif not has_any_move(p):
        # D9: legality does not depend on the seat, so every other player is out in
        # turn, and the mover is the last one in (pos_out lists them).
        p.winner = mover


cdef inline bint line_through_any(const DohPos* p) noexcept nogil:
    """D7: a line of some size is on the table."""
    return has_line(p.counts[0]) or has_line(p.counts[1]) or has_line(p.counts[2])


cdef inline int pos_out(const DohPos* p, int* seats) noexcept nogil:
    """D9: the seats that went out, in the order they did (into seats[0..2]), and how
    many. Only a game ended by D9 has any, and then every seat but the winner: the
    table is stuck for all, so from the seat after the last mover each goes out in turn.
    With two players nobody is listed (the contract's `out` is for 3-4 players)."""
    cdef int n = 0, k
    if p.players <= 2 or p.winner < 0 or p.stash[0] + p.stash[1] + p.stash[2] == 0:
        return 0
    if line_through_any(p):
        return 0
    for k in range(1, p.players):
        seats[n] = (p.winner + k) % p.players
        n += 1
    return n


cdef inline int stash_bits(int pieces_per_size) noexcept nogil:
    """The width of one stash count in pos_key: 3 bits up to 7 pieces per size, 4 above."""
    return 3 if pieces_per_size <= 7 else 4


cdef inline uint64_t pos_key(const DohPos* p) noexcept nogil:
    """The position's 64-bit key: board nibbles and stash counts (translation-free; at
    most 48 bits in all). The one definition of the layout: pos_from_key reads it back,
    engine.KEY_STASH_SHIFT and engine.key_stash_bits hand it to Python (exploitability's
    observation_keys)."""
    cdef int w = stash_bits(p.pieces_per_size)
    return (p.board | ((<uint64_t>p.stash[0]) << DOH_KEY_STASH_SHIFT)
            | ((<uint64_t>p.stash[1]) << (DOH_KEY_STASH_SHIFT + w))
            | ((<uint64_t>p.stash[2]) << (DOH_KEY_STASH_SHIFT + 2 * w)))


cdef inline void pos_init(DohPos* p, int pieces_per_size, int grid, int players) noexcept nogil:
    """The empty table with a full stash (D1); first to move; `players` seats (D10)."""
    p.board = 0
    p.occ = 0
    cdef int s
    for s in range(3):
        p.counts[s] = 0
        p.accepts[s] = 0
        p.stash[s] = pieces_per_size
    p.height = 0
    p.width = 0
    p.grid = grid
    p.pieces_per_size = pieces_per_size
    p.to_move = 0
    p.players = players
    p.ply = 0
    p.winner = DOH_ONGOING
    p.empties = compute_empty_targets(p)


cdef inline uint64_t canonical_board(uint64_t board, int height, int width) noexcept nogil:
    """The smallest of the board's 8 images under the symmetries of the square (D2 makes
    every translation the same position; the rules are also blind to rotations and
    reflections, so the solver stores one entry for all 8). Each image is normalised
    again: a flip maps the box onto itself, a transpose swaps its height and width."""
    cdef uint64_t best = board, image, nibble
    cdef int k, i, r, c, t
    for k in range(1, 8):
        image = 0
        for i in range(9):
            nibble = (board >> (4 * i)) & 15
            if nibble:
                r = i // 3
                c = i - 3 * r
                if k & 1:
                    c = width - 1 - c
                if k & 2:
                    r = height - 1 - r
                if k & 4:
                    t = r
                    r = c
                    c = t
                image |= nibble << (4 * (3 * r + c))
        if image < best:
            best = image
    return best


cdef inline uint64_t pos_canonical_key(const DohPos* p) noexcept nogil:
    """pos_key with the board replaced by its canonical image (the solver's key)."""
    return canonical_board(p.board, p.height, p.width) | (pos_key(p) & ~(<uint64_t>0xFFFFFFFFF))


cdef inline int pos_from_key(DohPos* p, uint64_t key, int pieces_per_size, int grid,
                             int players) noexcept nogil:
    """Rebuild a position from its key (everything else follows from it). Returns 0, or
    -1 if the key is not a normalised, well-formed position of these rules (the
    caller raises): a content code above 9, a box not at the top-left or wider than
    the grid, a stash count above pieces_per_size, or pieces that do not add up (D1)."""
    cdef int i, r, c, content, s
    cdef int placed_of[3]
    cdef int top = 3, left = 3, bottom = -1, right = -1
    cdef int width = stash_bits(pieces_per_size)
    pos_init(p, pieces_per_size, grid, players)
    if key >> (DOH_KEY_STASH_SHIFT + 3 * width):
        return -1
    for s in range(3):
        p.stash[s] = (key >> (DOH_KEY_STASH_SHIFT + width * s)) & ((1 << width) - 1)
        if p.stash[s] > pieces_per_size:
            return -1
        placed_of[s] = 0
    for i in range(9):
        content = (key >> (4 * i)) & 15
        if content > 9:
            return -1
        if content:
            r = i // 3
            c = i - 3 * r
            top = r if r < top else top
            left = c if c < left else left
            bottom = r if r > bottom else bottom
            right = c if c > right else right
            p.occ |= (<uint64_t>1) << (8 * (r + 2) + c + 2)
            set_square(p, 8 * (r + 2) + c + 2, content)
            for s in range(3):
                placed_of[s] += (pieces_bits(content) >> s) & 1
    if p.occ:
        if top != 0 or left != 0 or bottom >= grid or right >= grid:
            return -1
        p.height = bottom + 1
        p.width = right + 1
    p.empties = compute_empty_targets(p)
    for s in range(3):
        if placed_of[s] + p.stash[s] != pieces_per_size:
            return -1
        p.ply += placed_of[s]
    p.to_move = p.ply % players                     # D10: nobody is out mid-game (D9)
    cdef int last = (p.ply + players - 1) % players
    for s in range(3):
        if has_line(p.counts[s]):
            p.winner = last                         # D7 (the last move made the line)
            return 0
    if p.stash[0] == 0 and p.stash[1] == 0 and p.stash[2] == 0:
        p.winner = DOH_DRAW                         # D8
    elif not has_any_move(p):
        p.winner = last                             # D9
    return 0


cdef inline uint64_t uniform_below_small(uint64_t* rng, uint64_t n) noexcept nogil:
    """Exactly uniform on [0, n) for 0 < n < 2**32 from the common SplitMix64 stream,
    without a division in the common case (Lemire's multiply-and-reject on the draw's
    top 32 bits): the division of common/rng.pxd's rng_below is a large part of a
    random move. The rejection threshold (2**32 mod n) is computed only when the low
    part falls below n (probability n / 2**32)."""
    cdef uint64_t m = (rng_next(rng) >> 32) * n
    cdef uint64_t threshold
    if (m & 0xFFFFFFFFULL) < n:
        threshold = ((<uint64_t>1 << 32) - n) % n
        while (m & 0xFFFFFFFFULL) < threshold:
            m = (rng_next(rng) >> 32) * n
    return m >> 32


cdef inline int random_action(const DohPos* p, uint64_t* rng) noexcept nogil:
    """A uniformly random legal action (the position must have one)."""
    cdef uint64_t empties = empty_targets(p)
    cdef uint64_t m0 = targets_for(p, 0, empties)
    cdef uint64_t m1 = targets_for(p, 1, empties)
    cdef uint64_t m2 = targets_for(p, 2, empties)
    cdef int n0 = popcount(m0), n1 = popcount(m1)
    cdef int k = <int>uniform_below_small(rng, n0 + n1 + popcount(m2))
    if k < n0:
        return bit_cell(nth_set_bit(m0, k))
    k -= n0
    if k < n1:
        return 25 + bit_cell(nth_set_bit(m1, k))
    return 50 + bit_cell(nth_set_bit(m2, k - n1))


# The rules as every native module of this game holds them: the numbers of
# DohRules.native_params() (engine.RULES_PARAMS order), unpacked and checked in one place,
# load_rules (engine.pyx): the one way Doh's rules cross into native code (issue 27, item 5).
ctypedef struct DohRulesC:
    int pieces_per_size     # D1
    int grid                # D2
    int players             # D10

cdef int load_rules(DohRulesC* r, object params) except -1

cdef class Position:
    cdef DohPos pos

# The native engine of Tic Tac Doh (rules D1-D10, docs/doh.md): the `Position` class over the DohPos
# struct of engine.pxd, and a nogil random-game loop.
#
# Every rule lives in the inline functions of engine.pxd (so the solver inlines them);
# this module is their Python face: it checks every argument at the boundary (types,
# ranges) and then runs unchecked C. tictacblitz.games.doh.reference implements the
# same contract in plain Python; tests/doh holds the two together.

from libc.stdint cimport uint64_t, uint8_t

from blitz_core.common.bits cimport popcount, lowest
from blitz_core.common.rng cimport mix64

import struct
import zlib

import numpy as np

from blitz_core.common.seed_check import check_seed  # tictacblitz.games.rng's, tied by a test

# The vocabulary as plain strings (the Python package checks its own tables against
# these at import: one source of truth per side, tied by a test-at-import).
CONTENTS = ("", "S", "M", "L", "LM", "LMS", "MS", "SM", "SML", "ML")
REASONS = ("game_over", "none_left", "not_adjacent", "outside_grid", "cannot_stack")
SIZE_LETTERS = ("S", "M", "L")
NUM_ACTIONS = DOH_ACTIONS
ONGOING = DOH_ONGOING
DRAW = DOH_DRAW

KEY_STASH_SHIFT = DOH_KEY_STASH_SHIFT  # pos_key's layout (engine.pxd), for key_stash_bits's readers
MAX_PIECES_PER_SIZE = 10             # D10: "at least 1 to 10"; a count fits pos_key's 4 bits
MIN_PLAYERS = 2
MAX_PLAYERS = 4                       # D10
MAX_GRID = 3                          # D2: the position packs at most a 3x3 box

RULES_PARAMS = ("pieces_per_size", "grid", "players")
"""The order of ``DohRules.native_params()``, the one tuple the rules cross in (issue 27)."""

SERIAL_MAGIC = b"DOH"
SERIAL_VERSION = 2
# Version 1 (still written for two players, so their bytes never changed): magic,
# version, pieces_per_size, grid, key, crc32. Version 2 (three or four players) adds the
# number of players after grid.
_HEADER_V1 = struct.Struct("<3sBBBQ")
_HEADER_V2 = struct.Struct("<3sBBBBQ")
STATE_BYTES = _HEADER_V1.size + 4     # two players (version 1)
STATE_BYTES_V2 = _HEADER_V2.size + 4  # three or four players


def rule_tables():
    """D4/D5 as the native core packs them, per content code: (counts-as sizes,
    sizes it holds, {size: content after that size goes onto it})."""
    out = []
    for content in range(10):
        counts = tuple(s for s in range(3) if (counts_bits(content) >> s) & 1)
        pieces = tuple(s for s in range(3) if (pieces_bits(content) >> s) & 1)
        onto = {s: place_content(content, s) for s in range(3) if place_content(content, s)}
        accepts = tuple(s for s in range(3) if (accepts_bits(content) >> s) & 1)
        out.append((counts, pieces, onto, accepts))
    return out


cdef int _int_arg(object value, str what, int low, int high) except? -1:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{what} must be an integer, not {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{what} must be from {low} to {high}, not {value!r}")
    return <int>value


cdef int load_rules(DohRulesC* r, object params) except -1:
    """Fill a DohRulesC from ``DohRules.native_params()``'s tuple (RULES_PARAMS order): the
    one place it is unpacked, every number checked (one line naming a bad one), so nothing
    unchecked reaches the nogil code of any of this game's native modules."""
    if not isinstance(params, tuple):
        raise TypeError(f"rules must be the tuple of DohRules.native_params() "
                        f"({', '.join(RULES_PARAMS)}), not {type(params).__name__}")
    if len(params) != len(RULES_PARAMS):
        raise ValueError(f"rules: expected the {len(RULES_PARAMS)} numbers of "
                         f"DohRules.native_params() ({', '.join(RULES_PARAMS)}), "
                         f"got {len(params)}")
    r.pieces_per_size = _int_arg(params[0], "rules.pieces_per_size", 1, MAX_PIECES_PER_SIZE)
    r.grid = _int_arg(params[1], "rules.grid", 1, MAX_GRID)
    r.players = _int_arg(params[2], "rules.players", MIN_PLAYERS, MAX_PLAYERS)
    return 0


cdef class Position:
    """A Tic Tac Doh position (normalised: the occupied box's top-left is (0, 0)).

    ``Position(rules)`` is the empty table, ``rules`` the tuple of
    ``DohRules.native_params()``. Actions are the codes of tictacblitz.games.doh.encoding
    (25*size + 5*(dr+2) + (dc+2) from the box's top-left).
    """

    def __init__(self, rules):
        cdef DohRulesC r
        load_rules(&r, rules)
        pos_init(&self.pos, r.pieces_per_size, r.grid, r.players)

    # -- reading ------------------------------------------------------------------------
    @property
    def pieces_per_size(self):
        return self.pos.pieces_per_size

    @property
    def grid(self):
        return self.pos.grid

    @property
    def players(self):
        """D10: the number of seats (2 to 4)."""
        return self.pos.players

    @property
    def out(self):
        """D9: the seats that went out, in the order they did (empty but for a game of 3
        or 4 players ended by D9: then every seat but the winner)."""
        cdef int seats[3]
        cdef int n = pos_out(&self.pos, seats)
        return tuple(seats[i] for i in range(n))

    @property
    def stash(self):
        """D1: pieces left per size (S, M, L)."""
        return (self.pos.stash[0], self.pos.stash[1], self.pos.stash[2])

    @property
    def to_move(self):
        """The seat whose turn it is, 0 (first) to players - 1 (still set once over)."""
        return self.pos.to_move

    @property
    def ply(self):
        return self.pos.ply

    @property
    def over(self):
        return self.pos.winner != DOH_ONGOING

    @property
    def winner(self):
        """The winning seat once won (D7, D9); None while going on or for a draw (D8)."""
        return self.pos.winner if self.pos.winner >= 0 else None

    @property
    def status(self):
        """ONGOING (-2), DRAW (-1), or the winning seat."""
        return self.pos.winner

    @property
    def height(self):
        return self.pos.height

    @property
    def width(self):
        return self.pos.width

    def contents(self):
        """The 3x3 frame's content codes, row by row (index 3*row + col)."""
        return [<int>((self.pos.board >> (4 * i)) & 15) for i in range(9)]

    def key(self):
        """board | stash << 36: the position, translation-free (D2); see engine.pxd."""
        return pos_key(&self.pos)

    def canonical_key(self):
        """The key of the smallest of the 8 symmetric images (the solver's key)."""
        return pos_canonical_key(&self.pos)

    def legal_mask(self):
        """A bool array of 75: True where play(action) would be accepted."""
        out = np.zeros(DOH_ACTIONS, dtype=bool)
        cdef uint8_t[::1] view = out.view(np.uint8)
        cdef uint64_t empties = empty_targets(&self.pos), m
        cdef int s
        for s in range(3):
            m = targets_for(&self.pos, s, empties)
            while m:
                view[25 * s + bit_cell(lowest(m))] = 1
                m &= m - 1
        return out

    def legal_count(self):
        cdef uint64_t empties = empty_targets(&self.pos)
        return sum(popcount(targets_for(&self.pos, s, empties)) for s in range(3))

    def reason(self, action):
        """D6: 0 if `action` would be accepted now, else the reason code (REASONS[code-1])."""
        return pos_reason(&self.pos, _int_arg(action, "action", 0, DOH_ACTIONS - 1))

    def play(self, action):
        """Play `action` if the rules allow it: 0, or the D6 reason code (nothing changed)."""
        cdef int a = _int_arg(action, "action", 0, DOH_ACTIONS - 1)
        cdef int why = pos_reason(&self.pos, a)
        if why == REASON_OK:
            pos_play(&self.pos, a)
        return why

    def lines(self):
        """D7: every line of three squares counting as one common size, each a sorted
        tuple of frame squares (row, col); the list sorted, without repeats."""
        found = set()
        cdef int s, d, p
        cdef uint64_t t
        for s in range(3):
            for d in (1, 8, 9, 7):
                t = line_starts(self.pos.counts[s], d)
                while t:
                    p = lowest(t)
                    t &= t - 1
                    found.add(tuple(sorted(((q >> 3) - 2, (q & 7) - 2)
                                           for q in (p, p + d, p + 2 * d))))
        return sorted(found)

    def winning_actions(self):
        """D7: the legal actions that complete a line now (empty once over)."""
        out = []
        cdef uint64_t empties = empty_targets(&self.pos), m
        cdef int s
        for s in range(3):
            m = targets_for(&self.pos, s, empties) & completions(self.pos.counts[s])
            while m:
                out.append(25 * s + bit_cell(lowest(m)))
                m &= m - 1
        return sorted(out)

    # -- copies and bytes -----------------------------------------------------------------
    def clone(self):
        cdef Position twin = Position.__new__(Position)
        twin.pos = self.pos
        return twin

    def to_bytes(self):
        """Versioned and checksummed: magic, version, rules, key, crc32 (version 1 for
        two players, version 2 with the number of players for three or four)."""
        if self.pos.players == 2:
            body = _HEADER_V1.pack(SERIAL_MAGIC, 1, self.pos.pieces_per_size,
                                   self.pos.grid, pos_key(&self.pos))
        else:
            body = _HEADER_V2.pack(SERIAL_MAGIC, 2, self.pos.pieces_per_size,
                                   self.pos.grid, self.pos.players, pos_key(&self.pos))
        return body + struct.pack("<I", zlib.crc32(body))

    @staticmethod
    def from_bytes(data):
        """Inverse of to_bytes. :raises ValueError: for bytes that are not one."""
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"a Doh position is bytes, not {type(data).__name__}")
        data = bytes(data)
        if len(data) not in (STATE_BYTES, STATE_BYTES_V2):
            raise ValueError(f"a Doh position is {STATE_BYTES} or {STATE_BYTES_V2} bytes, "
                             f"not {len(data)}")
        body, (crc,) = data[:len(data) - 4], struct.unpack("<I", data[len(data) - 4:])
        if zlib.crc32(body) != crc:
            raise ValueError("Doh position bytes: checksum mismatch")
        if len(data) == STATE_BYTES:
            magic, version, pieces, grid, key = _HEADER_V1.unpack(body)
            players, want = 2, 1
        else:
            magic, version, pieces, grid, players, key = _HEADER_V2.unpack(body)
            want = 2
        if magic != SERIAL_MAGIC or version != want:
            raise ValueError(f"not a Doh position of version {want}: {magic!r} v{version}")
        return Position.from_key(key, (pieces, grid, players))

    @staticmethod
    def from_key(key, rules):
        """The position of a key (pos_key) under ``rules`` (``DohRules.native_params()``).
        :raises ValueError: for a malformed key."""
        cdef Position p = Position.__new__(Position)
        cdef DohRulesC r
        load_rules(&r, rules)
        if (isinstance(key, bool) or not isinstance(key, (int, np.integer))
                or not 0 <= key < (1 << 64)):
            raise ValueError(f"a position key is a uint64, not {key!r}")
        if pos_from_key(&p.pos, <uint64_t>key, r.pieces_per_size, r.grid, r.players) != 0:
            raise ValueError(f"key {key:#x} is not a position of pieces_per_size="
                             f"{r.pieces_per_size}, grid={r.grid}")
        return p

    def __reduce__(self):
        return (Position.from_bytes, (self.to_bytes(),))

    def __eq__(self, other):
        if not isinstance(other, Position):
            return NotImplemented
        cdef Position o = other
        return (pos_key(&self.pos) == pos_key(&o.pos) and self.pos.grid == o.pos.grid
                and self.pos.pieces_per_size == o.pos.pieces_per_size
                and self.pos.players == o.pos.players)

    def __hash__(self):
        return hash((pos_key(&self.pos), self.pos.grid, self.pos.pieces_per_size,
                     self.pos.players))

    def __repr__(self):
        players = f", players={self.pos.players}" if self.pos.players != 2 else ""
        return (f"Position(key={pos_key(&self.pos):#x}, pieces_per_size={self.pos.pieces_per_size},"
                f" grid={self.pos.grid}{players})")


cdef long long random_games_c(int pieces, int grid, int players, long long n, uint64_t seed,
                              long long* wins) noexcept nogil:
    cdef DohPos p
    cdef long long g, moves = 0
    cdef uint64_t rng
    for g in range(n):
        rng = mix64(seed + <uint64_t>g)
        pos_init(&p, pieces, grid, players)
        while p.winner == DOH_ONGOING:
            pos_play(&p, random_action(&p, &rng))
        moves += p.ply
        wins[p.winner + 1] += 1
    return moves


def key_stash_bits(rules):
    """The width in bits of one stash count in a position key under ``rules``
    (``DohRules.native_params()``; engine.pxd's stash_bits of its pieces_per_size: the
    counts sit at KEY_STASH_SHIFT, one such field a size)."""
    cdef DohRulesC r
    load_rules(&r, rules)
    return stash_bits(r.pieces_per_size)


def random_games(rules, n=1000, seed=0):
    """Play `n` uniformly random games of ``rules`` (``DohRules.native_params()``) without
    the GIL (game i's stream is seeded mix64(seed + i)). Returns (moves played in all,
    draws, then the wins of each seat)."""
    cdef DohRulesC r
    load_rules(&r, rules)
    cdef int pieces = r.pieces_per_size, g = r.grid, seats = r.players
    cdef long long count = _int_arg(n, "n", 0, 2_000_000_000)
    cdef uint64_t s = <uint64_t>check_seed(seed)
    cdef long long wins[5]
    wins[0] = wins[1] = wins[2] = wins[3] = wins[4] = 0
    cdef long long moves
    with nogil:
        moves = random_games_c(pieces, g, seats, count, s, wins)
    return (moves, *[wins[i] for i in range(seats + 1)])

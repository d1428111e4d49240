# Declarations of match.pyx: the Python face of the engine (Match, the Rules bridge).
# The batch modules (playout, bots, rollouts) cimport these to reach a Match's state.

from blitz_core.blitz.engine cimport MatchState, RulesC, EventSink

# -- the bridge from Python ----------------------------------------------------------------
cdef object default_rules()
cdef int fill_rules(RulesC* rc, object rules) except -1


cdef class Match:
    cdef RulesC rc
    cdef MatchState st
    cdef EventSink sink
    cdef object _rules
    cdef object _seed
    cdef object _setup
    cdef tuple _rounds
    cdef list _script                 # recorded script entries, or None
    cdef void _begin_call(self) noexcept
    cdef void _after_call(self)
    cdef _check_once(self, int p)
    cdef _record(self, int p, action)

# The default thread count of a batched stepper: measured, not guessed (issue 28 item 1).
#
# Every core and libgomp's spinning wait is fastest on an idle machine (1.8x one thread)
# and collapses when one other process is busy: a thread spins or waits at each step's
# end for a teammate that lost its core for a whole time slice (8-40x slower than one
# thread at a load average of 10-11: docs/rl.md's table of `bench_rl_speed.py threads`).
# One thread never collapses but leaves the second core idle. So the default plays both
# "arms" and keeps the faster: it runs one of them, times every step (the native call
# only, a monotonic clock), and now and then probes the other arm for a few steps; a
# probe that loses doubles the wait before the next one (up to PROBE_MAX_MS), one that
# wins switches at once, and a step of the many-thread arm four times slower than its
# median (a neighbour arrived) probes one thread at once. Arms are compared by medians
# (the last RECENT steps of the arm in use, a probe's counted steps), which a rare
# preempted step does not move; a probe clearly losing stops after its first step, so a
# collapsing arm costs one slow step per probe.
# Results never depend on the thread count, so switching changes only the speed.

from libc.stdint cimport int64_t
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC


cdef enum:
    RECENT = 8                    # the arm in use is judged on its last RECENT steps
    PROBE_STEPS = 6               # steps of a probe; the first one only warms the arm
    EXPLOIT_WARM = 4              # steps of the current arm before it can be compared
    # 0.25 s between probes after a switch, doubling to 8 s while the other arm loses:
    # a collapsing arm (one step of 15-50 ms measured at a load of 12) then costs under
    # 1 % of the time
    PROBE_MIN_MS = 250
    PROBE_MAX_MS = 8000


ctypedef struct AutoThreads:
    int fixed                     # > 0: that many threads, nothing measured
    int most                      # the many-thread arm: the usable cores
    int arm                       # the arm being used: 0 one thread, 1 `most` threads
    int probing                   # steps left in a probe of the other arm (0: none)
    int exploited                 # steps of the current arm since the last probe
    int64_t mean[2]               # ns per step of each arm (a median), 0 = unmeasured
    int64_t recent[RECENT]        # the arm in use: its last steps, a ring
    int64_t probe[PROBE_STEPS]    # the probe's counted steps
    int probe_counted
    int64_t next_probe            # clock ns
    int64_t backoff               # ns


cdef inline int64_t clock_ns() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return <int64_t>ts.tv_sec * 1000000000 + ts.tv_nsec


cdef inline void auto_init(AutoThreads* a, int fixed, int most) noexcept nogil:
    a.fixed = fixed
    a.most = most if most > 1 else 1
    a.arm = 0                     # start on one thread: it never collapses
    a.probing = 0
    a.exploited = 0
    a.mean[0] = 0
    a.mean[1] = 0
    a.probe_counted = 0
    a.next_probe = 0
    a.backoff = <int64_t>PROBE_MIN_MS * 1000000


cdef inline int64_t median(const int64_t* xs, int n) noexcept nogil:
    """The median (the upper one of an even count) of n <= 8 values."""
    cdef int64_t v[8]
    cdef int i, j
    cdef int64_t x
    for i in range(n):            # insertion sort of a copy: n is tiny
        x = xs[i]
        j = i
        while j > 0 and v[j - 1] > x:
            v[j] = v[j - 1]
            j -= 1
        v[j] = x
    return v[n // 2]


cdef inline int auto_threads(const AutoThreads* a) noexcept nogil:
    """The threads of the next step."""
    cdef int arm
    if a.fixed > 0:
        return a.fixed
    if a.most <= 1:
        return 1
    arm = 1 - a.arm if a.probing > 0 else a.arm
    return a.most if arm == 1 else 1


cdef inline void auto_record(AutoThreads* a, int64_t ns) noexcept nogil:
    """A step of auto_threads(a) threads took ``ns``: update the medians, maybe switch."""
    cdef int other = 1 - a.arm
    cdef int64_t now, m, mine
    if a.fixed > 0 or a.most <= 1:
        return
    now = clock_ns()
    mine = a.mean[a.arm]
    if a.probing > 0:
        a.probing -= 1
        if a.probing == PROBE_STEPS - 1:              # the warming step: a collapse ends it
            if mine > 0 and ns > 10 * mine:
                a.probing = 0
                a.probe[0] = ns
                a.probe_counted = 1
        else:
            a.probe[a.probe_counted] = ns
            a.probe_counted += 1
            if mine > 0 and ns > 3 * mine:
                a.probing = 0
        if a.probing == 0:
            m = median(a.probe, a.probe_counted) if a.probe_counted else ns
            a.mean[other] = m
            if m * 100 < mine * 95:                    # 5 % faster: switch
                a.arm = other
                a.backoff = <int64_t>PROBE_MIN_MS * 1000000
            elif a.backoff < <int64_t>PROBE_MAX_MS * 1000000:
                a.backoff *= 2
            a.exploited = 0
            a.next_probe = now + a.backoff
        return
    a.recent[a.exploited % RECENT] = ns
    a.exploited += 1
    if a.exploited < EXPLOIT_WARM:
        return
    m = median(a.recent, a.exploited if a.exploited < RECENT else RECENT)
    a.mean[a.arm] = m
    if now >= a.next_probe or (a.arm == 1 and mine > 0 and ns > 4 * mine):
        a.probing = PROBE_STEPS
        a.probe_counted = 0

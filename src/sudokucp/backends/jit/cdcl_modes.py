"""The schedules of the `jit` clause-learning search beside its restarts: mode switching
(CaDiCaL's focused and stable modes), rephasing (its best, original, flipped and random phases)
and shuffles of the activities at Luby-spaced points."""

from __future__ import annotations

from numba import njit

from sudokucp.backends.jit.cdcl_state import (
    F_DECAY,
    FOCUSED_DECAY,
    MODE_GROWTH,
    PHASE_SAVED,
    Q_BEST,
    Q_CONFLICTS,
    Q_DECAY,
    Q_GLUCOSE,
    Q_HEAPN,
    Q_MODE_END,
    Q_MODE_LEN,
    Q_MODES,
    Q_NOISE,
    Q_POLARITY,
    Q_REPHASE,
    Q_REPHASE_NEXT,
    Q_REPHASES,
    Q_RNG,
    Q_SHUFFLE,
    Q_SHUFFLE_I,
    Q_SHUFFLE_NEXT,
    Q_SHUFFLES,
    Q_STABLE,
    Q_STABLE_GLU,
    Q_STABLE_POL,
    Q_SWITCHES,
    Q_TARGET,
    V_BEST,
    V_PHASE,
    V_TARGET,
    heap_down,
    luby,
)

MIX, STEP = 6364136223846793005, 1442695040888963407  # Knuth's 64-bit linear congruence
BEST, ORIGINAL, FLIPPED, RANDOM = range(4)
REPHASES = (BEST, ORIGINAL, BEST, FLIPPED, BEST, RANDOM)  # CaDiCaL's cycle, taken in turn


@njit(cache=True, inline="always")
def begin_modes(regs, fregs):
    """The schedules of a fresh search: when modes switch, the first one focused for Q_MODES
    conflicts (the options' phase and restarts kept for the stable one); the first shuffle
    Q_SHUFFLE conflicts away."""
    fregs[F_DECAY] = 1000.0 / regs[Q_DECAY]
    regs[Q_STABLE] = 1
    regs[Q_SWITCHES] = 0
    regs[Q_SHUFFLES] = 0
    regs[Q_SHUFFLE_I] = 0
    regs[Q_SHUFFLE_NEXT] = regs[Q_SHUFFLE]
    regs[Q_REPHASES] = 0
    regs[Q_REPHASE_NEXT] = regs[Q_REPHASE]
    if regs[Q_MODES]:
        regs[Q_STABLE_POL], regs[Q_STABLE_GLU] = regs[Q_POLARITY], regs[Q_GLUCOSE]
        regs[Q_MODE_LEN] = regs[Q_MODES]
        regs[Q_MODE_END] = regs[Q_MODES]
        focus(regs, fregs)


@njit(cache=True, inline="always")
def focus(regs, fregs):
    """The focused mode: Glucose restarts, saved phases, a faster decay."""
    regs[Q_STABLE] = 0
    regs[Q_POLARITY], regs[Q_GLUCOSE] = PHASE_SAVED, 1
    fregs[F_DECAY] = FOCUSED_DECAY


@njit(cache=True, inline="always")
def due(regs):
    """Whether a mode ends, a rephase or a shuffle is due: the search restarts for it."""
    conflicts = regs[Q_CONFLICTS]
    return ((regs[Q_MODES] and conflicts >= regs[Q_MODE_END])
            or (regs[Q_REPHASE] and conflicts >= regs[Q_REPHASE_NEXT])
            or (regs[Q_SHUFFLE] and conflicts >= regs[Q_SHUFFLE_NEXT]))


@njit(cache=True, inline="always")
def turn(iv, act, regs, fregs):
    """At level 0 after a restart: switch modes, rephase, shuffle, when their points passed."""
    conflicts = regs[Q_CONFLICTS]
    if regs[Q_MODES] and conflicts >= regs[Q_MODE_END]:
        regs[Q_SWITCHES] += 1
        if regs[Q_STABLE]:  # a pair of modes done: the next pair is longer
            regs[Q_MODE_LEN] *= MODE_GROWTH
            focus(regs, fregs)
        else:
            regs[Q_STABLE] = 1
            regs[Q_POLARITY], regs[Q_GLUCOSE] = regs[Q_STABLE_POL], regs[Q_STABLE_GLU]
            fregs[F_DECAY] = 1000.0 / regs[Q_DECAY]
        regs[Q_MODE_END] = conflicts + regs[Q_MODE_LEN]
    if regs[Q_REPHASE] and conflicts >= regs[Q_REPHASE_NEXT]:
        regs[Q_REPHASES] += 1
        regs[Q_REPHASE_NEXT] = conflicts + regs[Q_REPHASE] * (regs[Q_REPHASES] + 1)
        rephase(iv, regs, REPHASES[regs[Q_REPHASES] % len(REPHASES)])
    if regs[Q_SHUFFLE] and conflicts >= regs[Q_SHUFFLE_NEXT]:
        regs[Q_SHUFFLES] += 1
        regs[Q_SHUFFLE_I] += 1
        regs[Q_SHUFFLE_NEXT] = conflicts + regs[Q_SHUFFLE] * luby(regs[Q_SHUFFLE_I])
        shuffle(iv, act, regs, fregs[0] * regs[Q_NOISE])


@njit(cache=True, inline="always")
def shuffle(iv, act, regs, amount):
    """Each activity raised by up to `amount` at random, the heap laid out again."""
    for v in range(act.shape[0]):
        act[v] += amount * uniform(regs)
    size = regs[Q_HEAPN]
    for i in range(size // 2 - 1, -1, -1):
        heap_down(iv, act, i, size)


@njit(cache=True, inline="always")
def uniform(regs):
    """A number in [0, 1) from the search's own generator (seeded by Q_RNG, so reproducible)."""
    regs[Q_RNG] = regs[Q_RNG] * MIX + STEP
    return ((regs[Q_RNG] >> 11) & ((1 << 53) - 1)) / 9007199254740992.0


@njit(cache=True, inline="always")
def rephase(iv, regs, kind):
    """Every saved phase replaced by the best assignment's (where it has one), the original
    (place the digit), its flip or a random one; the target and the best start afresh."""
    phases, best, target = iv[V_PHASE], iv[V_BEST], iv[V_TARGET]
    for v in range(phases.shape[0]):
        if kind == BEST:
            if best[v] >= 0:
                phases[v] = best[v]
        elif kind == ORIGINAL:
            phases[v] = 1
        elif kind == FLIPPED:
            phases[v] = 1 - phases[v]
        else:
            phases[v] = 1 if uniform(regs) < 0.5 else 0
        target[v] = -1
        best[v] = -1
    regs[Q_TARGET] = 0
    regs[Q_BEST] = 0

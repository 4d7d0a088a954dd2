"""The logic package's kernel groups, registered with the engine
(:func:`sudokit.engine.compiling.register`) when the package is imported.

The engine keeps the kernels of its own floor (the solvers, the easy ladder
``logic``); the searches below live beside the code they serve, or are
reached through it, so they are named and warmed up here:

* ``producers``: the searches of the producers from 4.0 to 7.5 (aligned
  exclusions, ALS wings, the any-step probe, unique loops, the strong-link
  searches of :mod:`sudokit.logic.link_pattern_kernels`);
* ``chains``: the chain searches (:mod:`sudokit.logic.chain_kernels`);
* ``nested``: the nested chains' inner rules (:mod:`sudokit.logic.nested_kernels`);
* ``cycles``: the easiest step of "Forcing Chains & Cycles" (:mod:`sudokit.logic.cycle_kernels`).

Each warms up by running once on a puzzle whose rating reaches a forcing
chain. Nothing here imports numba until a group is warmed up.
"""

from __future__ import annotations

import importlib

from ..engine.compiling import register

#: A puzzle whose rating reaches a forcing chain (SE 7.1), to compile the chain searches.
CHAIN_PUZZLE = "4...9518.5.14..3.9...231..565..492..1425..89....12..54395..2...8769145..21435.9.."


def warm_producers() -> None:
    """Load the producers' compiled searches by running each once."""
    import numpy as np

    from ..engine.logic_kernels import NAKED_SET, any_step
    from ..grid import CLASSIC, Grid
    from . import aligned, links, uniqueness, wings
    from .state import Candidates

    state = Candidates.from_grid(Grid(CHAIN_PUZZLE))  # the aligned exclusions' and wings' searches
    for compiled in (aligned.compiled_tables(state.geo), wings.compiled_tables(state.geo)):
        if compiled is None:
            return
    next(aligned.find_compiled(state, 3, aligned.compiled_tables(state.geo)), None)
    wings.compiled_sets(state, 3, wings.compiled_tables(state.geo))
    als_wings, peer = wings.compiled_tables(state.geo)  # (the sets' search past 128 cells)
    als_wings(np.array(state.mask, dtype=np.int64), peer, 3, np.empty((16, 4), dtype=np.int64))
    any_step(CLASSIC, state.mask, NAKED_SET, 4)
    from ..engine.logic_kernels import _tables, has_steps

    has_steps(np.array(state.mask, dtype=np.int64), *_tables(CLASSIC), 4)
    strong = links.strong_tables(state.geo)
    if strong is not None:
        kernel, width, *tables = strong
        kernel(np.array(state.mask, dtype=np.int64), 3, np.zeros((5, state.geo.n + 1, 3), dtype=np.uint64),
               np.zeros(5, dtype=np.int64), np.empty((4, width), dtype=np.uint64), *tables)
        wings._any_xy_wing(state.mask, wings._peer_words(state.geo), False)
        wings._wing_sizes(state, wings.compiled_tables(state.geo)[1])
        from .link_kernels import als_wing_sizes  # (the sizes' walk past 128 cells)

        als_wing_sizes(np.array(state.mask, dtype=np.int64), wings.compiled_tables(state.geo)[1], 3, 5)
    bug = uniqueness.bug_tables(state.geo)
    if bug is not None:
        bug[0](np.array(state.mask, dtype=np.int64), *bug[1:])
    loops = uniqueness.compiled_tables(state.geo)
    if loops is not None:
        uniqueness.compiled_loops(loops, uniqueness.loop_arrays(state.mask, 3), 0, 3)
    from .pattern_kernels import value_words

    value_words(np.array(state.mask, dtype=np.int64), state.geo.n)
    pretest = uniqueness.pretest_tables(state.geo)
    if pretest is not None:
        pretest[0](np.array(state.mask, dtype=np.int64), *pretest[1:], *uniqueness._loop_memo(state.geo), False)


def _chain_kernels_now() -> None:
    """Let the chain searches use their kernels at once (not after a few puzzles in Python)."""
    from . import chains

    chains._KERNELS = importlib.import_module(f"{__package__}.chain_kernels")


def warm_chains() -> None:
    """Load the chain searches by rating a puzzle that reaches a forcing chain."""
    from ..grid import Grid
    from .rating import rate

    from . import chains
    from .state import Candidates

    _chain_kernels_now()
    rate(Grid(CHAIN_PUZZLE))
    # and from Python once: once the compiled rules above are in the cache, the rating calls the
    # searches only from within them, which compiles them there but not for Python's calls
    state = Candidates.from_grid(Grid(CHAIN_PUZZLE))
    got = chains.Chainer(state, None)._kernel(state.mask)
    if got:
        kernels, arr, peers, units, work = got
        kernels.scan(arr, peers, units, True, True, work)


def warm_nested() -> None:
    """Load the nested chains' inner rules by running each once."""
    from ..grid import Grid
    from . import nested

    _chain_kernels_now()
    nested.warm(Grid(CHAIN_PUZZLE))


def warm_cycles() -> None:
    """Load the easiest-cycle search by running it once (its kernel set at once, as
    :func:`_chain_kernels_now` sets the chain searches': the search would otherwise wait for
    the batch's third puzzle, or for this very compilation, and not compile)."""
    from ..grid import Grid
    from . import chains, cycle_kernels
    from .nested_kernels import tables
    from .state import Candidates

    _chain_kernels_now()
    chains._CYCLE_KERNEL = (cycle_kernels, tables)
    chains._easiest_cycle(chains.Chainer(Candidates.from_grid(Grid(CHAIN_PUZZLE)), None))


register("producers", "the logic producers", ("logic_kernels.aligned_next", "logic_kernels.als_wings",
                                              "logic_kernels.has_step", "logic_kernels.unique_loops",
                                              "logic_kernels.has_steps",
                                              "logic.link_pattern_kernels.strong_links",
                                              "logic.link_kernels.als_wing_sizes",
                                              "logic.pattern_kernels.unique_any",
                                              "logic.pattern_kernels.wing_sizes",
                                              "logic.pattern_kernels.wing_sets",
                                              "logic.pattern_kernels.value_words",
                                              "logic.pattern_kernels.xy_any",
                                              "logic.link_kernels.bug_pattern"),
         14.0, warm_producers, background=True, needs=("logic",))
register("chains", "the chain searches", ("logic.chain_kernels.run",), 4.0, warm_chains, background=True)
register("nested", "the nested chains' inner rules", ("logic.nested_kernels.cycles_rule",
                                                      "logic.nested_kernels.basic_helpers",
                                                      "logic.nested_kernels.multiple_rule",
                                                      "logic.nested_kernels.nishio_rule",
                                                      "logic.nested_kernels.hint_groups"), 30.0,
         warm_nested, background=True, needs=("chains",))
register("cycles", "the first chaining tier's easiest step", ("logic.cycle_kernels.easiest_cycle",), 10.0,
         warm_cycles, background=True, needs=("nested",))

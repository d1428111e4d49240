"""Types of blitz_core.doh.paranoid: the paranoid search of 2-4 players, cimported by
solver.pyx (whose Solver.paranoid_* methods are its Python face); no Python names."""

"""Types of blitz_core.blitz.engine: the nogil rules engine has no Python-level names.

Its functions are C (declared in engine.pxd) and reach Python only through
blitz_core.blitz.match (the Match class) and the batch modules that cimport them.
"""

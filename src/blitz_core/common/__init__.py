"""Shared native helpers (bit tricks, the random stream); declarations only (.pxd)."""

"""Auto mode: light measurement of every cell, the static scan, and the session's ranked history."""

"""Layer 1: the domains searched over (grid maps, graphs, sliding-tile puzzles). Imports core."""

"""Layer 3: pictures of problems and searches (PNG). Imports core, domains, algorithms."""

from searchlab.viz.grid_png import render_search

__all__ = ["render_search"]

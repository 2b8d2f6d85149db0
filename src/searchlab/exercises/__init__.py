"""Layer 3 (teaching, beside agents and viz): exercises for a course on search, with answer
keys computed by the library's own searches and their observer events. Imports core, domains,
algorithms and viz.

* :func:`generate_alphabeta` — random alpha-beta pruning exercises (:class:`Exercise`), graded
  mark by mark by :func:`grade`;
* :func:`generate_astar` — random A* exercises on a small graph (:class:`AStarExercise`).
"""

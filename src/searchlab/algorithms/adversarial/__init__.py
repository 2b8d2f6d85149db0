"""Adversarial search: minimax, alpha-beta, the negamax engine, exact solvers, Sprague-Grundy."""

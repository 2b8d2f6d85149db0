"""Record DeepMind mctx's Gumbel MuZero search on a toy game, as ground truth for searchlab's
Gumbel root (tests/algorithms/mcts/test_gumbel_mctx.py reads the output).

The toy game: three actions at every node, two players alternating, never over within the
search's reach; a node is named by its path (``id = 4 * parent_id + action + 1``, the root 0)
and evaluated by a fixed formula of its id (:func:`toy_eval`, written twice: in jax here, in
numpy in the test). mctx runs ``gumbel_muzero_policy`` on it (rewards 0, discount -1: the
two-player convention; float64), and the script records, for each case, the Gumbel noise mctx
drew at the root (``search_tree.extra_data.root_gumbel``), the root's visit counts, the action
chosen and ``action_weights`` (the improved policy ``softmax(logits + sigma(completed Q))``).
The test feeds the same noise to searchlab and compares.

mctx and jax are large (about 600 MB), so they are not a test dependency; regenerate with::

    pip install --target /tmp/mctx_env mctx jax jaxlib
    PYTHONPATH=/tmp/mctx_env python benchmarks/gumbel_mctx_reference.py \\
        > benchmarks/results/gumbel_mctx_reference.json
"""

from __future__ import annotations

import json
import sys

import jax
import jax.numpy as jnp
import mctx

jax.config.update("jax_enable_x64", True)

ACTIONS = 3
CASES = [  # (seed, simulations, max_num_considered_actions, c_visit, c_scale)
    (0, 2, 16, 50.0, 1.0),
    (1, 8, 16, 50.0, 0.1),
    (2, 16, 2, 50.0, 1.0),
    (3, 12, 3, 50.0, 0.1),
    (4, 24, 16, 10.0, 0.05),
    (7, 40, 4, 50.0, 0.02),
    (5, 7, 1, 50.0, 1.0),
    (6, 32, 3, 50.0, 0.1),
]


def toy_eval(node_id):  # type: ignore[no-untyped-def]
    """``(logits [3], value)`` of the node ``node_id`` (jax; the test has the numpy twin)."""
    x = node_id.astype(jnp.float64)
    logits = jnp.stack([jnp.sin(1.7 * x + 0.3 * k + 0.5) * (1.0 + k) for k in range(ACTIONS)])
    value = jnp.tanh(jnp.sin(0.37 * x + 1.1) * 2.0)
    return logits, value


def recurrent(params, rng_key, action, embedding):  # type: ignore[no-untyped-def]
    child = embedding * (ACTIONS + 1) + action + 1
    logits, value = jax.vmap(toy_eval)(child)
    output = mctx.RecurrentFnOutput(
        reward=jnp.zeros_like(value),
        discount=-jnp.ones_like(value),
        prior_logits=logits,
        value=value,
    )
    return output, child


def run(seed: int, simulations: int, considered: int, c_visit: float, c_scale: float) -> dict:
    root_id = jnp.zeros((1,), dtype=jnp.int64)
    logits, value = jax.vmap(toy_eval)(root_id)
    root = mctx.RootFnOutput(prior_logits=logits, value=value, embedding=root_id)
    output = mctx.gumbel_muzero_policy(
        params=(),
        rng_key=jax.random.PRNGKey(seed),
        root=root,
        recurrent_fn=recurrent,
        num_simulations=simulations,
        max_num_considered_actions=considered,
        qtransform=lambda tree, node: mctx.qtransform_completed_by_mix_value(
            tree, node, value_scale=c_scale, maxvisit_init=c_visit
        ),
    )
    tree = output.search_tree
    return {
        "seed": seed,
        "simulations": simulations,
        "max_num_considered_actions": considered,
        "c_visit": c_visit,
        "c_scale": c_scale,
        "gumbel": [float(g) for g in tree.extra_data.root_gumbel[0]],
        "root_visits": [int(n) for n in tree.children_visits[0, 0]],
        "action": int(output.action[0]),
        "improved_policy": [float(p) for p in output.action_weights[0]],
    }


def main() -> None:
    records = [run(*case) for case in CASES]
    json.dump(
        {"mctx": mctx.__version__, "jax": jax.__version__, "cases": records},
        sys.stdout,
        indent=1,
    )
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()

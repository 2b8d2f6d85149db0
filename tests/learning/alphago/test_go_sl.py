"""The AlphaGo pipeline's supervised stage on Go: the liberty planes against GNU Go's own count,
the positions and their split, the fit, and the resumable `train go --algorithm alphago`.

The games in ``data/go_expert9`` are 40 of GNU Go 3.8's 9x9 games (level 1, komi 7.5), made by
``searchlab expert go``: records no one here wrote.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest
from needs import gnugo_program, require_module

from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.go import point_to_vertex
from searchlab.learning.alphago.expert_games import load_expert_games
from searchlab.learning.networks.encoders import GoEncoder

torch = require_module("torch", "learn")

from searchlab.learning.alphago.go import GoAlphaGoConfig, run_go_alphago  # noqa: E402
from searchlab.learning.alphago.go_sl import (  # noqa: E402
    GoPositions,
    expert_positions,
    fit_sl_policy,
    legal_mask_of_planes,
    move_accuracy,
)
from searchlab.learning.networks.checkpoint import load_checkpoint  # noqa: E402
from searchlab.learning.networks.network import NetworkConfig, PolicyValueNet  # noqa: E402

GAMES = Path(__file__).parent / "data" / "go_expert9"
ENCODER = GoEncoder(9, features="liberties")


def _gnugo_liberties(
    path: Path, plies: int, vertices: list[str]
) -> tuple[set[str], set[str], list[int]]:
    """GNU Go's black and white stones after ``plies`` moves of the record, and its liberty
    count of the chain on each of ``vertices``."""
    commands = [f"loadsgf {path} {plies + 1}", "list_stones black", "list_stones white"]
    commands += [f"countlib {vertex}" for vertex in vertices]
    out = subprocess.run(
        [gnugo_program(), "--mode", "gtp"],
        input="\n".join(commands) + "\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    answers = [block[2:].strip() for block in out.split("\n\n") if block.startswith("=")]
    black, white = set(answers[1].split()), set(answers[2].split())
    return black, white, [int(answer) for answer in answers[3 : 3 + len(vertices)]]


@pytest.mark.parametrize("name", sorted(p.name for p in GAMES.glob("*.sgf"))[:6])
def test_liberty_planes_agree_with_gnugos_countlib(name: str) -> None:
    game = load_expert_games(GAMES, holdout=0.0).train
    record = next(g for g in game if g.name == name).record
    checked = 0
    for plies in (10, 25, len(record.moves) - 2):
        state = record.states[plies]
        planes = ENCODER.encode(state)
        mover = "black" if state.to_move == 0 else "white"
        stones = [p for p in range(81) if state.board[p]]
        vertices = [point_to_vertex(p, 9) for p in stones]
        black, white, counts = _gnugo_liberties(GAMES / name, plies, vertices)
        ours_black = {point_to_vertex(p, 9) for p in stones if state.board[p] == 1}
        assert (ours_black, set(vertices) - ours_black) == (black, white), "not the same position"
        for point, count in zip(stones, counts, strict=True):
            own = (state.board[point] == 1) == (mover == "black")
            first = 6 if own else 9
            row, col = divmod(point, 9)
            got = [int(planes[first + k, row, col]) for k in range(3)]
            want = [int(min(count, 3) == k + 1) for k in range(3)]
            assert got == want, f"{name} after {plies}: {point_to_vertex(point, 9)}"
            checked += 1
        assert planes[12].sum() == 81 - len(stones)
        assert planes[13].flat[state.last_move] == 1.0 or state.last_move == 81
    assert checked > 30


def test_positions_are_the_experts_moves_split_by_game() -> None:
    split = load_expert_games(GAMES, holdout=0.25, seed=3)
    train, held_out = expert_positions(GAMES, ENCODER, holdout=0.25, seed=3)
    for games, positions in ((split.train, train), (split.held_out, held_out)):
        rows = [(move, z) for g in games for _, move, z in g.positions()]
        assert len(positions) == len(rows) > 0
        assert positions.moves.tolist() == [m for m, _ in rows]
        assert positions.outcomes.tolist() == [z for _, z in rows]
    first = split.train[0]
    state, move, _ = next(first.positions())
    assert np.array_equal(train.planes[0], ENCODER.encode(state).astype(np.uint8))
    # the expert's move is always one the planes allow
    mask = legal_mask_of_planes(train.planes)
    assert mask[np.arange(len(train)), train.moves.astype(int)].all()
    assert move == train.moves[0]


def test_positions_save_and_load(tmp_path: Path) -> None:
    train, _ = expert_positions(GAMES, ENCODER, holdout=0.0, limit=3)
    back = GoPositions.load(train.save(tmp_path / "p.npz"))
    assert back.features == "liberties" and np.array_equal(back.planes, train.planes)
    assert np.array_equal(back.moves, train.moves)
    (tmp_path / "bad.npz").write_bytes(b"not a zip")
    with pytest.raises(InvalidParameterError, match="not a file of Go positions"):
        GoPositions.load(tmp_path / "bad.npz")


def test_the_sl_network_predicts_held_out_expert_moves_far_above_chance() -> None:
    train, held_out = expert_positions(GAMES, ENCODER, holdout=0.2, seed=0)
    net = PolicyValueNet(ENCODER.shape, 82, NetworkConfig(blocks=2, channels=16), seed=0)
    before = move_accuracy(net, held_out)
    fit_sl_policy(net, train, epochs=6, batch_size=64, learning_rate=3e-3, seed=0)
    after = move_accuracy(net, held_out)
    legal = legal_mask_of_planes(held_out.planes).sum(1)
    chance = float(np.mean(1.0 / legal))
    assert after > 3 * chance and after > before + 0.05, (before, after, chance)


def _config(tmp_path: Path, **keys: object) -> GoAlphaGoConfig:
    return GoAlphaGoConfig.from_dict(
        {
            "expert": str(GAMES), "sl_epochs": 3, "sl_batch_size": 64, "blocks": 1,
            "channels": 8, "hidden": 16, "rl_iterations": 2, "rl_games": 2, "pool_every": 1,
            "value_positions": 6, "value_epochs": 1, "value_max_ply": 20, "match_games": 2,
            **keys,
        }
    )  # fmt: skip


def test_a_stopped_sl_stage_resumes_to_the_unbroken_runs_weights(tmp_path: Path) -> None:
    config = _config(tmp_path)
    stops = iter([True])
    whole = run_go_alphago(tmp_path / "whole", config, should_stop=lambda: next(stops, False))
    assert set(whole["stages"]) == {"data"}
    whole = run_go_alphago(tmp_path / "whole", config)
    assert set(whole["stages"]) == {"data", "sl", "rl", "value"}
    stops = iter([False, True])  # asked before the stage, then after each epoch
    broken = run_go_alphago(tmp_path / "broken", config, should_stop=lambda: next(stops, False))
    assert "sl" not in broken["stages"] and len(broken["sl_progress"]["epochs"]) == 1
    resumed = run_go_alphago(tmp_path / "broken", config)
    assert len(resumed["sl_progress"]["epochs"]) == 3 and "value" in resumed["stages"]
    for name in ("sl-policy.ckpt", "rl-policy.ckpt", "value.ckpt"):
        a = load_checkpoint(tmp_path / "whole" / name, encoder=ENCODER).net.state_dict()
        b = load_checkpoint(tmp_path / "broken" / name, encoder=ENCODER).net.state_dict()
        assert all(torch.equal(a[key], b[key]) for key in a), name
    with pytest.raises(InvalidParameterError, match="another config"):
        run_go_alphago(tmp_path / "whole", _config(tmp_path, sl_epochs=4))


def test_rollouts_near_the_end_agree_with_gnugos_count() -> None:
    """GoRollouts' result from two plies before each game's end, averaged over 8 seeds, has
    the sign of GNU Go's own final count (its RE) in at least 36 of the 40 games."""
    from searchlab.algorithms.mcts.go_rollouts import GoRollouts

    rollouts, agree = GoRollouts(), 0
    games = load_expert_games(GAMES, holdout=0.0).train
    for game in games:
        state = game.record.states[-3]
        mean = np.mean([rollouts.rollout_values([state], seed=s)[0] for s in range(8)])
        black = mean if state.to_move == 0 else -mean
        agree += int(np.sign(black) == (1 if game.winner == 0 else -1))
    assert len(games) == 40 and agree >= 36, agree


def test_the_alphago_agent_plays_go_from_a_finished_pipeline(tmp_path: Path) -> None:
    from searchlab.agents import make_agent
    from searchlab.domains.games.go import Go

    record = run_go_alphago(tmp_path / "run", _config(tmp_path))
    assert set(record["stages"]) == {"data", "sl", "rl", "value"}
    assert record["stages"]["rl"]["games"] == 4
    game = Go(9, komi=7.5)
    agent = make_agent(f"alphago:checkpoint={tmp_path / 'run'},simulations=24,lambda=0.5", game,
                       seed=1)  # fmt: skip
    state = game.initial_state()
    for _ in range(4):
        move = agent.act(state)
        assert state.is_legal(move)
        state = state.apply(move)
    stats = agent.last_result.stats
    assert stats["simulations"] == 24 and stats["lambda"] == 0.5


@pytest.mark.parametrize(
    ("keys", "message"),
    [
        ({"sl_epochs": 2}, "expert is needed"),
        ({"expert": "x", "features": "ladders"}, "features must be one of"),
        ({"expert": "x", "holdout": 1.5}, "holdout must be a finite number in"),
        ({"expert": "x", "epochs": 3}, "unknown key epochs"),
        ({"expert": "x", "blocks": 0}, "blocks must be an integer"),
        ({"expert": "x", "rl_form": "q"}, "rl_form must be one of"),
        ({"expert": "x", "rl_games": 1}, "rl_games must be an integer >= 2"),
    ],
)
def test_bad_configs_are_one_line(keys: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidParameterError, match=message):
        GoAlphaGoConfig.from_dict(keys)

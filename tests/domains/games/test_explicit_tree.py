"""The explicit tree formats and their errors (file:line quoted)."""

from __future__ import annotations

from pathlib import Path

import pytest

from searchlab.domains.games.conformance import assert_conforms
from searchlab.domains.games.explicit_tree import (
    ExplicitTree,
    ExplicitTreeGame,
    TreeFormatError,
    load_tree,
)

TREES = Path(__file__).resolve().parents[3] / "examples" / "trees"


@pytest.mark.parametrize("name", ["aima_fig5_2.tree", "aima_fig5_2.json", "deep_cutoff.tree"])
def test_example_trees_conform(name: str) -> None:
    assert_conforms(ExplicitTreeGame(load_tree(TREES / name)), num_playouts=10)


def test_text_format_details() -> None:
    tree = ExplicitTree.from_text(
        "# comment\n\nmax A: B x=1.5 -3  # trailing\nmin B: 2 y=4\n", source="t.tree"
    )
    assert tree.names() == ["A", "B", "B.1", "y", "x", "A.3"]
    assert tree.value("A.3") == -3 and tree.value("x") == 1.5
    assert tree.kind("B") == "min" and tree.parent("y") == "B" and tree.height() == 2


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "t.tree:1: no nodes"),
        ("max A B C", "t.tree:1: expected 'max NAME: CHILD ...'"),
        ("maxi A: 1 2", "t.tree:1: node type must be max or min, got 'maxi'"),
        ("max A:", "t.tree:1: node 'A' has no children"),
        ("max A: 1\nmin A: 2", "t.tree:2: node 'A' is defined twice"),
        ("max A: B\n\nmin B: 1 x=", "t.tree:3: bad child 'x='"),
        ("max A: 1 2!", "t.tree:1: bad child '2!'"),
        ("max A: B C\nmin C: 1", "t.tree:1: child 'B' of 'A' is not defined"),
        ("max A: B C\nmin B: C\nmin C: 1", "t.tree:2: node 'C' is a child of both 'A' and 'B'"),
        ("max A: B\nmin B: A", "t.tree:2: the root 'A' is used as a child"),
        ("max A: 1\nmin Z: 2", "t.tree:2: node 'Z' is not reachable from the root 'A'"),
        ("max A: x=1 x=2", "t.tree:1: node 'x' is defined twice"),
        ("max A: x=nan", "t.tree:1: leaf value 'x=nan' must be a finite"),
        ("max A: x=inf", "t.tree:1: leaf value 'x=inf' must be a finite number"),
        ("max 9A: 1", "t.tree:1: bad node name '9A'"),
    ],
)
def test_text_format_errors(text: str, message: str) -> None:
    with pytest.raises(TreeFormatError) as caught:
        ExplicitTree.from_text(text, source="t.tree")
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"type": "max", "children": [1,]}', "j.json:1: invalid JSON"),
        ('{"type": "maxi", "children": [1]}', "j.json: root: type must be 'max' or 'min'"),
        ('{"type": "max", "children": []}', "needs a non-empty children list"),
        ('{"type": "max", "children": [{"value": "x"}]}', "value must be a number"),
        ('{"name": "A", "type": "max", "children": [{"name": "A", "value": 1}]}', "twice"),
        ("3", "the root must be a max or min node"),
        ("[1, 2]", "expected an object or a number"),
    ],
)
def test_json_format_errors(text: str, message: str) -> None:
    with pytest.raises(TreeFormatError, match=message.replace("[", r"\[")):
        ExplicitTree.from_json(text, source="j.json")


def test_load_tree_reports_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.tree"
    path.write_text("max A: B\n")
    with pytest.raises(TreeFormatError, match=r"bad\.tree:1: child 'B'"):
        load_tree(path)


def test_illegal_moves_in_a_tree() -> None:
    state = ExplicitTreeGame(ExplicitTree.from_text("max A: B 2\nmin B: 1")).initial_state()
    assert state.string_to_action("B") == 0 and state.string_to_action("1") == 1
    from searchlab.core.errors import IllegalMoveError

    with pytest.raises(IllegalMoveError, match="'Q' at 'A'"):
        state.string_to_action("Q")
    with pytest.raises(IllegalMoveError):
        state.apply(5)

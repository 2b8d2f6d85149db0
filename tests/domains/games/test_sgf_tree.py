"""The SGF format, apart from Go: the parser and its visitor, the game tree with variations and
comments, the writer's round trip; checked node by node against sgfmill (an independent SGF
library) on files written by hand, by GNU Go, by sgfmill and by searchlab's own writer, and the
Go builder on the variations of those trees (GNU Go's ``loadsgf`` as the referee of a 19x19
game)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest
from cli_support import assert_one_line_error, run_main
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from needs import gnugo_program, require_module

from searchlab.core.errors import InvalidParameterError, SearchlabError
from searchlab.domains.games.go import Go
from searchlab.domains.games.go.sgf import (
    SgfFormatError,
    load_sgf,
    read_sgf,
    replay_sgf_line,
    sgf_tree_of_game,
    write_sgf,
)
from searchlab.domains.games.sgf_syntax import (
    SgfSource,
    SgfVisitor,
    decode_text,
    encode_text,
    visit_sgf,
)
from searchlab.domains.games.sgf_tree import (
    SgfNode,
    load_sgf_tree,
    parse_sgf,
    write_sgf_tree,
)

sgfmill_sgf = require_module("sgfmill.sgf", "test")
sgfmill_grammar = require_module("sgfmill.sgf_grammar", "test")

FILES = Path(__file__).parent / "sgf_files"
REPO = Path(__file__).resolve().parents[3]
HAND_WRITTEN = ["review_19x19.sgf", "collection.sgf", "escapes_crlf.sgf", "latin1.sgf"]
GNUGO_WRITTEN = ["gnugo_19x19.sgf"]
# GNU Go's games against searchlab's MCTS, as searchlab's arena wrote them (benchmarks/).
OUR_WRITER = sorted((REPO / "benchmarks" / "results" / "go_gnugo_sgf").glob("*.sgf"))[:12]


def charset(data: bytes) -> str:
    """The encoding our reader uses for a file of the test set (each has CA or is UTF-8)."""
    games = sgfmill_grammar.parse_sgf_collection(data)
    raw = games[0].sequence[0].get("CA", [b"UTF-8"])[0]
    return str(raw.decode("ascii"))


def sgfmill_games(data: bytes) -> list:
    """sgfmill's games of ``data``; without ``CA``, read as UTF-8 as our reader does (sgfmill's
    default is ISO-8859-1)."""
    games = []
    for tree in sgfmill_grammar.parse_sgf_collection(data):
        override = None if "CA" in tree.sequence[0] else "UTF-8"
        games.append(sgfmill_sgf.Sgf_game.from_coarse_game_tree(tree, override_encoding=override))
    return games


def assert_same_as_sgfmill(ours: SgfNode, theirs: object, encoding: str) -> int:
    """Walk both trees together; every node's properties (raw values) and children agree.
    Returns the number of nodes compared."""
    stack = [(ours, theirs, "root")]
    count = 0
    added = {"CA"} - set(ours.properties)  # sgfmill's encoding override adds CA to the root
    while stack:
        mine, other, path = stack.pop()
        count += 1
        assert sorted(mine.properties) == sorted(
            set(other.properties()) - (added if path == "root" else set())
        ), path  # type: ignore[attr-defined]
        for ident, values in mine.properties.items():
            raw = [value.decode(encoding) for value in other.get_raw_list(ident)]  # type: ignore[attr-defined]
            assert values == raw, f"{path} {ident}"
        for ident in ("C", "PB", "PW", "GN", "N"):
            if len(mine.properties.get(ident, ())) == 1:  # the text read the same: escapes...
                assert mine.text(ident) == other.get(ident), f"{path} {ident}"  # type: ignore[attr-defined]
        children = list(other)  # type: ignore[call-overload]
        assert len(mine.children) == len(children), path
        for index, (a, b) in enumerate(zip(mine.children, children, strict=True)):
            stack.append((a, b, f"{path}/{index}"))
    return count


def file_ids(paths: list[Path]) -> list[str]:
    return [path.name[-24:] for path in paths]


ALL_FILES = [FILES / name for name in HAND_WRITTEN + GNUGO_WRITTEN] + OUR_WRITER


def test_the_test_set_is_there() -> None:
    assert len(OUR_WRITER) == 12, "benchmarks/results/go_gnugo_sgf/ should hold GNU Go's games"


@pytest.mark.parametrize("path", ALL_FILES, ids=file_ids(ALL_FILES))
def test_the_tree_is_sgfmills_node_by_node(path: Path) -> None:
    data = path.read_bytes()
    ours = load_sgf_tree(path)
    theirs = sgfmill_games(data)
    assert len(ours) == len(theirs)
    compared = sum(
        assert_same_as_sgfmill(mine, other.get_root(), charset(data))
        for mine, other in zip(ours, theirs, strict=True)
    )
    assert compared == sum(len(list(root.nodes())) for root in ours) > 1


@pytest.mark.parametrize("path", ALL_FILES, ids=file_ids(ALL_FILES))
def test_what_we_write_sgfmill_reads_as_the_same_tree(path: Path) -> None:
    ours = load_sgf_tree(path)
    text = write_sgf_tree(ours)
    assert all(again.same_tree(tree) for again, tree in zip(parse_sgf(text), ours, strict=True))
    encoding = charset(path.read_bytes())  # the text is written in the charset of its CA
    theirs = sgfmill_games(text.encode(encoding))
    for mine, other in zip(ours, theirs, strict=True):
        assert_same_as_sgfmill(mine, other.get_root(), encoding)
    assert write_sgf_tree(parse_sgf(text)) == text  # the canonical text is a fixed point


def sgfmill_written() -> bytes:
    """A game tree that sgfmill builds and writes: variations, comments with escapes."""
    game = sgfmill_sgf.Sgf_game(size=13)
    root = game.get_root()
    root.set("KM", 6.5)
    root.set("PB", "Lee [9p] \\ Sedol")
    root.set("C", "Comment with ] and \\ and\ntwo lines")
    first = root.new_child()
    first.set_move("b", (9, 3))
    main = first.new_child()
    main.set_move("w", (3, 9))
    main.set("C", "main line")
    side = first.new_child()
    side.set_move("w", (3, 3))
    side.set("C", "a variation [side]")
    deeper = side.new_child()
    deeper.set_move("b", None)
    deeper.set("TR", [(0, 0), (1, 1)])
    after = main.new_child()
    after.set_move("b", (6, 6))
    return bytes(game.serialise())


def test_a_tree_sgfmill_wrote_is_read_with_its_variations_and_texts() -> None:
    data = sgfmill_written()
    (ours,) = parse_sgf(data.decode("utf-8"))
    (theirs,) = sgfmill_games(data)
    assert assert_same_as_sgfmill(ours, theirs.get_root(), "utf-8") == 6
    assert ours.text("PB") == "Lee [9p] \\ Sedol"
    assert ours.comment == "Comment with ] and \\ and\ntwo lines"
    first = ours.children[0]
    assert [child.comment for child in first.children] == ["main line", "a variation [side]"]
    assert [[node.get("B") or node.get("W") for node in line[1:]] for line in ours.lines()] == [
        ["dd", "jj", "gg"],
        ["dd", "dj", "tt"],
    ]
    # The Go builder replays each line through the rules (sgfmill's rows count from the bottom).
    games = [replay_sgf_line(line) for line in ours.lines()]
    assert [[g.final.action_to_string(a) for a in g.moves] for g in games] == [
        ["D10", "K4", "G7"],
        ["D10", "D4", "pass"],
    ]


def test_a_collection_holds_every_game() -> None:
    games = load_sgf_tree(FILES / "collection.sgf")
    assert [root.get("SZ") for root in games] == ["9", "13", "19", "8"]
    assert [len(list(root.lines())) for root in games] == [1, 3, 1, 1]
    old_style = games[2]  # FF[3] identifiers: the lower-case letters are dropped
    assert list(old_style.properties) == ["FF", "GM", "SZ", "AB", "AW", "PB"]
    assert load_sgf(FILES / "collection.sgf").game.size == 9  # the Go builder: the first game


def test_visitor_events_follow_the_text_and_variations_can_be_skipped() -> None:
    class Events(SgfVisitor):
        def __init__(self, skip: bool) -> None:
            self.events: list[str] = []
            self.skip = skip

        def begin_game(self, at: int) -> bool:
            self.events.append("game")
            return True

        def begin_node(self, at: int) -> None:
            self.events.append(";")

        def visit_property(
            self, ident: str, values: Sequence[str], at: int, value_at: Sequence[int]
        ) -> None:
            self.events.append(ident + "".join(f"[{v}]" for v in values))

        def begin_variation(self, at: int) -> bool:
            self.events.append("(")
            return not (self.skip and self.events.count("(") > 1)

        def end_variation(self) -> None:
            self.events.append(")")

        def end_game(self) -> None:
            self.events.append("end")

    text = "(;SZ[9];B[ee](;W[cc];B[gg])(;W[gg]TR[aa][bb]))"
    every = Events(skip=False)
    visit_sgf(SgfSource(text), every)
    assert " ".join(every.events) == (
        "game ; SZ[9] ; B[ee] ( ; W[cc] ; B[gg] ) ( ; W[gg] TR[aa][bb] ) end"
    )
    main_only = Events(skip=True)
    visit_sgf(SgfSource(text), main_only)
    assert " ".join(main_only.events) == "game ; SZ[9] ; B[ee] ( ; W[cc] ; B[gg] ) ( end"
    from_tree = Events(skip=False)  # the tree drives a visitor as its text does
    parse_sgf(text)[0].accept(from_tree)
    assert from_tree.events == every.events


def test_the_offsets_point_into_the_text() -> None:
    text = "(;SZ[9]\n;B[ee]C[x]\n(;W[cc]))"
    root = parse_sgf(text)[0]
    move = root.children[0]
    assert text[move.at] == ";" and move.positions["C"] == (14, 15)
    assert SgfSource(text).where(move.positions["B"][1]) == "SGF:2:3"


def test_nodes_made_in_code_are_written_and_checked() -> None:
    root = SgfNode({"GM": ["1"], "SZ": ["9"]})
    root.set_text("C", "a ] b \\ c")
    first = root.add_child({"B": ["ee"]})
    first.add_child({"W": ["cc"]})
    first.add_child({"W": ["gg"]}).set_text("N", "line\nbreak")
    text = write_sgf_tree(root)
    assert text == "(;GM[1]SZ[9]C[a \\] b \\\\ c]\n;B[ee]\n(;W[cc])\n(;W[gg]N[line break])\n)\n"
    assert parse_sgf(text)[0].same_tree(root)
    assert not parse_sgf("(;GM[1]SZ[9];B[ee];W[cc])")[0].same_tree(root)
    with pytest.raises(InvalidParameterError, match="bad SGF property identifier 'b'"):
        root.set("b", ["x"])
    with pytest.raises(InvalidParameterError, match="bad raw SGF value"):
        root.set("C", ["a ] b"])
    with pytest.raises(InvalidParameterError, match="needs a list of values"):
        root.set("C", "text")


def test_the_go_writer_is_the_tree_writer() -> None:
    game = Go(9, 7.5)
    state = game.initial_state()
    for move in ("E5", "C3", "pass"):
        state = state.apply(state.string_to_action(move))
    tree = sgf_tree_of_game(state, comments={1: "first"})
    assert write_sgf_tree(tree) == write_sgf(state, comments={1: "first"})
    tree.children[0].add_child({"W": ["gc"]}).set_text("C", "better")  # a variation at move 2
    record = read_sgf(write_sgf_tree(tree))
    assert record.moves == state.moves  # the main line stays the first variation
    assert record.tree is not None and len(record.tree.children[0].children) == 2
    other = replay_sgf_line(list(record.tree.lines())[1])
    assert [other.final.action_to_string(a) for a in other.moves] == ["E5", "G7"]
    assert other.comments == {1: "first", 2: "better"}


def test_the_go_builder_reads_every_line_of_a_review() -> None:
    record = load_sgf(FILES / "review_19x19.sgf")
    assert record.game.size == 19 and record.metadata["PB"] == "Black [1d]"
    assert record.comments[0].startswith("Opening review. This line is joined")
    assert len(record.moves) == 7  # the main line: the first variation at every branch
    assert record.tree is not None
    lengths = [len(replay_sgf_line(line).moves) for line in record.tree.lines()]
    assert lengths == [7, 8, 7, 8, 5]


def test_gnugo_places_the_stones_of_its_own_record_as_we_do(tmp_path: Path) -> None:
    program = gnugo_program()
    path = FILES / "gnugo_19x19.sgf"
    record = load_sgf(path, superko="simple")  # GNU Go plays simple ko
    assert len(record.moves) == 202 and record.final.is_terminal()
    done = subprocess.run(
        [program, "--mode", "gtp"],
        input=f"loadsgf {path}\nlist_stones black\nlist_stones white\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    answers = [block[1:].strip() for block in done.stdout.split("\n\n") if block.strip()]
    vertices = {
        colour: {record.start.string_to_action(v) for v in answer.split()}
        for colour, answer in zip((1, 2), answers[1:3], strict=True)
    }
    for colour in (1, 2):
        ours = {point for point, value in enumerate(record.final.board) if value == colour}
        assert ours == vertices[colour] and len(ours) > 20


MALFORMED = [
    ("(B[ee])", "SGF:1:2", "a property outside a node: ';' is missing"),
    ("(;B[ee](;W[cc])W[dd])", "SGF:1:16", "a property outside a node"),
    ("(;C[a \\] b)", "SGF:1:4", "unterminated value"),
    ("(;C[a \\\\] b])", "SGF:1:11", "bad property identifier 'b])'"),
    ("(;SZ[9](;B[ee]", "SGF:1:15", "2 game tree(s) open ('(' at SGF:1:8"),
    ("(;SZ[9]((;B[ee])))", "SGF:1:9", "a variation needs a node first"),
    ("(;SZ[9]) x", "SGF:1:10", "unexpected text after the game"),
]


@pytest.mark.parametrize(("text", "where", "problem"), MALFORMED)
def test_malformed_text_is_one_line_with_its_place(text: str, where: str, problem: str) -> None:
    with pytest.raises(SgfFormatError) as caught:
        parse_sgf(text)
    message = str(caught.value)
    assert "\n" not in message and message.startswith(where + ": "), message
    assert problem in message and isinstance(caught.value, SearchlabError)


def test_the_go_builder_refuses_another_game_and_bad_points() -> None:
    othello = "(;GM[2]FF[4]SZ[8];B[dc])"
    assert parse_sgf(othello)[0].children[0].get("B") == "dc"  # the format reads any game
    with pytest.raises(SgfFormatError, match=r"^SGF:1:5: GM\[2\] is not a Go record"):
        read_sgf(othello)
    with pytest.raises(SgfFormatError, match=r"^SGF:1:17: bad point 'jj' in W\[jj\]"):
        read_sgf("(;SZ[9];B[ee](;W[jj])(;W[cc]))")
    root = parse_sgf("(;SZ[9];B[ee](;W[cc])(;W[zz]))")[0]
    with pytest.raises(SgfFormatError, match=r"^SGF: bad point 'zz'"):  # no text: no place
        replay_sgf_line(list(root.lines())[1])
    with pytest.raises(SgfFormatError, match=r"^game\.sgf:1:25: bad point 'zz'"):
        replay_sgf_line(
            list(root.lines())[1], source=SgfSource("(;SZ[9];B[ee](;W[cc])(;W[zz]))", "game.sgf")
        )


def test_the_command_line_reads_the_main_line_and_refuses_a_broken_file_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    agent = ["--agent", "mcts:simulations=30,tier=reference", "--seed", "5", "--json"]
    review = tmp_path / "review.sgf"
    review.write_text("(;GM[1]SZ[7]KM[6.5];B[dd](;W[cc];B[ce])(;W[ee]C[other]))")
    code, out, err = run_main(capsys, "analyse", "go", "--sgf", str(review), *agent)
    assert code == 0 and json.loads(out)["move"] == 3, err  # the main line: D4 C5 C3
    broken = tmp_path / "broken.sgf"
    for text, problem in [
        ("(;GM[1]SZ[7](B[dd]))", "broken.sgf:1:14: a property outside a node"),
        ("(;GM[1]SZ[7];B[dd](;W[cc]", "broken.sgf:1:26: unbalanced parentheses"),
        ("(;GM[1]SZ[7];B[dd](;W[hh])(;W[cc]))", "broken.sgf:1:22: bad point 'hh' in W[hh]"),
        ("(;GM[2]SZ[8];B[dd])", "broken.sgf:1:5: GM[2] is not a Go record"),
    ]:
        broken.write_text(text)
        code, _, err = run_main(capsys, "analyse", "go", "--sgf", str(broken), *agent)
        assert_one_line_error(code, err, problem)


# -- property-based: any tree round-trips, and any text we accept sgfmill reads the same --------
TEXT = st.text(alphabet=st.sampled_from("ab ]\\:\n\r\t[()é;"), max_size=8)


@st.composite
def trees(draw: st.DrawFn) -> SgfNode:
    """A random game tree: up to 12 nodes, properties with escaped text values."""
    root = SgfNode()
    nodes = [root]
    for _ in range(draw(st.integers(0, 11))):
        nodes.append(draw(st.sampled_from(nodes)).add_child())
    for node in nodes:
        for ident in draw(st.lists(st.sampled_from(["B", "W", "C", "LB", "XYZ"]), unique=True)):
            node.set(
                ident, [encode_text(text) for text in draw(st.lists(TEXT, min_size=1, max_size=3))]
            )
    return root


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trees())
def test_any_tree_is_written_and_read_back_the_same_by_us_and_by_sgfmill(root: SgfNode) -> None:
    text = write_sgf_tree(root)
    (again,) = parse_sgf(text)
    assert again.same_tree(root)
    (theirs,) = sgfmill_games(text.encode("utf-8"))
    assert assert_same_as_sgfmill(again, theirs.get_root(), "utf-8") == len(list(root.nodes()))
    for mine, node in zip(again.nodes(), root.nodes(), strict=True):
        if "C" in node.properties:  # the text survives the escapes
            assert mine.comment == decode_text(node.properties["C"][0])


TOKENS = ["(", ")", ";", "(;", "B", "C", "AB", "b", "[", "]", "[x]", "\\", " ", "\n", "é", "\u00a0"]


@st.composite
def edited_texts(draw: st.DrawFn) -> str:
    """The text of a random tree with up to three random edits (a character deleted, a token
    inserted): mostly still SGF, often broken at one place."""
    text = write_sgf_tree(draw(trees()))
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(text)))
        if draw(st.booleans()):
            text = text[:at] + text[at + 1 :]
        else:
            text = text[:at] + draw(st.sampled_from(TOKENS)) + text[at:]
    return text


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edited_texts())
def test_random_text_is_refused_in_one_line_or_read_as_sgfmill_reads_it(text: str) -> None:
    try:
        ours = parse_sgf(text)
    except SgfFormatError as error:
        assert "\n" not in str(error) and str(error).startswith("SGF:")
        return
    theirs = sgfmill_games(text.encode("utf-8"))
    assert len(ours) == len(theirs)
    for mine, other in zip(ours, theirs, strict=True):
        assert_same_as_sgfmill(mine, other.get_root(), "utf-8")

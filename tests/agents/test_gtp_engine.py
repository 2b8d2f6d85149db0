"""The GTP engine is the library's (issue 29): driven in-process, one command string in and its
answer out, with no part of the command line loaded; the answers are those GTP v2 prescribes
(https://www.lysator.liu.se/~gunnar/gtp/gtp2-spec-draft2/gtp2-spec.html, sections 2.6, 3 and
6) and the scores Tromp-Taylor area counted by hand."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from searchlab.agents.gtp_engine import GtpServer


def test_a_session_in_process_answers_as_gtp_v2_says() -> None:
    server = GtpServer("random", size=5, komi=0.5, seed=3)
    assert server.handle("protocol_version") == "= 2\n\n"
    assert server.handle("7 known_command genmove") == "=7 true\n\n"  # the id comes back
    assert server.handle("known_command frobnicate") == "= false\n\n"
    assert server.handle("frobnicate") == "? unknown command\n\n"
    assert server.handle("   # only a comment") is None  # no command: no answer
    assert server.handle("boardsize 3") == "? unacceptable size\n\n"
    # black's wall on the C column, a white stone beside it: black has the A, B and C columns
    # (15 points); the D and E columns touch both colours, so only the white stone counts
    for vertex in ("C1", "C2", "C3", "C4", "C5"):
        assert server.handle(f"play b {vertex}") == "= \n\n"
    assert server.handle("play w D3") == "= \n\n"
    assert server.handle("final_score") == "= B+13.5\n\n"  # 15 - 1 - 0.5
    assert server.handle("play w C3").startswith("? illegal move")  # occupied
    assert server.handle("undo") == "= \n\n"  # takes D3 back: black 15 + D and E columns
    assert server.handle("final_score") == "= B+24.5\n\n"  # 25 - 0 - 0.5
    answer = server.handle("genmove w")
    assert answer is not None and answer.startswith("= ") and answer.endswith("\n\n")
    vertex = answer[2:].strip()
    if vertex not in ("pass", "resign"):  # a stone was placed: the point is taken now
        assert server.handle(f"play b {vertex}").startswith("? illegal move")
    assert server.handle("quit") == "= \n\n" and server.done
    server.close()


def test_the_engine_runs_without_the_command_line() -> None:
    # a fresh interpreter: serve() on two in-memory streams, then which modules were loaded
    script = textwrap.dedent(
        """
        import io, json, sys
        from searchlab.agents.gtp_engine import GtpServer, serve

        out = io.StringIO()
        commands = "1 name\\nboardsize 5\\nkomi 0.5\\nplay b C3\\nfinal_score\\nquit\\nname\\n"
        serve(GtpServer("random", size=9), io.StringIO(commands), out)
        cli = sorted(m for m in sys.modules if m.startswith("searchlab.cli"))
        print(json.dumps({"out": out.getvalue(), "cli": cli}))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    result = json.loads(done.stdout)
    assert result["cli"] == []
    # every answer ends with an empty line; quit ends the session (the last name is unread);
    # one black stone alone owns the whole 5x5 board: 25 - 0.5
    assert result["out"] == "=1 searchlab\n\n= \n\n= \n\n= \n\n= B+24.5\n\n= \n\n"

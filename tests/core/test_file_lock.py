"""taking_turns: processes asking for one lock file run their blocks one after another."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from searchlab.core.file_lock import taking_turns

CHILD = """
import sys, time
from pathlib import Path
from searchlab.core.file_lock import taking_turns

lock, log, name = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
with taking_turns(lock):
    with log.open("a") as out:
        out.write(f"enter {name}\\n")
    time.sleep(0.5)  # long enough for the other process to try meanwhile
    with log.open("a") as out:
        out.write(f"leave {name}\\n")
"""


def test_two_processes_take_turns(tmp_path: Path) -> None:
    lock, log = tmp_path / "deep" / "folder" / "x.lock", tmp_path / "log.txt"
    children = [
        subprocess.Popen([sys.executable, "-c", CHILD, str(lock), str(log), name])
        for name in ("a", "b")
    ]
    assert [child.wait(timeout=120) for child in children] == [0, 0]
    events = log.read_text().split("\n")[:-1]
    assert sorted(events) == ["enter a", "enter b", "leave a", "leave b"]
    first = events[0].split()[1]
    assert events[1] == f"leave {first}"  # the second entered only after the first left


def test_a_lock_that_cannot_be_made_runs_the_block_anyway(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    ran = []
    with taking_turns(blocker / "x.lock"):  # its folder would be inside a file
        ran.append(True)
    assert ran == [True]

"""A long fuzz campaign over every parser and boundary of searchlab: random inputs and
mutations of the valid files in ../shared/data and examples/, fed to each target of
``tests/fuzz/fuzz_targets.py`` in turn (equal time per target), counting the inputs tried
and the defects found: a traceback (any exception but a one-line ``SearchlabError``), a
wrong answer (an accepted input whose result fails the target's checks), a hang (one input
over ``--hang`` seconds), and, for a sample of the rejected inputs, the command line not
answering with one line and exit code 2.

    nice -n 10 .venv/bin/python benchmarks/fuzz_campaign.py --seconds 60 --seed 1
    nice -n 10 .venv/bin/python benchmarks/fuzz_campaign.py --seconds 3600 --targets obf,tree_json

Prints the machine, then a table per target (tried, accepted, rejected, command-line checks,
tracebacks, wrong answers, hangs), then each distinct defect once with the input that showed
it (``--save DIR`` also writes those inputs to files). Exits 1 if any defect was found.
The same seed and the same per-target input counts (``--inputs N`` instead of
``--seconds``) give the same inputs.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "fuzz"))

from fuzz_targets import (  # noqa: E402
    TARGETS,
    Target,
    WrongAnswer,
    check_cli_error,
    cleanup,
    mutate,
    outcome,
    random_input,
)

CORPUS_LIMIT = 400  # accepted inputs kept per target as further mutation seeds
CLI_EVERY = 25  # one rejected input in this many also goes through the command line


class Hang(Exception):
    """One input ran past the hang limit."""


@dataclass
class Tally:
    tried: int = 0
    accepted: int = 0
    rejected: int = 0
    cli: int = 0
    seconds: float = 0.0
    defects: dict[str, tuple[str, object, str]] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)

    def count(self, kind: str) -> int:
        return sum(n for key, n in self.counts.items() if self.defects[key][0] == kind)


def _signature(error: BaseException) -> str:
    """Where an exception came from: its type and the last frame inside searchlab."""
    frames = traceback.extract_tb(error.__traceback__)
    inside = [f for f in frames if "searchlab" in f.filename and "fuzz" not in f.filename]
    frame = (inside or frames or [None])[-1]
    where = f"{Path(frame.filename).name}:{frame.lineno}" if frame else "?"
    return f"{type(error).__name__} at {where}"


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise Hang


def run_target(
    target: Target,
    rng: random.Random,
    tally: Tally,
    workdir: Path,
    *,
    seconds: float | None,
    inputs: int | None,
    hang: float,
) -> None:
    """Feed ``target`` for ``seconds`` (or ``inputs`` inputs), adding to ``tally``."""
    seeds = list(target.seeds())
    corpus = list(seeds)
    start = time.perf_counter()
    done = 0
    while True:
        if inputs is not None and done >= inputs:
            break
        if seconds is not None and time.perf_counter() - start >= seconds:
            break
        done += 1
        data = (
            random_input(rng, target, seeds)
            if rng.random() < 0.3
            else mutate(corpus[rng.randrange(len(corpus))], rng, target, corpus)
        )
        tally.tried += 1
        signal.setitimer(signal.ITIMER_REAL, hang)
        try:
            result = outcome(target, data, workdir)
            if result == "ok":
                tally.accepted += 1
                if len(corpus) < CORPUS_LIMIT and data not in corpus:
                    corpus.append(data)
            else:
                tally.rejected += 1
                if target.cli is not None and tally.rejected % CLI_EVERY == 1:
                    signal.setitimer(signal.ITIMER_REAL, hang * 4)
                    check_cli_error(target, data, workdir)
                    tally.cli += 1
        except Hang:
            _record(tally, "hang", f"Hang over {hang} s", data, "")
        except WrongAnswer as error:
            _record(tally, "wrong", f"WrongAnswer: {str(error)[:120]}", data, str(error))
        except Exception as error:  # the defect the campaign looks for
            text = "".join(traceback.format_exception(error)[-3:])
            _record(tally, "traceback", _signature(error), data, text)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            cleanup(workdir)
    tally.seconds += time.perf_counter() - start


def _record(tally: Tally, kind: str, key: str, data: object, detail: str) -> None:
    tally.counts[key] = tally.counts.get(key, 0) + 1
    if key not in tally.defects or len(repr(data)) < len(repr(tally.defects[key][1])):
        tally.defects[key] = (kind, data, detail)  # keep the shortest input that shows it


def machine() -> list[str]:
    lines = [f"date: {datetime.now(UTC).isoformat(timespec='seconds')}"]
    lines.append(f"uname: {' '.join(platform.uname())}")
    try:
        cpu = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
        lines += [f"lscpu: {line}" for line in cpu.splitlines()[:10]]
    except (OSError, subprocess.CalledProcessError):
        lines.append(f"cpus: {os.cpu_count()}")
    lines.append(f"python: {platform.python_version()}")
    try:
        commit = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        lines.append(f"searchlab commit: {commit} (plus the working tree)")
    except (OSError, subprocess.CalledProcessError):
        pass
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="total time (all targets)")
    parser.add_argument("--inputs", type=int, help="inputs per target (instead of --seconds)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--targets", default="", help="comma-separated target names (all)")
    parser.add_argument("--rounds", type=int, default=10, help="passes over the targets")
    parser.add_argument("--hang", type=float, default=10.0, help="seconds before a hang")
    parser.add_argument("--save", type=Path, help="folder for the inputs that showed defects")
    args = parser.parse_args(argv)
    names = [name for name in args.targets.split(",") if name] or sorted(TARGETS)
    unknown = [name for name in names if name not in TARGETS]
    if unknown or args.seconds <= 0 or args.rounds < 1 or args.hang <= 0:
        parser.error(
            f"unknown targets {unknown}; known: {', '.join(sorted(TARGETS))}"
            if unknown
            else "--seconds, --rounds and --hang must be positive"
        )
    signal.signal(signal.SIGALRM, _alarm)

    print("# searchlab fuzz campaign")
    for line in machine():
        print(f"# {line}")
    budget = f"--inputs {args.inputs} per target" if args.inputs else f"{args.seconds:g} s"
    print(f"# seed {args.seed}, {budget}, {args.rounds} rounds, targets: {', '.join(names)}")
    sys.stdout.flush()

    tallies = {name: Tally() for name in names}
    rngs = {name: random.Random(f"{args.seed}:{name}") for name in names}
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        try:
            for _ in range(args.rounds):
                for name in names:
                    run_target(
                        TARGETS[name],
                        rngs[name],
                        tallies[name],
                        workdir,
                        seconds=None if args.inputs else args.seconds / args.rounds / len(names),
                        inputs=None if not args.inputs else -(-args.inputs // args.rounds),
                        hang=args.hang,
                    )
        except KeyboardInterrupt:
            print("# interrupted: the counts so far")

    header = (
        f"{'target':<15} {'tried':>11} {'accepted':>10} {'rejected':>11} {'cli':>7} "
        f"{'tracebacks':>10} {'wrong':>6} {'hangs':>6} {'inputs/s':>9}"
    )
    print(header)
    print("-" * len(header))
    total = Tally()
    for name in names:
        tally = tallies[name]
        rate = tally.tried / tally.seconds if tally.seconds else 0.0
        print(
            f"{name:<15} {tally.tried:>11,} {tally.accepted:>10,} {tally.rejected:>11,} "
            f"{tally.cli:>7,} {tally.count('traceback'):>10,} {tally.count('wrong'):>6,} "
            f"{tally.count('hang'):>6,} {rate:>9,.0f}"
        )
        for field_name in ("tried", "accepted", "rejected", "cli", "seconds"):
            setattr(total, field_name, getattr(total, field_name) + getattr(tally, field_name))
    defects = sum(sum(t.counts.values()) for t in tallies.values())
    print("-" * len(header))
    tracebacks = sum(t.count("traceback") for t in tallies.values())
    wrong = sum(t.count("wrong") for t in tallies.values())
    hangs = sum(t.count("hang") for t in tallies.values())
    print(
        f"{'total':<15} {total.tried:>11,} {total.accepted:>10,} {total.rejected:>11,} "
        f"{total.cli:>7,} {tracebacks:>10,} {wrong:>6,} {hangs:>6,} "
        f"{total.tried / total.seconds if total.seconds else 0:>9,.0f}"
    )
    print(f"# {total.seconds:,.0f} s fuzzing; {defects} inputs showed a defect")
    for name in names:
        for number, (key, (kind, data, detail)) in enumerate(tallies[name].defects.items()):
            print(f"\n## {name}: {kind}: {key} ({tallies[name].counts[key]} inputs)")
            print(f"input: {data!r}"[:600])
            if detail:
                print(detail.rstrip()[-1500:])
            if args.save is not None:
                args.save.mkdir(parents=True, exist_ok=True)
                path = args.save / f"{name}-{number}.{'bin' if isinstance(data, bytes) else 'txt'}"
                if isinstance(data, bytes):
                    path.write_bytes(data)
                else:
                    path.write_text(data, encoding="utf-8", errors="surrogatepass")
    return 1 if defects else 0


if __name__ == "__main__":
    raise SystemExit(main())

#!/bin/sh
# searchlab's best Monte Carlo Go agent against GNU Go 3.8 (level 10) on 9x9, komi 7.5, colours
# alternated, in the arena (games stored in SQLite, every game also written as SGF).
#
#   benchmarks/go_gnugo.sh match    # 60 games at "1 s a move", two at a time on the two cores
#   benchmarks/go_gnugo.sh curve    # 8 games each at 0.25, 0.5 and 2 s a move, two at a time
#
# "T seconds a move on one core" is a fixed budget of simulations, 32,000 a second, measured
# by benchmarks/go_gnugo_budget.py in CPU time (the median over the moves of a game): a budget
# that other jobs on a shared machine cannot change. GNU Go's --level is a search depth, and
# clock=false keeps it from lowering its level to meet a clock, so neither side's strength
# depends on the load. --capture-all-dead makes GNU Go remove dead stones before it passes, so
# the arena's area score (Tromp-Taylor) and GNU Go's own count agree. Each run's raw output goes
# to benchmarks/results/ through benchmarks/record.sh; an interrupted run resumes when the same
# command is run again (the arena plays only the missing games).
set -eu
AGENT_OPTIONS="rave=1000,c=0.3,rollout=informed,reuse=true"
GNUGO="gtp:command=gnugo --mode gtp --level 10 --chinese-rules --capture-all-dead,clock=false"
PER_SECOND=32000
DAY=2026-11-23  # the day of the stored games: a resumed run adds to the same database

arena() {  # arena NAME SIMULATIONS GAMES WORKERS DB SGF_DIR
    mkdir -p "$6"
    benchmarks/record.sh "$1" "${PYTHON:-.venv/bin/python}" -m searchlab arena go \
        "mcts:simulations=$2,$AGENT_OPTIONS" "$GNUGO" --games "$3" --workers "$4" \
        --openings 0 --db "$5" --sgf "$6"
}

case "${1:-}" in
match)
    arena go_gnugo_level10 "$PER_SECOND" 60 2 "benchmarks/results/go_gnugo_$DAY.sqlite" \
        benchmarks/results/go_gnugo_sgf
    ;;
curve)
    for pair in 0.25:8000 0.5:16000 2:64000; do
        arena "go_gnugo_curve_${pair%%:*}s" "${pair##*:}" 8 2 \
            "benchmarks/results/go_gnugo_curve_$DAY.sqlite" benchmarks/results/go_gnugo_curve_sgf
    done
    ;;
*)
    echo "usage: benchmarks/go_gnugo.sh match|curve" >&2
    exit 2
    ;;
esac

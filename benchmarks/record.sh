#!/bin/sh
# Run one benchmark and keep its raw output with the conditions it ran in.
#
#   benchmarks/record.sh NAME COMMAND [ARG...]
#
# writes benchmarks/results/NAME_YYYY-MM-DD.txt: a header of '# ' lines (machine, kernel,
# Python and numba versions, UTC start time, the commit and how many files under src/ differ
# from it, the exact command, the load average at start),
# then the command's stdout and stderr as they came, then the exit status, end time and load
# average at the end. Exits with the command's status. Run from the repository root.
set -u
if [ $# -lt 2 ]; then
    echo "usage: benchmarks/record.sh NAME COMMAND [ARG...]" >&2
    exit 2
fi
name=$1
shift
python=${PYTHON:-.venv/bin/python}
out="benchmarks/results/${name}_$(date -u +%Y-%m-%d).txt"
{
    echo "# benchmark: $name"
    echo "# machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores" \
        "($(lscpu | sed -n 's/^CPU(s): *//p' | head -1) CPUs), shared with other engineers' jobs"
    echo "# kernel: $(uname -r)"
    echo "# python $("$python" -c 'import platform; print(platform.python_version())')," \
        "numba $("$python" -c 'import numba; print(numba.__version__)')"
    echo "# started: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    echo "# commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)," \
        "$(git status --porcelain -- src 2>/dev/null | wc -l) files under src/ changed since"
    echo "# command: $*"
    echo "# load average at start (1, 5, 15 min; running/total; last pid): $(cat /proc/loadavg)"
    echo "#"
} > "$out"
"$@" >> "$out" 2>&1
status=$?
{
    echo "#"
    echo "# exit status: $status"
    echo "# finished: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    echo "# load average at end: $(cat /proc/loadavg)"
} >> "$out"
echo "$out"
exit $status

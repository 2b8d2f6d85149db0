"""A newcomer's bad inputs (issue 28): every command, fed what a new user types by mistake,
answers with one line on stderr and a non-zero exit, never a traceback, and never hangs.

:data:`CASES` is the list, one row a case: the arguments of ``searchlab`` as a shell would split
them, then optionally ``<<<`` and what arrives on stdin (``\\n`` for a new line), and ``=>``
and what the line must say (the rows of the fixes: the line names the cause). Names in
braces are files made once for the module (:func:`files`: a missing file, a folder,
``/dev/null``, binary garbage, Latin-1 text, truncated maps, scenarios, SGF, OBF, trees and
configs, a game of your own that raises or never ends). The rows cover, command by command,
unknown names (games, agents, options, algorithms), malformed numbers (not a number,
negative, zero, NaN, infinite, 10**30, empty), impossible parameters, malformed files,
illegal moves and positions, options that do not go together and unknown flags; the
failures that issue 28 found loud already (tests/cli/test_cli_loud_failures.py: engines that
die or never answer, games of your own that raise or never end, huge Nim piles, a database
that cannot be written) are rows too.

Every row runs in this process (``cli_support.run_main``; argparse's usage errors end in
``SystemExit``, taken as the exit code), each under the budget of :data:`BUDGET` seconds: a
row past it fails, naming the budget, instead of hanging the suite.
"""

from __future__ import annotations

import io
import shlex
import signal
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

import pytest
from cli_support import GAMES, run_main

from searchlab.algorithms.mcts import compile_notice

BUDGET = 30.0
"""Seconds a row may take: most take a few milliseconds (a bad input is refused before any
work); the first row to reach a compiled kernel on an empty numba cache compiles it (5 s on
the shared 2-core VM), so the budget leaves room for that, and a hang still fails."""

EXIT_USAGE = 2

CASES = r"""
# -- the command itself ---------------------------------------------------------------------
nosuch
--nosuch
PLAY connect4
play
play --nosuch connect4

# -- play: unknown names ----------------------------------------------------------------------
play nosuchgame
play Connect4
play connect4 --first nosuchagent --second random
play connect4 --first random --second mcts:nosuch=1
play connect4 --first random --second MCTS
play connect4 --first random --second mcts:
play connect4 --first random --second mcts:simulations
play connect4 --first random --second mcts:simulations=1,simulations=2
play connect4 --first random --second alphabeta:nosuch=3
play connect4 --first random --second greedy:depth=3
play connect4 --first random --second mcts:rollout=nosuch
play connect4 --first random --second mcts:final_move=nosuch
play connect4 --first random --second mcts:tier=nosuch
play connect4 -p nosuch=1
play connect4 -p =3
play connect4 -p width
play othello -p scoring=nosuch
play go -p superko=nosuch
play go -p scoring=nosuch
play snakego -p scoring=nosuch
# -- play: malformed numbers ------------------------------------------------------------------
play connect4 --first random --second mcts:simulations=abc
play connect4 --first random --second mcts:simulations=-5
play connect4 --first random --second mcts:simulations=0
play connect4 --first random --second mcts:simulations=
play connect4 --first random --second mcts:simulations=1.5
play connect4 --first random --second mcts:simulations={huge}
play connect4 --first random --second mcts:time=nan
play connect4 --first random --second mcts:time=inf
play connect4 --first random --second mcts:time=-1
play connect4 --first random --second mcts:time=0
play connect4 --first random --second mcts:time=1e309
play connect4 --first random --second mcts:c=-1
play connect4 --first random --second mcts:c=nan
play connect4 --first random --second mcts:rave=-1
play connect4 --first random --second mcts:exact_endgame=-1
play connect4 --first random --second alphabeta:depth=0
play connect4 --first random --second alphabeta:depth=-3
play connect4 --first random --second alphabeta:depth=x
play connect4 --first random --second flatmc:simulations=0
play connect4 --first random --second random:seed=-1
play connect4 --first random --second random --seed -1
play connect4 --first random --second random --seed abc
play connect4 --first random --second random --seed 1.5
# -- play: impossible parameters --------------------------------------------------------------
play mnk -p m=0
play mnk -p m=-1
play mnk -p m=3,n=3,k=10
play mnk -p m={huge}
play mnk -p m=x
play go -p size=1
play go -p size=100
play go -p size=x
play go -p size=
play go -p komi=nan
play go -p komi=inf
play go -p handicap=-1
play go -p handicap=100
play go -p max_moves=0
play gomoku -p size=1
play gomoku -p size={huge}
play nim -p piles=
play nim -p piles=-1
play nim -p piles=a,b
play nim -p piles=3,,4
play kayles -p heaps=0
play kayles -p heaps=-2
play dawsons_chess -p heaps=x
play grundys_game -p heaps=-1
play snakego -p size=1
play snakego -p rounds=0
play snakego -p max_snakes=0
play snakego -p items=@{missing}
play snakego -p items=@{garbage} => {garbage}: not a UTF-8 text file (byte 0x80 at offset 128
play snakego -p items=@{utf16} => {utf16}: not a UTF-8 text file (it is UTF-16: save it as UTF-8)
play snakego -p items=@{dir}
play snakego -p items=nonsense
# -- play: illegal moves and positions --------------------------------------------------------
play connect4 --first random --second random --moves 8
play connect4 --first random --second random --moves 0
play connect4 --first random --second random --moves 4444444
play connect4 --first random --second random --moves abc
play connect4 --first random --second random --moves -1
play tictactoe --first random --second random --moves z9
play tictactoe --first random --second random --moves "a1 a1"
play tictactoe --first random --second random --moves "a1 b1 a2 b2 a3 c3"
play othello --first random --second random --moves a1
play othello --first random --second random --moves "d3 d3"
play othello --first random --second random --moves z9
play go --first random --second random --moves "D4 D4"
play go --first random --second random --moves Z99
play go --first random --second random --moves I5
play go --first random --second random --moves K1
play nim --first random --second random --moves 9:9
play nim --first random --second random --moves 1:99
# -- play: options that do not go together, Go-only options, unknown flags -------------------
play connect4 --first random --second random --resign-below -0.5
play connect4 --first random --second random --settle playouts
play go --first random --second random --resign-below nan
play go --first random --second random --resign-below -5
play go --first random --second random --settle nosuchagent
play connect4 --first random --second random --nosuch
play connect4 --first random --second random --quiet=yes
play connect4 --first random --second gtp
play connect4 --first random --second gtp:command=
# -- play: the human at the keyboard ----------------------------------------------------------
play connect4 --first random --second mcts:simulations=0 <<< 4\n
play connect4 --first human --second alphabeta:depth=-1 <<< 4\n4\n
# -- play: a game of your own that cannot be loaded -------------------------------------------
play {syntax_error}:Game
play {no_class}:Nope
play {no_class}:not_a_game
play {missing_py}:Game
play {dir}:Game
play nosuchmodule:Game
play os.path:join
play {no_class}
# -- a game of your own that raises or never ends (issue 28, fixed last session) --------------
play {games}:Broken --first random --second random
play {games}:Broken -p counters=x --first random --second random => GameInfo.max_game_length must
play {games}:Broken --first random --second mcts:simulations=50 --json
analyse {games}:Broken --agent mcts:simulations=50
perft {games}:Broken --depth 5
arena {games}:Broken random greedy --games 2 --db :memory:
solve {games}:Broken
analyse {games}:Endless --agent mcts:simulations=100
analyse {games}:Endless --agent flatmc:simulations=100
analyse {games}:Endless --agent mcts:simulations=100,rave=100
play {games}:Endless --first random --second random --quiet
arena {games}:Endless random greedy --games 2 --db :memory:

# -- analyse ----------------------------------------------------------------------------------
analyse nosuch
analyse
analyse connect4 8
analyse connect4 4444444
analyse connect4 x
analyse connect4 4453 extra
analyse tictactoe "a1 b1 a2 b2 a3"
analyse connect4 --agent nosuch
analyse connect4 --agent human
analyse connect4 --agent mcts:simulations=0
analyse connect4 --agent mcts:simulations=-1
analyse connect4 --agent mcts:simulations=1e3
analyse connect4 --agent mcts:simulations={huge}
analyse connect4 --agent mcts:time=nan
analyse connect4 --agent mcts:time=inf
analyse connect4 --agent mcts:time=
analyse connect4 --agent alphabeta:depth=0
analyse connect4 --agent flatmc:time=-2
analyse connect4 --agent az:checkpoint={missing}
analyse connect4 --agent az:checkpoint={garbage}
analyse connect4 --agent az:checkpoint={empty}
analyse connect4 --agent az:checkpoint={dir}
analyse connect4 --agent az:checkpoint={null}
analyse tictactoe --agent az
analyse tictactoe --agent policy
analyse connect4 --agent az:simulations=0
analyse connect4 --agent az:time=nan
analyse connect4 --agent az:batch=0
analyse connect4 --agent az:c_puct=-1
analyse connect4 --agent az:temperature=-1
analyse connect4 --agent az:device=nosuch
analyse connect4 --agent az:device=cuda:99
analyse connect4 --agent az:symmetries=maybe
analyse connect4 --agent policy:simulations=10
analyse connect4 --agent alphago:checkpoint={missing}
analyse connect4 --agent gtp:command=false
analyse connect4 --agent alphabeta --png {out}/root.png
analyse connect4 --png {dir}
analyse connect4 --png {out}/no/such/folder/root.png
analyse connect4 --tree-png {out}/tree.png --tree-depth 0
analyse connect4 --tree-png {out}/tree.png --tree-depth 7
analyse connect4 --tree-png {out}/tree.png --tree-depth x
analyse connect4 --tree-png {out}/tree.png --agent alphabeta
analyse connect4 --positions {missing}
analyse connect4 --positions {dir}
analyse connect4 --positions {garbage} => --positions {garbage}: not a UTF-8 text file
analyse connect4 --positions {latin1} => --positions {latin1}: not a UTF-8 text file
analyse connect4 --positions {utf16} => --positions {utf16}: not a UTF-8 text file (it is UTF-16
analyse connect4 --positions {pons_bad}
analyse connect4 --positions {pons_illegal}
analyse connect4 --positions {pons} --positions-format nosuch
analyse connect4 4453 --positions {pons}
analyse connect4 --move 3
analyse go --sgf {missing}
analyse go --sgf {garbage}
analyse go --sgf {sgf_truncated}
analyse go --sgf {sgf_occupied}
analyse go --sgf {sgf_size}
analyse go --sgf {sgf_chess}
analyse go --sgf {sgf} --move 99
analyse go --sgf {sgf} --move -1
analyse go --sgf {sgf} --move x
analyse go --sgf {sgf} D4
analyse connect4 --sgf {sgf}
analyse go -p size=4
analyse go D4 D4 -p size=5
analyse connect4 --seed x
analyse connect4 --json --nosuch

# -- path -------------------------------------------------------------------------------------
path {missing} --from 1,11 --to 1,12
path {dir} --from 1,11 --to 1,12
path {null} --from 1,1 --to 2,2
path {garbage} --from 1,1 --to 2,2 => {garbage}: not a UTF-8 text file
path {latin1} --from 1,1 --to 2,2 => {latin1}: not a UTF-8 text file (byte 0xe9
path {utf16} --from 1,1 --to 2,2 => {utf16}: not a UTF-8 text file (it is UTF-16
path {empty} --from 1,1 --to 2,2
path {map_truncated} --from 1,1 --to 2,2
path {map_header} --from 1,1 --to 2,2
path {map_cells} --from 1,1 --to 2,2
path {map}
path {map} --from 1,11
path {map} --to 1,11
path {map} --from x,y --to 1,12
path {map} --from 1 --to 1,12
path {map} --from 1,2,3 --to 1,12
path {map} --from "" --to 1,12
path {map} --from -1,5 --to 1,12
path {map} --from 1000,1000 --to 1,12
path {map} --from {huge},1 --to 1,12
path {map} --from nan,1 --to 1,12
path {map} --from 0,0 --to 1,12
path {map} --from 1,11 --to 0,0
path {map} --from 1,11 --to 1,12 --algorithm nosuch
path {map} --from 1,11 --to 1,12 --algorithm wastar --weight 0.5
path {map} --from 1,11 --to 1,12 --algorithm wastar --weight nan
path {map} --from 1,11 --to 1,12 --algorithm wastar --weight inf
path {map} --from 1,11 --to 1,12 --algorithm wastar --weight -1
path {map} --from 1,11 --to 1,12 --algorithm wastar --weight x
path {map} --from 1,11 --to 1,12 --connectivity 6
path {map} --from 1,11 --to 1,12 --connectivity x
path {map} --from 1,11 --to 1,12 --max-expansions 0
path {map} --from 1,11 --to 1,12 --max-expansions -5
path {map} --from 1,11 --to 1,12 --max-expansions x
path {map} --from 1,11 --to 1,12 --png {dir}
path {map} --from 1,11 --to 1,12 --png {out}/no/such/folder/p.png
path {map} --from 1,11 --to 1,12 --png {out}/p.nosuchformat
path {map} --scen {missing}
path {map} --scen {dir}
path {map} --scen {garbage} => {garbage}: not a UTF-8 text file
path {map} --scen {utf16} => {utf16}: not a UTF-8 text file
path {map} --scen {scen_empty} => {scen_empty}: no problems in the file
path {map} --scen {scen_truncated}
path {map} --scen {scen_numbers}
path {map} --scen {scen_outside}
path {map} --scen {scen} --limit 0
path {map} --scen {scen} --limit -1
path {map} --scen {scen} --limit x
path {map} --scen {scen} --from 1,11 --to 1,12
path {map} --scen {scen} --png {out}/p.png
path {map} --from 1,11 --to 1,12 --limit 3

# -- puzzle -----------------------------------------------------------------------------------
puzzle "1 2 3"
puzzle "1 2 3 4 5 6 7 8 8"
puzzle "1 2 3 4 5 6 8 7 0"
puzzle "a b c d e f g h 0"
puzzle "1 2 3 4 5 6 7 8 9"
puzzle "-1 2 3 4 5 6 7 8 0"
puzzle "1 2 3 4 5 6 7 {huge} 0"
puzzle ""
puzzle 0
puzzle "1,2,3,4,5,6,7,8,0" --algorithm nosuch
puzzle "1 2 3 4 5 6 7 0 8" --goal nosuch
puzzle "1 2 3 4 5 6 7 0 8" --algorithm nosuch
puzzle "1 2 3 4 5 6 7 0 8" --heuristic nosuch
puzzle "1 2 3 4 5 6 7 0 8" --heuristic pattern_database
puzzle "1 2 3 4 5 6 7 0 8" --max-expansions 0
puzzle "1 2 3 4 5 6 7 0 8" --max-expansions -1
puzzle "1 2 3 4 5 6 7 0 8" --time 0
puzzle "1 2 3 4 5 6 7 0 8" --time nan
puzzle "1 2 3 4 5 6 7 0 8" --time -1
puzzle "1 2 3 4 5 6 7 0 8" --time inf
puzzle "1 2 3 4 5 6 7 0 8" --nosuch

# -- solve ------------------------------------------------------------------------------------
solve
solve nosuch
solve connect4 8
solve connect4 4444444
solve connect4 abc
solve connect4 4453 --positions {pons}
solve connect4 --positions {missing}
solve connect4 --positions {dir}
solve connect4 --positions {garbage} => {garbage}: not a UTF-8 text file
solve connect4 --positions {utf16} => {utf16}: not a UTF-8 text file
solve connect4 --positions {empty} => {empty}: no positions in the file
solve connect4 --positions {pons_bad}
solve connect4 --positions {pons_illegal}
solve connect4 --positions {pons} --limit 0
solve connect4 --positions {pons} --limit -1
solve connect4 4453 --limit 3
solve connect4 4453 --time 0
solve connect4 4453 --time nan
solve connect4 4453 --nodes 0
solve connect4 4453 --nodes -1
solve connect4 4453 --table-log2 0
solve connect4 4453 --table-log2 100
solve connect4 4453 --table-log2 x
solve othello
solve othello "xyz X"
solve othello "{obf_board} Z"
solve othello "{obf_board}"
solve othello --obf {missing}
solve othello --obf {dir}
solve othello --obf {garbage} => {garbage}: not a UTF-8 text file
solve othello --obf {utf16} => {utf16}: not a UTF-8 text file
solve othello --obf {obf_empty} => {obf_empty}: no positions in the file
solve othello --obf {latin1} => {latin1}: not a UTF-8 text file
solve othello --obf {obf_truncated}
solve othello --obf {obf} --limit 0
solve othello --obf {obf} --nodes 0
solve othello --obf {obf} --time -1
solve othello "{obf_board} X" --obf {obf}
solve nim
solve nim ""
solve nim -3
solve nim 1.5
solve nim a,b
solve nim 3,,4
solve nim 3,4 --misere=yes
solve nim 3,{huge_digits}
solve tictactoe z9
solve tictactoe "a1 a1"
solve tictactoe a1 --nodes 0
solve mnk -p m=0
solve mnk -p m=3,n=3,k=4
solve kayles -p heaps=-1
solve kayles --time 0
solve kayles --nodes -1
solve kayles 99:99
solve {syntax_error}:Game
solve connect4 --nosuch

# -- perft ------------------------------------------------------------------------------------
perft connect4
perft connect4 --depth 0
perft connect4 --depth -1
perft connect4 --depth x
perft connect4 --depth 1.5
perft nosuch --depth 1
perft connect4 --depth 1 --moves 8
perft connect4 --depth 1 --expect x
perft connect4 --depth 1 --expect -1 => --expect is a count of leaves, >= 0, got -1
perft connect4 --depth 43 => --depth 43 is past the longest game of connect4 (42 plies)
perft connect4 --depth {huge} => is past the longest game of connect4
perft tictactoe --depth 10 => --depth 10 is past the longest game of tictactoe (9 plies)
perft tictactoe --depth 1 --moves "a1 a1"
perft othello --depth 1 --moves z9
perft go --depth 1 -p size=1
perft connect4 --depth 1 -p nosuch=1

# -- tree -------------------------------------------------------------------------------------
tree {missing}
tree {dir}
tree {null}
tree {garbage} => {garbage}: not a UTF-8 text file
tree {utf16} => {utf16}: not a UTF-8 text file
tree {latin1} => {latin1}: not a UTF-8 text file
tree {empty}
tree {tree_truncated}
tree {tree_value}
tree {tree_cycle}
tree {tree_json}
tree {tree} --svg {dir}
tree {tree} --png {out}/t.nosuchformat
tree {tree} --svg {out}/no/such/folder/t.svg
tree

# -- exercise ---------------------------------------------------------------------------------
exercise
exercise nosuch
exercise alphabeta --size huge
exercise alphabeta --depth 0
exercise alphabeta --depth -1
exercise alphabeta --depth x
exercise alphabeta --branching 1
exercise alphabeta --branching 0
exercise alphabeta --leaves 0
exercise alphabeta --values 5..1
exercise alphabeta --values x..y
exercise alphabeta --values 1-5
exercise alphabeta --min-cuts -1
exercise alphabeta --count 0
exercise alphabeta --count -1
exercise alphabeta --format nosuch
exercise alphabeta --seed x
exercise alphabeta --out {null}/x.md
exercise alphabeta --format png --out {garbage}/pictures
exercise astar --nodes 0
exercise astar --nodes -1
exercise astar --nodes x
exercise astar --format png

# -- arena ------------------------------------------------------------------------------------
arena
arena connect4
arena connect4 random greedy
arena nosuch random greedy --games 2 --db :memory:
arena connect4 nosuch greedy --games 2 --db :memory:
arena connect4 random mcts:simulations=0 --games 2 --db :memory:
arena connect4 random greedy --games 0 --db :memory:
arena connect4 random greedy --games -1 --db :memory:
arena connect4 random greedy --games x --db :memory:
arena connect4 random greedy --games {huge} --db :memory: --time 0
arena connect4 random greedy --games 2 --matches 1 --db :memory:
arena connect4 random greedy --matches 1 --db :memory:
arena connect4 random greedy --games 2 --workers 0 --db :memory:
arena connect4 random greedy --games 2 --workers -1 --db :memory:
arena connect4 random greedy --games 2 --workers {huge} --db :memory: => at most 256 processes
arena connect4 random greedy --games 2 --db {dir}
arena connect4 random greedy --games 2 --db {garbage}
arena connect4 random greedy --games 2 --db /proc/version
arena connect4 random greedy --games 2 --db /dev/null
arena connect4 random greedy --games 2 --db {out}/no/such/folder/a.sqlite
arena connect4 random greedy --games 2 --db :memory: --seed x
arena connect4 random greedy --games 2 --db :memory: --openings -1
arena connect4 random greedy --games 2 --db :memory: --sprt 0
arena connect4 random greedy --games 2 --db :memory: --sprt 10,0
arena connect4 random greedy --games 2 --db :memory: --sprt x,y
arena connect4 random greedy alphabeta --games 2 --db :memory: --sprt 0,10
arena connect4 random greedy --games 2 --db :memory: --move-time 0
arena connect4 random greedy --games 2 --db :memory: --move-time nan
arena connect4 random greedy --games 2 --db :memory: --move-time -1
arena connect4 random greedy --games 2 --db :memory: --time -1
arena connect4 random greedy --games 2 --db :memory: -p nosuch=1
arena connect4 random greedy --games 2 --db :memory: --sgf {out}/records
arena go random greedy --games 2 --db :memory: -p size=5 --sgf {garbage}
arena go random gtp:command=false --games 2 --db :memory: -p size=5
arena go random gtp:command=cat --games 2 --db :memory: -p size=5
arena go random "gtp:command=sleep 30,timeout=1" --games 2 --db :memory: -p size=5
arena go random gtp:command=/no/such/engine --games 2 --db :memory: -p size=5
arena connect4 random greedy --games 2 --db :memory: --nosuch

# -- serve ------------------------------------------------------------------------------------
serve --port -1
serve --port 70000
serve --port x
serve --port ""
serve --workers 0
serve --workers -1
serve --workers x
serve --workers {huge} => expected at most 256 processes
serve --nosuch

# -- gtp --------------------------------------------------------------------------------------
gtp <<< quit\n
gtp --agent nosuch <<< quit\n
gtp --agent human <<< quit\n
gtp --agent mcts:time=0 <<< quit\n
gtp --agent mcts:simulations=x <<< quit\n
gtp --agent alphabeta:depth=0 <<< quit\n
gtp --agent random --size 4 <<< quit\n
gtp --agent random --size 20 <<< quit\n
gtp --agent random --size x <<< quit\n
gtp --agent random --komi nan <<< quit\n
gtp --agent random --komi inf <<< quit\n
gtp --agent random --superko nosuch <<< quit\n
gtp --agent random --seed -1 <<< quit\n
gtp --agent random --resign-below nan <<< quit\n
gtp --agent random --nosuch <<< quit\n

# -- train ------------------------------------------------------------------------------------
train connect4
train nosuch --out {out}/run
train connect4 --out {null}
train connect4 --out {garbage}
train connect4 --out {out}/run --config {missing}
train connect4 --out {out}/run --config {toml_bad}
train connect4 --out {out}/run --config {toml_unknown}
train connect4 --out {out}/run --config {toml_value}
train connect4 --out {out}/run --config {toml_huge} => simulations must be at most 92233720
train connect4 --out {out}/run --config {toml_float} => simulations must be an integer >= 0, got 1.5
train connect4 --out {out}/run --config {garbage} => {garbage}: not a UTF-8 text file
train connect4 --out {out}/run --config {utf16} => {utf16}: not a UTF-8 text file
train connect4 --out {out}/run --config {dir}
train connect4 --out {out}/run --time x
train connect4 --out {out}/run --time -5m
train connect4 --out {out}/run --time 0
train connect4 --out {out}/run --algorithm nosuch
train connect4 --out {out}/run --device nosuch
train connect4 --out {out}/run --device cuda:99
train connect4 --out {out}/run --workers 0
train connect4 --out {out}/run --workers -1
train connect4 --out {out}/run --workers {huge} => expected at most 256 processes
train connect4 --out {out}/run --keep x
train connect4 --out {out}/run --keep -1
train connect4 --out {out}/run --seed x
train mnk --out {out}/run -p m=0
train connect4 --out {out}/run -p nosuch=1
train {syntax_error}:Game --out {out}/run

# -- warmup -----------------------------------------------------------------------------------
warmup nosuch
warmup {missing_py}:Game
warmup tictactoe nosuch
warmup {games}:Broken => warmup {games}:Broken: your game failed: KeyError: 'the pile fell below 5'
warmup --nosuch

# -- expert -----------------------------------------------------------------------------------
expert chess --games 2 --out {out}/expert
expert go --out {out}/expert
expert go --games x --out {out}/expert
expert go --games -1 --out {out}/expert
expert go --games 2 --out {out}/expert --level 11
expert go --games 2 --out {out}/expert --komi nan
expert go --games 2 --out {out}/expert --size 4
expert go --games 2 --out {out}/expert --workers 0
expert go --games 2 --out {out}/expert --gnugo {missing}

# -- book ---------------------------------------------------------------------------------------
book
book nosuch
book build chess --depth 2 --out {out}/b.c4book
book build connect4 --out {out}/b.c4book
book build connect4 --depth x --out {out}/b.c4book
book build connect4 --depth -2 --out {out}/b.c4book
book build connect4 --depth 30 --out {out}/b.c4book
book build connect4 --depth 2 --out {out}/no/such/folder/b.c4book
book build connect4 --depth 2 --out {dir}
book build connect4 --depth 2 --out {out}/b.c4book --workers 0
book build connect4 --depth 2 --out {out}/b.c4book --ray nonsense
book build connect4 --depth 2 --out {out}/b.c4book --root 8
book info {missing}
book info {garbage}
book info {utf16}
solve connect4 --book {garbage} 44
solve connect4 --threads 0 44
solve connect4 --threads x 44
solve othello --threads 0 --obf {missing}
"""


@dataclass(frozen=True)
class Case:
    """One row of :data:`CASES`: the arguments (placeholders not yet filled), stdin, and what
    the line must say (after ``=>``: where a row shows a fix, the line names the cause)."""

    row: str
    argv: tuple[str, ...]
    stdin: str
    says: str


def _cases(table: str) -> list[Case]:
    rows = []
    for line in table.splitlines():
        row = line.strip()
        if not row or row.startswith("#"):
            continue
        command, _, says = row.partition(" => ")
        command, _, stdin = command.partition(" <<< ")
        argv = tuple(shlex.split(command))
        rows.append(Case(row, argv, stdin.replace("\\n", "\n"), says.strip()))
    return rows


ALL = _cases(CASES)

ARENA_MAP = Path(__file__).resolve().parents[2] / "examples" / "maps" / "arena.map"
OBF_BOARD = "-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27  # a board of 64 squares


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The placeholders of :data:`CASES` and the files they name."""
    root = tmp_path_factory.mktemp("newcomer")
    made: dict[str, str] = {}

    def write(name: str, content: str | bytes, suffix: str = ".txt") -> None:
        path = root / f"{name}{suffix}"
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
        made[name] = str(path)

    (root / "a_folder").mkdir()
    (root / "out").mkdir()
    made.update(
        missing=str(root / "no_such_file.txt"),
        missing_py=str(root / "no_such_game.py"),
        dir=str(root / "a_folder"),
        out=str(root / "out"),
        null="/dev/null",
        map=str(ARENA_MAP),
        obf_board=OBF_BOARD,
        huge=str(10**30),
        huge_digits="9" * 5000,
    )
    write("garbage", bytes(range(256)) * 4 + b"\xff\xfe\x00\x80", ".bin")
    write("latin1", "caf\xe9 d\xe9j\xe0 vu\n4453 2\n".encode("latin-1"))
    write("utf16", "version 1\n4453 2\n".encode("utf-16"))  # PowerShell's > writes UTF-16
    write("empty", "")
    map_head = "type octile\nheight 4\nwidth 4\nmap\n"
    write("map_truncated", map_head + "....\n....\n", ".map")
    write("map_header", "type octile\nheight four\nwidth 4\nmap\n....\n", ".map")
    write("map_cells", map_head + "....\n.??.\n....\n....\n", ".map")
    scen_line = "0\tmaps/dao/arena.map\t49\t49\t1\t11\t1\t12\t1\n"
    write("scen", "version 1\n" + scen_line, ".scen")
    write("scen_truncated", "version 1\n0\tmaps/dao/arena.map\t49\t49\t1\t11\n", ".scen")
    write("scen_numbers", "version 1\n0\tmaps/dao/arena.map\t49\t49\tx\t11\t1\t12\t1\n", ".scen")
    write("scen_empty", "version 1\n", ".scen")
    write("scen_outside", "version 1\n0\tmaps/dao/arena.map\t49\t49\t90\t90\t1\t12\t1\n", ".scen")
    write("sgf", "(;GM[1]FF[4]SZ[9]KM[7.5];B[ee];W[cc])", ".sgf")
    write("sgf_truncated", "(;GM[1]FF[4]SZ[9];B[ee];W[", ".sgf")
    write("sgf_occupied", "(;GM[1]FF[4]SZ[9];B[ee];W[ee])", ".sgf")
    write("sgf_size", "(;GM[1]FF[4]SZ[100];B[ee])", ".sgf")
    write("sgf_chess", "(;GM[3]FF[4];B[ee])", ".sgf")
    write("pons", "4453 2\n")
    write("pons_bad", "4453 two\n")
    write("pons_illegal", "4444444 0\n")
    write("obf", f"{OBF_BOARD} X;\n", ".obf")
    write("obf_empty", "% a comment, and no position\n", ".obf")
    write("obf_truncated", "--------XO X;\n", ".obf")
    write("tree", "max A: B C\nmin B: b1=3 b2=12\nmin C: c1=2 c2=4\n", ".tree")
    write("tree_truncated", "max A: B C\nmin B: b1=3 b2=12\n", ".tree")
    write("tree_value", "max A: a1=x a2=3\n", ".tree")
    write("tree_cycle", "max A: B\nmin B: A\n", ".tree")
    write("tree_json", '{"player": "max", "children": [', ".json")
    write("toml_bad", "this is = not [toml\n", ".toml")
    write("toml_unknown", "nonsense_key = 3\n", ".toml")
    write("toml_value", "simulations = -5\n", ".toml")
    write("toml_huge", "simulations = 100000000000000000000\n", ".toml")  # 10**20
    write("toml_float", "simulations = 1.5\n", ".toml")
    write("syntax_error", "class Game(:\n    pass\n", ".py")
    write("no_class", "not_a_game = 3\n", ".py")
    write("games", GAMES, ".py")
    return made


class _PastBudget(BaseException):
    """Raised by the alarm in the row's run: not an ``Exception``, so that no handler of the
    command line turns it into an error line."""


def _alarm(number: int, frame: FrameType | None) -> None:
    raise _PastBudget


def _run(
    capsys: pytest.CaptureFixture[str], argv: list[str], budget: float
) -> tuple[int | str | None, str, str]:
    """``searchlab ARGV`` in this process, as ``python -m searchlab`` ends it (argparse's usage
    errors exit through ``SystemExit``); fails past ``budget`` seconds."""
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, budget)
    try:
        code, out, err = run_main(capsys, *argv)
    except SystemExit as exit_:
        captured = capsys.readouterr()
        code, out, err = exit_.code, captured.out, captured.err
    except _PastBudget:
        pytest.fail(f"still running after its budget of {budget:g} s: {argv}")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    return code, out, err


@pytest.fixture
def quiet_compiles() -> Iterator[None]:
    """No compile notice (a line of its own, before any search: tests/cli/test_cold_cache.py)
    where a row reaches a compiled search on an empty cache."""
    saved = compile_notice.notice
    compile_notice.notice = None
    try:
        yield
    finally:
        compile_notice.notice = saved


@pytest.mark.parametrize("case", ALL, ids=[case.row for case in ALL])
@pytest.mark.usefixtures("quiet_compiles")
def test_a_bad_input_is_one_line_and_a_non_zero_exit(
    case: Case,
    files: dict[str, str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    argv = [part.format(**files) for part in case.argv]
    monkeypatch.setattr("sys.stdin", io.StringIO(case.stdin))
    code, out, err = _run(capsys, argv, BUDGET)
    assert "Traceback" not in out + err, err
    assert code == EXIT_USAGE, (code, out[-500:], err[-500:])
    lines = err.splitlines()
    assert len(lines) == 1 and err.endswith("\n"), err
    assert lines[0].startswith("searchlab") and ": error: " in lines[0], err
    assert case.says.format(**files) in lines[0]


def test_the_list_is_the_newcomers() -> None:
    """Issue 28's newcomer tried 277 bad inputs: the list holds at least as many, no row
    twice, and every command of ``searchlab --help``."""
    from searchlab.cli.main import SUBCOMMANDS

    rows = [case.row for case in ALL]
    assert len(rows) >= 277
    assert len(set(rows)) == len(rows)
    assert set(SUBCOMMANDS) <= {case.argv[0] for case in ALL if case.argv}


def test_a_huge_simulation_budget_grows_the_tree_instead_of_allocating_it() -> None:
    """``simulations = 10**18`` in a training config (a count that fits 64 bits): the PUCT
    tree starts small and grows, as for a time budget; it was numpy's 'Maximum allowed
    dimension exceeded' (a traceback) before any search."""
    import numpy as np

    from searchlab.algorithms.mcts.options import MCTSOptions
    from searchlab.algorithms.mcts.puct import PUCTTree, run
    from searchlab.domains.games.tictactoe import TicTacToe

    class Cells:
        def action_to_index(self, state: object, action: int) -> int:
            return action

    class Uniform:
        encoder = Cells()

        def evaluate_batch(self, states: list[object]) -> tuple[np.ndarray, np.ndarray]:
            return np.full((len(states), 9), 1 / 9), np.zeros(len(states))

    state = TicTacToe().initial_state()
    tree = PUCTTree(state, MCTSOptions(), Cells(), budget=10**18)
    run(tree, Uniform(), deadline=0.0)  # the clock has passed: stops after one simulation
    assert tree.simulations >= 1 and not tree.done

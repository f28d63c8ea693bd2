"""`puzzlelab balda ...`: dictionary building, move listing, best move, self-play, the benchmark
commands behind the pipeline's experiments, and their report tables."""

from __future__ import annotations

import argparse

from ..lab.cli_support import (
    add_node_limit_arg,
    add_output_args,
    add_report_command,
    add_seed_arg,
    add_timeout_arg,
    non_negative_int,
    positive_int,
)
from ..lab.errors import InputError, quote
from .options import NO_NODE_LIMIT, VARIANTS, SearchOptions, checked, variant_options

REPORT_TABLES = {
    "dictionary": "words kept and dropped per word list (RUNS: the build artifact, then the parse records, "
                  "the built-in list first)",
    "dictionary-lengths": "word lengths and trie sizes per word list (RUNS as for dictionary; --svg: lengths)",
    "speed": "the move counts of every self-play position, found three ways (RUNS: bench-speed artifacts)",
    "speed-times": "word-search time per position (--svg: time against filled cells)",
    "speed-summary": "median word-search time per board size and game phase",
    "alphabeta": "value and nodes per depth and variant (RUNS: bench-search artifacts; --svg: nodes per depth)",
    "alphabeta-times": "CPU and wall time per depth and variant (--svg: CPU per depth)",
    "alphabeta-branching": "effective branching factor per position and variant",
    "alphabeta-summary": "depth reached within a few seconds per position and variant",
    "tournament": "the games of deeper against shallower search (RUNS: tournament artifacts)",
    "tournament-summary": "wins, draws, losses and mean margin per pair of depths",
    "tournament-times": "CPU seconds per game per pair of depths",
}


# The report tables whose --scorecard writes seed 003's rows, and the experiment each one closes.
SCORECARD_TABLES = {
    "dictionary-lengths": "balda_dictionary",
    "speed-summary": "balda_search_speed",
    "alphabeta-branching": "balda_alphabeta",
    "tournament-summary": "balda_tournament",
}


def _add_dict_args(p: argparse.ArgumentParser, required: bool = False) -> None:
    p.add_argument("--dict", metavar="PATH", required=required, help="UTF-8 word list, one word per line "
                   "(default: the built-in Russian nouns from pymorphy3's OpenCorpora dictionary)")
    p.add_argument("--lang", choices=["ru", "en"], help="alphabet of --dict (default: guessed from the words)")


def _add_position_args(p: argparse.ArgumentParser) -> None:
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--start", metavar="WORD", help="start word, placed in the middle row of an empty board")
    where.add_argument("--board", metavar="FILE", help="board file: N lines of N letters ('.' = empty), then a "
                       "blank line and the words already played, one per line")
    p.add_argument("--size", type=positive_int, help="board size N (default: the start word's length / the file's)")
    _add_dict_args(p)


def _add_pruning_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--slack", type=non_negative_int, default=0, help="with pruning, also keep words up to this "
                   "many letters shorter than a cell's longest (default 0)")
    p.add_argument("--endgame", type=non_negative_int, default=6, help="with pruning, expand all words once this "
                   "many empty cells or fewer remain (default 6)")


def _add_search_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--minimax", action="store_true", help="plain minimax: no alpha-beta cut-offs")
    p.add_argument("--no-order", action="store_true", help="do not order moves by word length")
    p.add_argument("--prune", action="store_true", help="the article's pruning: expand only the longest words "
                   "of each cell until the endgame")
    _add_pruning_args(p)
    p.add_argument("--full-regen", action="store_true", help="regenerate every node's move list from scratch "
                   "instead of the incremental search")
    p.add_argument("--no-tt", action="store_true", help="no transposition table (it never changes the value)")
    add_node_limit_arg(p, help="stop each search after this many nodes and play the best move among those "
                       "searched to the end (reproducible, unlike a time limit)")


def _add_experiment_args(p: argparse.ArgumentParser, seed_help: str) -> None:
    _add_dict_args(p, required=True)
    p.add_argument("--size", type=positive_int, required=True, help="board size (the start words' length)")
    add_seed_arg(p, help=seed_help)


def register(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("dictionary", help="build the built-in Russian noun list from pymorphy3's OpenCorpora "
                       "dictionary", description="Build the built-in word list: common nouns in the nominative "
                       "singular (pluralia tantum included), no names, surnames, patronymics, places, "
                       "organisations, trademarks or abbreviations; ё→е; letters а–я only.")
    p.add_argument("--words", metavar="FILE", help="write the list here (default: the cache the other commands use)")
    p.add_argument("--exclude", default=None, help="comma-separated OpenCorpora grammemes to exclude "
                   "(default: Name,Surn,Patr,Geox,Orgn,Trad,Abbr,Init,Erro,Dist)")
    p.add_argument("--prefix", action="append", default=None, help="only lemmas starting with this prefix "
                   "(repeatable or comma-separated; for small test dictionaries)")
    add_output_args(p)
    p.set_defaults(handler=_dictionary)

    p = sub.add_parser("dict-stats", help="size and length distribution of word lists")
    p.add_argument("lists", nargs="+", metavar="NAME=PATH", help="word lists to describe, each NAME=PATH")
    p.add_argument("--lang", choices=["ru", "en"])
    add_output_args(p)
    p.set_defaults(handler=_dict_stats)

    p = sub.add_parser("moves", help="every legal move of a position: (cell, letter, word) triples with a path")
    _add_position_args(p)
    p.add_argument("--method", choices=["separator", "forward"], default="separator",
                   help="separator trie from each empty cell (default) or the forward-trie baseline")
    add_output_args(p)
    p.set_defaults(handler=_moves)

    p = sub.add_parser("best", help="the best move by negamax alpha-beta search")
    _add_position_args(p)
    p.add_argument("--depth", type=positive_int, required=True, help="plies to search")
    add_seed_arg(p, default=None, help="shuffle the root moves with this seed to break ties (default: no shuffle)")
    _add_search_args(p)
    add_output_args(p)
    p.set_defaults(handler=_best)

    p = sub.add_parser("play", help="self-play a whole game between two search depths")
    p.add_argument("--start", metavar="WORD", required=True)
    p.add_argument("--size", type=positive_int)
    _add_dict_args(p)
    p.add_argument("--depth-a", type=positive_int, required=True, help="search depth of player a (moves first)")
    p.add_argument("--depth-b", type=positive_int, required=True, help="search depth of player b")
    add_seed_arg(p, help="seed of the tie-breaking shuffles (default 0)")
    _add_search_args(p)
    add_output_args(p)
    p.set_defaults(handler=_play)

    p = sub.add_parser("bench-speed", help="time forward-trie, separator-trie and incremental search on every "
                       "position of a seeded self-play game")
    _add_experiment_args(p, "picks the start word and breaks ties")
    p.add_argument("--depth", type=positive_int, default=1, help="search depth of the self-play (default 1)")
    p.add_argument("--reps", type=positive_int, default=20, help="searches per timing (default 20)")
    p.add_argument("--rounds", type=positive_int, default=3, help="timings per search, the fastest kept (default 3)")
    add_output_args(p)
    p.set_defaults(handler=_bench_speed)

    p = sub.add_parser("bench-search", help="nodes, value and time per depth of one search variant")
    _add_experiment_args(p, "picks the start word")
    p.add_argument("--plies", type=non_negative_int, default=0,
                   help="greedy self-play plies before the searched position")
    p.add_argument("--variant", choices=sorted(VARIANTS), required=True)
    p.add_argument("--max-depth", type=positive_int, required=True)
    _add_pruning_args(p)
    add_node_limit_arg(p, help="stop deepening at the depth whose search needs more nodes than this")
    add_timeout_arg(p, help="start no deeper search after this many wall-clock seconds")
    add_output_args(p)
    p.set_defaults(handler=_bench_search)

    p = sub.add_parser("tournament", help="deeper against shallower search: games from seeded start words, "
                       "each played twice with the colours swapped")
    _add_experiment_args(p, "picks the start words and breaks ties")
    p.add_argument("--words", type=positive_int, required=True, help="number of start words")
    p.add_argument("--first", type=non_negative_int, default=0, help="index of the first start word of this chunk")
    p.add_argument("--deep", type=positive_int, required=True, help="depth of the deeper player")
    p.add_argument("--shallow", type=positive_int, required=True, help="depth of the shallower player")
    p.add_argument("--variant", choices=sorted(VARIANTS), default="pruned_tt", help="how both players search "
                   "(default pruned_tt: the article's long-word pruning with a transposition table)")
    _add_pruning_args(p)
    add_node_limit_arg(p, help="stop each move's search after this many nodes (the best move among those "
                       "searched to the end is played)")
    add_timeout_arg(p, help="start no game after this many wall-clock seconds")
    add_output_args(p)
    p.set_defaults(handler=_tournament)

    p = sub.add_parser("parse", help="read and normalise a word list into the canonical dictionary file "
                       "the experiments use, with a record of its words and tries")
    p.add_argument("list", metavar="PATH", help="UTF-8 word list, one word per line")
    p.add_argument("--name", required=True, help="the list's name in tables")
    p.add_argument("--label", help="how outputs cite the list's path (default: PATH as given)")
    p.add_argument("--lang", choices=["ru", "en"], help="alphabet (default: guessed from the words)")
    p.add_argument("--words", metavar="FILE", required=True, help="write the canonical list here")
    p.add_argument("--unreadable", metavar="CSV", help="an unreadable list becomes a row path,line,reason "
                   "here (and an empty list), not an error")
    add_output_args(p)
    p.set_defaults(handler=_parse)

    add_report_command(sub, REPORT_TABLES, _report, runs_help="artifacts of the runs (each one's .timing.json "
                       "sibling is read beside it)", scorecard=tuple(SCORECARD_TABLES))


def load(args):
    """(Dictionary, Engine) for the --dict/--lang options."""
    from .dictionary import load_dictionary
    from .engine import Engine

    dictionary = load_dictionary(args.dict, args.lang)
    return dictionary, Engine(dictionary)


def position(args, dictionary):
    from .board import from_start_word, read_board

    if args.start is not None:
        return from_start_word(args.start, dictionary.alphabet, args.size)
    return read_board(args.board, dictionary.alphabet, args.size)


def options_from(args) -> SearchOptions:
    """The search options of `best` and `play`."""
    return checked(SearchOptions(alphabeta=not args.minimax, order=not args.no_order, prune=args.prune,
                                 slack=args.slack, endgame=args.endgame, incremental=not args.full_regen,
                                 tt=not args.no_tt,
                                 node_limit=NO_NODE_LIMIT if args.node_limit is None else args.node_limit))


def move_json(move, size: int, dictionary) -> dict:
    return {"cell": [move.cell // size, move.cell % size], "letter": dictionary.alphabet.letters[move.letter],
            "word": dictionary.words[move.word], "path": [[p // size, p % size] for p in move.path]}


def _comma_list(values: list[str] | None) -> list[str]:
    """Repeated and comma-separated option values, flattened (empty parts dropped)."""
    return [v for value in values or [] for v in value.split(",") if v]


def _dictionary(args) -> int:
    from ..lab.results import emit
    from .dictionary import DEFAULT_EXCLUDE, build_nouns, builtin_cache_path, length_distribution, write_word_list

    exclude = DEFAULT_EXCLUDE if args.exclude is None else tuple(_comma_list([args.exclude]))
    prefixes = _comma_list(args.prefix)
    words, stats, seconds = build_nouns(exclude, prefixes)
    target = args.words or str(builtin_cache_path())
    write_word_list(target, words)
    result = {"words_file": target, "exclude": list(exclude), "prefixes": prefixes,
              "stats": stats, "lengths": length_distribution(words), "time_s": seconds}
    emit(result, as_json=args.json, out=args.out, timing=args.timing,
         text=f"{len(words)} nouns written to {target}")
    return 0


def _dict_stats(args) -> int:
    from ..lab.results import emit
    from .dictionary import length_distribution, read_word_list

    lists = []
    first: set[str] | None = None
    for item in args.lists:
        name, sep, path = item.partition("=")
        if not sep or not name or not path:
            raise InputError(f"expected NAME=PATH, got {quote(item)}")
        wl = read_word_list(path, args.lang)
        words = set(wl.words)
        entry = {"name": name, "path": path, "lang": wl.lang, "stats": wl.stats,
                 "lengths": length_distribution(wl.words)}
        if first is None:
            first = words
        else:
            entry["common_with_first"] = len(words & first)
        lists.append(entry)
    text = "\n".join(f"{x['name']}: {x['stats']['words']} words ({x['lang']})" for x in lists)
    emit({"lists": lists}, as_json=args.json, out=args.out, timing=args.timing, text=text)
    return 0


def _moves(args) -> int:
    from ..lab.results import emit

    dictionary, engine = load(args)
    board = position(args, dictionary)
    if args.method == "forward":
        triples = engine.forward_moves(board)
        result = {"count": len(triples), "moves": [
            {"cell": [c // board.size, c % board.size], "letter": dictionary.alphabet.letters[lt],
             "word": dictionary.words[w]} for c, lt, w in triples]}
    else:
        moves = engine.moves(board)
        result = {"count": len(moves), "moves": [move_json(m, board.size, dictionary) for m in moves]}
    lines = [f"{result['count']} moves"]
    for m in result["moves"]:
        lines.append(f"({m['cell'][0]},{m['cell'][1]}) {m['letter']} {m['word']}")
    emit(result, as_json=args.json, out=args.out, timing=args.timing, text="\n".join(lines))
    return 0


def _best(args) -> int:
    from ..lab.results import emit

    dictionary, engine = load(args)
    board = position(args, dictionary)
    r = engine.search(board, args.depth, options_from(args), seed=args.seed)
    result = {"depth": args.depth, "value": r.value, "nodes": r.nodes, "root_moves": r.root_moves,
              "move": None if r.move is None else move_json(r.move, board.size, dictionary),
              "time_s": r.time_s, "cpu_time_s": r.cpu_time_s}
    if not r.complete:
        result["stopped_by"] = "node limit"
    stopped = "" if r.complete else " (stopped by the node limit)"
    if r.move is None:
        text = f"no move: pass (value {r.value}, {r.nodes} nodes, {r.time_s:.3f} s){stopped}"
    else:
        m = result["move"]
        text = (f"best: ({m['cell'][0]},{m['cell'][1]}) {m['letter']} {m['word']}  value {r.value}  "
                f"depth {args.depth}  {r.nodes} nodes  {r.time_s:.3f} s{stopped}")
    emit(result, as_json=args.json, out=args.out, timing=args.timing, text=text)
    return 0


def _play(args) -> int:
    from ..lab.progress import Progress
    from ..lab.results import emit
    from .board import from_start_word
    from .game import play_game

    dictionary, engine = load(args)
    board = from_start_word(args.start, dictionary.alphabet, args.size)
    opts = options_from(args)
    with Progress(board.empty, "self-play", unit="plies") as p:
        game = play_game(engine, board, (args.depth_a, args.depth_b), (opts, opts), seed=args.seed, progress=p)
    result = {"start": board.played[0], "size": board.size, "seed": args.seed,
              "depth": {"a": args.depth_a, "b": args.depth_b}, **game}
    lines = []
    for e in game["moves"]:
        if e["pass"]:
            lines.append(f"{e['ply']:3d} {e['player']}: pass")
        else:
            lines.append(f"{e['ply']:3d} {e['player']}: ({e['cell'][0]},{e['cell'][1]}) {e['letter']} "
                         f"{e['word']:<14s} {e['score']['a']:3d}:{e['score']['b']}")
    lines += game["final_board"]
    lines.append(f"final {game['score']['a']}:{game['score']['b']}  winner {game['winner']}")
    emit(result, as_json=args.json, out=args.out, timing=args.timing, text="\n".join(lines))
    return 0


def _bench_speed(args) -> int:
    from ..lab.results import emit
    from .experiments import speed_run

    _, engine = load(args)
    result = speed_run(engine, args.size, args.seed, args.depth, args.reps, args.rounds)
    emit(result, as_json=args.json, out=args.out, timing=args.timing,
         text=f"{len(result['positions'])} positions timed from '{result['start']}'")
    return 0


def _bench_search(args) -> int:
    from ..lab.results import emit
    from .experiments import search_run

    _, engine = load(args)
    options = variant_options(args.variant, args.slack, args.endgame, args.node_limit)
    result = search_run(engine, args.size, args.seed, args.plies, args.variant, args.max_depth, options,
                        timeout=args.timeout)
    text = "\n".join(f"depth {r['depth']}: value {r['value']} nodes {r['nodes']}" for r in result["depths"])
    if "stopped" in result:
        text += f"\ndepth {result['stopped']['depth']} not reached: stopped by the {result['stopped']['by']}"
    emit(result, as_json=args.json, out=args.out, timing=args.timing, text=text)
    return 0


def _tournament(args) -> int:
    from ..lab.results import emit
    from .experiments import tournament_run

    _, engine = load(args)
    options = variant_options(args.variant, args.slack, args.endgame, args.node_limit)
    result = tournament_run(engine, args.size, args.seed, args.first, args.words, args.deep, args.shallow, options,
                            timeout=args.timeout)
    emit(result, as_json=args.json, out=args.out, timing=args.timing,
         text="\n".join(f"{g['start']} deep first={g['deep_moves_first']}: {g['margin']:+d}"
                        for g in result["games"]))
    return 0


def _parse(args) -> int:
    from ..lab.results import emit
    from .instances import parse

    record = parse(args.list, args.name, args.label, args.words, args.lang, args.unreadable)
    text = (f"{args.name}: unreadable ({record['unreadable']['reason']})" if "unreadable" in record else
            f"{args.name}: {record['stats']['words']} words ({record['lang']}) written to {args.words}")
    emit(record, as_json=args.json, out=args.out, timing=args.timing, text=text)
    return 0


def _report(args) -> int:
    from .report import build

    build(args.table, args.runs, csv=args.csv, html=args.html, svg=args.svg, scorecard=args.scorecard)
    return 0

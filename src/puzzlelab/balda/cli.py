"""`puzzlelab balda ...`: dictionary building, move listing, best move, self-play, and the
benchmark commands behind the pipeline's experiments."""

from __future__ import annotations

import argparse

from ..lab.cli_support import add_output_args, non_negative_int, positive_int
from ..lab.errors import InputError


def _add_dict_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--dict", metavar="PATH", help="UTF-8 word list, one word per line "
                   "(default: the built-in Russian nouns from pymorphy3's OpenCorpora dictionary)")
    p.add_argument("--lang", choices=["ru", "en"], help="alphabet of --dict (default: guessed from the words)")


def _add_position_args(p: argparse.ArgumentParser) -> None:
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--start", metavar="WORD", help="start word, placed in the middle row of an empty board")
    where.add_argument("--board", metavar="FILE", help="board file: N lines of N letters ('.' = empty), then a "
                       "blank line and the words already played, one per line")
    p.add_argument("--size", type=positive_int, help="board size N (default: the start word's length / the file's)")
    _add_dict_args(p)


def _add_search_args(p: argparse.ArgumentParser, suffix: str = "") -> None:
    p.add_argument("--minimax", action="store_true", help="plain minimax: no alpha-beta cut-offs")
    p.add_argument("--no-order", action="store_true", help="do not order moves by word length")
    p.add_argument("--prune", action="store_true", help="the article's pruning: expand only the longest words "
                   "of each cell until the endgame")
    p.add_argument("--slack", type=non_negative_int, default=0, help="with --prune, also keep words up to this many "
                   "letters shorter than a cell's longest (default 0)")
    p.add_argument("--endgame", type=non_negative_int, default=6, help="with --prune, expand all words once this many "
                   "empty cells or fewer remain (default 6)")
    p.add_argument("--full-regen", action="store_true", help="regenerate every node's move list from scratch "
                   "instead of the incremental search")
    p.add_argument("--no-tt", action="store_true", help="no transposition table (it never changes the value)")


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
                   "(repeatable; for small test dictionaries)")
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
    p.add_argument("--seed", type=int, default=None, help="shuffle the root moves to break ties (default: none)")
    _add_search_args(p)
    add_output_args(p)
    p.set_defaults(handler=_best)

    p = sub.add_parser("play", help="self-play a whole game between two search depths")
    p.add_argument("--start", metavar="WORD", required=True)
    p.add_argument("--size", type=positive_int)
    _add_dict_args(p)
    p.add_argument("--depth-a", type=positive_int, required=True, help="search depth of player a (moves first)")
    p.add_argument("--depth-b", type=positive_int, required=True, help="search depth of player b")
    p.add_argument("--seed", type=int, default=0, help="seed of the tie-breaking shuffles (default 0)")
    _add_search_args(p)
    add_output_args(p)
    p.set_defaults(handler=_play)

    from . import pipeline

    pipeline.register(sub)


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


def options_from(args):
    from .engine import SearchOptions

    return SearchOptions(alphabeta=not args.minimax, order=not args.no_order, prune=args.prune, slack=args.slack,
                         endgame=args.endgame, incremental=not args.full_regen, tt=not args.no_tt)


def move_json(move, size: int, dictionary) -> dict:
    return {"cell": [move.cell // size, move.cell % size], "letter": dictionary.alphabet.letters[move.letter],
            "word": dictionary.words[move.word], "path": [[p // size, p % size] for p in move.path]}


def _dictionary(args) -> int:
    from ..lab.results import emit
    from .dictionary import DEFAULT_EXCLUDE, builtin_cache_path, length_distribution, opencorpora_nouns
    from .dictionary import write_word_list
    from ..lab.progress import Progress

    import time

    t0 = time.perf_counter()
    exclude = DEFAULT_EXCLUDE if args.exclude is None else tuple(g for g in args.exclude.split(",") if g)
    prefixes = args.prefix or [""]
    words, stats = set(), {}
    with Progress(None, "scanning the OpenCorpora lexicon", unit="entries") as p:
        for prefix in prefixes:
            part = opencorpora_nouns(exclude, prefix, progress=p)
            words.update(part.words)
            for k, v in part.stats.items():
                stats[k] = stats.get(k, 0) + v
    words = sorted(words)
    stats["words"] = len(words)
    target = args.words or str(builtin_cache_path())
    write_word_list(target, words)
    result = {"words_file": target, "exclude": list(exclude), "prefixes": [p for p in prefixes if p],
              "stats": stats, "lengths": length_distribution(words), "time_s": time.perf_counter() - t0}
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
            raise InputError(f"expected NAME=PATH, got {item!r}")
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
    if r.move is None:
        text = f"no move: pass (value {r.value}, {r.nodes} nodes, {r.time_s:.3f} s)"
    else:
        m = result["move"]
        text = (f"best: ({m['cell'][0]},{m['cell'][1]}) {m['letter']} {m['word']}  value {r.value}  "
                f"depth {args.depth}  {r.nodes} nodes  {r.time_s:.3f} s")
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

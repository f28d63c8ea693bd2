"""The puzzles shipped with the compressed BFS: sliding tiles, 2x2x2 cube, pancakes, 4-peg Hanoi."""

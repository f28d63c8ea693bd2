"""Balda: the letter-grid word game — dictionaries, a separator trie, full and incremental move
generation, negamax alpha-beta with the article's long-word pruning, and self-play."""

"""Edge matching (Eternity II and friends): the model here, the searches in `search/`, band proofs in `mitm/`.

The model: puzzles and their formats (`puzzle`), boards (`board`), hints (`hints`), the one scorer
(`score`), the E2-like generator (`generate`) and board pictures (`draw`). Subpackages build on it
and never on each other's private names.
"""

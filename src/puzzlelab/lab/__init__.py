"""Pipeline helpers shared by every engine: atomic writes, canonical JSON, hashes, tables, plots."""

"""Tables for the report: a CSV for download and a self-contained HTML page for reading.

Floats are formatted with a fixed number of significant digits, so the bytes are stable.
"""

from __future__ import annotations

import html
from pathlib import Path

import pandas as pd

from .atomic import atomic_write

FLOAT_FORMAT = "%.6g"

_STYLE = """<style>
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;font-size:13px;margin:8px}
table{border-collapse:collapse}
th,td{padding:3px 8px;border-bottom:1px solid #ddd;text-align:right}
th{background:#f3f3f3;position:sticky;top:0}
td:first-child,th:first-child{text-align:left}
caption{caption-side:top;text-align:left;font-weight:600;padding:4px 0}
p.note{color:#555;max-width:60em}
</style>"""


def _fmt(value) -> str:
    if isinstance(value, float):
        return FLOAT_FORMAT % value
    return str(value)


def to_html_page(df: pd.DataFrame, title: str = "", note: str = "") -> str:
    """A standalone HTML page with the table (what the Snakemake report embeds)."""
    body = df.to_html(index=False, border=0, float_format=lambda v: FLOAT_FORMAT % v, na_rep="—", escape=True)
    head = f"<title>{html.escape(title)}</title>" if title else ""
    caption = f"<h3>{html.escape(title)}</h3>" if title else ""
    extra = f"<p class=\"note\">{html.escape(note)}</p>" if note else ""
    return f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">{head}{_STYLE}</head><body>{caption}{extra}\n{body}\n</body></html>\n"


def write_table(df: pd.DataFrame, csv_path: str | Path | None = None, html_path: str | Path | None = None,
                title: str = "", note: str = "") -> None:
    """Write the same table as CSV and/or HTML, atomically."""
    if csv_path is not None:
        atomic_write(csv_path, df.to_csv(index=False, lineterminator="\n", float_format=FLOAT_FORMAT))
    if html_path is not None:
        atomic_write(html_path, to_html_page(df, title=title, note=note))


def read_table(csv_path: str | Path) -> pd.DataFrame:
    return pd.read_csv(csv_path, keep_default_na=False, na_values=[""])

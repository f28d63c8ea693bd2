"""Tables for the report: a CSV for download and a self-contained HTML page for reading.

CSV keeps six significant digits (for machines); the HTML page shows numbers rounded to what a
reader needs (three significant digits, whole numbers with thousands separators) and wraps long
cells, so a wide table never runs off the screen. Both are stable bytes.
"""

from __future__ import annotations

import html
import math
from pathlib import Path

import pandas as pd

from .atomic import atomic_write

FLOAT_FORMAT = "%.6g"

STYLE = """<style>
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;font-size:13px;margin:8px}
div.wrap{overflow-x:auto;max-width:100%}
table{border-collapse:collapse}
th,td{padding:3px 8px;border-bottom:1px solid #ddd;text-align:right;vertical-align:top}
th{background:#f3f3f3;position:sticky;top:0;white-space:normal;max-width:12em}
td{max-width:36em;overflow-wrap:anywhere}
td.text,th.text{text-align:left}
td.long{font-family:ui-monospace,monospace;font-size:12px;white-space:normal;min-width:24em;text-align:left}
h3{margin:4px 0}
p.note{color:#555;max-width:60em}
</style>"""


def display(value) -> str:
    """A cell as a reader wants it: 3 significant digits, whole numbers grouped, no float noise."""
    try:
        if value is None or pd.isna(value):
            return "—"
    except (TypeError, ValueError):  # lists and other non-scalars
        return str(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int) or (hasattr(value, "dtype") and getattr(value.dtype, "kind", "") in "iu"):
        return f"{int(value):,}"
    if isinstance(value, float) or (hasattr(value, "dtype") and getattr(value.dtype, "kind", "") == "f"):
        v = float(value)
        if math.isinf(v):
            return "∞" if v > 0 else "−∞"
        if v == int(v) and abs(v) < 1e15:
            return f"{int(v):,}"
        if abs(v) >= 1000:
            return f"{v:,.0f}"
        if abs(v) >= 0.001:
            return f"{v:.3g}"
        return f"{v:.2e}"
    return str(value)


def to_html_page(df: pd.DataFrame, title: str = "", note: str = "") -> str:
    """A standalone HTML page with the table (what the Snakemake report embeds)."""
    head = f"<title>{html.escape(title)}</title>" if title else ""
    caption = f"<h3>{html.escape(title)}</h3>" if title else ""
    extra = f"<p class=\"note\">{html.escape(note)}</p>" if note else ""
    text_cols = [not pd.api.types.is_numeric_dtype(df[c]) for c in df.columns]
    heads = "".join(f"<th class=\"{'text' if t else 'num'}\">{html.escape(str(c))}</th>"
                    for c, t in zip(df.columns, text_cols))
    rows = []
    for values in df.itertuples(index=False):
        cells = []
        for v, t in zip(values, text_cols):
            shown = display(v)
            cls = ("long" if len(shown) > 60 else "text") if t else "num"
            cells.append(f"<td class=\"{cls}\">{html.escape(shown)}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    body = f"<div class=\"wrap\"><table><thead><tr>{heads}</tr></thead><tbody>\n" + "\n".join(rows) + \
        "\n</tbody></table></div>"
    return (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">{head}{STYLE}</head><body>{caption}{extra}\n"
            f"{body}\n</body></html>\n")


def write_table(df: pd.DataFrame, csv_path: str | Path | None = None, html_path: str | Path | None = None,
                title: str = "", note: str = "") -> None:
    """Write the same table as CSV and/or HTML, atomically."""
    if csv_path is not None:
        atomic_write(csv_path, df.to_csv(index=False, lineterminator="\n", float_format=FLOAT_FORMAT))
    if html_path is not None:
        atomic_write(html_path, to_html_page(df, title=title, note=note))


def read_table(csv_path: str | Path, required: tuple[str, ...] = ()) -> pd.DataFrame:
    """A CSV table; an unreadable file, or one without the `required` columns, is the user's input
    error (`PATH:1: ...`), not a traceback."""
    from .errors import InputError

    try:
        df = pd.read_csv(csv_path, keep_default_na=False, na_values=[""])
    except FileNotFoundError:
        raise InputError("no such file", csv_path) from None
    except (OSError, UnicodeDecodeError, pd.errors.EmptyDataError, pd.errors.ParserError) as exc:
        raise InputError(f"not a readable CSV table ({exc})", csv_path) from None
    missing = [c for c in required if c not in df.columns]
    if missing:
        raise InputError(f"not the expected table: no column {', '.join(missing)}", csv_path, 1)
    return df

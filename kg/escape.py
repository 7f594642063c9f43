"""Corpus text made safe for where it lands: XML, CSV cells, Markdown, the terminal.

Every string a corpus supplies is hostile until escaped for its destination. Each
function here takes any string and returns one that the destination format shows as
plain text; none of them raises.

* :func:`xml_text` -- characters XML 1.0 forbids (C0 controls except tab/newline/CR,
  lone surrogates, U+FFFE/U+FFFF) removed; bidirectional overrides neutralised.
  Markup escaping (``&``, ``<``) is the XML writer's job.
* :func:`csv_cell` -- a cell a spreadsheet never evaluates: values starting with
  ``=``, ``+``, ``-``, ``@``, tab or CR get a leading apostrophe (OWASP, "CSV Injection").
* :func:`markdown_text` -- Markdown and inline HTML shown literally (``<``, ``>`` as entities, ``&`` too where
  it would start an entity, so ``Q&A`` stays readable;
  ``|``, ``[``, ``]``, emphasis and code marks backslash-escaped), one line.
* :func:`terminal_text` -- no escape sequences or other control characters.
* :func:`script_json` -- JSON that can sit inside an HTML ``<script>`` block: ``<``, ``>``, ``&``
  and the JavaScript line separators as ``\\u`` escapes, so no text closes the block.
* :func:`clean_text` -- the common part: lone surrogates and bidirectional controls
  replaced, so every output can encode it as UTF-8.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping

__all__ = ["clean_text", "clean_tree", "xml_text", "csv_cell", "markdown_text", "terminal_text", "script_json"]

# Explicit bidirectional formatting characters (Trojan Source, CVE-2021-42574).
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_XML_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]|~])")
_WS = re.compile(r"\s+")
_ENTITY_START = re.compile(r"&(?=#?[A-Za-z0-9]+;)")


_CLEAN = re.compile("[\ud800-\udfff\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")
_XML_ANY = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff"
                      "\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")


def clean_text(text: str) -> str:
    """``text`` without lone surrogates (→ U+FFFD) and bidirectional controls.

    Examples
    --------
    >>> clean_text("abc\\u202edef\\ud800")
    'abcdef\\ufffd'
    """
    if not _CLEAN.search(text):  # the usual case, in one scan
        return text
    if _SURROGATE.search(text):
        text = _SURROGATE.sub("\ufffd", text)
    return _BIDI.sub("", text)


def clean_tree(value: object) -> object:
    """``value`` (JSON-like: dicts, lists, scalars) with every string, keys too, through :func:`clean_text`.

    Examples
    --------
    >>> clean_tree({"t\\u202e": ["a\\ud800", 1]})
    {'t': ['a\\ufffd', 1]}
    """
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, Mapping):
        return {clean_text(k) if isinstance(k, str) else k: clean_tree(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [clean_tree(v) for v in value]
    return value


def xml_text(text: str) -> str:
    """``text`` with only characters XML 1.0 allows (before markup escaping).

    Examples
    --------
    >>> xml_text("a\\x01b\\x1b[31mc\\x00")
    'ab[31mc'
    """
    if not _XML_ANY.search(text):
        return text
    return _XML_FORBIDDEN.sub("", clean_text(text))


def csv_cell(value: object) -> object:
    """A value a spreadsheet shows as text, never evaluates (non-strings pass through).

    Examples
    --------
    >>> csv_cell('=HYPERLINK("http://x","click")')
    '\\'=HYPERLINK("http://x","click")'
    >>> csv_cell("-1.5e3"), csv_cell(-3), csv_cell("graph")
    ('-1.5e3', -3, 'graph')
    """
    if not isinstance(value, str):
        return value
    value = xml_text(value)
    if value.startswith(_FORMULA_START) and not _is_number(value):
        return "'" + value
    return value


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def markdown_text(value: object) -> str:
    """One line of Markdown that renders as the literal text, with no HTML.

    Examples
    --------
    >>> markdown_text("<img src=x onerror=alert(1)> | *x*")
    '&lt;img src=x onerror=alert(1)&gt; \\\\| \\\\*x\\\\*'
    >>> markdown_text("Q&A, AT&T and &amp; as written")
    'Q&A, AT&T and &amp;amp; as written'
    """
    text = _WS.sub(" ", xml_text(str(value))).strip()
    text = _ENTITY_START.sub("&amp;", text).replace("<", "&lt;").replace(">", "&gt;")
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


def terminal_text(value: object) -> str:
    """Text a terminal prints as is: control characters (ESC among them) shown as ``?``.

    Examples
    --------
    >>> terminal_text("\\x1b[31mred\\x1b[0m\\u202e")
    '?[31mred?[0m'
    """
    return _CONTROL.sub("?", clean_text(str(value)))


_SCRIPT_JSON_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def script_json(data: object) -> str:
    """``data`` as compact JSON that is safe inside ``<script type="application/json">``.

    ``JSON.parse`` of the block's ``textContent`` gives ``data`` back; no string in it can close
    the element or open a comment, whatever it holds.

    Examples
    --------
    >>> script_json({"title": "</script><b>&</b>"})
    '{"title":"\\\\u003c/script\\\\u003e\\\\u003cb\\\\u003e\\\\u0026\\\\u003c/b\\\\u003e"}'
    """
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    for raw, escaped in _SCRIPT_JSON_ESCAPES.items():
        text = text.replace(raw, escaped)
    return text

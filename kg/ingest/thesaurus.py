"""Read a VOSviewer-style thesaurus file: ``label<TAB>replace by``, one term per line.

The first line is a header (``label	replace by``) when its first field is ``label``.
A line whose replacement is empty drops the term; lines starting with ``#`` and
blank lines are ignored; control characters in a term are dropped. kg writes the merges it made in the same format
(:func:`kg.normalize.thesaurus_text`), so a user can edit that file and pass it back
with ``kg build --thesaurus FILE``.
"""

from __future__ import annotations

import os
import re

from kg.errors import InputError
from kg.escape import clean_text

# Control characters (C0 but tab, DEL, C1): a term never holds them, and every output would have to drop them.
_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f]")

__all__ = ["load_thesaurus"]


def load_thesaurus(path: str | os.PathLike[str]) -> dict[str, str]:
    """Label -> replacement ("" = drop the term), in file order.

    Raises
    ------
    InputError
        When the file cannot be read, a line has no tab, or a label appears twice
        with different replacements.

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "thesaurus.txt")
    ...     _ = open(path, "w").write("label\\treplace by\\nLLMs\\tlarge language model\\nnovel method\\t\\n")
    ...     load_thesaurus(path)
    {'LLMs': 'large language model', 'novel method': ''}
    """
    name = os.fspath(path)
    try:
        with open(name, encoding="utf-8-sig") as handle:
            lines = handle.read().splitlines()
    except OSError as exc:
        raise InputError(f"cannot read the thesaurus: {exc.strerror or exc}", path=name) from None
    except UnicodeDecodeError:
        raise InputError("the thesaurus is not UTF-8 text", path=name) from None
    result: dict[str, str] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if "\t" not in line:
            raise InputError("expected 'label<TAB>replace by' (the replacement may be empty)",
                             path=name, line=number)
        label, replacement = (_CONTROL.sub("", clean_text(field)).strip() for field in line.split("\t", 2)[:2])
        if number == 1 and label.lower() == "label":
            continue
        if not label:
            raise InputError("empty label", path=name, line=number)
        if label in result and result[label] != replacement:
            raise InputError(f"{label!r} is listed twice with different replacements",
                             path=name, line=number)
        result[label] = replacement
    return result

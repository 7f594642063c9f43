"""Reading corpus files as text, with located errors instead of tracebacks."""

from __future__ import annotations

import os

from kg.errors import InputError

__all__ = ["read_text", "MAX_FILE_BYTES"]

MAX_FILE_BYTES = 2 * 1024**3


def read_text(path: str | os.PathLike[str]) -> str:
    """Return the file's text: UTF-8 (with or without BOM) or UTF-16 with BOM, line endings as ``\\n``.

    Raises
    ------
    InputError
        When the file is missing, is a directory, or is not UTF-8 (the message
        names the line and byte offset of the first bad byte).
    """
    name = os.fspath(path)
    try:
        with open(name, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise InputError("no such file", path=name) from None
    except IsADirectoryError:
        raise InputError("is a directory, not a corpus file", path=name) from None
    except PermissionError:
        raise InputError("permission denied", path=name) from None
    if len(data) > MAX_FILE_BYTES:
        raise InputError("file larger than 2 GiB; split it into several inputs", path=name)
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):  # UTF-16 with BOM (Web of Science, Excel)
        try:
            return data.decode("utf-16").replace("\r\n", "\n").replace("\r", "\n")
        except UnicodeDecodeError as exc:
            raise InputError(f"broken UTF-16 text (offset {exc.start}); re-save the file as UTF-8",
                             path=name) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(
            f"not UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
            "re-save the file as UTF-8",
            path=name,
            line=line,
        ) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")

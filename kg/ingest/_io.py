"""Reading corpus files as text, with located errors instead of tracebacks."""

from __future__ import annotations

import os

from kg.errors import InputError

__all__ = ["read_text", "bomless_utf16", "MAX_FILE_BYTES"]

MAX_FILE_BYTES = 2 * 1024**3
_SAMPLE = 1 << 16


def bomless_utf16(data: bytes) -> str | None:
    """``utf-16-le`` / ``utf-16-be`` when most odd / even bytes of the file's start are NUL."""
    sample = data[:_SAMPLE]
    half = len(sample) // 2
    if half < 2:
        return None
    even, odd = sample[0::2].count(0), sample[1::2].count(0)
    if odd > 0.4 * half and even < 0.05 * half:
        return "utf-16-le"
    if even > 0.4 * half and odd < 0.05 * half:
        return "utf-16-be"
    return None


def read_text(path: str | os.PathLike[str]) -> str:
    """Return the file's text: UTF-8 (with or without BOM) or UTF-16 (with BOM, or recognised by its
    NUL bytes without one), line endings as ``\\n``.

    Raises
    ------
    InputError
        When the file is missing, is a directory, holds binary data (NUL bytes), or is
        not UTF-8 (the message names the line and byte offset of the first bad byte).
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
    utf16 = bomless_utf16(data)
    if utf16 is not None:  # NULs every other byte: UTF-16 saved without its byte order mark
        try:
            return data.decode(utf16).lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
        except UnicodeDecodeError as exc:
            line = data[:exc.start].decode(utf16, errors="replace").count("\n") + 1
            raise InputError(f"looks like {utf16.upper()} without a byte order mark, but is broken at offset "
                             f"{exc.start}; re-save the file as UTF-8", path=name, line=line) from None
    nul = data.find(b"\x00", 0, _SAMPLE)
    if nul >= 0 and data.count(b"\x00", 0, _SAMPLE) > len(data[:_SAMPLE]) // 100:
        raise InputError(f"binary data, not text (NUL bytes from offset {nul}); give a corpus file saved "
                         "as UTF-8", path=name, line=data.count(b"\n", 0, nul) + 1)
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

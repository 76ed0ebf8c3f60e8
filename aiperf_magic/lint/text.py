"""Text as it is on disk, and back: the encoding, the BOM and every line ending are kept.

Fixers work on text with ``\\n`` line endings. ``SourceBytes`` decodes a ``.py`` file as Python does
(UTF-8 BOM, a PEP 263 ``# -*- coding: ... -*-`` line, else UTF-8) and remembers the rest, so that
``encode`` writes the rewritten text back in the same encoding, with the same BOM, and with every
line the fix did not touch byte for byte as it was (``\\r\\n`` stays ``\\r\\n``). Lines the fix
wrote get the ending the file uses most. ``keep_endings`` does the same for a notebook cell's text.
"""

from __future__ import annotations

import codecs
import difflib
import io
import re
import tokenize
from dataclasses import dataclass

_LINE = re.compile(r"[^\n]*\n|[^\n]+$")  # lines end at "\n" only: a lone "\r" is text, as in Python


class EncodingError(ValueError):
    """The bytes are not text in their declared encoding, or a fix cannot be written in it."""


def split_lines(text: str) -> list[str]:
    """Lines with their endings (``\\n`` or ``\\r\\n``); ``"".join`` gives ``text`` back."""
    return _LINE.findall(text)


def normalise(text: str) -> str:
    """``text`` with ``\\r\\n`` line endings turned into ``\\n`` (what fixers see)."""
    return text.replace("\r\n", "\n")


def dominant_ending(text: str) -> str:
    crlf = text.count("\r\n")
    return "\r\n" if crlf and crlf * 2 >= text.count("\n") else "\n"


def keep_endings(original: str, new: str) -> str:
    """``new`` (``\\n`` endings, derived from ``normalise(original)``) with the original's bytes kept.

    Lines equal in both keep their own ending; lines the fix wrote take the dominant one.
    """
    if "\r" not in original:
        return new
    old_raw = split_lines(original)
    old = [normalise(line) for line in old_raw]
    fresh = split_lines(new)
    ending = dominant_ending(original)
    out: list[str] = []
    matcher = difflib.SequenceMatcher(None, old, fresh, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            out.extend(old_raw[i1:i2])
        else:
            out.extend(line[:-1] + ending if line.endswith("\n") else line for line in fresh[j1:j2])
    return "".join(out)


@dataclass(frozen=True)
class SourceBytes:
    """A Python file's text (``\\n`` endings, no BOM) and how to write a rewrite of it back."""

    raw: str  # decoded, BOM removed, line endings as in the file
    encoding: str  # the codec named by the file (``utf-8`` when none is)
    bom: bool

    @property
    def text(self) -> str:
        return normalise(self.raw)

    @classmethod
    def decode(cls, data: bytes) -> SourceBytes:
        bom = data.startswith(codecs.BOM_UTF8)
        try:
            encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
            encoding = "utf-8" if encoding == "utf-8-sig" else encoding
            raw = data[len(codecs.BOM_UTF8) if bom else 0 :].decode(encoding)
        except (SyntaxError, LookupError, UnicodeDecodeError) as exc:
            raise EncodingError(
                "not valid text in its declared encoding (UTF-8 unless a coding line says otherwise)"
            ) from exc
        return cls(raw=raw, encoding=encoding, bom=bom)

    def encode(self, new_text: str) -> bytes:
        """The bytes of ``new_text`` (a rewrite of ``text``) as this file writes them."""
        raw = keep_endings(self.raw, new_text)
        try:
            body = raw.encode(self.encoding)
        except UnicodeEncodeError as exc:
            bad = exc.object[exc.start : exc.end]
            raise EncodingError(
                f"the fix writes {bad!r}, which the file's encoding ({self.encoding}) cannot hold: not rewritten"
            ) from exc
        return (codecs.BOM_UTF8 if self.bom else b"") + body

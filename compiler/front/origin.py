"""Where an expression's text stands in its YAML file: offsets in the text -> lines and columns.

Part of pass 3, expressions (compiler/front/expr.py, which re-exports :class:`Origin`): every node
the parser builds takes its span from here, so that a caret lands where the user wrote it.
"""

from __future__ import annotations

from ..diagnostics import Span


class Origin:
    """Maps offsets in an expression's text to lines and columns of its YAML file.

    A YAML scalar's value is not its source text: quotes are stripped, block scalars
    lose their indentation and folded lines become spaces. The map is built by
    walking the value and the raw source side by side, so a caret lands on the
    character the user wrote whatever the scalar style.
    """

    def __init__(self, file: str, positions: list[tuple[int, int]], end: tuple[int, int]):
        self.file = file
        self.positions = positions
        self.end = end

    @classmethod
    def plain(cls, file: str, line: int, col: int, text: str) -> Origin:
        """For text that sits on one line at a known place (tests, the CLI)."""
        return cls(file, [(line, col + i) for i in range(len(text))], (line, col + len(text)))

    @classmethod
    def of_scalar(cls, value: str, span: Span, raw_lines: list[str]) -> Origin:
        positions: list[tuple[int, int]] = []
        line, col = span.line, span.col  # 1-based
        end_line = span.end_line or span.line

        def char_at(row: int, c: int) -> str | None:
            if row > end_line or row > len(raw_lines):
                return None
            text = raw_lines[row - 1]
            return text[c - 1] if c - 1 < len(text) else "\n"

        for ch in value:
            found = False
            for _ in range(4096):
                sc = char_at(line, col)
                if sc is None:
                    break
                if sc == ch or (ch in " \n" and sc in " \n\t"):
                    positions.append((line, col))
                    found = True
                    if sc == "\n":
                        line, col = line + 1, 1
                    else:
                        col += 1
                    break
                if sc == "\n":
                    line, col = line + 1, 1
                else:
                    col += 1
            if not found:
                positions.append(positions[-1] if positions else (span.line, span.col))
        return cls(span.file, positions, (line, col))

    def at(self, start: int, end: int | None = None) -> Span:
        def pos(i: int) -> tuple[int, int]:
            if 0 <= i < len(self.positions):
                return self.positions[i]
            return self.end if not self.positions or i >= len(self.positions) else self.positions[0]

        line, col = pos(start)
        if end is None or end <= start:
            return Span(self.file, line, col, line, col + 1)
        last_line, last_col = pos(end - 1)
        if last_line != line:
            return Span(self.file, line, col, last_line, last_col + 1)
        return Span(self.file, line, col, line, last_col + 1)

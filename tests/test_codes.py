"""The diagnostic codes: one registry (compiler/codes.py), documented once each in
rulespec/README.md with the registry's meaning, and no code anywhere that is not in it.

The sources are scanned (every string literal that is a code), so a code in a branch no test
reaches is found too; the Diagnostic type refuses an unregistered code at run time.
"""

from __future__ import annotations

import ast
import pathlib
import re

import pytest

from compiler import codes
from compiler.diagnostics import Diagnostic

ROOT = pathlib.Path(__file__).resolve().parent.parent
CODE = re.compile(r"E\d{3}")
ROW = re.compile(r"^\| (E\d{3}) \| ([^|]*?) \|", re.M)


def diagnostics_section() -> str:
    text = (ROOT / "rulespec" / "README.md").read_text(encoding="utf-8")
    start = text.index("\n## Diagnostics\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else len(text)]


def documented() -> list[tuple[str, str]]:
    """(code, meaning) for each table row of the README's Diagnostics section that is a code."""
    return ROW.findall(diagnostics_section())


def code_literals(folder: str) -> dict[str, set[str]]:
    """Every string literal that is a code, in the Python files under `folder`: code -> files."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / folder).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and CODE.fullmatch(node.value):
                found.setdefault(node.value, set()).add(str(path.relative_to(ROOT)))
    return found


def test_every_code_is_documented_once_with_the_registrys_meaning():
    rows = documented()
    codes_in_readme = [code for code, _ in rows]
    twice = sorted({c for c in codes_in_readme if codes_in_readme.count(c) > 1})
    assert not twice, f"documented more than once in rulespec/README.md: {twice}"
    assert sorted(codes_in_readme) == sorted(codes.CODES), (
        f"registered, not documented: {sorted(set(codes.CODES) - set(codes_in_readme))}; "
        f"documented, not registered: {sorted(set(codes_in_readme) - set(codes.CODES))}"
    )
    for code, meaning in rows:
        assert meaning == codes.documented(codes.CODES[code]), code


def test_the_sources_report_only_registered_codes_and_every_registered_code():
    used: dict[str, set[str]] = {}
    for folder in ("app", "compiler", "playtest", "web"):
        for code, files in code_literals(folder).items():
            used.setdefault(code, set()).update(files - {"compiler/codes.py"})
    unknown = {code: sorted(files) for code, files in used.items() if code not in codes.CODES}
    assert not unknown, f"codes the sources use and compiler/codes.py does not define: {unknown}"
    unused = sorted(code for code in codes.CODES if not used.get(code))
    assert not unused, f"codes registered but reported by no module: {unused}"


def test_the_tests_and_goldens_name_only_registered_codes():
    named = {
        code for code, files in code_literals("tests").items() if files - {"tests/test_codes.py"}
    }  # this file names unregistered codes on purpose
    for golden in sorted((ROOT / "tests").rglob("*.txt")):
        named |= set(re.findall(r"(?:error|warning)\[(E\d{3})\]", golden.read_text(encoding="utf-8")))
    assert named, "the scan found no code at all"
    assert named <= set(codes.CODES), sorted(named - set(codes.CODES))


def test_each_code_has_a_family_and_a_one_line_meaning():
    for entry in codes.CODES.values():
        assert entry.family.name and entry.meaning and "\n" not in entry.meaning, entry.code
        assert entry.severity in (codes.ERROR, codes.WARNING), entry.code


def test_a_diagnostic_refuses_an_unregistered_code_or_another_severity():
    with pytest.raises(codes.UnknownCode, match="'E999' is not registered"):
        Diagnostic("E999", "a code nobody defined")
    with pytest.raises(codes.UnknownCode, match="not registered"):
        Diagnostic("", "no code at all")
    with pytest.raises(codes.UnknownCode, match="E516 is a warning"):
        Diagnostic("E516", "a warning made as an error")
    with pytest.raises(codes.UnknownCode, match="E410 is an error"):
        Diagnostic("E410", "an error made as a warning", severity=codes.WARNING)
    assert Diagnostic("E516", "a warning", severity=codes.WARNING).code == "E516"


def test_a_code_defined_twice_is_refused():
    with pytest.raises(ValueError, match="E001 is defined twice"):
        codes._index([codes.CODES["E001"], codes.CODES["E001"]])

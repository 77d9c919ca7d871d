"""The project's own documents resolve what the code cites (docs/rules.md, docs/architecture.md).

- Every rule number the code cites (``R7``, ``R3.1``, ``R11.4`` ... in the
  modules, tests and scripts) is defined in ``docs/rules.md``: as a heading
  (``## R7. ...``, ``### R3.1 ...``) or as the bold label that starts a
  numbered part (``**R11.4**``).
- Every ``docs/...`` path cited in the code or the README exists.
- The links inside ``docs/*.md`` (``#anchors`` and relative files) lead somewhere.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest


def project_root() -> Path:
    """The folder holding ``pyproject.toml`` (this file may sit in ``tests/`` or a subfolder of it)."""
    for folder in Path(__file__).resolve().parents:
        if (folder / "pyproject.toml").is_file():
            return folder
    raise AssertionError("no pyproject.toml above tests/")


ROOT = project_root()
RULES = ROOT / "docs" / "rules.md"
CODE_FOLDERS = ("baloot", "cogs", "tests", "scripts")
CODE_FILES = ("bot.py", "README.md")
SUFFIXES = {".py", ".md", ".sh", ".toml"}

CITATION = re.compile(r"(?<![\w])R(\d+(?:\.\d+)*)(?![\w])")
"""``R7``, ``R3.1``, ``R11.4`` (not ``R2D2``, ``HR1``): a trailing full stop is punctuation, not a part."""
HEADING = re.compile(r"^#{1,6}\s+R(\d+(?:\.\d+)*)\b", re.MULTILINE)
LABEL = re.compile(r"^\s*(?:\d+\.|[-*])?\s*\*\*R(\d+(?:\.\d+)*)\b", re.MULTILINE)
DOCS_PATH = re.compile(r"(?<![\w/.-])docs/[\w./-]*\w")
LINK = re.compile(r"\]\(([^)\s]+)\)")


def code_files() -> list[Path]:
    files = [ROOT / name for name in CODE_FILES if (ROOT / name).is_file()]
    for folder in CODE_FOLDERS:
        files.extend(p for p in sorted((ROOT / folder).rglob("*")) if p.suffix in SUFFIXES and p.is_file())
    return files


def cited_rules() -> dict[str, list[str]]:
    """Rule number → where it is cited (file:line), for every citation in the code."""
    cited: dict[str, list[str]] = {}
    for path in code_files():
        for line_no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for match in CITATION.finditer(line):
                cited.setdefault(match[1], []).append(f"{path.relative_to(ROOT)}:{line_no}")
    return cited


def defined_rules(text: str) -> set[str]:
    return set(HEADING.findall(text)) | set(LABEL.findall(text))


def anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def test_every_cited_rule_is_defined_in_docs_rules() -> None:
    defined = defined_rules(RULES.read_text(encoding="utf-8"))
    cited = cited_rules()
    assert len(cited) > 30, sorted(cited)  # the scan found the code's citations
    missing = {number: places[:3] for number, places in cited.items() if number not in defined}
    assert not missing, f"cited but not defined in docs/rules.md: {missing}"


def test_the_rulebook_numbers_its_sections_in_order() -> None:
    """R1..R12 each once as a section, and every part (R3.1) under its own section."""
    text = RULES.read_text(encoding="utf-8")
    sections = [int(n) for n in re.findall(r"^## R(\d+)\. ", text, re.MULTILINE)]
    assert sections == list(range(1, 13))
    defined = sorted(defined_rules(text), key=lambda n: [int(x) for x in n.split(".")])
    assert len(defined) == len(HEADING.findall(text)) + len(LABEL.findall(text)), "a number defined twice"
    for number in defined:
        assert number.split(".")[0] in defined, number


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("R7.1 ex. 3, R3.1 step C and (R12).", ["7.1", "3.1", "12"]),
        ("the deal (R2.4); a Sawa claim (R12.2 example)", ["2.4", "12.2"]),
        ("not HR1, R2D2 or BR12, but R5.", ["5"]),
    ],
)
def test_the_scan_reads_citations(text: str, numbers: list[str]) -> None:
    assert [m[1] for m in CITATION.finditer(text)] == numbers


def test_the_check_sees_a_number_that_is_not_defined() -> None:
    defined = defined_rules("## R1. Seats\n\n### R1.1 Values\n\n1. **R2.1** — packets\n- **R11.4** — keys\n")
    assert defined == {"1", "1.1", "2.1", "11.4"}
    assert "13" not in defined and "1.2" not in defined


def test_every_docs_path_cited_in_the_code_exists() -> None:
    missing = []
    for path in code_files():
        for match in DOCS_PATH.finditer(path.read_text(encoding="utf-8")):
            if not (ROOT / match[0]).exists():
                missing.append(f"{path.relative_to(ROOT)}: {match[0]}")
    assert not missing, missing


@pytest.mark.parametrize("name", ["rules.md", "architecture.md"])
def test_links_inside_the_docs_lead_somewhere(name: str) -> None:
    doc = ROOT / "docs" / name
    text = doc.read_text(encoding="utf-8")
    anchors = {anchor(h) for h in re.findall(r"^#{1,6}\s+(.+)$", text, re.MULTILINE)}
    broken = []
    for target in LINK.findall(text):
        if target.startswith(("http://", "https://")):
            continue
        file_part, _, fragment = target.partition("#")
        leads = (doc.parent / file_part).exists() if file_part else fragment in anchors
        if not leads:
            broken.append(target)
    assert not broken, broken


def test_the_readme_points_to_the_docs_not_to_files_outside_the_project() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/rules.md" in readme and "docs/architecture.md" in readme
    assert "RULES.md" not in readme and "ARCHITECTURE.md" not in readme

"""docs/rulings.md is the index of every ruling the engine implements (issue 11).

- Every scenario's ``source`` cites at least one ruling id, and every id it cites is an entry.
- Every docstring in engine/ that cites a seed also names a ruling id, and every ruling id named
  anywhere in engine/, the README or the ADRs is an entry.
- Every entry is cited by at least one scenario, and names its seed and official source.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
RULINGS = ROOT / "docs" / "rulings.md"
ID = re.compile(r"\b(?:BP|BS|DS|ES|CH|PRI|SEL|LF|SUM|TOK|EQ|CARD|GEN|FMT)-\d+\b")
ENTRY = re.compile(r"^### ((?:BP|BS|DS|ES|CH|PRI|SEL|LF|SUM|TOK|EQ|CARD|GEN|FMT)-\d+) · (.+)$", re.M)
SEED = re.compile(r"\bseed \d{3}\b")


def entries() -> dict[str, str]:
    """id -> the entry's text (from its heading to the next one)."""
    text = RULINGS.read_text("utf-8")
    heads = list(ENTRY.finditer(text))
    out: dict[str, str] = {}
    for i, m in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        assert m.group(1) not in out, f"ruling {m.group(1)} is defined twice"
        out[m.group(1)] = text[m.start() : end]
    return out


def scenario_sources() -> dict[Path, str]:
    out = {}
    for path in sorted((ROOT / "tests" / "scenarios").rglob("*.yaml")):
        doc = yaml.safe_load(path.read_text("utf-8"))
        out[path] = str(doc.get("source", ""))
    return out


def docstrings() -> list[tuple[str, str]]:
    out = []
    for path in sorted((ROOT / "engine").rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef):
                doc = ast.get_docstring(node)
                if doc:
                    out.append((f"{path.relative_to(ROOT)}::{getattr(node, 'name', '<module>')}", doc))
    return out


def test_entries_are_complete() -> None:
    found = entries()
    assert len(found) >= 40
    for rid, text in found.items():
        assert "- Seed:" in text, f"{rid} names no seed"
        assert "- Official source:" in text, f"{rid} names no official source"
        assert "- Code:" in text, f"{rid} names no code"


def test_every_scenario_source_resolves_to_a_ruling() -> None:
    known = set(entries())
    for path, source in scenario_sources().items():
        cited = ID.findall(source)
        assert cited, f"{path.relative_to(ROOT)}: its source cites no ruling of docs/rulings.md"
        unknown = [c for c in cited if c not in known]
        assert not unknown, f"{path.relative_to(ROOT)}: unknown rulings {unknown}"


def test_every_docstring_citation_resolves_to_a_ruling() -> None:
    known = set(entries())
    for where, doc in docstrings():
        cited = ID.findall(doc)
        assert all(c in known for c in cited), f"{where}: unknown rulings {[c for c in cited if c not in known]}"
        if SEED.search(doc):
            assert cited, f"{where}: cites a seed but no ruling of docs/rulings.md"


def test_ids_in_the_readme_and_adrs_resolve() -> None:
    known = set(entries())
    for path in [
        ROOT / "README.md",
        *sorted((ROOT / "docs" / "adr").glob("*.md")),
        ROOT / "docs" / "scenario-format.md",
    ]:
        unknown = [c for c in ID.findall(path.read_text("utf-8")) if c not in known]
        assert not unknown, f"{path.name}: unknown rulings {unknown}"


def test_every_ruling_has_a_scenario() -> None:
    cited = {c for source in scenario_sources().values() for c in ID.findall(source)}
    missing = sorted(set(entries()) - cited)
    assert not missing, f"rulings no scenario cites: {missing}"


INDEX_START, INDEX_END = "<!-- index:start -->", "<!-- index:end -->"


def index_block() -> str:
    """The index of docs/rulings.md, made from its entries: per entry its id (a link to the
    entry), its title and the number of scenario files that cite it."""
    text = RULINGS.read_text("utf-8")
    cites: dict[str, int] = {}
    for source in scenario_sources().values():
        for c in set(ID.findall(source)):
            cites[c] = cites.get(c, 0) + 1
    rows = ["| ruling | what | scenarios |", "|---|---|---|"]
    for m in ENTRY.finditer(text):
        rid, title = m.group(1), m.group(2)
        anchor = re.sub(r"[^\w\- ]", "", f"{rid} · {title}".lower()).replace(" ", "-")
        rows.append(f"| [{rid}](#{anchor}) | {title} | {cites.get(rid, 0)} |")
    return "\n".join([INDEX_START, *rows, INDEX_END])


def test_the_index_lists_every_entry() -> None:
    text = RULINGS.read_text("utf-8")
    start, end = text.find(INDEX_START), text.find(INDEX_END)
    assert 0 <= start < end, "docs/rulings.md has no index block"
    assert text[start : end + len(INDEX_END)] == index_block(), (
        "docs/rulings.md's index is out of date: run `.venv/bin/python -m tests.test_rulings_doc`"
    )


def write_index() -> None:
    text = RULINGS.read_text("utf-8")
    start, end = text.find(INDEX_START), text.find(INDEX_END)
    RULINGS.write_text(text[:start] + index_block() + text[end + len(INDEX_END) :], "utf-8")


if __name__ == "__main__":
    write_index()

"""No dead links: every relative link in the project's Markdown, and every Markdown file a
Python docstring or comment names, points to a file that exists (issue 36).

A Markdown link ``[text](target)`` is resolved against the folder of the file it is in (an
``#anchor`` is cut off; ``http(s):``/``mailto:`` links are not checked). A ``.md`` name in a
Python file is resolved against the repository root, then against ``docs/``; a bare name with
no folder (``PROTOCOL.md``) is also found anywhere in the tree."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SKIP_DIRS = {".git", ".venv", "node_modules", "var", "dist", "artifacts", ".mypy_cache", ".pytest_cache"}
MD_LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
MD_NAME = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w-]+\.md)\b")


def _files(suffix: str) -> list[Path]:
    return sorted(
        p for p in ROOT.rglob(f"*{suffix}") if not any(part in SKIP_DIRS for part in p.relative_to(ROOT).parts)
    )


def _md_targets(path: Path) -> list[tuple[int, str]]:
    found = []
    in_code = False
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.lstrip().startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            continue
        for target in MD_LINK.findall(line):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                continue
            found.append((n, target.split("#", 1)[0]))
    return found


def test_markdown_links_resolve() -> None:
    dead = []
    for path in _files(".md"):
        for n, target in _md_targets(path):
            if not (path.parent / target).exists():
                dead.append(f"{path.relative_to(ROOT)}:{n}: {target}")
    assert not dead, "dead links:\n" + "\n".join(dead)


def _named(path: Path) -> list[tuple[int, str]]:
    """The ``.md`` names in a file's text (for Markdown, outside code blocks and links' URLs)."""
    found = []
    in_code = False
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if path.suffix == ".md":
            if line.lstrip().startswith("```"):
                in_code = not in_code
            if in_code:
                continue
            line = re.sub(r"https?://\S+", "", line)
        found.extend((n, name) for name in MD_NAME.findall(line))
    return found


def test_markdown_files_named_in_text_exist() -> None:
    names = {p.name for p in _files(".md")}
    dead = []
    for path in _files(".py") + _files(".md"):
        if path == Path(__file__).resolve():
            continue
        for n, name in _named(path):
            places = (path.parent / name, ROOT / name, ROOT / "docs" / name)
            if any(p.exists() for p in places) or ("/" not in name and name in names):
                continue
            dead.append(f"{path.relative_to(ROOT)}:{n}: {name}")
    assert not dead, "names of Markdown files that do not exist:\n" + "\n".join(dead)


def test_the_checker_finds_a_dead_link(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("see [the design](DESIGN.md) and [this](page.md#top)\n```\n[in code](nowhere.md)\n```\n")
    assert [t for _, t in _md_targets(page)] == ["DESIGN.md", "page.md"]
    assert not (tmp_path / "DESIGN.md").exists()
    assert MD_NAME.findall('"""The steps (docs/adr/0002-x.md, DESIGN.md)."""') == ["docs/adr/0002-x.md", "DESIGN.md"]

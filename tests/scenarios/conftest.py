"""Collect every scenario file under tests/scenarios/ as a test (docs/scenario-format.md)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.scenario import run


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    if file_path.suffix in (".yaml", ".yml"):
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        doc = yaml.safe_load(self.path.read_text("utf-8"))
        yield ScenarioItem.from_parent(self, name=str(doc.get("name", self.path.stem)), doc=doc)


class ScenarioFailed(Exception):
    pass


class ScenarioItem(pytest.Item):
    def __init__(self, *, doc: dict[str, Any], **kw: Any) -> None:
        super().__init__(**kw)
        self.doc = doc

    def runtest(self) -> None:
        assert self.doc.get("source"), "every scenario cites its source"
        result = run(self.doc)
        if not result.ok:
            raise ScenarioFailed(str(result.failure))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ScenarioFailed):
            return f"FAIL {self.name}\n  {excinfo.value}"
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"scenario: {self.name}"

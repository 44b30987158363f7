"""The Python snippets of the documentation (README.md, ARCHITECTURE.md, CONTRIBUTING.md and
every page under docs/) run as they are written, each printing something."""

import re

import pytest

from conftest import ROOT

# docs/c-api.md is generated from the header and holds declarations only.
PAGES = [ROOT / name for name in ("README.md", "ARCHITECTURE.md", "CONTRIBUTING.md")] + sorted(
    page for page in (ROOT / "docs").rglob("*.md") if page.name != "c-api.md"
)
BLOCKS = [
    (page.relative_to(ROOT).as_posix(), index, block)
    for page in PAGES
    for index, block in enumerate(re.findall(r"^```python\n(.*?)^```", page.read_text(), re.S | re.M))
]


def test_the_documentation_has_python_snippets():
    assert any(page == "README.md" for page, _, _ in BLOCKS), "the README has a Python quick start"


@pytest.mark.parametrize("page, index, block", BLOCKS, ids=[f"{page}:{index}" for page, index, _ in BLOCKS])
def test_doc_python_snippet_runs(capsys, page, index, block):
    exec(compile(block, f"{page} (python snippet {index})", "exec"), {"__name__": "__doc_snippet__"})
    assert capsys.readouterr().out, f"{page}: python snippet {index} printed nothing"

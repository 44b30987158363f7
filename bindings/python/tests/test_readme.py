"""The README's Python snippets run as they are written."""

import re

from conftest import ROOT


def test_readme_python_snippets_run(capsys):
    readme = (ROOT / "README.md").read_text()
    blocks = re.findall(r"^```python\n(.*?)^```", readme, re.S | re.M)
    assert blocks, "the README has a Python quick start"
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {"__name__": "__readme__"})
    assert capsys.readouterr().out

"""The wheel carries everything kg reads at run time: cypher/ (as kg/_cypher) and kg/resources."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile

import pytest

from conftest import ROOT


@pytest.mark.slow
def test_wheel_holds_the_cypher_library_and_resources(tmp_path):
    source = tmp_path / "src"  # a copy: setuptools writes build/ next to the sources
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    for name in ("kg", "cypher"):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                           str(source), "-w", str(tmp_path)], capture_output=True, text=True, check=False)
    if done.returncode != 0 and "No module named pip" in done.stderr:
        pytest.skip("pip is not available in this environment")
    assert done.returncode == 0, done.stderr[-2000:]
    (wheel,) = tmp_path.glob("kg-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    cypher = {f"kg/_cypher/{p.relative_to(ROOT / 'cypher').as_posix()}" for p in (ROOT / "cypher").rglob("*.cypher")}
    resources = {f"kg/resources/{p.name}" for p in (ROOT / "kg" / "resources").iterdir() if p.is_file()}
    assert cypher and cypher <= names, sorted(cypher - names)
    assert resources and resources <= names, sorted(resources - names)
    assert not any(n.startswith(("tests/", "bench/", "cypher/")) for n in names)

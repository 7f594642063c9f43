"""The layers of docs/ARCHITECTURE.md hold: import-linter's contracts (pyproject.toml), no kg import
hidden inside a function, and importing a low module loads nothing above it."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import kg

ROOT = Path(__file__).resolve().parent.parent
# The only kg imports made inside a function: kg/__init__ loads the API (and with it the whole
# pipeline) and kg.search on first use (PEP 562), so that `import kg.graph` loads no more than it needs.
# The CLI imports only the module of the command it runs (kg/cli/__init__: main and app, through _load), so that
# `kg search` starts without the pipeline. kg.load(...).search loads the embedders' code (kg.extract) only
# when it searches, and `kg viz` the co-author warning (kg.citations, SciPy) only for the whole graph's
# co-author view, so the index's answers start without them (tests/test_index.py counts what they load).
LAZY_KG_IMPORTS = {("kg/__init__.py", "__getattr__"), ("kg/cli/__init__.py", "_load"), ("kg/opened.py", "search"),
                   ("kg/cli/viz.py", "viz")}


def _lint_imports() -> str:
    found = shutil.which("lint-imports", path=os.pathsep.join([str(Path(sys.executable).parent),
                                                                os.environ.get("PATH", "")]))
    if found is None:
        pytest.fail("lint-imports is not installed: pip install -e '.[test]' (import-linter is a test extra)")
    return found


def test_the_import_contracts_are_kept():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([_lint_imports(), "--no-cache"], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout


def test_an_upward_import_breaks_the_contract(tmp_path):
    """The contract is not vacuous: a copy of kg whose graph imports the exporters fails it."""
    copy = tmp_path / "kg"
    shutil.copytree(ROOT / "kg", copy, ignore=shutil.ignore_patterns("__pycache__"))
    graph = copy / "graph.py"
    graph.write_text(graph.read_text(encoding="utf-8") + "\nfrom kg.export import files  # noqa: E402\n",
                     encoding="utf-8")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    done = subprocess.run([_lint_imports(), "--no-cache"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 1
    assert "kg.graph -> kg.export.files" in done.stdout


def _names_kg(node: ast.AST) -> bool:
    """Whether an ``import_module`` argument is a kg module: ``"kg…"`` or ``f"kg.{…}"``."""
    if isinstance(node, ast.JoinedStr) and node.values:
        node = node.values[0]
    return isinstance(node, ast.Constant) and str(node.value).startswith("kg")


def _function_imports(path: Path) -> list[tuple[str, int, str]]:
    """(function, line, module) of each kg import inside a function of ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []

    def visit(node: ast.AST, function: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            name = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else function
            if function is not None:
                if isinstance(child, ast.ImportFrom) and (child.level or (child.module or "").split(".")[0] == "kg"):
                    found.append((function, child.lineno, "." * child.level + (child.module or "")))
                elif isinstance(child, ast.Import):
                    found.extend((function, child.lineno, a.name) for a in child.names if a.name.split(".")[0] == "kg")
                elif (isinstance(child, ast.Call) and isinstance(child.func, ast.Attribute)
                      and child.func.attr == "import_module" and child.args
                      and _names_kg(child.args[0])):
                    found.append((function, child.lineno, ast.unparse(child.args[0])))
            visit(child, name)

    visit(tree, None)
    return found


def test_no_kg_import_is_hidden_inside_a_function():
    hidden = [f"{path.relative_to(ROOT)}:{line} in {function}(): {module}"
              for path in sorted((ROOT / "kg").rglob("*.py"))
              for function, line, module in _function_imports(path)
              if (path.relative_to(ROOT).as_posix(), function) not in LAZY_KG_IMPORTS]
    assert hidden == []


def test_the_checker_sees_an_import_inside_a_function(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import os\n\ndef f():\n    from kg.graph import projection\n    import kg.vectors\n"
                      "    import numpy\n    importlib.import_module(f'kg.cli.{x}')\n    return projection\n",
                      encoding="utf-8")
    assert _function_imports(sample) == [("f", 4, "kg.graph"), ("f", 5, "kg.vectors"), ("f", 7, "f'kg.cli.{x}'")]


@pytest.mark.parametrize("module, absent", [
    ("kg.vectors", ["kg.export", "kg.graph", "kg.analyze", "kg.ingest"]),
    ("kg.graph", ["kg.ingest", "kg.export", "kg.analyze", "kg.graphfile"]),
    ("kg.graphfile", ["kg.ingest", "kg.extract", "kg.analyze", "kg.export"]),
    ("kg.analyze", ["kg.export", "kg.report", "kg.pipeline", "kg.api"]),
    ("kg", ["kg.api", "kg.pipeline", "kg.graph"]),
    ("kg.index.views", ["kg.analyze", "kg.citations", "kg.graph", "kg.extract", "kg.export.html_view"]),
])
def test_importing_a_module_loads_nothing_above_it(module, absent):
    code = f"import {module}, sys; print(' '.join(sorted(m for m in sys.modules if m.startswith('kg'))))"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    loaded = done.stdout.split()
    assert [m for m in loaded if any(m == a or m.startswith(a + ".") for a in absent)] == []


def test_a_notebook_sees_the_public_surface():
    names = dir(kg)
    for name in ("build", "load", "update", "KnowledgeGraph", "Paper", "KgError", "search", "__version__"):
        assert name in names
    from kg.api import KnowledgeGraph, build, load, update
    from kg.errors import KgError
    from kg.models import Paper
    from kg.search import search_build

    from kg.opened import load as open_build

    assert (kg.build, kg.update, kg.KnowledgeGraph) == (build, update, KnowledgeGraph)
    assert kg.load is open_build  # kg.load opens a build from its index (kg.opened); kg.api.load reads it whole
    assert KnowledgeGraph.read.__func__.__doc__ and load.__doc__
    assert kg.Paper is Paper and kg.KgError is KgError and kg.search.search_build is search_build
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        kg.nothing  # noqa: B018

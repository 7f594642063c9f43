"""Where vis-network 9.1.2 is: the copy pyvis ships, which the graph page inlines and ``kg serve`` serves.

Found through pyvis's import spec, without importing pyvis (which imports Jinja2 and more: about
half a second of every ``kg viz`` on the 2-core machine kg is measured on).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

__all__ = ["vis_network_folder"]


def vis_network_folder() -> Path:
    """The folder holding ``vis-network.min.js`` and ``vis-network.css`` (version 9.1.2) as pyvis ships them."""
    spec = importlib.util.find_spec("pyvis")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("pyvis is not installed: pip install pyvis (a dependency of kg)")
    return Path(next(iter(spec.submodule_search_locations))) / "templates" / "lib" / "vis-9.1.2"

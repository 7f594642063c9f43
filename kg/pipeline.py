"""The whole main job, stage after stage: ingest → extract → normalize → build → analyze → export.

:func:`build` is what ``kg build`` calls; each stage is also usable on its own.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import networkx as nx

import kg
from kg.analyze import analyze
from kg.export.files import atomic_write, write_graph_files
from kg.export.html import render_html
from kg.extract import (DIVERSITY, EXTRACTOR, POSITION_WEIGHT, TITLE_WEIGHT, CachedEmbedder,
                        Embedder, extract_keyphrases, load_embedder)
from kg.graph import build_graph
from kg.ingest import load_corpus
from kg.models import Corpus
from kg.ingest.thesaurus import load_thesaurus
from kg.normalize import MERGE_THRESHOLD, normalize_concepts, thesaurus_text
from kg.report import write_report

__all__ = ["BuildOptions", "BuildResult", "build"]

Progress = Callable[[str, int, int], None]


@dataclass(frozen=True)
class BuildOptions:
    """Every parameter of a build; all of them are recorded in the graph's metadata."""

    format: str = "auto"
    strict: bool = False
    mapping: tuple[tuple[str, str], ...] = ()  # (kg field, CSV column) pairs, from --map
    top_n: int = 10
    diversity: float = DIVERSITY
    position_weight: float = POSITION_WEIGHT
    title_weight: float = TITLE_WEIGHT
    precision: str = "auto"  # of the embedding model: auto = int8 on a CPU, fp16 on a GPU
    merge_threshold: float = MERGE_THRESHOLD
    shared_depth: int = 30  # how far down its ranking a paper may link to concepts others have
    thesaurus: str | None = None  # path of a VOSviewer thesaurus file
    related_top_k: int = 20
    min_shared: int = 1
    min_cooccurrence: int = 1
    seed: int = 42
    resolution: float = 1.0
    html: bool = True
    write_thesaurus: bool = False  # also write thesaurus.txt: the merges kg made

    def __post_init__(self) -> None:
        """Refuse a value no stage can use now, before any minute of extraction is spent.

        Raises
        ------
        OptionError
            Naming the argument, the value and what is allowed.
        """
        import math

        from kg.errors import OptionError
        from kg.extract.embedder import PRECISIONS
        from kg.ingest import FORMATS
        from kg.ingest.table import FIELDS

        def number(name: str, *, low: float, high: float = math.inf, low_open: bool = False) -> None:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise OptionError(name, f"must be a finite number, not {value!r}")
            if value < low or (low_open and value == low) or value > high:
                span = (f"> {low:g}" if low_open else f">= {low:g}") + (f" and <= {high:g}" if high < math.inf else "")
                raise OptionError(name, f"must be {span}, not {value!r}")

        def integer(name: str, *, low: int = 1, high: int = 2**31 - 1) -> None:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError(name, f"must be a whole number, not {value!r}")
            if not low <= value <= high:
                raise OptionError(name, f"must be between {low} and {high}, not {value!r}")

        if self.format not in FORMATS:
            raise OptionError("format", f"unknown format {self.format!r}; choose auto or one of "
                                        f"{', '.join(f for f in FORMATS if f != 'auto')}")
        if self.precision not in PRECISIONS:
            raise OptionError("precision", f"unknown precision {self.precision!r}; choose one of {', '.join(PRECISIONS)}")
        for pair in self.mapping:
            if not isinstance(pair, tuple) or len(pair) != 2 or not str(pair[1]).strip():
                raise OptionError("mapping", f"{pair!r}: expected a (field, column) pair")
            if pair[0] not in FIELDS:
                raise OptionError("mapping", f"{pair[0]}={pair[1]}: unknown field {pair[0]!r}; "
                                             f"fields are {', '.join(FIELDS)}")
        for name in ("top_n", "shared_depth", "related_top_k", "min_shared", "min_cooccurrence"):
            integer(name)
        integer("seed", low=0, high=2**32 - 1)  # numpy's seeds
        number("diversity", low=0.0, high=1.0)
        number("position_weight", low=0.0)
        number("title_weight", low=0.0)
        number("merge_threshold", low=0.0)
        number("resolution", low=0.0, low_open=True)
        if self.thesaurus is not None and not isinstance(self.thesaurus, str):
            raise OptionError("thesaurus", f"must be a path (str), not {self.thesaurus!r}")


_OUTPUT_ONLY = ("html", "write_thesaurus")


@dataclass
class BuildResult:
    """What a build produced, for the caller to summarise."""

    corpus: Corpus
    graph: nx.MultiDiGraph
    analysis: dict
    files: list[str]
    seconds: dict[str, float] = field(default_factory=dict)


def _fingerprint(path: str) -> dict[str, str]:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return {"path": os.path.basename(path), "sha256": digest.hexdigest()}


def build(
    inputs: Sequence[str | os.PathLike[str]],
    out_dir: str | os.PathLike[str],
    options: BuildOptions = BuildOptions(),
    *,
    embedder: Embedder | None = None,
    cache: str | os.PathLike[str] | None = None,
    on_progress: Progress | None = None,
) -> BuildResult:
    """Read ``inputs``, build the graph, analyze it and write every output file into ``out_dir``.

    Parameters
    ----------
    inputs : sequence of paths
        Corpus files (any format :func:`kg.ingest.load_corpus` reads).
    out_dir : path
        Created if missing; existing kg files in it are replaced atomically.
    options : BuildOptions
    embedder : Embedder, optional
        Default: the packaged all-MiniLM-L6-v2, loaded offline (and only if needed).
    cache : path, optional
        An embedding cache file (:class:`~kg.extract.CachedEmbedder`); a rebuild of an
        unchanged corpus then never runs the model.
    on_progress : callable, optional
        ``on_progress(stage, done, total)`` for long stages.
    """
    seconds: dict[str, float] = {}
    clock = time.perf_counter()

    def lap(stage: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        seconds[stage] = round(now - clock, 3)
        clock = now

    paths = [os.fspath(p) for p in inputs]
    corpus = load_corpus(paths, format=options.format, strict=options.strict,
                         mapping=dict(options.mapping) or None)
    lap("ingest")
    thesaurus = load_thesaurus(options.thesaurus) if options.thesaurus else None
    if embedder is None:
        embedder = load_embedder(precision=options.precision)
    if cache is not None:
        embedder = CachedEmbedder(embedder, cache)
    keyphrases = extract_keyphrases(corpus.papers, embedder, top_n=max(options.top_n, options.shared_depth),
                                    diversity=options.diversity, position_weight=options.position_weight,
                                    title_weight=options.title_weight, n_jobs=min(2, os.cpu_count() or 1),
                                    on_progress=on_progress)
    lap("extract")
    concepts, mentions = normalize_concepts(corpus.papers, keyphrases, thesaurus=thesaurus,
                                            embedder=embedder, merge_threshold=options.merge_threshold,
                                            top_n=options.top_n)
    lap("normalize")
    metadata = {
        "kg_version": kg.__version__,
        "extractor": EXTRACTOR,
        "model": getattr(embedder, "name", type(embedder).__name__),
        "embedding": getattr(embedder, "signature", getattr(embedder, "name", type(embedder).__name__)),
        "parameters": json.dumps({k: v for k, v in vars(options).items() if k not in _OUTPUT_ONLY},
                                 sort_keys=True),
        "inputs": json.dumps([_fingerprint(p) for p in paths]),
        "papers_read": len(corpus.papers),
        "records_skipped": len(corpus.skipped),
        "records_merged": corpus.merged,
    }
    graph = build_graph(corpus.papers, concepts, mentions, related_top_k=options.related_top_k,
                        min_shared=options.min_shared, min_cooccurrence=options.min_cooccurrence,
                        metadata=metadata)
    lap("build")
    analysis = analyze(graph, seed=options.seed, resolution=options.resolution)
    lap("analyze")
    files = write_graph_files(graph, out_dir)
    files.extend(write_report(analysis, out_dir))
    if options.html:
        page = os.path.join(os.fspath(out_dir), "graph.html")
        atomic_write(page, render_html(graph, seed=options.seed, resolution=options.resolution))
        files.append(page)
    if options.write_thesaurus:
        merges = os.path.join(os.fspath(out_dir), "thesaurus.txt")
        atomic_write(merges, thesaurus_text(concepts))
        files.append(merges)
    lap("export")
    return BuildResult(corpus, graph, analysis, files, seconds)

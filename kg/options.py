"""The options of a build: :class:`BuildOptions`, checked on creation, and those of an update.

Every parameter of ``kg build`` is a field of :class:`BuildOptions`, named as the Python API
names it; a value no stage can use is refused when the options are made, before any minute
of extraction is spent. An update keeps the options its build recorded
(:func:`update_options`): only how the new files are read and what is written may change.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, fields

from kg.buildfolder import PreviousBuild
from kg.defaults import MAX_RESOLUTION, SEED
from kg.errors import OptionError
from kg.extract import DIVERSITY, EXTRACTORS, POSITION_WEIGHT, TITLE_WEIGHT
from kg.extract.embedder import PRECISIONS
from kg.extract.ray_engine import check_engine
from kg.ingest import FORMATS
from kg.ingest.table import FIELDS
from kg.normalize import MERGE_THRESHOLD
from kg.nxbackend import check_backend

__all__ = ["BuildOptions", "OUTPUT_ONLY", "UPDATE_OPTIONS", "update_options"]

# Options an update takes as given rather than from the build: how the new files are read
# (their format, strictness, CSV columns), what is written, and where the thesaurus and model are now.
UPDATE_OPTIONS = ("format", "strict", "mapping", "html", "write_thesaurus", "thesaurus", "model")


@dataclass(frozen=True)
class BuildOptions:
    """Every parameter of a build; all of them are recorded in the graph's metadata."""

    format: str = "auto"
    strict: bool = False
    mapping: tuple[tuple[str, str], ...] = ()  # (kg field, CSV column) pairs, from --map
    top_n: int = 10  # keyphrases a paper is described by (its concepts)
    extractor: str = "kg"  # what ranks the candidates: kg's ranking, or the KeyBERT package ("keybert")
    engine: str = "local"  # where extraction runs: in this process, or on Ray Data ("ray"; kg.extract.ray_engine)
    model: str | None = None  # a local sentence-transformers model folder (default: the packaged MiniLM)
    diversity: float = DIVERSITY
    position_weight: float = POSITION_WEIGHT
    title_weight: float = TITLE_WEIGHT
    precision: str = "auto"  # of the embedding model: auto = int8 on a CPU, fp16 on a GPU
    merge_threshold: float = MERGE_THRESHOLD
    concept_filter: bool = True  # drop later mentions the learned filter judges no expert's (kg.normalize.quality)
    link_depth: int = 20  # how far down its ranking a paper may link to concepts others have
    thesaurus: str | None = None  # path of a VOSviewer thesaurus file
    related_top_k: int = 10  # strongest related links kept per paper (kg related ranks them all)
    min_shared: int = 0  # with document vectors, a link may rest on similarity and shared authors alone
    min_cooccurrence: int = 2
    seed: int = SEED
    resolution: float = 1.0
    html: bool = True
    write_thesaurus: bool = False  # also write thesaurus.txt: the merges kg made
    nx_backend: str | None = None  # a NetworkX backend for the analysis's NetworkX calls (kg.nxbackend)

    def __post_init__(self) -> None:
        """Refuse a value no stage can use now, before any minute of extraction is spent.

        Raises
        ------
        OptionError
            Naming the argument, the value and what is allowed.
        """
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
        if self.extractor not in EXTRACTORS:
            raise OptionError("extractor", f"unknown extractor {self.extractor!r}; choose one of {', '.join(EXTRACTORS)}")
        check_engine(self.engine, self.extractor)
        if self.model is not None and not isinstance(self.model, str):
            raise OptionError("model", f"must be a path (str) to a sentence-transformers model folder, not {self.model!r}")
        if self.precision not in PRECISIONS:
            raise OptionError("precision", f"unknown precision {self.precision!r}; choose one of {', '.join(PRECISIONS)}")
        for pair in self.mapping:
            if not isinstance(pair, tuple) or len(pair) != 2 or not str(pair[1]).strip():
                raise OptionError("mapping", f"{pair!r}: expected a (field, column) pair")
            if pair[0] not in FIELDS:
                raise OptionError("mapping", f"{pair[0]}={pair[1]}: unknown field {pair[0]!r}; "
                                             f"fields are {', '.join(FIELDS)}")
        for name in ("top_n", "link_depth", "related_top_k", "min_cooccurrence"):
            integer(name)
        integer("min_shared", low=0)
        integer("seed", low=0, high=2**32 - 1)  # numpy's seeds
        number("diversity", low=0.0, high=1.0)
        number("position_weight", low=0.0)
        number("title_weight", low=0.0)
        number("merge_threshold", low=0.0)
        if not isinstance(self.concept_filter, bool):
            raise OptionError("concept_filter", f"must be true or false, not {self.concept_filter!r}")
        number("resolution", low=0.0, low_open=True, high=MAX_RESOLUTION)
        if self.thesaurus is not None and not isinstance(self.thesaurus, str):
            raise OptionError("thesaurus", f"must be a path (str), not {self.thesaurus!r}")
        if self.nx_backend is not None:
            try:
                check_backend(self.nx_backend)
            except OptionError as exc:
                raise OptionError("nx_backend", exc.reason) from None


# Not recorded in the graph's parameters: they change what is written or where it is computed,
# not what the graph or its analysis is.
OUTPUT_ONLY = ("html", "write_thesaurus", "nx_backend", "engine")


def _same(a: object, b: object) -> bool:
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return float(a) == float(b)
    return a == b


def update_options(previous: PreviousBuild, changes: Mapping[str, object] | None = None) -> BuildOptions:
    """The :class:`BuildOptions` of an update of ``previous``.

    The build's recorded options, except those of :data:`UPDATE_OPTIONS` and the options a
    build does not record (what it writes, where it computes), taken from ``changes``
    (default: the defaults for reading files, the recorded thesaurus and model).
    Any other option in ``changes`` must equal the recorded one: an update does not change
    how the build is made (``kg build`` without ``--update`` does).

    Raises
    ------
    OptionError
        Naming the first option that contradicts the build, an unknown option, or a
        thesaurus the build used that is no longer where it was.
    """
    changes = dict(changes or {})
    known = {f.name for f in fields(BuildOptions)}
    for option in changes:
        if option not in known:
            raise OptionError(option, f"unknown option; options are {', '.join(sorted(known))}")
    given = set(UPDATE_OPTIONS) | set(OUTPUT_ONLY)  # taken as given: how the update reads, writes, computes
    recorded = {k: v for k, v in previous.parameters.items()  # the thesaurus and model too, unless given
                if k in known and k not in OUTPUT_ONLY and k not in ("format", "strict", "mapping")}
    for option, value in sorted(changes.items()):
        if option in given or option not in recorded:
            continue
        if not _same(recorded[option], value):
            raise OptionError(option, f"{value!r} contradicts the build in {previous.folder}, made with "
                                      f"{recorded[option]!r}; an update keeps the build's options (a build "
                                      "without --update changes them)")
    values = {**recorded, **{k: v for k, v in changes.items() if k in given}}
    if isinstance(values.get("mapping"), list):
        values["mapping"] = tuple(tuple(pair) for pair in values["mapping"])
    thesaurus = values.get("thesaurus")
    if "thesaurus" not in changes and isinstance(thesaurus, str) and not os.path.isfile(thesaurus):
        raise OptionError("thesaurus", f"the build used the thesaurus {thesaurus}, which is not there now; "
                                       "give its path (an update applies it to every paper again)")
    return BuildOptions(**values)  # type: ignore[arg-type]

"""The extraction options of kg build and kg extract (apart from :mod:`kg.cli.flags`: their choices come
from kg.extract, which the read commands never need)."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from kg.errors import OptionError
from kg.extract import ENGINES, EXTRACTORS
from kg.extract.embedder import PRECISIONS

__all__ = ["DiversityOpt", "PositionOpt", "TitleOpt", "PrecisionOpt", "ExtractorOpt", "EngineOpt",
           "extraction_weights"]

DiversityOpt = Annotated[Optional[float], typer.Option(
    min=0.0, max=1.0, show_default=False, help="MMR diversity, 0 = pure relevance (default 0.3).")]
PositionOpt = Annotated[Optional[float], typer.Option(
    "--position-weight", min=0.0, show_default=False, help="Bonus for phrases that occur early (default 0.1).")]
TitleOpt = Annotated[Optional[float], typer.Option(
    "--title-weight", min=0.0, show_default=False, help="Bonus for phrases in the title (default 0.05).")]


def _precision(value: str) -> str:
    if value not in PRECISIONS:
        raise typer.BadParameter(f"{value!r} is not one of {', '.join(PRECISIONS)}")
    return value
PrecisionOpt = Annotated[str, typer.Option(
    "--precision", callback=_precision,
    help="Arithmetic of the embedding model: auto (int8 through ONNX Runtime on a CPU, fp16 on a GPU), "
         "fp32, bf16, fp16 or int8.")]


def _extractor(value: str) -> str:
    if value not in EXTRACTORS:
        raise typer.BadParameter(f"{value!r} is not one of {', '.join(EXTRACTORS)}")
    return value
ExtractorOpt = Annotated[str, typer.Option(
    "--extractor", callback=_extractor,
    help="What ranks each paper's candidate phrases: kg (cosine + position and title bonuses + MMR) or "
         "keybert (the KeyBERT package itself: cosine, MMR with --diversity).")]
def _engine(value: str) -> str:
    if value not in ENGINES:
        raise typer.BadParameter(f"{value!r} is not one of {', '.join(ENGINES)}")
    return value
EngineOpt = Annotated[str, typer.Option(
    "--engine", callback=_engine,
    help="Where extraction runs: local (this process) or ray (Ray Data: the cluster at RAY_ADDRESS, else a "
         "local Ray runtime; pip install 'kg[ray]'). Same keyphrases and graph either way.")]


def extraction_weights(extractor: str, position_weight: Optional[float], title_weight: Optional[float]) -> None:
    """Refuse kg's ranking bonuses with the KeyBERT extractor, which has none."""
    if extractor == "keybert":
        for name, value in (("position_weight", position_weight), ("title_weight", title_weight)):
            if value is not None:
                raise OptionError(name, "applies to --extractor kg only (KeyBERT ranks by cosine and MMR)")

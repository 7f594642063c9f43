"""Keyphrase extraction on Ray Data: the steps of :func:`kg.extract.extract`, spread over a cluster.

``extract(..., engine="ray")`` runs here. Each step is a ``ray.data`` ``map_batches`` over
the same code the in-process engine runs, and the corpus-level bookkeeping stays on
the driver:

1. **documents**: the driver orders the texts and cuts them into the chunks the
   in-process engine embeds (``kg.extract.local.chunk_rows``); each chunk is one task. The
   int8 model quantizes each batch's activations afresh, so a vector depends on the
   texts it is batched with (up to 0.03 per component on ACM abstracts): workers embed
   whole chunks, never a different split, and the vectors equal the in-process ones.
2. **candidates**: papers in blocks of a few hundred: the tagger's candidates, and the
   shortlist by approximate score (``kg.extract.local.shortlist_candidates``).
3. **phrases**: the driver gathers the distinct phrases of the whole corpus, so each is
   embedded once, however many workers there are, in chunks as in step 1.
4. **ranking**: papers in blocks; the phrase vectors travel once through Ray's object
   store (``ray.put``), each paper's candidates as row numbers into them.

With a :class:`~kg.extract.cache.CachedEmbedder` the driver looks every chunk up in the
SQLite cache first, sends only the texts it lacks (the in-process engine embeds exactly
those), and stores what the workers return; shortlists are read from and written to the
cache there too. A fully cached run sends no text to the model.

The workers get the embedder as a recipe (a :class:`~kg.extract.embedder.SentenceTransformerEmbedder`
pickles without its loaded model; its precision is fixed to the driver's, which the cache keys
name) and load the model once per worker process, offline, by path (``HF_HUB_OFFLINE=1``
and ``KG_CACHE_DIR`` travel in the tasks' ``runtime_env``). Every node needs kg and its
dependencies installed, the same versions as the driver.

Which Ray: the one this process has started already (``ray.init(...)`` before calling kg);
else ``ray.init()``, which connects to ``RAY_ADDRESS`` or a Ray cluster running on this
machine, and otherwise starts a local runtime (shut down again at the end).
"""

from __future__ import annotations

import copy
import importlib.util
import json
import logging
import os
import re
from collections.abc import Callable, Sequence

import numpy as np

from kg.errors import KgError, OptionError
from kg.extract.cache import CachedEmbedder
from kg.extract.embedder import SentenceTransformerEmbedder
from kg.extract.local import (ENGINES, Extraction, PhraseRows, Progress, Shortlists, all_candidates, chunk_rows,
                              decode_candidates, document_text, encode_candidates, rank_paper, shortlist_candidates)
from kg.models import Keyphrase, Paper

__all__ = ["extract_on_ray", "check_engine"]

INSTALL = "pip install 'kg[ray]'"
_PAPERS_PER_TASK = 500  # candidates and ranking: a block of papers is one task (a few seconds of work)
_WORKER_ENV = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}  # nothing is ever downloaded


def check_engine(engine: str, extractor: str = "kg") -> None:
    """Refuse an engine this installation cannot run, before any work.

    Raises
    ------
    OptionError
        For an unknown engine, ``"ray"`` without Ray Data installed, or ``"ray"`` with the
        ``"keybert"`` extractor.
    """
    if engine not in ENGINES:
        raise OptionError("engine", f"unknown engine {engine!r}; choose one of {', '.join(ENGINES)}")
    if engine != "ray":
        return
    if extractor != "kg":
        raise OptionError("engine", f"the ray engine runs kg's own ranking (extractor 'kg'), not {extractor!r}")
    if importlib.util.find_spec("ray") is None or importlib.util.find_spec("pyarrow") is None:
        raise OptionError("engine", f"the ray engine needs Ray Data, which is not installed: {INSTALL}")


def extract_on_ray(papers: Sequence[Paper], embedder, *, top_n: int = 10, depth: int | None = None,
                   diversity: float, position_weight: float, title_weight: float, max_words: int = 5,
                   shortlist: bool = True, terms: frozenset[str] = frozenset(),
                   on_progress: Progress | None = None) -> Extraction:
    """:func:`kg.extract.extract` on Ray Data: same arguments (but ``n_jobs`` and ``extractor``),
    same result; see the module docstring."""
    depth = max(depth or top_n, 1)
    keep = max(2 * top_n, depth)
    texts = [document_text(p) for p in papers]
    approximate = getattr(embedder, "approximate", None) if shortlist else None
    memo = Shortlists(papers, embedder, approximate, max_words, keep, position_weight, title_weight, terms)
    rows = memo.rows
    with _Cluster() as cluster:
        doc_vectors = _embed(cluster, embedder, texts, "documents", on_progress, np.float32)
        found_now = _candidates(cluster, embedder, [papers[i] for i in rows],
                                doc_vectors[rows] if approximate is not None else None,
                                max_words, keep, position_weight, title_weight, terms)
        if on_progress:
            on_progress("candidates", len(papers), len(papers))
        memo.store(found_now)
        cands = memo.every(found_now)
        vocabulary = sorted({c.phrase for doc in cands for c in doc})
        index = {phrase: i for i, phrase in enumerate(vocabulary)}
        phrase_vectors = _embed(cluster, embedder, vocabulary, "phrases", on_progress, np.float16)
        ranked = _rank(cluster, doc_vectors, cands, phrase_vectors, index,
                       (depth, diversity, position_weight, title_weight))
    result = {paper.id: found for paper, found in zip(papers, ranked)}
    if on_progress:
        on_progress("ranking", len(papers), len(papers))
    return Extraction(result, doc_vectors, PhraseRows(index, phrase_vectors))


class _Cluster:
    """The Ray runtime for one extraction, started (or connected to) on first use.

    A runtime this object started is shut down when it closes; one the caller started is left
    running. Ray Data's progress bars and log lines are kept off the terminal meanwhile."""

    def __init__(self):
        self._ray = None
        self._started = False
        self._restore: list[Callable[[], None]] = []

    def __enter__(self) -> "_Cluster":
        return self

    def __exit__(self, *exc) -> None:
        for undo in reversed(self._restore):
            undo()
        if self._started:
            self._ray.shutdown()

    @property
    def ray(self):
        if self._ray is None:
            try:
                import ray  # optional extra kg[ray]: only --engine ray needs it
                import ray.data  # see above
            except ImportError as exc:
                raise OptionError("engine", f"the ray engine needs Ray Data ({exc}): {INSTALL}") from None
            if not ray.is_initialized():
                ray.init(include_dashboard=False, logging_level=logging.ERROR)
                self._started = True
            context = ray.data.DataContext.get_current()
            bars, context.enable_progress_bars = context.enable_progress_bars, False
            log = logging.getLogger("ray.data")  # a failed task comes back as an exception
            level = log.level
            log.setLevel(logging.CRITICAL)
            self._restore += [lambda: setattr(context, "enable_progress_bars", bars), lambda: log.setLevel(level)]
            self._ray = ray
        return self._ray

    def cpus_per_task(self, tasks: int) -> int:
        """CPUs for each of ``tasks`` tasks: the cluster's CPUs shared out, at most one node's worth."""
        nodes = [n["Resources"].get("CPU", 0.0) for n in self.ray.nodes() if n.get("Alive")]
        largest, total = int(max(nodes, default=1)) or 1, int(sum(nodes)) or 1
        return max(1, min(largest, total // max(tasks, 1)))

    def map(self, items: list[dict], fn, *, per_task: int, cpus: int = 1, **kwargs):
        """``fn`` over ``items``, ``per_task`` items a task; yields the output batches (numpy),
        in no particular order."""
        ray = self.ray
        blocks = -(-len(items) // per_task)
        env = dict(_WORKER_ENV)
        if os.environ.get("KG_CACHE_DIR"):  # where the int8 model and the token table are kept
            env["KG_CACHE_DIR"] = os.environ["KG_CACHE_DIR"]
        dataset = ray.data.from_items(items, override_num_blocks=blocks)
        mapped = dataset.map_batches(fn, batch_size=per_task, batch_format="numpy", fn_kwargs=kwargs,
                                     num_cpus=cpus, runtime_env={"env_vars": env})
        try:
            yield from mapped.iter_batches(batch_size=None, batch_format="numpy")
        except ray.exceptions.RayError as exc:
            error = _kg_error(str(exc))
            if error is None:
                raise  # a bug: its traceback, the worker's included
            raise error from None


def _kg_error(text: str) -> KgError | None:
    """The library error a worker raised (a node without the model, a cache folder it cannot
    write), from the traceback text Ray hands back (Ray Data keeps no exception object), so that
    it reads as the same error would in process; ``None`` for anything else."""
    found = re.findall(r"^(kg(?:\.\w+)+)\.(\w+): (.+)$", text, flags=re.MULTILINE)
    if not found:
        return None
    module, name, message = found[-1]
    try:
        kind = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        return None
    if not (isinstance(kind, type) and issubclass(kind, KgError)):
        return None
    return KgError(f"on a Ray worker: {message}")


def _recipe(embedder, threads: int):
    """The model the workers run: the embedder behind a cache, as a picklable recipe whose
    precision is the one the driver resolved (the cache's keys name it), ``threads`` batches at a time."""
    inner = embedder.embedder if isinstance(embedder, CachedEmbedder) else embedder
    if isinstance(inner, SentenceTransformerEmbedder):
        inner = copy.copy(inner)  # without its loaded model (see __getstate__)
        inner.precision = inner.resolved_precision()
        inner.threads = threads
    return inner


def _embed(cluster: _Cluster, embedder, texts: Sequence[str], stage: str, on_progress: Progress | None,
           dtype) -> np.ndarray:
    """``kg.extract.local.embed_in_chunks`` with each chunk (what the cache lacks of it) embedded by a worker."""
    cache = embedder if isinstance(embedder, CachedEmbedder) else None
    out: np.ndarray | None = None
    done = 0
    jobs: list[list[str]] = []  # what each worker embeds: a chunk, or the texts of one the cache lacks
    fills: list[list[tuple[int, str]]] = []  # each job's (row, text): the rows its vectors fill
    owner: dict[str, int] = {}  # with a cache: text -> the job that embeds it

    def put(where: list[int], vectors: np.ndarray) -> None:
        nonlocal out, done
        if out is None:
            out = np.empty((len(texts), vectors.shape[1]), dtype=dtype)
        out[where] = vectors
        done += len(where)
        if on_progress:
            on_progress(stage, done, len(texts))

    for rows in chunk_rows(texts):
        chunk = [texts[i] for i in rows]
        if cache is None:
            jobs.append(chunk)
            fills.append(list(zip(rows, chunk)))
            continue
        found, missing = cache.lookup_vectors(chunk)
        # In process, an earlier chunk has stored these by now (a text repeated across a chunk
        # boundary): a hit there, and not in this chunk's batches, so not in this job either.
        again = [text for text in missing if text in owner]
        cache.hits, cache.misses = cache.hits + len(again), cache.misses - len(again)
        if again:
            missing = [text for text in missing if text not in owner]
        if missing:
            owner.update((text, len(jobs)) for text in missing)
            jobs.append(missing)
            fills.append([])
        hit = [p for p, text in enumerate(chunk) if text in found]
        for row, text in zip(rows, chunk):
            if text not in found:
                fills[owner[text]].append((row, text))
        if hit:
            put([rows[p] for p in hit], np.vstack([found[chunk[p]] for p in hit]).astype(np.float32))
    if not jobs:
        return out if out is not None else np.zeros((0, 1), dtype=dtype)
    cpus = cluster.cpus_per_task(len(jobs))
    model = cluster.ray.put(_recipe(embedder, cpus))
    returned: set[int] = set()
    for batch in cluster.map([{"job": j, "texts": sent} for j, sent in enumerate(jobs)], _embed_batch,
                             per_task=1, cpus=cpus, model=model):
        for j, part in zip(batch["job"].tolist(), batch["vectors"]):
            sent = jobs[j]
            vectors = np.asarray(part, dtype=np.float32).reshape(len(sent), -1)
            if cache is not None:
                stored = cache.store_vectors(sent, vectors)
                vectors = np.vstack([stored[text] for _, text in fills[j]]).astype(np.float32)
            put([row for row, _ in fills[j]], vectors)
            returned.add(j)
    if len(returned) != len(jobs):  # never seen; a chunk short would leave rows unset
        raise RuntimeError(f"the ray engine got {len(returned)} of {len(jobs)} {stage} chunks back")
    return out


def _candidates(cluster: _Cluster, embedder, papers: list[Paper], doc_vectors: np.ndarray | None,
                max_words: int, keep: int, position_weight: float, title_weight: float,
                terms: frozenset[str] = frozenset()) -> list:
    """Each paper's candidates, shortlisted by approximate score when ``doc_vectors`` are given."""
    if not papers:
        return []
    model = cluster.ray.put(_recipe(embedder, 1)) if doc_vectors is not None else None
    items = [{"row": i, "id": p.id, "abstract": p.abstract, "title": p.title, "derived": p.title_derived,
              **({"doc": doc_vectors[i]} if doc_vectors is not None else {})} for i, p in enumerate(papers)]
    found: list = [None] * len(papers)
    for batch in cluster.map(items, _candidates_batch, per_task=_PAPERS_PER_TASK, model=model,
                             max_words=max_words, keep=keep, weights=(position_weight, title_weight),
                             terms=sorted(terms)):
        for i, value in zip(batch["row"].tolist(), batch["cands"]):
            found[i] = decode_candidates(value)
    return found


def _rank(cluster: _Cluster, doc_vectors: np.ndarray, cands: list, phrase_vectors: np.ndarray,
          index: dict[str, int], settings: tuple) -> list[list[Keyphrase]]:
    """Each paper's keyphrases (``kg.extract.local.rank_paper``), in paper order."""
    if not cands:
        return []
    vectors = cluster.ray.put(phrase_vectors)
    items = [{"row": i, "doc": doc_vectors[i], "cands": encode_candidates(found),
              "phrases": np.array([index[c.phrase] for c in found], dtype=np.int64).tobytes()}
             for i, found in enumerate(cands)]
    ranked: list = [None] * len(cands)
    for batch in cluster.map(items, _rank_batch, per_task=_PAPERS_PER_TASK, vectors=vectors, settings=settings):
        for i, value in zip(batch["row"].tolist(), batch["keyphrases"]):
            ranked[i] = [Keyphrase(phrase, score) for phrase, score in json.loads(value)]
    return ranked


# ---- what the workers run ----

_LOADED: dict[str, object] = {}  # this worker's models, by the ObjectRef they came in: loaded once


def _model(ref):
    import ray  # optional extra kg[ray]

    key = ref.hex()
    if key not in _LOADED:
        while len(_LOADED) >= 2:  # an earlier step's (or run's) model
            _LOADED.pop(next(iter(_LOADED)))
        _LOADED[key] = ray.get(ref)
    return _LOADED[key]


def _embed_batch(batch: dict, model) -> dict:
    embedder = _model(model)
    jobs, vectors = [], []
    for job, texts in zip(batch["job"].tolist(), batch["texts"]):
        jobs.append(job)
        vectors.append(np.asarray(embedder.embed([str(t) for t in texts]), dtype=np.float32).ravel())
    out = np.empty(len(vectors), dtype=object)
    out[:] = vectors
    return {"job": np.array(jobs, dtype=np.int64), "vectors": out}


def _candidates_batch(batch: dict, model, max_words: int, keep: int, weights: tuple[float, float],
                      terms: list[str]) -> dict:
    papers = [Paper(str(pid), str(abstract), str(title), bool(derived)) for pid, abstract, title, derived
              in zip(batch["id"], batch["abstract"], batch["title"], batch["derived"])]
    found = all_candidates(papers, max_words, frozenset(terms))
    if model is not None:
        found = shortlist_candidates(found, np.asarray(batch["doc"], dtype=np.float32), _model(model).approximate, keep,
                           *weights)
    out = np.empty(len(found), dtype=object)
    out[:] = [encode_candidates(c) for c in found]
    return {"row": batch["row"], "cands": out}


def _rank_batch(batch: dict, vectors, settings: tuple) -> dict:
    import ray  # optional extra kg[ray]

    phrase_vectors = ray.get(vectors)  # zero-copy from the object store on this node
    depth, diversity, position_weight, title_weight = settings
    out = np.empty(len(batch["row"]), dtype=object)
    for k, (doc, cands, rows) in enumerate(zip(batch["doc"], batch["cands"], batch["phrases"])):
        found = decode_candidates(cands)
        picked = np.frombuffer(rows, dtype=np.int64)
        kps = rank_paper(doc, phrase_vectors[picked] if found else phrase_vectors[:0], found, depth,
                          diversity, position_weight, title_weight)
        out[k] = json.dumps([[kp.phrase, kp.score] for kp in kps], ensure_ascii=False).encode()
    return {"row": batch["row"], "keyphrases": out}

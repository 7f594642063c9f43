"""The two runners behind :class:`~kg.extract.embedder.SentenceTransformerEmbedder`: PyTorch
(fp32, bf16/fp16 autocast, or torch int8) and the int8 ONNX Runtime model with the model's own
fast tokenizer. Each tokenizes, and runs padded batches of token ids to unit vectors.
"""

from __future__ import annotations

import json
import os
import sys
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from kg.errors import KgError
from kg.extract.onnx_model import OnnxInt8Model, fast_tokenizer, user_cache_dir

__all__ = ["TorchBackend", "OnnxBackend", "fast_tokenizer"]


class TorchBackend:
    """The ``SentenceTransformer`` run by PyTorch (fp32, bf16/fp16 autocast, or torch int8)."""

    batch_tokens = 8192

    def __init__(self, model, precision: str):
        # torch's int8 layers quantize their input with one scale per call, taken over the whole batch, so a
        # text's vector would depend on the texts run with it: each text runs alone
        self.alone = precision == "int8"
        import torch  # torch is heavy (seconds): only the torch backend needs it

        self.model = model
        self.tokenizer = model.tokenizer
        self.limit = int(model.get_max_seq_length() or 512)
        get = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
        self.dim = int(get())
        self.prefix, self.suffix = _special_tokens(lambda text, special: self.tokenizer(
            text, add_special_tokens=special)["input_ids"])
        self.pad = self.tokenizer.pad_token_id or 0
        self.autocast = None
        if precision == "int8":  # ONNX Runtime missing, or a model it cannot take
            if model.device.type != "cpu":
                raise ValueError("precision='int8' runs on the CPU only")
            from torch.ao.quantization import quantize_dynamic  # torch: only the torch backend

            quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8, inplace=True)
        elif precision in ("bf16", "fp16"):
            self.autocast = torch.bfloat16 if precision == "bf16" else torch.float16
        self.token_types = "token_type_ids" in getattr(self.tokenizer, "model_input_names", ())
        self.vocab_size = len(self.tokenizer)

    def tokenize(self, texts: list[str]) -> list[list[int]]:
        return self.tokenizer(texts, add_special_tokens=False, truncation=False,
                              return_attention_mask=False, verbose=False)["input_ids"]

    def run(self, input_ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        import contextlib

        import torch  # torch: only the torch backend

        device = self.model.device
        features = {"input_ids": torch.from_numpy(input_ids).to(device),
                    "attention_mask": torch.from_numpy(mask).to(device)}
        if self.token_types:
            features["token_type_ids"] = torch.zeros_like(features["input_ids"])
        autocast = (torch.autocast(device_type=device.type, dtype=self.autocast) if self.autocast is not None
                    else contextlib.nullcontext())
        with torch.inference_mode(), autocast:
            return self.model(features)["sentence_embedding"].float().cpu().numpy()

    def run_all(self, batches: Iterable[tuple[np.ndarray, np.ndarray]]) -> Iterator[np.ndarray]:
        """:meth:`run` on each batch in turn (PyTorch spreads one batch over its own threads)."""
        for input_ids, mask in batches:
            yield self.run(input_ids, mask)


class OnnxBackend:
    """The int8 ONNX Runtime model with the model's own fast tokenizer (``tokenizer.json``)."""

    batch_tokens = 2048
    alone = False  # fixed activation scales (kg.extract.onnx_model): a row never depends on its batch

    def __init__(self, folder: Path, cache_dir, load_model, threads: int | None = None):
        cache = Path(cache_dir) if cache_dir is not None else user_cache_dir()
        # Each batch runs on one thread, ``workers`` batches at a time: on 2 cores this embeds
        # about 10% more tokens/s than one batch at a time split over 2 threads, and the
        # next batch is padded while the current ones run.
        self.workers = max(1, threads) if threads else _threads()
        try:
            self.onnx = OnnxInt8Model(folder, cache, 1, load_model=load_model)
        except OSError as exc:
            raise KgError(f"cannot write the int8 model to {cache}: {exc.strerror or exc} "
                          "(set KG_CACHE_DIR to a writable folder, or use the fp32 precision)") from None
        self.tokenizer = fast_tokenizer(folder)
        settings = json.loads((folder / "sentence_bert_config.json").read_text(encoding="utf-8"))
        self.limit = int(settings.get("max_seq_length") or 512)
        self.dim = self.onnx.dim
        self.vocab_size = self.tokenizer.get_vocab_size()
        self.prefix, self.suffix = _special_tokens(
            lambda text, special: self.tokenizer.encode(text, add_special_tokens=special).ids)
        self.pad = self.tokenizer.padding["pad_id"] if self.tokenizer.padding else (
            self.tokenizer.token_to_id("[PAD]") or 0)

    def tokenize(self, texts: list[str]) -> list[list[int]]:
        return [e.ids for e in self.tokenizer.encode_batch(texts, add_special_tokens=False)]

    def run(self, input_ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return self.onnx(input_ids, mask)

    def run_all(self, batches: Iterable[tuple[np.ndarray, np.ndarray]]) -> Iterator[np.ndarray]:
        """:meth:`run` on each batch, ``workers`` at a time (ONNX Runtime releases the GIL);
        results in input order, at most ``workers + 1`` batches in flight."""
        if self.workers == 1:
            yield from (self.onnx(input_ids, mask) for input_ids, mask in batches)
            return
        with ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="kg-onnx") as pool:
            pending: deque = deque()
            for input_ids, mask in batches:
                pending.append(pool.submit(self.onnx, input_ids, mask))
                if len(pending) > self.workers:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()


def _special_tokens(encode) -> tuple[list[int], list[int]]:
    """The ids a tokenizer puts before and after a text (``[CLS]``, ``[SEP]`` for BERT);
    ``encode(text, special)`` returns the ids of ``text`` with or without them."""
    bare, full = encode("a", False), encode("a", True)
    for i in range(len(full) - len(bare) + 1):
        if full[i : i + len(bare)] == bare:
            return list(full[:i]), list(full[i + len(bare):])
    return [], []


def _threads() -> int:
    """Threads for ONNX Runtime: torch's setting when torch is already loaded, else every core."""
    torch = sys.modules.get("torch")
    if torch is not None:
        return torch.get_num_threads()
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)

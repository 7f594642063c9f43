"""Derived titles (kg.ingest._titles) on hand-made abstracts and on the real seed abstracts."""

from __future__ import annotations

import re

import pytest

from kg.ingest._records import derive_title
from kg.ingest.text import load_text


@pytest.mark.parametrize("abstract, title", [
    ("Long contexts are hard. We present YaRN (Yet another RoPE extensioN method), a method. YaRN works.",
     "YaRN: Yet another RoPE extensioN method"),
    ("We propose GRAD, a novel game-theoretic approach that treats the problem as a game. GRAD wins.",
     "GRAD: Game-theoretic approach"),
    ("We propose a method called Byzantine-robust momentum (ByzSGDnm). ByzSGDnm converges.",
     "ByzSGDnm: Byzantine-robust momentum"),
    ("We propose to decouple them by **M**ixture **o**f **w**eak and **st**rong experts (**Mowst**), where "
     "the weak expert is a Multi-layer Perceptron (MLP). Mowst is easy. Mowst wins.",
     "Mowst: Mixture of weak and strong experts"),
    ("Central to our approach is LUM-ViT, a Vision Transformer variant. LUM-ViT is small.",
     "LUM-ViT: Vision Transformer variant"),
    ("In view of this finding, we call such a phenomenon “benign oscillation”. It helps.", "Benign oscillation"),
    ("We introduce MVSFormer++, a method that maximizes attention. MVSFormer++ wins.", "MVSFormer++"),
    # no name: what the paper does, else the opening noun phrase; never generic words
    ("Point clouds are hard. This paper proposes a novel approach to point-cloud pre-training that learns "
     "3D representations.", "Approach to point-cloud pre-training"),
    ("Online nonconvex optimization has been an active area. In this paper, we focus on the more "
     "challenging and practical setting, where access is limited.", "Online nonconvex optimization"),
    ("Due to its empirical success in few-shot classification, meta-learning has received interest. "
     "This work shows that it learns.", "Meta-learning"),
])
def test_derived_titles(abstract, title):
    assert derive_title(abstract) == title


def test_compound_of_capitalized_words_is_no_name():
    abstract = ("In this paper, we propose an Excitation-Inhibition Mechanism-assisted Hybrid Learning(EIHL) "
                "algorithm that adjusts connectivity. EIHL is accurate.")
    assert derive_title(abstract) == "EIHL: Excitation-Inhibition Mechanism-assisted Hybrid Learning"


def test_first_words_only_as_last_resort():
    assert derive_title("It rains. It pours.") == "It rains. It pours"


def _seed_titles(seeds) -> dict[str, str]:
    """First 60 characters of each seed abstract -> its derived title."""
    out = {}
    for path in seeds:
        for paper in load_text(path).papers:
            assert paper.title_derived
            out[paper.abstract[:60]] = paper.title
    return out


def test_seed_titles_name_what_the_paper_introduces(seeds):
    titles = _seed_titles(seeds)

    def title_of(start: str) -> str:
        return next(t for s, t in titles.items() if s.startswith(start))

    assert title_of("Generative models trained on internet-scale").startswith("UniMat")  # not "DFT"
    assert title_of("Realistic graphs contain both").startswith("Mowst")  # not the side "MLP"
    assert title_of("The training method of Spiking").startswith("EIHL")
    assert title_of("Recent advancements in learning-based Multi-View").startswith("MVSFormer++")
    assert title_of("Bandwidth constraints").startswith("LUM-ViT")
    assert title_of("In order to solve a task using reinforcement").startswith("STARC")
    assert title_of("Neural networks efficiently encode").startswith("GMNs")
    assert title_of("In this work, we theoretically").lower() == "benign oscillation"
    assert title_of("Online nonconvex optimization") != "More challenging and practical setting"


def test_seed_titles_are_short_clean_phrases(seeds):
    for title in _seed_titles(seeds).values():
        assert not re.match(r"(?i)(in this (paper|work)|we |this (paper|work))", title), title
        assert len(title.split()) <= 10, title
        assert not re.search(r"\b(the|of|a|an|and|to|by)$", title.rstrip("…")), title

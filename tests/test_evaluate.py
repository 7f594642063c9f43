"""The standard keyphrase scoring protocol (kg.evaluate) and `kg eval`."""

from __future__ import annotations

import json

import pytest

from kg.evaluate import score_keyphrases, stem_phrase


def test_stemmed_exact_match_counts_and_partial_match_does_not():
    scores = score_keyphrases({"d": ["Neural Networks", "neural", "learning rates"]},
                              {"d": ["neural network", "learning rate", "dropout"]}, ks=[3])
    assert scores[3]["correct"] == 2
    assert scores[3]["precision"] == pytest.approx(66.67)
    assert scores[3]["recall"] == pytest.approx(66.67)


def test_micro_average_over_documents_not_per_document_mean():
    predictions = {"a": ["x"], "b": ["p", "q", "r", "s"]}
    gold = {"a": ["x"], "b": ["z", "y", "w"]}
    s = score_keyphrases(predictions, gold, ks=[5])[5]
    # micro: 1 correct of 5 predicted (a macro mean would give P = 50%)
    assert (s["correct"], s["predicted"], s["gold"]) == (1, 5, 4)
    assert s["precision"] == 20.0 and s["recall"] == 25.0
    assert s["f1"] == pytest.approx(22.22)


def test_cut_at_k_after_lowercase_dedupe():
    predictions = {"d": ["Graph", "graph", "tree", "heap"]}
    s = score_keyphrases(predictions, {"d": ["heap"]}, ks=[2, 3])
    assert s[2]["correct"] == 0 and s[2]["predicted"] == 2
    assert s[3]["correct"] == 1 and s[3]["predicted"] == 3


def test_missing_predictions_count_gold_only():
    s = score_keyphrases({}, {"d": ["a b", "c"]}, ks=[5])[5]
    assert (s["correct"], s["predicted"], s["gold"], s["f1"]) == (0, 0, 2, 0.0)


def test_gold_is_not_consumed_like_the_published_scripts():
    # SIFRank's script: every prediction matching any gold counts
    s = score_keyphrases({"d": ["neural network", "neural networks"]}, {"d": ["neural networks"]}, ks=[5])
    assert s[5]["correct"] == 2


def test_stem_phrase_is_porter():
    assert stem_phrase("Running  Models") == "run model"


@pytest.mark.model
def test_kg_eval_prints_table(tmp_path):
    from typer.testing import CliRunner

    from kg.cli import app

    gold = tmp_path / "gold.jsonl"
    rows = [
        {"id": "1", "title": "Graph neural networks for molecules",
         "abstract": "We train graph neural networks on molecular graphs to predict toxicity.",
         "keyphrases": ["graph neural networks", "toxicity prediction"]},
        {"id": "2", "title": "Sparse attention",
         "abstract": "Sparse attention reduces the quadratic cost of transformers on long documents.",
         "keyphrases": ["sparse attention", "transformers"]},
    ]
    gold.write_text("".join(json.dumps(r) + "\n" for r in rows))
    result = CliRunner().invoke(app, ["eval", str(gold)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "2 documents, 4 gold keyphrases"
    assert lines[1].split() == ["k", "P", "R", "F1"]
    assert [line.split()[0] for line in lines[2:5]] == ["5", "10", "15"]
    recall = float(lines[2].split()[2])
    assert recall >= 50.0  # "graph neural networks" and "sparse attention" are easy


def test_kg_eval_without_gold_is_an_error(tmp_path):
    from typer.testing import CliRunner

    from kg.cli import app

    gold = tmp_path / "gold.jsonl"
    gold.write_text(json.dumps({"id": "1", "title": "T", "abstract": "Some text here."}) + "\n")
    result = CliRunner().invoke(app, ["eval", str(gold)])
    assert result.exit_code == 1
    assert "no record has gold keyphrases" in result.output

"""bench/add_labels.py: a judged packet's labels and texts join the others; a packet with a missing label does not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import bench_script

add_labels = bench_script("add_labels")


def _packet(folder: Path, second_label: str) -> Path:
    folder.mkdir()
    papers = [{"paper": 1, "title": "Branes", "abstract": "On branes.", "concepts": ["D-brane", "brane"]},
              {"paper": 2, "title": "Holography", "abstract": "Of it.", "concepts": ["holography"]}]
    (folder / "sample.json").write_text(json.dumps(papers), encoding="utf-8")
    rows = [{"paper": 1, "concept": 1, "name": "D-brane", "label": "good"},
            {"paper": 1, "concept": 2, "name": "brane", "label": "generic"},
            {"paper": 2, "concept": 1, "name": "holography", "label": "good"}]
    (folder / "labels-a.json").write_text(json.dumps(rows), encoding="utf-8")
    rows[1] = {**rows[1], "label": second_label}
    (folder / "labels-b.json").write_text(json.dumps(rows), encoding="utf-8")
    return folder


def test_a_packets_labels_and_texts_are_appended(tmp_path, capsys):
    data = tmp_path / "data"
    data.mkdir()
    (data / "concept_labels.jsonl").write_text('{"kept": true}\n', encoding="utf-8")
    folder = _packet(tmp_path / "k1", "near-duplicate")
    add_labels.main(["r9", "s9a-hep-rand", str(folder), "--data", str(data)])
    labels = [json.loads(line) for line in (data / "concept_labels.jsonl").read_text(encoding="utf-8").splitlines()]
    texts = [json.loads(line) for line in (data / "concept_label_texts.jsonl").read_text(encoding="utf-8").splitlines()]
    assert labels[0] == {"kept": True}
    assert labels[2] == {"field": "hep", "sample": "r9/s9a-hep-rand", "paper": 1, "rank": 2, "concepts": 2,
                         "name": "brane", "labels": ["generic", "near-duplicate"]}
    assert [t["title"] for t in texts] == ["Branes", "Holography"] and len(labels) == 4
    assert "3 concepts of 2 papers" in capsys.readouterr().out


def test_a_packet_with_a_label_outside_the_rubric_is_refused(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    folder = _packet(tmp_path / "k1", "so-so")
    with pytest.raises(SystemExit, match="concept 2 .'brane'.: labels \\['generic', 'so-so'\\]"):
        add_labels.main(["r9", "s9a-acm-rand", str(folder), "--data", str(data)])
    assert not list(data.iterdir())  # nothing written

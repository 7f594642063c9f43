# Two commands do all set-up on a fresh machine:
#   make demo   build the example corpus graph into out/example
#   make test   run the whole test suite
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.kg-installed

.PHONY: demo test bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --upgrade pip
	$(BIN)/pip install -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/kg build examples/papers.jsonl --out out/example

test: $(STAMP)
	$(BIN)/pytest

clean:
	rm -rf out build *.egg-info .pytest_cache

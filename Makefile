# Two commands do all set-up on a fresh machine:
#   make demo   build the example corpus graph into out/example
#   make test   run the whole test suite
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.kg-installed

.PHONY: demo test bench clean chromium openmp

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --upgrade pip
	$(BIN)/pip install -e '.[test]'
	touch $(STAMP)

demo: $(STAMP) openmp
	$(BIN)/kg build examples/papers.jsonl --out out/example

# The OpenMP runtime LightGBM's wheel links to (kg forecast's ranker); Debian ships it as libgomp1.
openmp:
	@ldconfig -p 2>/dev/null | grep -q 'libgomp.so.1' || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libgomp1; \
	  else echo "note: libgomp1 is missing and this is not root: kg forecast needs it (sudo apt-get install libgomp1)"; fi; }

# Debian's Chromium for the HTML page tests (Playwright drives it; nothing is downloaded by Playwright).
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium; \
	  else echo "note: chromium is missing and this is not root: browser tests will skip (sudo apt-get install chromium)"; fi; }

test: $(STAMP) openmp chromium
	$(BIN)/pytest

clean:
	rm -rf out build *.egg-info .pytest_cache

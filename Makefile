# `make demo` and `make test` work on a fresh machine with only Python 3.11, pip and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev

.PHONY: demo test lint typecheck unit bench clean chromium serve bench-server

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	mkdir -p out
	$(BIN)/warbench play ttt --scenario besiege-the-bunker --red ai --blue ai --seed 7 \
		--save out/demo-record.json
	$(BIN)/warbench render out/demo-record.json -o out/demo-board.png
	@echo "record: out/demo-record.json  picture: out/demo-board.png"

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

# the browser tests drive Debian's chromium (headless); CI has nothing installed by hand
chromium:
	command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium)

unit: $(STAMP) chromium
	$(BIN)/pytest -n 2  # two workers: the CI machine has two cores

test: lint typecheck unit

bench: $(STAMP)
	$(BIN)/python benchmarks/playouts.py

serve: $(STAMP)
	$(BIN)/warbench serve

bench-server: $(STAMP)
	$(BIN)/python benchmarks/server_load.py

clean:
	rm -rf $(VENV) out

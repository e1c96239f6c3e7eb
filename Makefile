# Every target bootstraps .venv once, installing exactly the versions in constraints.txt
# (a lock made by a resolver: `make lock` refreshes it); the stamp file makes a second run
# skip the install unless pyproject.toml or constraints.txt changed.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test bench bench-bots screenshots snapshots lock clean

# PIP_CONSTRAINT (rather than -c) reaches pip's isolated build too, so even the build
# backend is the locked one.  -qq: errors only (setuptools warns about every editable
# install, which would greet a player's first `make play`).
$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	PIP_CONSTRAINT=constraints.txt $(BIN)/python -m pip install -qq --upgrade pip
	PIP_CONSTRAINT=constraints.txt $(BIN)/python -m pip install -qq -e '.[test]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/atlantis

test: $(STAMP)
	$(BIN)/python -m pytest -n 2

bench: $(STAMP)
	$(BIN)/python -m bench

# The bot levels' strength in every game (hard vs normal, easy vs normal): hours long.
bench-bots: $(STAMP)
	$(BIN)/python -m bench --only bots

screenshots: $(STAMP)
	$(BIN)/python -m tui.screenshots

# Take the snapshot tests' pictures (tests/__snapshots__/) anew, after a change meant to
# alter what the screens show; one process, so no two workers write the same folder.
snapshots: $(STAMP)
	$(BIN)/python -m pytest tests/test_snapshots.py --snapshot-update -n 0

# Resolve every dependency (direct and transitive, the test extra included) afresh for
# Python 3.11 and later on every platform, with uv (installed into .venv for this).
lock: $(STAMP)
	$(BIN)/python -m pip install --quiet uv
	$(BIN)/python -m uv pip compile pyproject.toml --extra test --universal --python-version 3.11 \
		--no-header --quiet -o constraints.txt

clean:
	rm -rf $(VENV)

# Two commands on a fresh machine:  `make demo` (JupyterLab with the extension and the tutorials)
# and `make test` (every test). Everything else here is what those two need.

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
PORT   ?= 8888
# A CPU build of torch keeps the tutorials runnable anywhere (the CUDA build is several GB).
TORCH  ?= torch==2.13.0

.PHONY: setup demo test test-core test-pandas2 lint bench clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q "$(TORCH)"
	$(PIP) install -q -e ".[dev,pandas]"
	touch $@

setup: $(VENV)/.installed

# JUPYTER_CONFIG_PATH adds binder/labconfig, which turns off JupyterLab's "get notified about Jupyter
# news?" question (and its update check); --LabApp.news_url=None keeps the server from fetching news.
# The shipped tutorials are trusted (signed in this user's Jupyter data folder), so they open trusted.
demo: setup
	$(VENV)/bin/jupyter trust notebooks/*.ipynb
	@echo "JupyterLab with aiperf_magic: http://localhost:$(PORT)/lab/tree/00_quickstart.ipynb"
	JUPYTER_CONFIG_PATH="$(CURDIR)/binder$${JUPYTER_CONFIG_PATH:+:$$JUPYTER_CONFIG_PATH}" \
	$(VENV)/bin/jupyter lab --no-browser --port=$(PORT) --ServerApp.root_dir=notebooks \
		--IdentityProvider.token='' --ServerApp.ip=127.0.0.1 --allow-root --LabApp.news_url=None

test: setup
	$(VENV)/bin/lint-imports
	$(PY) -m pytest -q
	$(MAKE) test-pandas2

# The same library under pandas 2 (pandas 3 is the main environment).
$(VENV)-pd2/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)-pd2
	$(VENV)-pd2/bin/python -m pip install -q --upgrade pip
	AIPERF_SKIP_LABEXTENSION=1 $(VENV)-pd2/bin/python -m pip install -q -e ".[dev]" "pandas>=2,<3"
	touch $@

test-pandas2: $(VENV)-pd2/.installed
	$(VENV)-pd2/bin/python -m pytest -q -m "not browser and not notebooks" tests/core tests/runtime

lint: setup
	$(VENV)/bin/ruff check aiperf_magic tests benchmarks

bench: setup
	$(PY) benchmarks/overhead.py

clean:
	rm -rf $(VENV) $(VENV)-pd2 build dist *.egg-info

"""aiperf lint over files: finding .py and .ipynb files, reading notebooks, output formats, --fix."""

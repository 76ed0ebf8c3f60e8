"""The interactive panel (one anywidget per report) for JupyterLab 4 / Notebook 7."""

"""The interactive panel (ipywidgets) for JupyterLab 4 / Notebook 7."""

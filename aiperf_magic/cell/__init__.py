"""A cell's text as code: IPython syntax turned into Python with a line map, and the shared parse."""

"""The IPython adapter: the extension (load/unload), the %%aiperf magic, the one before/after-cell hook
shared by %%aiperf and auto mode, and the %aiperf subcommands. The only part that imports IPython at module level."""

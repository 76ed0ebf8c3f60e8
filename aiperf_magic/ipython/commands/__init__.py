"""The %aiperf subcommands, one module per group; the table that names them is ..subcommands."""

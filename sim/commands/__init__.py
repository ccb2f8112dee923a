"""One module per `compsim` subcommand."""

"""Command line of this engine (commands are added as the engine lands)."""


def register(parser):
    parser.set_defaults(handler=None)

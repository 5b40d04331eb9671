"""`python -m app.cli`, as `python -m app` and the `splendor-rules` script."""

from . import main

main()

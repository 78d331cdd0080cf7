"""Allow `python -m sengoku`."""

from sengoku.cli import main

main()

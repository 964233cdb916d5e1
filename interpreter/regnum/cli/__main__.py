"""Lets ``python -m regnum.cli`` run the command line, as it did when cli was one module."""
from . import main

if __name__ == "__main__":
    main()

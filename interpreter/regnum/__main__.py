"""`python -m regnum`: the regnum command line, as the `regnum` console script runs it."""
from .cli import main

if __name__ == "__main__":
    main()

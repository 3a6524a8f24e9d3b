"""Run the NSX Manager stand-in: python tools/nsxsim/server.py --port P --workdir DIR [options] (see README.md)."""

import sys
from pathlib import Path

if not __package__:
    # Run as a script: import the package from the repository root, not this folder's modules by bare name.
    sys.path[0] = str(Path(__file__).resolve().parents[2])

from tools.nsxsim.app import main  # noqa: E402

if __name__ == "__main__":
    main()

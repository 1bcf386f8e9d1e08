"""`python -m m2lsp ...`"""

import sys

from m2lsp.cli import main

sys.exit(main())

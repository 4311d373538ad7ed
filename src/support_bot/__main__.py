"""``python -m support_bot`` is the ``support-bot`` command."""

import sys

from support_bot.cli import main

sys.exit(main())

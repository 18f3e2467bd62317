"""The reference firmware's modules import by their bare names, as on the board's filesystem."""

import sys
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parents[2] / "hw" / "firmware"
if str(FIRMWARE) not in sys.path:
    sys.path.insert(0, str(FIRMWARE))

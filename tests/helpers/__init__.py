"""What several test modules share: loading engines and building positions (:mod:`.engines`), the
official spec as a tree to mutate (:mod:`.mutations`), expressions drawn by type (:mod:`.expr_shapes`),
the untrusted-input fuzzer (:mod:`.fuzz`), and small specs made for a test (:mod:`.specs`).

No test module imports another test module: what two of them need lives here, so a test
module can be run, moved or deleted on its own.
"""

from __future__ import annotations

import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]

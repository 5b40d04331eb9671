"""The expansion data the catalogue's modules read (variants/*.csv) is the shared data the project
copied from ../shared/expansions, byte for byte: pinned by that file's sha256, and compared with
it whenever the shared folder is beside the checkout (a clone on its own has only the copy)."""

from __future__ import annotations

import hashlib

import pytest

from tests.helpers.engines import ROOT

SHARED = ROOT.parent / "shared" / "expansions"
# each copy and the sha256 of the shared file it was copied from
COPIES = {
    "cities.csv": "2a2fa19daf922e0a828bfde163f993883aaa6c9004e50f1194f25286fd8b1a9e",
    "trading_posts.csv": "9f2ff98a3cf17f7635c977fb972f19e1c4c0d85a53d43aa79236e6a8f1409b58",
}


@pytest.mark.parametrize("name", sorted(COPIES))
def test_a_module_table_is_the_shared_data_byte_for_byte(name):
    copy = (ROOT / "variants" / name).read_bytes()
    assert hashlib.sha256(copy).hexdigest() == COPIES[name]
    shared = SHARED / name
    if shared.exists():
        assert copy == shared.read_bytes()

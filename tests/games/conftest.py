"""Fixtures for the tests of the games beside SENGOKU YUGI (issue 5)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def validator():
    from sengoku.validate.api import Validator

    return Validator()

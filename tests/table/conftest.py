"""The table group's fixtures."""

import pytest

from appliance.event_log import EventLog


@pytest.fixture
def log(tmp_path):
    log = EventLog(tmp_path / "games.sqlite")
    yield log
    log.close()

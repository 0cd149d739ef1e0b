"""Fixtures shared by the simulator's tests."""

import pytest


@pytest.fixture
def sim(tmp_path):
    """The simulator on a pty in a thread of this process (test_sim_pty.SimThread)."""
    from test_sim_pty import SimThread
    s = SimThread(tmp_path)
    yield s
    if not s.stop.is_set():
        s.close()

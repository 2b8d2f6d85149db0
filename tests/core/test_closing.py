"""Closing: a with block closes the object; a subclass may leave differently on an error."""

from __future__ import annotations

import pytest

from searchlab.core.closing import Closing


class Recorder(Closing):
    def __init__(self) -> None:
        self.events: list[str] = []

    def close(self) -> None:
        self.events.append("close")


class Careful(Recorder):
    def _leave(self, *, failed: bool) -> None:
        self.events.append("terminate" if failed else "close")


def test_with_returns_the_object_and_closes_it() -> None:
    with Recorder() as recorder:
        assert recorder.events == []
    assert recorder.events == ["close"]


def test_an_error_in_the_block_still_closes_and_propagates() -> None:
    recorder = Recorder()
    with pytest.raises(RuntimeError), recorder:
        raise RuntimeError("boom")
    assert recorder.events == ["close"]


def test_a_subclass_sees_whether_the_block_failed() -> None:
    careful = Careful()
    with careful:
        pass
    with pytest.raises(KeyError), careful:
        raise KeyError("x")
    assert careful.events == ["close", "terminate"]


def test_close_must_be_written() -> None:
    class Nothing(Closing):
        pass

    with pytest.raises(TypeError):
        Nothing()  # type: ignore[abstract]

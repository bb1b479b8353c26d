"""Dashboards in a notebook: comm messages whose handlers overlap never leave the kernel's print swapped out."""

from __future__ import annotations

import sys
import threading
import time

import pyviz_comms

from laspoly.ui.app import Dashboard
from laspoly.ui.comms import OverlapSafeStandardOutput
from laspoly.ui.model import GameModel


def test_handlers_that_leave_in_the_order_they_came_put_the_stream_back() -> None:
    before = sys.stdout
    a, b = OverlapSafeStandardOutput(), OverlapSafeStandardOutput()
    a.__enter__()
    print("from a")
    b.__enter__()
    print("from b")
    a.__exit__(None, None, None)  # A leaves first, while B is still inside: pyviz_comms' own put A's buffer back here
    print("after a")
    b.__exit__(None, None, None)
    assert sys.stdout is before
    assert a == ["from a"] and b == ["from b", "after a"]  # nothing printed is lost


def test_two_dashboards_answering_one_key_press_at_once_leave_print_working() -> None:
    """Two dashboards in one process, each with its comm; their handlers overlap as on a kernel subshell."""
    dashboards = []
    for seed in (1, 2):
        m = GameModel()
        m.new_game(["Sam", "Ana"], ["person", "person"], seed=seed)
        dashboards.append(Dashboard(m))
    assert pyviz_comms.StandardOutput is OverlapSafeStandardOutput
    logged = [len(d.model.game.log) for d in dashboards]
    first_in, second_in = threading.Event(), threading.Event()
    threads: list[threading.Thread] = []
    printed: list[list[str]] = [[], []]

    def handler(k: int):  # type: ignore[no-untyped-def]
        def on_msg(msg: dict) -> None:
            if k == 0:
                first_in.set()
                second_in.wait(10)  # the second handler is inside too; this one leaves first
            else:
                first_in.wait(10)
                second_in.set()
                threads[0].join(10)
            dashboards[k].controls.keys.press = f"r {time.time()}"
            print(f"dashboard {k} rolled")
        return on_msg

    comms = [pyviz_comms.Comm(on_msg=handler(k), on_stdout=printed[k].extend) for k in (0, 1)]
    before = sys.stdout
    threads += [threading.Thread(target=comms[k]._handle_msg, args=({"comm_id": f"c{k}"},)) for k in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert sys.stdout is before, "print left writing into a comm handler's buffer"
    # one process-wide stream: a line may reach the other handler's buffer, but none is lost
    assert sorted(printed[0] + printed[1]) == ["dashboard 0 rolled", "dashboard 1 rolled"]
    assert [len(d.model.game.log) > n for d, n in zip(dashboards, logged, strict=True)] == [True, True]

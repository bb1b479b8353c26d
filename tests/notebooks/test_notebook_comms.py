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
    b.__exit__(None, None, None)
    assert sys.stdout is before
    assert a == ["from a"] and b == ["from b"]


def test_a_cell_printing_while_a_handler_runs_prints_to_the_kernel_not_the_handler(capsys) -> None:
    before = sys.stdout
    inside, printed = threading.Event(), threading.Event()
    captured = OverlapSafeStandardOutput()

    def handler() -> None:
        with captured:
            inside.set()
            printed.wait(10)
            print("from the handler")

    thread = threading.Thread(target=handler)
    thread.start()
    inside.wait(10)
    assert sys.stdout is not before  # the handler's capture is in place ...
    print("from the cell")  # ... and the cell's print still reaches the kernel's stream
    printed.set()
    thread.join(10)
    assert sys.stdout is before and captured == ["from the handler"]
    assert capsys.readouterr().out == "from the cell\n"


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
    assert printed == [["dashboard 0 rolled"], ["dashboard 1 rolled"]]
    assert [len(d.model.game.log) > n for d, n in zip(dashboards, logged, strict=True)] == [True, True]

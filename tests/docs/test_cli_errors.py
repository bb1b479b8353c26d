"""Every bad value of every command: exit status 2, a usage line and one error line, no traceback, no work done."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from laspoly.cli import main

MISSING_DIR = "/nonexistent/dir"

#: (command line, a word the error must contain).  ``{tmp}`` is an existing folder, ``{file}`` an existing file.
BAD = [
    # the rows of the newcomer's report
    ("landings --rolls 0", "--rolls"),
    ("landings --rolls -5", "--rolls"),
    (f"play --save {MISSING_DIR}/g.json", "does not exist"),
    (f"markov --csv {MISSING_DIR}/m.csv", "does not exist"),
    ("soak --games 0", "--games"),
    ("simulate --workers 0", "--workers"),
    ("simulate --players 3 --bots greedy,hotel", "3 players but 2 bots"),
    # play
    ("play --players 0", "2 to 8 players"),
    ("play --players 1", "2 to 8 players"),
    ("play --players 9", "2 to 8 players"),
    ("play --players four", "whole number"),
    ("play --players 2.5", "whole number"),
    ("play --names Ana", "2 to 8 players"),
    ("play --names A,B,C,D,E,F,G,H,I", "2 to 8 players"),
    ("play --names Ana,,Ben", "--names"),
    ("play --names Ana,ana", "differ"),
    ("play --players 3 --names Ana,Ben", "--players 3"),
    ("play --seed -1", "--seed"),
    (f"play --seed {2**63}", "--seed"),
    ("play --seed x", "whole number"),
    ("play --max-rounds 0", "--max-rounds"),
    ("play --max-rounds -3", "--max-rounds"),
    ("play --dice 7-7", "each die"),
    ("play --dice six", "two dice"),
    ("play --lang fr", "--lang"),
    ("play --variant monopoly", "--variant"),
    ("play --rule jail_exit=magic", "jail_exit"),
    ("play --rule start_money=-5", "start_money"),
    ("play --rule nonsense", "name=value"),
    ("play --rule teleport=yes", "unknown rule option"),
    ("play --save {tmp}", "folder"),
    ("play --frobnicate", "--frobnicate"),
    ("play --players", "expected one argument"),
    # replay, check, rules
    ("replay", "required"),
    (f"replay {MISSING_DIR}/g.json", "does not exist"),
    ("replay {tmp}", "not a file"),
    ("replay {file} --lang fr", "--lang"),
    (f"check {MISSING_DIR}/board.json", "does not exist"),
    ("check {tmp}", "not a file"),
    ("rules --variant monopoly", "--variant"),
    # markov and landings
    ("markov --csv {tmp}", "folder"),
    ("markov --train-target -1", "--train-target"),
    ("markov --train-target 3", "station"),
    ("markov --train-target x", "whole number"),
    ("markov --per week", "--per"),
    ("markov --prison-policy escape", "--prison-policy"),
    ("markov --seed 1", "--seed"),  # the exact chain has no randomness
    ("landings --rolls 2.5", "whole number"),
    (f"landings --rolls {10**10}", "--rolls"),
    ("landings --seed -1", "--seed"),
    (f"landings --csv {MISSING_DIR}/l.csv", "does not exist"),
    ("landings --train-target 41", "station"),
    # simulate and tournament
    ("simulate --games 0", "--games"),
    ("simulate --games -1", "--games"),
    ("simulate --games 100000000", "--games"),
    ("simulate --workers 65", "--workers"),
    ("simulate --workers -2", "--workers"),
    ("simulate --players 1", "2 to 8 players"),
    ("simulate --players 9", "2 to 8 players"),
    ("simulate --bots greedy", "2 to 8 players"),
    ("simulate --bots greedy,nobody", "unknown bot"),
    ("simulate --max-turns 0", "--max-turns"),
    ("simulate --seed -1", "--seed"),
    ("simulate --dask nowhere", "Dask"),
    ("simulate --dask tcp://host:0", "Dask"),
    ("simulate --dask tcp://host:99999", "Dask"),
    ("simulate --dask http://host:8786", "Dask"),
    (f"simulate --csv {MISSING_DIR}/s.csv", "does not exist"),
    ("tournament", "--bots"),
    ("tournament --bots greedy", "2 to 8 players"),
    ("tournament --bots greedy,nobody", "unknown bot"),
    ("tournament --bots a,b,c,d,e,f,g,h,i", "--bots"),
    ("tournament --bots greedy,hotel --games 0", "--games"),
    ("tournament --bots greedy,hotel --workers 0", "--workers"),
    ("tournament --bots greedy,hotel --max-turns -1", "--max-turns"),
    ("tournament --bots greedy,hotel --dask :8786", "Dask"),
    (f"tournament --bots greedy,hotel --csv {MISSING_DIR}/t.csv", "does not exist"),
    # soak and serve
    ("soak --games -1", "--games"),
    ("soak --workers 0", "--workers"),
    ("soak --seed -1", "--seed"),
    ("soak --fault meteor", "--fault"),
    ("serve --port 0", "--port"),
    ("serve --port 65536", "--port"),
    ("serve --port http", "whole number"),
    ("serve --allow-websocket-origin http://192.168.1.20:5006", "HOST:PORT"),
    # the top level
    ("", "required"),
    ("frobnicate", "invalid choice"),
]


def _argv(line: str, tmp: Path) -> list[str]:
    return line.replace("{tmp}", str(tmp)).replace("{file}", __file__).split()


@pytest.mark.parametrize(("line", "word"), BAD, ids=[line or "(nothing)" for line, _ in BAD])
def test_a_bad_value_is_one_error_line_and_status_2(line: str, word: str, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(_argv(line, tmp_path)) == 2
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert 1 <= len(lines) <= 2, err
    assert "Traceback" not in err and word in lines[-1], err
    assert lines[-1].startswith("laspoly"), err
    assert out == "", "no work is done before the arguments are checked"
    assert not list(tmp_path.iterdir()), "nothing is written"


def test_an_unknown_option_shows_the_usage_of_its_command(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["play", "--frobnicate"]) == 2
    usage, error = capsys.readouterr().err.splitlines()
    assert usage.startswith("usage: laspoly play ") and "laspoly play --help" in usage
    assert error == "laspoly play: error: unrecognized arguments: --frobnicate"


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_an_output_file_in_a_read_only_folder_is_refused_before_playing(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    tmp_path.chmod(0o500)
    try:
        assert main(["play", "--save", str(tmp_path / "g.json")]) == 2
    finally:
        tmp_path.chmod(0o700)
    assert "permission denied" in capsys.readouterr().err


def _laspoly(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "laspoly", *args], capture_output=True, text=True, timeout=timeout)


def test_the_installed_command_reports_a_bad_value_without_a_traceback() -> None:
    out = _laspoly("landings", "--rolls", "0")
    assert out.returncode == 2 and out.stdout == "" and "Traceback" not in out.stderr
    assert out.stderr.splitlines()[-1] == "laspoly landings: error: argument --rolls: 0 is too small: give 1 to 1000000000"


def test_an_unreachable_dask_scheduler_fails_within_seconds() -> None:
    start = time.perf_counter()
    out = _laspoly("simulate", "--games", "10", "--quiet", "--dask", "tcp://127.0.0.1:1")
    assert time.perf_counter() - start < 20
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.splitlines() == [
        "laspoly: error: no Dask scheduler answered at tcp://127.0.0.1:1 within 3 s; is it running? (`dask scheduler` starts one)"]


def test_serve_on_a_taken_port_fails_before_saying_serving() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        out = _laspoly("serve", "--port", port, "--address", "127.0.0.1")
    assert out.returncode == 2 and "Serving" not in out.stdout
    assert out.stderr.splitlines() == [
        f"laspoly: error: cannot listen on 127.0.0.1:{port}: Address already in use; "
        "is another server running there? Choose another --port"]


def test_serve_on_an_unknown_address_is_one_error_line(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["serve", "--address", "no-such-host.invalid"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and "cannot listen on no-such-host.invalid:5006" in err

"""AIP402's loop of several statements, run: the rewrite's results, their order, the names the loop
leaves and the exception it raises are the loop's (a fake model answers in place of the server)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).parent.parent / "fixtures" / "fixes"


def run(path: Path, answer: Any, data: list[dict[str, str]]) -> tuple[list[int] | None, str | None]:
    namespace: dict[str, Any] = {}
    exec(compile(path.read_text(), str(path), "exec"), namespace)
    namespace["query_model"] = answer  # the helper the function calls, looked up when it runs
    try:
        return namespace["generate_model_scores"](data, "model_response"), None
    except Exception as exc:  # the exception the loop raises, compared by type and message
        return None, f"{type(exc).__name__}: {exc}"


DATA = [{"model_response": f"answer {i}", "output": f"truth {i}"} for i in range(40)]


def answer(prompt: str) -> str:
    n = int(re.search(r"answer (\d+)", prompt).group(1))  # type: ignore[union-attr]
    return "not a number" if n % 7 == 3 else str(n * 3)


def failing(prompt: str) -> str:
    if "answer 17" in prompt:
        raise RuntimeError("the server went away")
    return answer(prompt)


@pytest.mark.parametrize("model", [answer, failing])
def test_the_pooled_loop_gives_the_loops_results_in_order(model: Any) -> None:
    before = run(FIXTURES / "AIP402_several_statements.in.py", model, DATA)
    after = run(FIXTURES / "AIP402_several_statements.out.py", model, DATA)
    assert after == before
    assert before[0] is not None or before[1] == "RuntimeError: the server went away"


def test_the_names_a_top_level_loop_leaves_are_the_loops() -> None:
    pages = {f"u{i}": "x" * i for i in range(30)}

    class Requests:
        RequestException = Exception

        @staticmethod
        def get(url: str, timeout: float) -> Any:
            return type("Response", (), {"text": pages[url]})()

    def leaves(path: Path) -> dict[str, Any]:
        code = path.read_text().replace("import requests\n", "")
        namespace: dict[str, Any] = {"requests": Requests, "urls": list(pages)}
        exec(compile(code, str(path), "exec"), namespace)
        return {k: v for k, v in namespace.items() if k in ("sizes", "i", "url", "name")}

    before, after = leaves(FIXTURES / "AIP402_unpacking.in.py"), leaves(FIXTURES / "AIP402_unpacking.out.py")
    assert after == before and list(after["sizes"]) == list(before["sizes"])
